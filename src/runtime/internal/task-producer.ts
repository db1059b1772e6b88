/**
 * What a stream task needs of its producer: the `TransactionalProducer`
 * (src/eos) satisfies it. Kept as an interface so tests can inject faults.
 */
import type { TopicPartitionOffset } from '../../cluster/port.js';
import type { CollectorProducer } from '../../eos/record-collector.js';

/** The producer of one task (transactional under exactly_once, idempotent under at_least_once). */
export interface TaskProducer extends CollectorProducer {
  /** Transactional: InitProducerId (fences the previous owner, completes/aborts its transaction). Else connects. */
  initTransactions(): Promise<void>;
  beginTransaction(): void;
  sendOffsetsToTransaction(offsets: TopicPartitionOffset[], groupId: string): Promise<void>;
  commitTransaction(): Promise<void>;
  abortTransaction(): Promise<void>;
  /** Waits for every pending send and its callback. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Creates the producer of a task; `transactionalId` is undefined under at_least_once. */
export type TaskProducerFactory = (options: { transactionalId: string | undefined; taskId: string }) => TaskProducer;
