/**
 * Produce v8 (KIP-467) for kafkajs 2.2.4, registered at run time on sluice's
 * private copy of kafkajs (`patches.ts`).
 *
 * kafkajs speaks Produce v0–v7 and never decodes `record_errors`. Its request
 * lookup (`protocol/requests/index.js` `lookup`) takes, on every request,
 * `min(max(definition.versions), broker maxVersion)` and calls
 * `definition.protocol({ version })`; both are read from the module object
 * `kafkajs/src/protocol/requests/produce/index.js` of the copy. Adding `'8'`
 * to `versions` and wrapping `protocol` therefore makes every client made from
 * that copy (sluice's, no one else's) send Produce v8 to brokers that support
 * it (Kafka ≥ 2.4).
 *
 * v8 is not a flexible version (those start at v9): the request is byte-for-byte
 * the v7 request with `apiVersion: 8`; the response adds, per partition,
 * `record_errors [batch_index int32, batch_index_error_message nullable string]`
 * and `error_message nullable string` after `log_start_offset`.
 *
 * The parser throws, for the first failed partition, kafkajs' own
 * `KafkaJSProtocolError` (so kafkajs' retrier and stale-metadata checks keep
 * working) carrying the extra fields of {@link ProduceV8ErrorFields}.
 */
import { kafkaErrorName } from '../../../errors.js';
import { asEncoder, encodeProduceBody, type KafkaJsProduceArgs } from './produce-request.js';
import {
  kafkaJsProtocolErrorClass,
  newDecoder,
  produceRequests,
  protocolErrors,
  type KafkaJsDecoder,
  type KafkaJsErrorCodeEntry,
  type KafkaJsInternals,
  type KafkaJsProtocolRequest,
} from './kafkajs-internals.js';

/** The Produce API version this module adds. */
export const PRODUCE_V8 = 8;

/** Fields attached to the error thrown for a failed partition of a Produce v8 response. */
export interface ProduceV8ErrorFields {
  /** Always true: marks an error decoded by this module. */
  sluiceProduceV8: true;
  topic: string;
  partition: number;
  /** Per-record errors of the rejected batch (`record_errors`). */
  recordErrors: Array<{ batchIndex: number; message: string | null }>;
  /** The partition's `error_message`. */
  errorMessage: string | null;
}

/** One decoded partition response of Produce v8. */
interface PartitionResponseV8 {
  partition: number;
  errorCode: number;
  baseOffset: string;
  logAppendTime: string;
  logStartOffset: string;
  recordErrors: Array<{ batchIndex: number; message: string | null }>;
  errorMessage: string | null;
}

/** Decoded Produce v8 response, shaped like kafkajs' v7 decode (which its response serializer reads). */
interface ProduceResponseV8 {
  topics: Array<{ topicName: string; partitions: PartitionResponseV8[] }>;
  throttleTime: number;
  clientSideThrottleTime: number;
}

const decodePartition = (decoder: KafkaJsDecoder): PartitionResponseV8 => ({
  partition: decoder.readInt32(),
  errorCode: decoder.readInt16(),
  baseOffset: decoder.readInt64().toString(),
  logAppendTime: decoder.readInt64().toString(),
  logStartOffset: decoder.readInt64().toString(),
  recordErrors: decoder.readArray((d) => ({ batchIndex: d.readInt32(), message: d.readString() })),
  errorMessage: decoder.readString(),
});

/** Decodes a Produce v8 response body. */
export async function decodeProduceV8(internals: KafkaJsInternals, raw: Buffer): Promise<ProduceResponseV8> {
  const decoder = newDecoder(internals, raw);
  const topics = decoder.readArray((d) => ({
    topicName: d.readString() ?? '',
    partitions: d.readArray(decodePartition),
  }));
  const throttleTime = decoder.readInt32();
  // v6+: the broker answers before throttling, the client throttles itself (KIP-219), as kafkajs' v6 decode does.
  return { topics, throttleTime: 0, clientSideThrottleTime: throttleTime };
}

/** kafkajs' error-table entry for a code, or a non-retriable entry named after sluice's table. */
function errorEntry(internals: KafkaJsInternals, code: number): KafkaJsErrorCodeEntry {
  const known = protocolErrors(internals).errorCodes.find((e) => e.code === code);
  if (known) return known;
  const type = kafkaErrorName(code);
  return { type, code, retriable: false, message: `${type} (${code})` };
}

/**
 * Throws, for the first failed partition, a `KafkaJSProtocolError` carrying
 * {@link ProduceV8ErrorFields}; returns the response unchanged otherwise.
 */
export async function parseProduceV8(internals: KafkaJsInternals, data: ProduceResponseV8): Promise<ProduceResponseV8> {
  for (const topic of data.topics) {
    for (const p of topic.partitions) {
      if (p.errorCode === 0) continue;
      const KafkaJSProtocolError = kafkaJsProtocolErrorClass(internals);
      const entry = errorEntry(internals, p.errorCode);
      const suffix = p.errorMessage ? `: ${p.errorMessage}` : '';
      const error = new KafkaJSProtocolError({ ...entry, message: `${entry.message}${suffix}` });
      const fields: ProduceV8ErrorFields = {
        sluiceProduceV8: true,
        topic: topic.topicName,
        partition: p.partition,
        recordErrors: p.recordErrors,
        errorMessage: p.errorMessage,
      };
      throw Object.assign(error, fields);
    }
  }
  return data;
}

const PATCHED = Symbol.for('sluice.kafkajs.produceV8');

/**
 * Registers Produce v8 on the produce request module of `internals` (sluice's
 * private kafkajs). Idempotent: a second call changes nothing.
 */
export function registerProduceV8(internals: KafkaJsInternals): void {
  const definitions = produceRequests(internals) as ReturnType<typeof produceRequests> & { [PATCHED]?: true };
  if (definitions[PATCHED]) return;
  // 1. The v8 request is the v7 request with another version number; the body is encoded by sluice's
  //    record-batch encoder (`produce-request.ts`: the same bytes, far less garbage; every codec).
  const requestV7 = internals.load<(
    args: Record<string, unknown>,
  ) => KafkaJsProtocolRequest['request']>('protocol/requests/produce/v7/request.js');
  const v8 = (args: Record<string, unknown>): KafkaJsProtocolRequest => ({
    request: {
      ...requestV7(args),
      apiVersion: PRODUCE_V8,
      // kafkajs hands a request's arguments untyped (Record<string, unknown>); these are the Produce request's
      encode: () => Promise.resolve().then(() => asEncoder(encodeProduceBody(args as unknown as KafkaJsProduceArgs))),
    },
    response: {
      decode: (raw) => decodeProduceV8(internals, raw),
      parse: (data) => parseProduceV8(internals, data as ProduceResponseV8),
    },
  });
  // 2. Wrap `protocol` so version 8 resolves to it; other versions are unchanged.
  const original = definitions.protocol;
  definitions.protocol = ({ version }) => (Number(version) === PRODUCE_V8 ? v8 : original({ version }));
  // 3. Advertise it: lookup picks min(max(versions), broker max).
  if (!definitions.versions.includes(String(PRODUCE_V8))) definitions.versions.push(String(PRODUCE_V8));
  definitions[PATCHED] = true;
}

/** True when `error` was thrown by the v8 parser (it carries record errors and the error message). */
export function isProduceV8Error(error: unknown): error is Error & ProduceV8ErrorFields & { code: number; type: string } {
  return typeof error === 'object' && error !== null && (error as { sluiceProduceV8?: unknown }).sluiceProduceV8 === true;
}
