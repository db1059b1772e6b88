/**
 * Typed access to the kafkajs 2.2.4 internals the adapter relies on. kafkajs
 * ships no types for `kafkajs/src/...`, so the few shapes used are declared
 * here; the modules come from the {@link KafkaJsInternals} handed in (sluice's
 * private copy of kafkajs, never the process-wide one).
 */

/** kafkajs' protocol decoder (`src/protocol/decoder.js`), reduced to what the produce v8 parser reads. */
export interface KafkaJsDecoder {
  readInt16(): number;
  readInt32(): number;
  readInt64(): { toString(): string };
  readString(): string | null;
  readArray<T>(reader: (decoder: KafkaJsDecoder) => T): T[];
}

/** A request definition as built by a `versions[n]` factory of a kafkajs request module. */
export interface KafkaJsProtocolRequest {
  request: { apiKey: number; apiVersion: number; apiName: string; [key: string]: unknown };
  response: { decode(raw: Buffer): Promise<unknown>; parse(data: unknown): Promise<unknown> };
  logResponseError?: boolean;
}

/** `kafkajs/src/protocol/requests/produce/index.js`: `versions` and `protocol` are read on every lookup. */
export interface KafkaJsRequestDefinitions {
  versions: string[];
  protocol: (options: { version: number }) => (args: Record<string, unknown>) => KafkaJsProtocolRequest;
}

/** The error entry shape kafkajs' `KafkaJSProtocolError` is built from. */
export interface KafkaJsErrorCodeEntry {
  type: string;
  code: number;
  retriable: boolean;
  message: string;
}

/** `kafkajs/src/protocol/error.js`. */
export interface KafkaJsProtocolErrorModule {
  errorCodes: KafkaJsErrorCodeEntry[];
  failure(code: number): boolean;
}

/** Constructor of kafkajs' `KafkaJSProtocolError` (`src/errors.js`). */
export type KafkaJsProtocolErrorCtor = new (entry: KafkaJsErrorCodeEntry) => Error & {
  type: string;
  code: number;
  retriable: boolean;
};

/** The kafkajs module graph the internals are read from: sluice's private copy (see `patches.ts`). */
export interface KafkaJsInternals {
  /** Loads a module below `kafkajs/src/`, e.g. `'protocol/decoder.js'`. */
  load<T>(path: string): T;
  /** Replaces the exports of a module below `kafkajs/src/` for the modules that require it later (absent on a copy that cannot). */
  replace?<T>(path: string, make: (original: T) => T): void;
}

/** The produce request definitions of that copy (one module object for every client made from it). */
export function produceRequests(internals: KafkaJsInternals): KafkaJsRequestDefinitions {
  return internals.load<KafkaJsRequestDefinitions>('protocol/requests/produce/index.js');
}

/** A new decoder over a response payload. */
export function newDecoder(internals: KafkaJsInternals, raw: Buffer): KafkaJsDecoder {
  const Decoder = internals.load<new (raw: Buffer) => KafkaJsDecoder>('protocol/decoder.js');
  return new Decoder(raw);
}

/** kafkajs' protocol error table. */
export function protocolErrors(internals: KafkaJsInternals): KafkaJsProtocolErrorModule {
  return internals.load<KafkaJsProtocolErrorModule>('protocol/error.js');
}

/** kafkajs' `KafkaJSProtocolError` class (the very one its retrier checks `retriable` on). */
export function kafkaJsProtocolErrorClass(internals: KafkaJsInternals): KafkaJsProtocolErrorCtor {
  return internals.load<{ KafkaJSProtocolError: KafkaJsProtocolErrorCtor }>('errors.js').KafkaJSProtocolError;
}
