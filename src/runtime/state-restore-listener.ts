/**
 * Restoration callbacks, as Kafka Streams' `StateRestoreListener`: set one
 * per app with `app.setGlobalStateRestoreListener(listener)`. Every method is
 * optional; a listener that throws is logged at WARN and ignored (restoration
 * goes on).
 */
import type { TopicPartition } from '../cluster/port.js';

/** Receives the progress of restoring each store of each task from its changelog partition. */
export interface StateRestoreListener {
  /** Before the first batch: restoration of `storeName` reads `topicPartition` from `startingOffset` up to `endingOffset` (exclusive). */
  onRestoreStart?(topicPartition: TopicPartition, storeName: string, startingOffset: number, endingOffset: number): void;
  /** After each batch applied to the store: `batchEndOffset` is the offset of its last record, `numRestored` its record count. */
  onBatchRestored?(topicPartition: TopicPartition, storeName: string, batchEndOffset: number, numRestored: number): void;
  /** Once the store reached `endingOffset`: `totalRestored` records were applied. */
  onRestoreEnd?(topicPartition: TopicPartition, storeName: string, totalRestored: number): void;
}

/** Restoration counters of the instance (also exported as Prometheus metrics by the CLI). */
export interface RestoreMetrics {
  /** Records restored since start, every store of every task. */
  restoredRecords: number;
  /** Records still to restore by the stores restoring now. */
  remainingRecords: number;
  /** Records the stores restoring now must restore in total (restored + remaining). */
  totalRecords: number;
  /** Restored records per second over the last restoration activity (0 when idle). */
  rate: number;
  /** Stores restoring now. */
  activeRestorations: number;
}
