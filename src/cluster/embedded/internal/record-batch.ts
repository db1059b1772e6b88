/**
 * Kafka v2 record batches (magic 2) as bytes: encoder and decoder.
 *
 * Layout (KIP-98): baseOffset int64, batchLength int32, partitionLeaderEpoch
 * int32, magic int8, crc uint32 (CRC32C over attributes..end), attributes int16,
 * lastOffsetDelta int32, baseTimestamp int64, maxTimestamp int64, producerId
 * int64, producerEpoch int16, baseSequence int32, recordCount int32, records.
 */
import { ByteReader, ByteWriter } from './bytes.js';
import { COMPRESSION_CODEC_MASK, compressionCodecId, compressionTypeOfId, compressRecords, decompressRecords, type CompressionType } from '../../../records/compression.js';
import { crc32c } from '../../../records/crc32c.js';
import { encodeRecordBatch } from '../../../records/record-batch-encoder.js';

/** Compression codecs (attribute bits 0-2), as `src/records/compression.ts` numbers them. */
export const Compression = { NONE: 0, GZIP: 1, SNAPPY: 2, LZ4: 3, ZSTD: 4 } as const;
/** Mask of the compression bits. */
export const COMPRESSION_MASK = COMPRESSION_CODEC_MASK;

/** Attribute bits of a v2 batch. */
export const BatchAttr = { TIMESTAMP_LOG_APPEND: 0x08, TRANSACTIONAL: 0x10, CONTROL: 0x20 } as const;
/** `producerId` of a batch without one. */
export const NO_PRODUCER_ID = -1;
/** `producerEpoch` of a batch without one. */
export const NO_PRODUCER_EPOCH = -1;
/** `baseSequence` of a batch without one. */
export const NO_SEQUENCE = -1;
/** Bytes before the first record (the batch header). */
export const BATCH_HEADER_SIZE = 61;
/** Offset of the magic byte inside a batch. */
export const MAGIC_OFFSET = 16;
/** Offset of the CRC field; the CRC covers everything from `CRC_OFFSET + 4`. */
export const CRC_OFFSET = 17;

/** A record header as stored (key string, value bytes or null). */
export interface RecordHeader {
  key: string;
  value: Buffer | null;
}

/** One record of a batch. */
export interface BatchRecord {
  attributes: number;
  timestampDelta: number;
  offsetDelta: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: RecordHeader[];
}

/** A decoded (or to-be-encoded) batch. */
export interface RecordBatch {
  baseOffset: number;
  partitionLeaderEpoch: number;
  magic: number;
  /** Stored CRC (decoded batches only; the encoder computes it). */
  crc: number;
  attributes: number;
  lastOffsetDelta: number;
  baseTimestamp: number;
  maxTimestamp: number;
  producerId: number;
  producerEpoch: number;
  baseSequence: number;
  /** The count declared in the header. */
  recordCount: number;
  records: BatchRecord[];
  /** Total encoded size in bytes. */
  sizeInBytes: number;
}

/** True when the transactional bit is set. */
export const isTransactional = (b: Pick<RecordBatch, 'attributes'>): boolean => (b.attributes & BatchAttr.TRANSACTIONAL) !== 0;
/** True when the control bit is set. */
export const isControl = (b: Pick<RecordBatch, 'attributes'>): boolean => (b.attributes & BatchAttr.CONTROL) !== 0;
/** Offset of the last record of the batch. */
export const lastOffset = (b: Pick<RecordBatch, 'baseOffset' | 'lastOffsetDelta'>): number => b.baseOffset + b.lastOffsetDelta;

/** What a producer puts into a batch. */
export interface NewBatch {
  baseOffset?: number;
  attributes?: number;
  producerId?: number;
  producerEpoch?: number;
  baseSequence?: number;
  partitionLeaderEpoch?: number;
  /** Compress the records section with gzip (sets the codec bits); the same as `compression: 'gzip'`. */
  gzip?: boolean;
  /** Codec of the records section (sets the codec bits); zstd needs `loadCompression('zstd')` first. */
  compression?: CompressionType;
  records: { key: Buffer | null; value: Buffer | null; headers?: RecordHeader[]; timestamp: number; /** Override (tests of invalid batches); default the index. */ offsetDelta?: number }[];
}

function encodeRecord(r: BatchRecord): Buffer {
  const body = new ByteWriter()
    .int8(r.attributes)
    .varint(r.timestampDelta)
    .varint(r.offsetDelta)
    .varBytes(r.key)
    .varBytes(r.value)
    .varint(r.headers.length);
  for (const h of r.headers) body.varBytes(Buffer.from(h.key, 'utf8')).varBytes(h.value);
  const bytes = body.toBuffer();
  return new ByteWriter().varint(bytes.length).bytes(bytes).toBuffer();
}

/** True when no header key repeats (the shared encoder takes headers as an object). */
const uniqueHeaderKeys = (headers: RecordHeader[] | undefined): boolean => !headers || new Set(headers.map((h) => h.key)).size === headers.length;

/** Stored headers as the shared encoder takes them. */
function headersOf(headers: RecordHeader[] | undefined): Record<string, Buffer | null> | undefined {
  if (!headers || headers.length === 0) return undefined;
  return Object.fromEntries(headers.map((h) => [h.key, h.value]));
}

/**
 * Encodes a batch with magic 2, offsets deltas 0..n-1 and a correct CRC.
 * Steps: 1. encode records relative to the first timestamp; 2. write the
 * header after the CRC; 3. compute CRC32C over it; 4. prepend offset, length,
 * leader epoch, magic and CRC.
 */
export function encodeBatch(batch: NewBatch): Buffer {
  const compression: CompressionType = batch.gzip ? 'gzip' : (batch.compression ?? 'none');
  // Batches with the usual offset deltas: the shared encoder (the one both backends send with).
  const usual = batch.records.length > 0 && batch.records.every((r, i) => (r.offsetDelta === undefined || r.offsetDelta === i) && uniqueHeaderKeys(r.headers));
  if (usual) {
    return encodeRecordBatch(
      batch.records.map((r) => ({ key: r.key, value: r.value, timestamp: r.timestamp, headers: headersOf(r.headers) })),
      { ...batch, compression, baseSequence: batch.baseSequence ?? NO_SEQUENCE, producerId: batch.producerId ?? NO_PRODUCER_ID, producerEpoch: batch.producerEpoch ?? NO_PRODUCER_EPOCH },
    );
  }
  // 1. records
  const baseTimestamp = batch.records.length ? Math.min(...batch.records.map((r) => r.timestamp)) : -1;
  const maxTimestamp = batch.records.length ? Math.max(...batch.records.map((r) => r.timestamp)) : -1;
  const records = batch.records.map((r, i) =>
    encodeRecord({ attributes: 0, timestampDelta: r.timestamp - baseTimestamp, offsetDelta: r.offsetDelta ?? i, key: r.key, value: r.value, headers: r.headers ?? [] }),
  );
  // 2. header after the CRC
  const afterCrc = new ByteWriter()
    .int16((batch.attributes ?? 0) | compressionCodecId(compression))
    .int32(Math.max(records.length - 1, 0))
    .int64(baseTimestamp)
    .int64(maxTimestamp)
    .int64(batch.producerId ?? NO_PRODUCER_ID)
    .int16(batch.producerEpoch ?? NO_PRODUCER_EPOCH)
    .int32(batch.baseSequence ?? NO_SEQUENCE)
    .int32(records.length);
  afterCrc.bytes(compression === 'none' ? Buffer.concat(records) : compressRecords(compression, Buffer.concat(records)));
  const tail = afterCrc.toBuffer();
  // 3. CRC
  const crc = crc32c(tail);
  // 4. prefix
  return new ByteWriter()
    .int64(batch.baseOffset ?? 0)
    .int32(tail.length + 9) // leader epoch (4) + magic (1) + crc (4) + tail
    .int32(batch.partitionLeaderEpoch ?? -1)
    .int8(2)
    .uint32(crc)
    .bytes(tail)
    .toBuffer();
}

/** Why a buffer could not be decoded. `corrupt` maps to CORRUPT_MESSAGE, `invalid` to INVALID_RECORD. */
export class BatchDecodeError extends Error {
  constructor(message: string, readonly kind: 'corrupt' | 'invalid' | 'magic', readonly magic?: number) {
    super(message);
  }
}

/** Reads the magic byte without decoding (null when the buffer is too short). */
export function peekMagic(buf: Buffer, at = 0): number | null {
  return buf.length > at + MAGIC_OFFSET ? buf.readInt8(at + MAGIC_OFFSET) : null;
}

/** Splits a buffer into the byte ranges of its batches (by their length fields). */
export function splitBatches(buf: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  while (at < buf.length) {
    if (buf.length - at < 12) throw new BatchDecodeError(`Truncated batch header at byte ${at}`, 'corrupt');
    const len = buf.readInt32BE(at + 8);
    if (len < BATCH_HEADER_SIZE - 12 || at + 12 + len > buf.length)
      throw new BatchDecodeError(`Record batch length ${len} at byte ${at} does not match the ${buf.length - at - 12} bytes remaining`, 'corrupt');
    out.push(buf.subarray(at, at + 12 + len));
    at += 12 + len;
  }
  return out;
}

/** True when the stored CRC matches the CRC32C of the bytes after it. */
export function crcValid(batchBytes: Buffer): boolean {
  return batchBytes.readUInt32BE(CRC_OFFSET) === crc32c(batchBytes.subarray(CRC_OFFSET + 4));
}

/**
 * Decodes one v2 batch (bytes exactly as returned by {@link splitBatches}).
 * Magic other than 2 throws kind `magic`; a declared record count that does
 * not match the records present throws kind `invalid` (as Kafka's iterator
 * does: "Incorrect declared batch size"); truncated fields throw `corrupt`.
 */
export function decodeBatch(bytes: Buffer): RecordBatch {
  const magic = peekMagic(bytes);
  if (magic !== 2) throw new BatchDecodeError(`Unsupported record batch magic ${magic}`, 'magic', magic ?? undefined);
  const r = new ByteReader(bytes);
  try {
    const baseOffset = r.int64();
    r.int32(); // batch length (checked by splitBatches)
    const partitionLeaderEpoch = r.int32();
    r.int8();
    const crc = r.uint32();
    const attributes = r.int16();
    const lastOffsetDelta = r.int32();
    const baseTimestamp = r.int64();
    const maxTimestamp = r.int64();
    const producerId = r.int64();
    const producerEpoch = r.int16();
    const baseSequence = r.int32();
    const recordCount = r.int32();
    const codec = attributes & COMPRESSION_MASK;
    if (compressionTypeOfId(codec) === undefined) throw new BatchDecodeError(`Unknown compression type id: ${codec}`, 'invalid');
    const section = decompressRecords(codec, bytes.subarray(r.offset));
    const records = decodeRecords(section);
    if (records.length !== recordCount)
      throw new BatchDecodeError(`Incorrect declared batch size: header declares ${recordCount} records, batch holds ${records.length}`, 'invalid');
    return {
      baseOffset, partitionLeaderEpoch, magic, crc, attributes, lastOffsetDelta, baseTimestamp, maxTimestamp,
      producerId, producerEpoch, baseSequence, recordCount, records, sizeInBytes: bytes.length,
    };
  } catch (e) {
    if (e instanceof BatchDecodeError) throw e;
    throw new BatchDecodeError(`Record batch is corrupt: ${(e as Error).message}`, 'corrupt');
  }
}

function decodeRecords(section: Buffer): BatchRecord[] {
  const r = new ByteReader(section);
  const records: BatchRecord[] = [];
  while (r.remaining > 0) {
    const len = r.varint();
    const end = r.offset + len;
    if (len < 0 || end > section.length) throw new BatchDecodeError(`Record ${records.length} has invalid length ${len}`, 'corrupt');
    const rec = new ByteReader(section, end);
    rec.offset = r.offset;
    const attrs = rec.int8();
    const timestampDelta = rec.varint();
    const offsetDelta = rec.varint();
    const key = rec.varBytes();
    const value = rec.varBytes();
    const headerCount = rec.varint();
    if (headerCount < 0) throw new BatchDecodeError(`Found invalid number of record headers ${headerCount}`, 'invalid');
    const headers: RecordHeader[] = [];
    for (let i = 0; i < headerCount; i++) {
      const hk = rec.varBytes();
      if (hk === null) throw new BatchDecodeError('Invalid null header key found in headers', 'invalid');
      headers.push({ key: hk.toString('utf8'), value: rec.varBytes() });
    }
    if (rec.remaining !== 0) throw new BatchDecodeError(`Invalid record size: expected ${len} bytes but read ${len - rec.remaining}`, 'invalid');
    r.offset = end;
    records.push({ attributes: attrs, timestampDelta, offsetDelta, key, value, headers });
  }
  return records;
}

/** Control record types (key of a control record). */
export const ControlType = { ABORT: 0, COMMIT: 1 } as const;

/** Encodes a commit/abort marker batch (control + transactional, one record). */
export function encodeControlBatch(opts: { producerId: number; producerEpoch: number; commit: boolean; timestamp: number; coordinatorEpoch?: number }): Buffer {
  const key = new ByteWriter().int16(0).int16(opts.commit ? ControlType.COMMIT : ControlType.ABORT).toBuffer();
  const value = new ByteWriter().int16(0).int32(opts.coordinatorEpoch ?? 0).toBuffer();
  return encodeBatch({
    attributes: BatchAttr.CONTROL | BatchAttr.TRANSACTIONAL,
    producerId: opts.producerId,
    producerEpoch: opts.producerEpoch,
    baseSequence: NO_SEQUENCE,
    records: [{ key, value, timestamp: opts.timestamp }],
  });
}

/** Reads the type of a control record key (`commit` / `abort`). */
export function controlTypeOf(record: BatchRecord): 'commit' | 'abort' {
  return record.key && record.key.length >= 4 && record.key.readInt16BE(2) === ControlType.COMMIT ? 'commit' : 'abort';
}

/**
 * Rebuilds a validated batch with the records section in `target` (a topic
 * whose `compression.type` differs from the producer's codec: Kafka's
 * `LogValidator` rebuilds it, keeping the producer fields, timestamps and
 * record order). Returns the new bytes and the batch they decode to.
 */
export function recompressBatch(batch: RecordBatch, target: CompressionType): { bytes: Buffer; batch: RecordBatch } {
  const bytes = encodeBatch({
    baseOffset: batch.baseOffset,
    partitionLeaderEpoch: batch.partitionLeaderEpoch,
    attributes: batch.attributes & ~COMPRESSION_MASK,
    producerId: batch.producerId,
    producerEpoch: batch.producerEpoch,
    baseSequence: batch.baseSequence,
    compression: target,
    records: batch.records.map((r, i) => ({ key: r.key, value: r.value, headers: r.headers, timestamp: batch.baseTimestamp + r.timestampDelta, offsetDelta: i })),
  });
  return { bytes, batch: { ...batch, attributes: (batch.attributes & ~COMPRESSION_MASK) | compressionCodecId(target), crc: bytes.readUInt32BE(CRC_OFFSET), sizeInBytes: bytes.length } };
}

/** Returns the same batch bytes with the base offset rewritten (the broker assigns offsets; the CRC does not cover it). */
export function withBaseOffset(bytes: Buffer, baseOffset: number): Buffer {
  const copy = Buffer.from(bytes);
  copy.writeBigInt64BE(BigInt(baseOffset), 0);
  return copy;
}
