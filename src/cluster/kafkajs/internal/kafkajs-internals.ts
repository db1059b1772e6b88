/**
 * Typed access to the kafkajs 2.2.4 internals the adapter relies on. kafkajs
 * ships no types for `kafkajs/src/...`, so the few shapes used are declared
 * here and the modules are loaded with `createRequire` (they are CommonJS).
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

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

/** Loads a module below `kafkajs/src/`. */
function loadInternal<T>(path: string): T {
  return require(`kafkajs/src/${path}`) as T;
}

/** The shared produce request definitions (one module object for every kafkajs client of the process). */
export function produceRequests(): KafkaJsRequestDefinitions {
  return loadInternal<KafkaJsRequestDefinitions>('protocol/requests/produce/index.js');
}

/** A new decoder over a response payload. */
export function newDecoder(raw: Buffer): KafkaJsDecoder {
  const Decoder = loadInternal<new (raw: Buffer) => KafkaJsDecoder>('protocol/decoder.js');
  return new Decoder(raw);
}

/** kafkajs' protocol error table. */
export function protocolErrors(): KafkaJsProtocolErrorModule {
  return loadInternal<KafkaJsProtocolErrorModule>('protocol/error.js');
}

/** kafkajs' `KafkaJSProtocolError` class (the very one its retrier checks `retriable` on). */
export function kafkaJsProtocolErrorClass(): KafkaJsProtocolErrorCtor {
  return loadInternal<{ KafkaJSProtocolError: KafkaJsProtocolErrorCtor }>('errors.js').KafkaJSProtocolError;
}
