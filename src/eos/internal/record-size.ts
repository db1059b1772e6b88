/**
 * Conversion of a {@link ProducerRecord} to wire form and an upper-bound
 * estimate of its Kafka v2 record encoding size.
 *
 * v2 record: length(varint) attributes(1) timestampDelta(varlong)
 * offsetDelta(varint) keyLength(varint) key valueLength(varint) value
 * headerCount(varint) [keyLength key valueLength value]*.
 * A record batch adds a fixed 61-byte header.
 */
import type { WireRecord } from '../../records/types.js';
import { SerializationError } from '../../errors.js';
import type { ProducerRecord } from '../producer-types.js';
import { RECORD_BATCH_HEADER_SIZE, sizeOfVarint } from '../../records/record-batch-encoder.js';

/** Fixed size of a v2 record batch header (the shared encoder's). */
export const RECORD_BATCH_OVERHEAD = RECORD_BATCH_HEADER_SIZE;

/** Bytes of a zig-zag varint for `value` (the shared encoder's sizing). */
export const varintSize = sizeOfVarint;

function bytesOf(
  value: unknown,
  topic: string,
  origin: 'KEY' | 'VALUE',
  what: string,
): Buffer | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  if (Buffer.isBuffer(value)) return value;
  throw new SerializationError(
    `Cannot serialize the ${what} of a record for topic '${topic}': expected string, Buffer or null, got ${describeType(value)}`,
    { origin, topic },
  );
}

function describeType(value: unknown): string {
  if (typeof value !== 'object') return typeof value;
  return (value as object).constructor?.name ?? 'object';
}

/** The headers of a wire record without headers: one shared, frozen object (nothing to allocate per record). */
const NO_HEADERS: Record<string, Buffer | null> = Object.freeze({}) as Record<string, Buffer | null>;

/**
 * Converts a record to its wire form (UTF-8 for strings).
 * Throws `SerializationError` (record-level) for a key, value or header of another type.
 */
export function toWireRecord(record: ProducerRecord, now: number): WireRecord {
  const key = bytesOf(record.key, record.topic, 'KEY', 'key');
  const value = bytesOf(record.value, record.topic, 'VALUE', 'value');
  let headers: Record<string, Buffer | null> = NO_HEADERS;
  const given = record.headers;
  if (given) {
    for (const name in given) {
      if (!Object.prototype.hasOwnProperty.call(given, name)) continue;
      if (headers === NO_HEADERS) headers = {};
      // A null header value stays null (Kafka writes its length as -1).
      headers[name] = bytesOf(given[name], record.topic, 'VALUE', `header '${name}'`);
    }
  }
  const ts = record.timestamp;
  if (ts !== undefined && (typeof ts !== 'number' || !Number.isFinite(ts))) {
    throw new SerializationError(`Record timestamp for topic '${record.topic}' must be a finite number, got ${String(ts)}`, {
      origin: 'VALUE',
      topic: record.topic,
    });
  }
  return { key, value, headers, timestamp: ts ?? now };
}

/**
 * Upper bound of the encoded size of one record inside a batch (worst-case
 * deltas: 10-byte timestamp delta, 5-byte offset delta).
 */
export function recordSizeUpperBound(r: WireRecord, worstCaseDeltas = true): number {
  const deltas = worstCaseDeltas ? 10 + 5 : 1 + 1;
  const keyLen = r.key === null ? -1 : r.key.length;
  const valueLen = r.value === null ? -1 : r.value.length;
  let body = 1 + deltas + varintSize(keyLen) + Math.max(keyLen, 0) + varintSize(valueLen) + Math.max(valueLen, 0);
  const names = Object.keys(r.headers);
  body += varintSize(names.length);
  for (const name of names) {
    const k = Buffer.byteLength(name, 'utf8');
    const v = r.headers[name]?.length ?? -1;
    body += varintSize(k) + k + varintSize(v) + Math.max(v, 0);
  }
  return varintSize(body) + body;
}

/** Exact size of a batch holding only this record: what a broker compares to `max.message.bytes`. */
export function singleRecordBatchSize(r: WireRecord): number {
  return RECORD_BATCH_OVERHEAD + recordSizeUpperBound(r, false);
}
