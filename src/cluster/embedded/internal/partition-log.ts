/**
 * The log of one partition: v2 record batches as bytes, the log start offset
 * (moved by DeleteRecords; the batches wholly below it are dropped), the high watermark,
 * the last stable offset (first offset of the earliest open transaction) and
 * the aborted-transactions index used by read_committed fetches.
 */
import type { ConsumedRecord, Headers } from '../../port.js';
import { BatchAttr, decodeBatch, encodeControlBatch, isControl, isTransactional, lastOffset, withBaseOffset, CRC_OFFSET, type RecordBatch } from './record-batch.js';
import { ProducerStateTable } from './producer-state.js';
import { crc32c } from './crc32c.js';
import { defined } from '../../../internal/defined.js';

/** A batch stored in the log. */
export interface LogEntry {
  baseOffset: number;
  lastOffset: number;
  /** The batch bytes with the broker-assigned base offset. */
  bytes: Buffer;
  batch: RecordBatch;
}

/** One aborted transaction: data of `producerId` in [firstOffset, lastOffset] is hidden from read_committed. */
export interface AbortedTxn {
  producerId: number;
  firstOffset: number;
  /** Offset of the abort marker. */
  lastOffset: number;
}

/** Isolation level of a fetch. */
export type Isolation = 'read_committed' | 'read_uncommitted';

/** Result of a fetch: the visible records and where the next fetch starts. */
export interface FetchResult {
  records: ConsumedRecord[];
  nextOffset: number;
  highWatermark: number;
  lastStableOffset: number;
}

function toHeaders(headers: RecordBatch['records'][number]['headers']): Headers {
  const out: Headers = {};
  // A null header value (length -1) is read back as null, as Kafka's consumer does.
  for (const h of headers) out[h.key] = h.value;
  return out;
}

/** Sets the LogAppendTime attribute bit and max timestamp of batch bytes, recomputing the CRC. */
function stampLogAppendTime(bytes: Buffer, time: number): Buffer {
  const copy = Buffer.from(bytes);
  const attrAt = CRC_OFFSET + 4;
  copy.writeInt16BE(copy.readInt16BE(attrAt) | BatchAttr.TIMESTAMP_LOG_APPEND, attrAt);
  copy.writeBigInt64BE(BigInt(time), attrAt + 2 + 4 + 8); // after attributes, lastOffsetDelta, baseTimestamp
  copy.writeUInt32BE(crc32c(copy.subarray(attrAt)), CRC_OFFSET);
  return copy;
}

/** One partition's log. */
export class PartitionLog {
  readonly entries: LogEntry[] = [];
  readonly producers = new ProducerStateTable();
  readonly aborted: AbortedTxn[] = [];
  /** Bumped on every append (data or marker): readers skip refetching an unchanged partition. */
  version = 0;
  /** The first offset a fetch may ask for (Kafka's log start offset): 0 until records are deleted. */
  logStartOffset = 0;

  constructor(readonly topic: string, readonly partition: number) {}

  /** Next offset to be written (high watermark; single replica, so log end offset = HW). */
  get highWatermark(): number {
    const last = this.entries[this.entries.length - 1];
    return last ? last.lastOffset + 1 : this.logStartOffset;
  }

  /** First offset of the earliest open transaction, or the high watermark when none is open. */
  get lastStableOffset(): number {
    const firsts = this.producers.ongoing().flatMap((e) => (e.currentTxnFirstOffset === null ? [] : [e.currentTxnFirstOffset]));
    return firsts.length ? Math.min(...firsts) : this.highWatermark;
  }

  /**
   * Appends a validated client batch: assigns offsets, stores the bytes,
   * updates producer state. With `logAppendTime` (topic config
   * LogAppendTime) the batch is stamped as Kafka does: timestamp-type bit set,
   * max timestamp = append time, CRC recomputed.
   */
  appendBatch(bytes: Buffer, batch: RecordBatch, logAppendTime?: number): LogEntry {
    const baseOffset = this.highWatermark;
    let stored = withBaseOffset(bytes, baseOffset);
    let decoded = { ...batch, baseOffset };
    if (logAppendTime !== undefined) {
      stored = stampLogAppendTime(stored, logAppendTime);
      decoded = { ...decoded, attributes: decoded.attributes | BatchAttr.TIMESTAMP_LOG_APPEND, maxTimestamp: logAppendTime };
    }
    const entry: LogEntry = { baseOffset, lastOffset: lastOffset(decoded), bytes: stored, batch: decoded };
    this.entries.push(entry);
    this.producers.onAppend(decoded, isTransactional(decoded));
    this.version++;
    return entry;
  }

  /**
   * Writes a commit/abort marker for the producer's open transaction here.
   * Steps: 1. encode a control batch; 2. append it; 3. end the producer's
   * transaction; 4. on abort, index the aborted range.
   */
  writeMarker(producerId: number, producerEpoch: number, commit: boolean, timestamp: number): void {
    // 1.
    const bytes = encodeControlBatch({ producerId, producerEpoch, commit, timestamp });
    // 2.
    const baseOffset = this.highWatermark;
    const stored = withBaseOffset(bytes, baseOffset);
    this.entries.push({ baseOffset, lastOffset: baseOffset, bytes: stored, batch: decodeBatch(stored) });
    // 3.
    const first = this.producers.onMarker(producerId, producerEpoch);
    // 4.
    if (!commit && first !== null) this.aborted.push({ producerId, firstOffset: first, lastOffset: baseOffset });
    this.version++;
  }

  /**
   * DeleteRecords: moves the log start offset to `offset` (never back) and drops the batches wholly below
   * it, as Kafka's `deleteRecordsOnLeader`. Returns the new log start offset (the low watermark).
   * The caller checks `offset` against the high watermark.
   */
  deleteRecordsBefore(offset: number): number {
    if (offset <= this.logStartOffset) return this.logStartOffset;
    this.logStartOffset = offset;
    const keep = this.firstEntryFrom(offset);
    if (keep > 0) this.entries.splice(0, keep);
    this.version++;
    return offset;
  }

  /** Index of the first entry whose last offset is >= `offset` (binary search). */
  private firstEntryFrom(offset: number): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (defined(this.entries[mid], 'log entry').lastOffset < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** True when the producer has an open transaction in this partition. */
  hasOpenTxn(producerId: number): boolean {
    return this.producers.get(producerId)?.currentTxnFirstOffset != null;
  }

  private isAborted(batch: RecordBatch): boolean {
    return this.aborted.some((a) => a.producerId === batch.producerId && batch.baseOffset >= a.firstOffset && batch.baseOffset <= a.lastOffset);
  }

  /**
   * Reads from `fromOffset`: read_uncommitted up to the high watermark,
   * read_committed up to the last stable offset, without control batches and
   * without data of aborted transactions. Stops after `maxBytes` (at least one batch).
   */
  fetch(fromOffset: number, isolation: Isolation, maxBytes = Number.MAX_SAFE_INTEGER): FetchResult {
    const hw = this.highWatermark;
    const lso = this.lastStableOffset;
    const limit = isolation === 'read_committed' ? lso : hw;
    const records: ConsumedRecord[] = [];
    let next = fromOffset;
    let bytes = 0;
    for (let i = this.firstEntryFrom(fromOffset); i < this.entries.length; i++) {
      const entry = this.entries[i];
      if (entry === undefined || entry.baseOffset >= limit) break;
      if (bytes > 0 && bytes + entry.bytes.length > maxBytes) break;
      bytes += entry.bytes.length;
      next = entry.lastOffset + 1;
      const b = entry.batch;
      if (isControl(b)) continue;
      if (isolation === 'read_committed' && isTransactional(b) && this.isAborted(b)) continue;
      for (const [i, r] of b.records.entries()) {
        const offset = b.baseOffset + i; // by index: offset deltas were validated (compressed) or ignored (uncompressed), as Kafka assigns them
        if (offset < fromOffset) continue;
        const timestamp = b.attributes & BatchAttr.TIMESTAMP_LOG_APPEND ? b.maxTimestamp : b.baseTimestamp + r.timestampDelta;
        records.push({ topic: this.topic, partition: this.partition, offset, key: r.key, value: r.value, headers: toHeaders(r.headers), timestamp });
      }
    }
    return { records, nextOffset: Math.max(next, fromOffset), highWatermark: hw, lastStableOffset: lso };
  }
}
