/**
 * One entry of the suppression buffer (Kafka's `BufferValue` +
 * `ProcessorRecordContext`): the serialized prior, old and new value of a
 * key and the context of the record that last updated it; its changelog
 * encoding and Kafka's memory estimate (which `BufferConfig.maxBytes`
 * bounds).
 *
 * Changelog value layout (version 1, big-endian):
 * `u8 version | i64 bufferTime | i64 timestamp | i64 offset | i32 partition |
 *  i32 topicLength (-1: none) | topic | i32 headersLength | headers JSON |
 *  3 × (i32 length (-1: null) | bytes)` for prior, old and new value.
 */
import { IllegalStateError } from '../../errors.js';
import type { Headers } from '../../records/types.js';

/** The context of the record that last updated a buffered key. */
export interface BufferRecordContext {
  readonly timestamp: number;
  readonly offset: number;
  readonly topic: string | null;
  readonly partition: number;
  readonly headers: Headers;
}

/** A buffered key's serialized values; `prior` is the value before its first held update (the suppressed view). */
export interface BufferValue {
  readonly prior: Buffer | null;
  readonly old: Buffer | null;
  readonly new: Buffer | null;
  readonly context: BufferRecordContext;
}

/** A buffer value; `prior` equal to `old` shares its bytes (so the size estimate counts them once, as Kafka). */
export function bufferValue(prior: Buffer | null, old: Buffer | null, value: Buffer | null, context: BufferRecordContext): BufferValue {
  const shared = prior !== null && old !== null && prior.equals(old) ? old : prior;
  return { prior: shared, old, new: value, context };
}

/** Kafka's `ProcessorRecordContext.residentMemorySizeEstimate`. */
function contextSize(context: BufferRecordContext): number {
  let size = 8 + 8; // timestamp, offset
  if (context.topic !== null) size += context.topic.length;
  size += 4; // partition
  for (const [key, value] of Object.entries(context.headers)) {
    size += key.length;
    if (value !== null) size += typeof value === 'string' ? Buffer.byteLength(value) : value.length;
  }
  return size;
}

/** Kafka's `computeRecordSize`: buffer time + key + `BufferValue.residentMemorySizeEstimate`. */
export function recordSize(key: Buffer, value: BufferValue): number {
  return (
    8 +
    key.length +
    (value.prior?.length ?? 0) +
    (value.old === null || value.prior === value.old ? 0 : value.old.length) +
    (value.new?.length ?? 0) +
    contextSize(value.context)
  );
}

const VERSION = 1;

function headersJson(headers: Headers): string {
  const plain: Record<string, { s: string } | { b: string } | null> = {};
  for (const [key, value] of Object.entries(headers)) plain[key] = value === null ? null : typeof value === 'string' ? { s: value } : { b: value.toString('base64') };
  return JSON.stringify(plain);
}

function parseHeaders(json: string): Headers {
  const plain = JSON.parse(json) as Record<string, { s?: string; b?: string } | null>;
  const headers: Headers = {};
  for (const [key, value] of Object.entries(plain)) headers[key] = value === null ? null : (value.s ?? Buffer.from(value.b ?? '', 'base64'));
  return headers;
}

/** The changelog value of a buffered entry. */
export function encodeBufferValue(bufferTime: number, value: BufferValue): Buffer {
  const topic = value.context.topic === null ? null : Buffer.from(value.context.topic);
  const headers = Buffer.from(headersJson(value.context.headers));
  const parts = [value.prior, value.old, value.new];
  const size = 1 + 8 * 3 + 4 + 4 + (topic?.length ?? 0) + 4 + headers.length + parts.reduce((n, p) => n + 4 + (p?.length ?? 0), 0);
  const out = Buffer.alloc(size);
  let at = out.writeUInt8(VERSION, 0);
  at = out.writeBigInt64BE(BigInt(bufferTime), at);
  at = out.writeBigInt64BE(BigInt(value.context.timestamp), at);
  at = out.writeBigInt64BE(BigInt(value.context.offset), at);
  at = out.writeInt32BE(value.context.partition, at);
  for (const bytes of [topic, headers, ...parts]) {
    at = out.writeInt32BE(bytes === null ? -1 : bytes.length, at);
    if (bytes !== null) at += bytes.copy(out, at);
  }
  return out;
}

/** Reads a changelog value written by {@link encodeBufferValue}. */
export function decodeBufferValue(data: Buffer, storeName: string): { bufferTime: number; value: BufferValue } {
  if (data.length < 1 || data.readUInt8(0) !== VERSION) {
    throw new IllegalStateError(`Suppression buffer '${storeName}': a changelog record has an unknown format (version ${data.length > 0 ? data.readUInt8(0) : 'none'}); the changelog was not written by this version of sluice`);
  }
  let at = 1;
  const long = (): number => {
    const v = Number(data.readBigInt64BE(at));
    at += 8;
    return v;
  };
  const bytes = (): Buffer | null => {
    const length = data.readInt32BE(at);
    at += 4;
    if (length < 0) return null;
    const slice = Buffer.from(data.subarray(at, at + length));
    at += length;
    return slice;
  };
  const bufferTime = long();
  const timestamp = long();
  const offset = long();
  const partition = data.readInt32BE(at);
  at += 4;
  const topic = bytes();
  const headers = parseHeaders((bytes() ?? Buffer.from('{}')).toString());
  const [prior, old, value] = [bytes(), bytes(), bytes()];
  return { bufferTime, value: bufferValue(prior, old, value, { timestamp, offset, topic: topic?.toString() ?? null, partition, headers }) };
}
