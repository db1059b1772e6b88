/**
 * The one encoder of Kafka v2 record batches (magic 2, KIP-98), shared by both
 * backends: the embedded cluster's producer and the Produce requests sluice
 * sends to a real broker through kafkajs.
 *
 * One pass, one allocation: 1. size every record; 2. allocate the batch; 3.
 * write the header and the records (zig-zag varints, as Kafka's
 * `DefaultRecord`); 4. CRC32C over attributes..end (`crc32c.ts`).
 * A compressed batch (`header.compression`, `compression.ts`) writes the
 * records into their own buffer in 3, compresses it and allocates the batch
 * around the compressed bytes (codec id in attributes bits 0-2; the CRC covers
 * the compressed form, as Kafka's `MemoryRecordsBuilder`). Without compression
 * nothing is copied.
 *
 * Layout: baseOffset int64, batchLength int32, partitionLeaderEpoch int32,
 * magic int8, crc uint32, attributes int16, lastOffsetDelta int32,
 * baseTimestamp int64, maxTimestamp int64, producerId int64, producerEpoch
 * int16, baseSequence int32, recordCount int32, records.
 * A record: length varint, attributes int8 (0), timestampDelta varlong,
 * offsetDelta varint, key (varint length, -1 for null), value (same),
 * header count varint, headers (key: varint length + UTF-8, value: varint
 * length + bytes, -1 for null).
 */
import { compressionCodecId, compressRecords, type CompressionType } from './compression.js';
import { crc32c } from './crc32c.js';

/** Bytes before the first record (the batch header). */
export const RECORD_BATCH_HEADER_SIZE = 61;
/** Offset of the CRC field; the CRC covers everything after it. */
const CRC_OFFSET = 17;
const ATTRIBUTES_OFFSET = 21;
/** The codec bits of the attributes. */
const COMPRESSION_BITS = 0x07;

/** A header value as the encoder takes it (several values per key as an array, as kafkajs allows). */
export type EncodableHeaderValue = Buffer | string | null | undefined;

/** One record to encode. Keys and values may be strings (UTF-8), as kafkajs' encoder accepts. */
export interface EncodableRecord {
  key: Buffer | string | null | undefined;
  value: Buffer | string | null | undefined;
  headers?: Record<string, EncodableHeaderValue | EncodableHeaderValue[]> | undefined;
  /** CreateTime in ms (a numeric string is accepted, as kafkajs messages carry it). */
  timestamp: number | string;
}

/** The batch header fields a producer chooses. */
export interface RecordBatchHeader {
  baseOffset?: number;
  /** kafkajs writes 0, Java clients -1; the broker sets it on append. */
  partitionLeaderEpoch?: number;
  /** Attribute bits (transactional 0x10, control 0x20, ...); the codec bits come from `compression`. */
  attributes?: number;
  /** Codec of the records section (default `'none'`); zstd needs `loadCompression('zstd')` first. */
  compression?: CompressionType;
  producerId?: bigint | number;
  producerEpoch?: number;
  baseSequence?: number;
  /** Timestamp deltas are taken from this (default: the smallest record timestamp). */
  baseTimestamp?: number;
}

const bytesOf = (v: Buffer | string | null | undefined): Buffer | null =>
  v === null || v === undefined ? null : Buffer.isBuffer(v) ? v : Buffer.from(String(v), 'utf8');

/** Size of a zig-zag varint/varlong of `v` (|v| < 2^52). */
export function sizeOfVarint(v: number): number {
  let z = v >= 0 ? v * 2 : -v * 2 - 1;
  let size = 1;
  while (z >= 128) {
    z = Math.floor(z / 128);
    size++;
  }
  return size;
}

function writeVarint(buf: Buffer, at: number, v: number): number {
  let z = v >= 0 ? v * 2 : -v * 2 - 1;
  if (z < 0x80000000) {
    while (z >= 0x80) {
      buf[at++] = (z & 0x7f) | 0x80;
      z >>>= 7;
    }
    buf[at++] = z;
    return at;
  }
  while (z >= 0x80) {
    buf[at++] = (z % 128) | 0x80;
    z = Math.floor(z / 128);
  }
  buf[at++] = z;
  return at;
}

interface Prepared {
  key: Buffer | null;
  value: Buffer | null;
  headers: ReadonlyArray<[Buffer, Buffer | null]>;
  timestampDelta: number;
  bodySize: number;
}

const NO_HEADERS: ReadonlyArray<[Buffer, Buffer | null]> = Object.freeze([]);

function headerList(headers: EncodableRecord['headers']): ReadonlyArray<[Buffer, Buffer | null]> {
  if (!headers) return NO_HEADERS;
  let list: Array<[Buffer, Buffer | null]> | undefined;
  for (const name in headers) {
    if (!Object.prototype.hasOwnProperty.call(headers, name)) continue;
    list ??= [];
    const raw = headers[name];
    const key = Buffer.from(name, 'utf8');
    if (Array.isArray(raw)) for (const v of raw) list.push([key, bytesOf(v)]);
    else list.push([key, bytesOf(raw)]);
  }
  return list ?? NO_HEADERS;
}

const sizeOfBytes = (b: Buffer | null): number => (b === null ? 1 : sizeOfVarint(b.length) + b.length);

function writeBytes(buf: Buffer, at: number, b: Buffer | null): number {
  if (b === null) return writeVarint(buf, at, -1);
  at = writeVarint(buf, at, b.length);
  b.copy(buf, at);
  return at + b.length;
}

/** Writes the records (offset deltas 0..n-1) from `at`; returns the end. */
function writeRecords(buf: Buffer, at: number, prepared: readonly Prepared[]): number {
  for (let i = 0; i < prepared.length; i++) {
    const p = prepared[i] as Prepared;
    at = writeVarint(buf, at, p.bodySize);
    buf[at++] = 0;
    at = writeVarint(buf, at, p.timestampDelta);
    at = writeVarint(buf, at, i);
    at = writeBytes(buf, at, p.key);
    at = writeBytes(buf, at, p.value);
    at = writeVarint(buf, at, p.headers.length);
    for (const [k, v] of p.headers) {
      at = writeBytes(buf, at, k);
      at = writeBytes(buf, at, v);
    }
  }
  return at;
}

/**
 * Encodes one v2 batch with offset deltas 0..n-1 and its CRC, its records
 * compressed with `header.compression` (default none).
 * `records` must not be empty.
 */
export function encodeRecordBatch(records: readonly EncodableRecord[], header: RecordBatchHeader = {}): Buffer {
  // 1. size the records
  let baseTimestamp = header.baseTimestamp ?? Number.POSITIVE_INFINITY;
  let maxTimestamp = Number.NEGATIVE_INFINITY;
  for (const r of records) {
    const ts = Number(r.timestamp);
    if (header.baseTimestamp === undefined && ts < baseTimestamp) baseTimestamp = ts;
    if (ts > maxTimestamp) maxTimestamp = ts;
  }
  const prepared: Prepared[] = new Array<Prepared>(records.length);
  let total = RECORD_BATCH_HEADER_SIZE;
  for (let i = 0; i < records.length; i++) {
    const r = records[i] as EncodableRecord;
    const key = bytesOf(r.key);
    const value = bytesOf(r.value);
    const headers = headerList(r.headers);
    const timestampDelta = Number(r.timestamp) - baseTimestamp;
    let bodySize = 1 + sizeOfVarint(timestampDelta) + sizeOfVarint(i) + sizeOfBytes(key) + sizeOfBytes(value) + sizeOfVarint(headers.length);
    for (const [k, v] of headers) bodySize += sizeOfBytes(k) + sizeOfBytes(v);
    prepared[i] = { key, value, headers, timestampDelta, bodySize };
    total += sizeOfVarint(bodySize) + bodySize;
  }
  // 2.-3. one buffer with the records, or the compressed records in a buffer of their own first
  const compression = header.compression ?? 'none';
  let buf: Buffer;
  if (compression === 'none') {
    buf = Buffer.allocUnsafe(total);
    writeRecords(buf, RECORD_BATCH_HEADER_SIZE, prepared);
  } else {
    const plain = Buffer.allocUnsafe(total - RECORD_BATCH_HEADER_SIZE);
    writeRecords(plain, 0, prepared);
    const compressed = compressRecords(compression, plain);
    total = RECORD_BATCH_HEADER_SIZE + compressed.length;
    buf = Buffer.allocUnsafe(total);
    compressed.copy(buf, RECORD_BATCH_HEADER_SIZE);
  }
  // 3. the header
  buf.writeBigInt64BE(BigInt(header.baseOffset ?? 0), 0);
  buf.writeInt32BE(total - 12, 8);
  buf.writeInt32BE(header.partitionLeaderEpoch ?? -1, 12);
  buf.writeInt8(2, 16);
  buf.writeInt16BE(((header.attributes ?? 0) & ~COMPRESSION_BITS) | compressionCodecId(compression), ATTRIBUTES_OFFSET);
  buf.writeInt32BE(Math.max(records.length - 1, 0), 23);
  buf.writeBigInt64BE(BigInt(records.length ? baseTimestamp : -1), 27);
  buf.writeBigInt64BE(BigInt(records.length ? maxTimestamp : -1), 35);
  buf.writeBigInt64BE(BigInt(header.producerId ?? -1), 43);
  buf.writeInt16BE(header.producerEpoch ?? -1, 51);
  buf.writeInt32BE(header.baseSequence ?? -1, 53);
  buf.writeInt32BE(records.length, 57);
  // 4. CRC
  buf.writeUInt32BE(crc32c(buf.subarray(ATTRIBUTES_OFFSET)), CRC_OFFSET);
  return buf;
}
