/** What a task executor needs from the app (see `task-executor.ts`). */
import type { Logger } from 'pino';
import type { GroupConsumerPort, TopicPartition } from '../../cluster/port.js';
import type { StreamsProducer } from '../../eos/streams-producer.js';
import type { TaskId, TopologyRuntime } from '../../processors/task-contract.js';
import type { TaskSettings } from './app-settings.js';
import type { TaskMetrics } from '../metrics.js';
import type { StateRuntime } from './state-manager.js';

/** Creates the producer of a task; `transactionalId` is undefined under at_least_once. */
export type TaskProducerFactory = (options: { transactionalId: string | undefined; taskId: string }) => StreamsProducer;

/** What a task needs from the app. */
export interface TaskExecutorDeps {
  taskId: TaskId;
  id: string;
  /** The input partitions of this task that this instance is assigned. */
  partitions: TopicPartition[];
  topology: TopologyRuntime;
  consumer: GroupConsumerPort;
  producerFactory: TaskProducerFactory;
  config: TaskSettings;
  partitionCount: (topic: string) => number | undefined;
  /** End offsets of `topic` (index = partition): where `autoOffsetReset: 'latest'` starts a partition with no committed offset. */
  endOffsets?: (topic: string) => Promise<number[]>;
  metrics: TaskMetrics;
  logger: Logger;
  /** What the task's state manager shares with the other tasks of the instance. */
  state: StateRuntime;
}
