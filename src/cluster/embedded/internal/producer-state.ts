/**
 * Per-partition producer state, as Kafka's `ProducerStateManager` keeps it:
 * the last epoch seen per producer id, the metadata of its last 5 batches
 * (for duplicate detection) and the first offset of its open transaction.
 */
import { KafkaErrorCode } from '../../../errors.js';
import { brokerError } from './broker-error.js';
import { NO_PRODUCER_ID, lastOffset, type RecordBatch } from './record-batch.js';

/** How many batches per producer are remembered for duplicate detection (Kafka: 5). */
export const NUM_BATCHES_TO_RETAIN = 5;

/** Metadata of an appended batch. */
export interface BatchMetadata {
  firstSeq: number;
  lastSeq: number;
  firstOffset: number;
  lastOffset: number;
}

/** What a partition remembers about one producer id. */
export interface ProducerEntry {
  producerId: number;
  epoch: number;
  batches: BatchMetadata[];
  /** First offset of the producer's open transaction in this partition, or null. */
  currentTxnFirstOffset: number | null;
}

/** The outcome of checking a batch: append it, or acknowledge a retried duplicate. */
export type ProducerCheck = { kind: 'append' } | { kind: 'duplicate'; metadata: BatchMetadata };

const INT_MAX = 0x7fffffff;
const inSequence = (lastSeq: number, nextSeq: number): boolean => nextSeq === lastSeq + 1 || (lastSeq === INT_MAX && nextSeq === 0);

/** Kafka's `DefaultRecordBatch.incrementSequence`: sequences wrap from Integer.MAX_VALUE to 0. */
export function incrementSequence(sequence: number, increment: number): number {
  return sequence > INT_MAX - increment ? increment - (INT_MAX - sequence) - 1 : sequence + increment;
}

/** Producer state of one partition. */
export class ProducerStateTable {
  private readonly entries = new Map<number, ProducerEntry>();

  get(producerId: number): ProducerEntry | undefined {
    return this.entries.get(producerId);
  }

  /** Open transactions of this partition (producer id -> first offset). */
  ongoing(): ProducerEntry[] {
    return [...this.entries.values()].filter((e) => e.currentTxnFirstOffset !== null);
  }

  /**
   * Checks a client batch against the producer's state (Kafka's
   * `ProducerAppendInfo`). Steps:
   * 1. no producer id: nothing to check;
   * 2. same epoch and same sequence range as one of the last 5 batches: duplicate;
   * 3. epoch lower than the last seen: INVALID_PRODUCER_EPOCH (Kafka >= 2.7 answers
   *    this, not PRODUCER_FENCED, to a produce request);
   * 4. higher epoch: the sequence must restart at 0, else OUT_OF_ORDER_SEQUENCE_NUMBER;
   * 5. same epoch: the sequence must continue the last one, else OUT_OF_ORDER_SEQUENCE_NUMBER.
   */
  check(batch: RecordBatch, tp: string, nextOffset: number): ProducerCheck {
    // 1.
    if (batch.producerId === NO_PRODUCER_ID) return { kind: 'append' };
    const entry = this.entries.get(batch.producerId);
    if (!entry) return { kind: 'append' }; // Kafka accepts any sequence from a producer new to the partition
    const firstSeq = batch.baseSequence;
    const lastSeq = incrementSequence(firstSeq, batch.lastOffsetDelta);
    // 2.
    if (batch.producerEpoch === entry.epoch) {
      const dup = entry.batches.find((b) => b.firstSeq === firstSeq && b.lastSeq === lastSeq);
      if (dup) return { kind: 'duplicate', metadata: dup };
    }
    // 3.
    if (batch.producerEpoch < entry.epoch) {
      const msg = `Epoch of producer ${batch.producerId} at offset ${nextOffset} in ${tp} is ${batch.producerEpoch}, which is smaller than the last seen epoch ${entry.epoch}`;
      throw brokerError(KafkaErrorCode.INVALID_PRODUCER_EPOCH, msg);
    }
    // 4.
    if (batch.producerEpoch > entry.epoch) {
      if (firstSeq !== 0) {
        const msg = `Invalid sequence number for new epoch of producer ${batch.producerId} at offset ${nextOffset} in partition ${tp}: ${batch.producerEpoch} (request epoch), ${firstSeq} (seq. number), ${entry.epoch} (current producer epoch)`;
        throw brokerError(KafkaErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, msg);
      }
      return { kind: 'append' };
    }
    // 5.
    const currentLast = entry.batches.at(-1)?.lastSeq ?? -1;
    if (entry.batches.length && !inSequence(currentLast, firstSeq)) {
      const msg = `Out of order sequence number for producer ${batch.producerId} at offset ${nextOffset} in partition ${tp}: ${firstSeq} (incoming seq. number), ${currentLast} (current end sequence number)`;
      throw brokerError(KafkaErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, msg);
    }
    return { kind: 'append' };
  }

  /** Records an appended data batch (its base offset already assigned). */
  onAppend(batch: RecordBatch, transactional: boolean): void {
    if (batch.producerId === NO_PRODUCER_ID) return;
    let entry = this.entries.get(batch.producerId);
    if (!entry || batch.producerEpoch > entry.epoch) {
      entry = { producerId: batch.producerId, epoch: batch.producerEpoch, batches: [], currentTxnFirstOffset: entry?.currentTxnFirstOffset ?? null };
      this.entries.set(batch.producerId, entry);
    }
    entry.batches.push({ firstSeq: batch.baseSequence, lastSeq: incrementSequence(batch.baseSequence, batch.lastOffsetDelta), firstOffset: batch.baseOffset, lastOffset: lastOffset(batch) });
    if (entry.batches.length > NUM_BATCHES_TO_RETAIN) entry.batches.shift();
    if (transactional && entry.currentTxnFirstOffset === null) entry.currentTxnFirstOffset = batch.baseOffset;
  }

  /** Records a transaction marker: the open transaction ends; a higher marker epoch becomes the known epoch. */
  onMarker(producerId: number, epoch: number): number | null {
    let entry = this.entries.get(producerId);
    if (!entry) {
      entry = { producerId, epoch, batches: [], currentTxnFirstOffset: null };
      this.entries.set(producerId, entry);
    }
    const first = entry.currentTxnFirstOffset;
    entry.currentTxnFirstOffset = null;
    if (epoch > entry.epoch) {
      entry.epoch = epoch;
      entry.batches = [];
    }
    return first;
  }
}
