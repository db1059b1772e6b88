/**
 * Key metadata across instances (Kafka Streams' `KeyQueryMetadata`,
 * `StreamsMetadata`, `HostInfo`): which instance of the application holds a
 * key of a store, and what every instance holds. Each instance advertises its
 * `applicationServer` (`host:port`) in its subscription; the task assignor
 * hands every member, with its assignment, the partitions of every host.
 *
 * ```ts
 * const meta = app.queryMetadataForKey('counts', 'alice', Serdes.String());
 * if (meta === KeyQueryMetadata.NOT_AVAILABLE) retryLater();            // rebalancing
 * else if (isMe(meta.activeHost)) app.store({ storeName: 'counts', ... }).get('alice');
 * else forwardTo(meta.activeHost);                                      // host:port of the owner
 * ```
 */
import { StreamsError } from '../errors.js';
import type { TopicPartition } from '../records/types.js';
import { UNAVAILABLE_HOST, type HostInfo } from '../assignment/host-info.js';

export type { HostInfo } from '../assignment/host-info.js';

/** Where a key of a store lives (Kafka's `KeyQueryMetadata`). */
export interface KeyQueryMetadata {
  /** The instance running the key's task (its `applicationServer`). */
  readonly activeHost: HostInfo;
  /** Instances with a standby copy of the task (warm-ups included; `numStandbyReplicas`). */
  readonly standbyHosts: readonly HostInfo[];
  /** The key's partition (of the store's source topic with the most partitions), -1 when not available. */
  readonly partition: number;
}

/** Kafka's `KeyQueryMetadata.NOT_AVAILABLE`: compare by identity (`meta === KeyQueryMetadata.NOT_AVAILABLE`). */
export const KeyQueryMetadata: { readonly NOT_AVAILABLE: KeyQueryMetadata } = Object.freeze({
  NOT_AVAILABLE: Object.freeze({ activeHost: UNAVAILABLE_HOST, standbyHosts: Object.freeze([]) as readonly HostInfo[], partition: -1 }),
});

/** What one instance of the application holds (Kafka's `StreamsMetadata`). */
export interface StreamsMetadata {
  readonly hostInfo: HostInfo;
  readonly host: string;
  readonly port: number;
  /** Stores of its active tasks (and every global store). */
  readonly stateStoreNames: readonly string[];
  /** Input partitions of its active tasks. */
  readonly topicPartitions: readonly TopicPartition[];
  /** Stores of its standby tasks (warm-ups included). */
  readonly standbyStateStoreNames: readonly string[];
  /** Input partitions of its standby tasks (warm-ups included). */
  readonly standbyTopicPartitions: readonly TopicPartition[];
}

/** One task of this instance (Kafka's `TaskMetadata`). */
export interface TaskMetadata {
  /** `<subtopology>_<partition>`. */
  readonly taskId: string;
  /** Its input partitions. */
  readonly topicPartitions: readonly TopicPartition[];
}

/**
 * The tasks of this instance's one processing loop (Kafka's `ThreadMetadata`; sluice runs one loop per
 * process, so `metadataForLocalThreads()` returns one entry).
 */
export interface ThreadMetadata {
  readonly threadName: string;
  /** The app's state (Kafka reports the stream thread's). */
  readonly threadState: string;
  /** The group consumer's client id. */
  readonly consumerClientId: string;
  readonly activeTasks: readonly TaskMetadata[];
  /** Standby tasks, warm-ups included. */
  readonly standbyTasks: readonly TaskMetadata[];
}

/** Key metadata asked for a store the topology does not have (Kafka's `UnknownStateStoreException`). */
export class UnknownStateStoreError extends StreamsError {
  constructor(message: string) {
    super(message, { code: 'UNKNOWN_STATE_STORE', kind: 'usage' });
    this.name = 'UnknownStateStoreError';
  }
}
