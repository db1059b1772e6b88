/**
 * The cluster port: everything the eos layer and the runtime need from a Kafka
 * cluster. Two implementations exist: the kafkajs adapter (`src/cluster/kafkajs/`,
 * real Kafka) and the {@link EmbeddedKafkaCluster} (`src/cluster/embedded/`). The
 * contract suite (`test/contract/`) runs the same cases against both.
 *
 * Errors: every method rejects with a `StreamsError` from `src/errors.ts`;
 * broker answers become `KafkaProtocolError` carrying the Kafka error code, the
 * broker's `error_message` and, for a rejected batch, its `record_errors`.
 */

export type { Headers, TopicPartition, TopicPartitionOffset, WireRecord, ConsumedRecord } from '../records/types.js';
import type { TopicPartition, TopicPartitionOffset, WireRecord, ConsumedRecord } from '../records/types.js';
import type { CompressionType } from '../records/compression.js';
import { KafkaErrorCode, KafkaProtocolError, StreamsError } from '../errors.js';

/** Code of the error a group consumer reports through `onError` when a subscribed topic disappears (Kafka Streams' `MissingSourceTopicException`). */
export const MISSING_SOURCE_TOPIC = 'MISSING_SOURCE_TOPIC';

/**
 * The error both adapters report through {@link GroupConsumerHandlers.onError} when a subscribed
 * (source) topic was deleted, or deleted and re-created, while the consumer ran: fatal, names the topic.
 */
export function missingSourceTopicError(topic: string, what: string): StreamsError {
  return new StreamsError(
    `Source topic '${topic}' ${what} while the application was running; its records can no longer be processed in order. ` +
      `Re-create the topic (or restore its data) and restart the application.`,
    { code: MISSING_SOURCE_TOPIC, kind: 'fatal' },
  );
}

/**
 * The error both adapters report through {@link GroupConsumerHandlers.onError} when the broker fenced a
 * static member (FENCED_INSTANCE_ID, 82): another live member joined with the same
 * {@link GroupConsumerOptions.groupInstanceId}. Fatal (the error table's row for 82), names the id.
 */
export function fencedInstanceIdError(groupId: string, groupInstanceId: string, cause?: unknown): KafkaProtocolError {
  return new KafkaProtocolError(
    KafkaErrorCode.FENCED_INSTANCE_ID,
    `FENCED_INSTANCE_ID (82): two instances use groupInstanceId '${groupInstanceId}' in group '${groupId}'; this one was fenced and stops. ` +
      `Give every instance its own groupInstanceId (e.g. the host name or pod name).`,
    cause === undefined ? {} : { cause },
  );
}

/**
 * Network settings of one client (Kafka's `request.timeout.ms`, `socket.connection.setup.timeout.ms`,
 * `retries`, `retry.backoff.ms`, `retry.backoff.max.ms`). The kafkajs adapter hands them to kafkajs;
 * the embedded cluster has no network and ignores them.
 */
export interface ClientConnectionOptions {
  requestTimeoutMs?: number;
  connectionTimeoutMs?: number;
  /** How often a failed request is retried (admin). */
  retries?: number;
  retryBackoffMs?: number;
  retryBackoffMaxMs?: number;
}

/** Options of {@link ClusterPort.admin}. */
export interface AdminOptions {
  connection?: ClientConnectionOptions;
}

/** Topic creation options. */
export interface NewTopic {
  partitions?: number;
  /**
   * Replication factor (Kafka's `replication.factor`); absent or -1: the broker's `default.replication.factor`.
   * A real cluster refuses more than it has brokers (INVALID_REPLICATION_FACTOR); the embedded cluster (one
   * broker) accepts any value and reports it back in {@link TopicDescription.replicationFactor}.
   */
  replicationFactor?: number;
  /** Topic configs, e.g. `{ 'cleanup.policy': 'compact', 'max.message.bytes': '2048' }`. */
  config?: Record<string, string>;
}

/** What the admin port tells about a topic. */
export interface TopicDescription {
  name: string;
  partitions: number;
  /**
   * The topic's effective configs (explicit and broker defaults) for at least:
   * `cleanup.policy`, `max.message.bytes`, `message.timestamp.type`,
   * `message.timestamp.before.max.ms`, `message.timestamp.after.max.ms`.
   */
  config: Record<string, string>;
  /** Replicas per partition (the embedded cluster: the factor it was created with, 1 for the default). */
  replicationFactor?: number;
  /**
   * Set when the topic's configs could not be read (the principal may describe the topic but has no
   * DESCRIBE_CONFIGS on it, which Kafka Streams' documented least privilege does not grant): why, naming
   * the principal. `config` is empty then; callers fall back to defaults and leave the checks to the broker.
   */
  configUnreadable?: string;
}

/** What the admin port tells about a consumer group (DescribeGroups). */
export interface GroupDescription {
  groupId: string;
  /** Kafka's group state: `Empty`, `Stable`, `PreparingRebalance`, `CompletingRebalance` or `Dead`. */
  state: string;
  /** The current members and the partitions each was assigned. */
  members: Array<{ memberId: string; clientId: string; assignment: TopicPartition[] }>;
}

/** Admin operations. Unknown topics reject with UNKNOWN_TOPIC_OR_PARTITION. */
export interface AdminPort {
  createTopic(name: string, options?: NewTopic): Promise<void>;
  deleteTopic(name: string): Promise<void>;
  listTopics(): Promise<string[]>;
  describeTopic(name: string): Promise<TopicDescription>;
  /** Sets (incrementally) topic configs. */
  alterTopicConfig(name: string, config: Record<string, string>): Promise<void>;
  /** Next offset (high watermark) per partition, index = partition. */
  endOffsets(topic: string): Promise<number[]>;
  /** Committed offset of a group per partition, index = partition, -1 if none. */
  committedOffsets(groupId: string, topic: string): Promise<number[]>;
  /** Members of a group and their assignments (both built-in adapters implement it). */
  describeGroup?(groupId: string): Promise<GroupDescription>;
  /**
   * Deletes the records of each partition below its offset (Kafka's `deleteRecords`): the log start offset
   * moves there and a fetch below it answers OFFSET_OUT_OF_RANGE. An offset beyond the high watermark
   * rejects with OFFSET_OUT_OF_RANGE. Both built-in adapters implement it.
   */
  deleteRecords?(topic: string, offsets: ReadonlyMap<number, number>): Promise<void>;
  /** Log start offset per partition, index = partition (both built-in adapters implement it). */
  startOffsets?(topic: string): Promise<number[]>;
  /**
   * Kafka's `offsetsForTimes`: per partition (index = partition) the first offset whose record timestamp is at or
   * after `timestamp`, -1 when there is none (both built-in adapters implement it).
   */
  offsetsForTime?(topic: string, timestamp: number): Promise<number[]>;
  /**
   * Sets a group's committed offsets of `topic` (partition → offset), as Kafka's `alterConsumerGroupOffsets`; the
   * group must have no active member (both built-in adapters implement it).
   */
  setCommittedOffsets?(groupId: string, topic: string, offsets: ReadonlyMap<number, number>): Promise<void>;
  close(): Promise<void>;
}

/** Options for a raw producer. */
export interface RawProducerOptions {
  /** With a transactional id the producer is transactional (and idempotent); without, idempotent only. */
  transactionalId?: string;
  /** Transaction timeout (ms), default 60000. */
  transactionTimeoutMs?: number;
  /** Client id for logs. */
  clientId?: string;
  /** Network settings (Kafka's `producer.request.timeout.ms`, ...). */
  connection?: ClientConnectionOptions;
  /** Codec of every batch the producer writes (Kafka's `compression.type`), default `'none'`. */
  compressionType?: CompressionType;
}

/** One produce request: records for exactly one topic-partition (DESIGN.md §2). */
export interface ProduceBatch extends TopicPartition {
  records: WireRecord[];
}

/** The broker's acknowledgement of a batch: record i has offset `baseOffset + i`. */
export interface ProduceAck extends TopicPartition {
  baseOffset: number;
}

/**
 * A raw producer: one Produce request per call, one topic-partition per call,
 * no batching, no retries, no record-level logic (the eos layer adds those).
 *
 * Contract:
 * - `produce` sends the records as one record batch. On an error answer it
 *   rejects with `KafkaProtocolError` (code, `recordErrors`, `errorMessage`) and
 *   the batch was not written; the producer's sequence for that partition is
 *   unchanged, so the same or other records can be sent next.
 * - Inside a transaction the adapter adds the partition to the transaction
 *   before the first produce to it.
 * - After a fencing error (PRODUCER_FENCED, INVALID_PRODUCER_EPOCH,
 *   UNKNOWN_PRODUCER_ID, OUT_OF_ORDER_SEQUENCE_NUMBER) or a failed EndTxn, the
 *   producer is unusable: every later call rejects with `ProducerFencedError`
 *   (or the original error); the caller closes it and makes a new one.
 */
export interface RawProducerPort {
  readonly transactionalId: string | undefined;
  /** Connects; for a transactional producer runs InitProducerId (fencing older producers of the id, completing or aborting their transaction). */
  connect(): Promise<void>;
  /** Starts a transaction (client-side only, like Java). Requires a transactional id. */
  beginTransaction(): Promise<void>;
  produce(batch: ProduceBatch): Promise<ProduceAck>;
  /** Adds consumer offsets to the open transaction (AddOffsetsToTxn + TxnOffsetCommit). */
  sendOffsets(groupId: string, offsets: TopicPartitionOffset[]): Promise<void>;
  /** EndTxn(commit). */
  commitTransaction(): Promise<void>;
  /** EndTxn(abort). */
  abortTransaction(): Promise<void>;
  close(): Promise<void>;
}

/** Options for a group consumer. */
export interface GroupConsumerOptions {
  groupId: string;
  /** Default `read_committed`. */
  isolationLevel?: 'read_committed' | 'read_uncommitted';
  /** Where to start when the group has no committed offset: default `earliest`. */
  autoOffsetReset?: 'earliest' | 'latest';
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  /** Max bytes fetched per partition per fetch (Kafka's `max.partition.fetch.bytes`). */
  maxBytesPerPartition?: number;
  /** Max bytes per fetch request (Kafka's `fetch.max.bytes`). */
  maxBytes?: number;
  /** Bytes a fetch waits for (Kafka's `fetch.min.bytes`). */
  minBytes?: number;
  /** How long a fetch waits for `minBytes` (Kafka's `fetch.max.wait.ms`). */
  maxWaitMs?: number;
  /** How long a member may take to rejoin a rebalance (Kafka's `max.poll.interval.ms`, the JoinGroup rebalance timeout). */
  rebalanceTimeoutMs?: number;
  clientId?: string;
  /** Network settings (Kafka's `consumer.request.timeout.ms`, ...). */
  connection?: ClientConnectionOptions;
  /**
   * A custom assignor (Kafka's `ConsumerPartitionAssignor`): when every member of the group offers one of
   * the same name, the group leader's decides the assignment and each member receives the user data it
   * produced for it (through {@link GroupConsumerHandlers.onAssignmentUserData}). Absent: the backend's
   * default (range).
   */
  groupAssignor?: GroupAssignor;
  /**
   * Static membership (Kafka's `group.instance.id`, KIP-345): a name of this member that stays the same
   * across restarts, unique in the group. A static member does not leave the group when closed; one that
   * comes back with the same id within `sessionTimeoutMs` takes over its old member's place and assignment
   * without a rebalance (the other members notice nothing). Its session timing out removes it and
   * rebalances. Two live members with the same id: the older one is fenced and stops with a fatal
   * `KafkaProtocolError` FENCED_INSTANCE_ID (82) naming the id. Absent: a dynamic member (leaves on close).
   */
  groupInstanceId?: string;
}

/** One member's subscription, as a {@link GroupAssignor} sees it on the group leader. */
export interface GroupMemberSubscription {
  memberId: string;
  topics: string[];
  /** What the member's assignor returned from `subscriptionUserData()` when it joined (empty when none). */
  userData: Buffer;
}

/** What a {@link GroupAssignor} gives one member. */
export interface GroupMemberAssignment {
  partitions: TopicPartition[];
  /** Handed to that member with its assignment. */
  userData: Buffer;
}

/**
 * A custom group assignor, run by both backends the same way: on the kafkajs
 * backend it is a kafkajs `partitionAssigner` (the leader runs `assign` between
 * JoinGroup and SyncGroup; user data travel in the consumer protocol's
 * `MemberMetadata` / `MemberAssignment`), on the embedded cluster the group
 * coordinator runs it with the members' user data.
 */
export interface GroupAssignor {
  /** The protocol name every member must offer (e.g. `sluice-streams`). */
  readonly name: string;
  /** The member's subscription user data, read at every join (synchronous: kafkajs builds the JoinGroup request synchronously). */
  subscriptionUserData(): Buffer;
  /**
   * Runs on the group leader only: every member's assignment (a member missing from the
   * result gets nothing). `partitionCount` answers from the leader's metadata (undefined: unknown topic).
   */
  assign(group: { members: GroupMemberSubscription[]; partitionCount(topic: string): number | undefined }): Promise<Map<string, GroupMemberAssignment>>;
}

/** A run of consecutive records of one partition, in offset order. */
export interface FetchedBatch extends TopicPartition {
  records: ConsumedRecord[];
  /** High watermark of the partition when fetched (for lag). */
  highWatermark: number;
  /**
   * The offset after everything this fetch covered, control records (transaction
   * markers) and aborted records included; the position to commit once `records`
   * are processed (Kafka Streams commits the consumer position for the same
   * reason, KAFKA-6607). Absent: the last record's offset + 1. A batch may carry
   * no records and only a `nextOffset` (a fetch of markers or aborted records).
   */
  nextOffset?: number;
}

/** Callbacks of a running group consumer. */
export interface GroupConsumerHandlers {
  /**
   * Called after every rebalance with the partitions newly assigned and those
   * taken away (the whole old and new assignment diffed). No batch of an
   * assigned partition is delivered before this resolves; a `seek` made inside
   * it decides where the partition is read from. Revoked partitions get no
   * further batch once this is called.
   */
  onAssignment(change: { assigned: TopicPartition[]; revoked: TopicPartition[]; generationId: number; memberId: string }): Promise<void>;
  /**
   * Called with fetched records. Calls for the same partition never overlap
   * and come in offset order; calls for different partitions may run
   * concurrently. While it has not resolved, nothing more of that partition is
   * fetched (this is the backpressure). A batch made stale by a `seek` is not
   * delivered.
   */
  eachBatch(batch: FetchedBatch): Promise<void>;
  /**
   * With a custom {@link GroupAssignor}: the user data the leader's assignor made for this member, on every
   * assignment received (also one that changes none of this member's partitions), before the
   * `onAssignment` call of that assignment is queued. Synchronous; an exception is logged and ignored.
   */
  onAssignmentUserData?(userData: Buffer, generationId: number): void;
  /**
   * The consumer crashed (unrecoverable error); it stopped or is about to. A subscribed topic deleted
   * (or deleted and re-created) while running is reported here as {@link missingSourceTopicError}.
   */
  onError?(error: Error): void;
}

/**
 * A consumer that is a member of a group. Offsets are never auto-committed:
 * sluice commits them through transactions (`sendOffsets`) or `commitOffsets`.
 */
export interface GroupConsumerPort {
  subscribe(topics: string[]): Promise<void>;
  /** Joins the group and starts delivering batches to the handlers. Resolves once started (not when stopped). */
  run(handlers: GroupConsumerHandlers): Promise<void>;
  /** Next delivery for the partition starts at `offset`. */
  seek(tpo: TopicPartitionOffset): void;
  pause(partitions: TopicPartition[]): void;
  resume(partitions: TopicPartition[]): void;
  /** Reads the group's committed offsets fresh from the coordinator (-1 where none). */
  committed(partitions: TopicPartition[]): Promise<TopicPartitionOffset[]>;
  /** Non-transactional offset commit (at-least-once). */
  commitOffsets(offsets: TopicPartitionOffset[]): Promise<void>;
  /**
   * Makes the member rejoin the group at once (Kafka's `Consumer.enforceRebalance(reason)`): the whole
   * group rebalances into a new generation and every member's `onAssignment` is called with it, also
   * when nothing changed for that member (used for probing rebalances). `reason` is logged. Ignored
   * before `run()` and after `close()`; a request while a rebalance is running may be merged into it.
   */
  requestRejoin(reason: string): void;
  /**
   * Stops. A dynamic member leaves the group (the others rebalance at once); a static member
   * ({@link GroupConsumerOptions.groupInstanceId}) does not: its partitions wait for it to come back
   * within the session timeout. Idempotent.
   */
  close(): Promise<void>;
}

/** Options of a {@link PartitionReaderPort}. */
export interface PartitionReaderOptions {
  /** Default `read_committed`. */
  isolationLevel?: 'read_committed' | 'read_uncommitted';
  clientId?: string;
  /** Network settings (the app hands it the consumer's). */
  connection?: ClientConnectionOptions;
}

/** What one {@link PartitionReaderPort.fetch} read. */
export interface PartitionReadResult {
  /** Data records in offset order (under read_committed: no aborted record, no control record). */
  records: ConsumedRecord[];
  /** The offset after everything the fetch covered (markers and aborted records included); where the next fetch starts. */
  nextOffset: number;
  /** The partition's end under the reader's isolation level when fetched: the last stable offset (read_committed) or the high watermark. */
  endOffset: number;
}

/**
 * A reader of explicitly chosen partitions, outside any consumer group (Kafka's
 * `assign()` consumer): state restoration reads changelogs with it, and later
 * standby tasks and global tables. It never commits offsets.
 */
export interface PartitionReaderPort {
  /** End offset per partition (index = partition) under the reader's isolation level: read_committed gives the last stable offset. */
  endOffsets(topic: string): Promise<number[]>;
  /**
   * Reads `tp` from `offset`. Resolves with what is there (possibly nothing,
   * after waiting up to `maxWaitMs`, default 500). Rejects with
   * OFFSET_OUT_OF_RANGE when `offset` is beyond the end or before the log start.
   */
  fetch(tp: TopicPartition, offset: number, options?: { maxBytes?: number; maxWaitMs?: number }): Promise<PartitionReadResult>;
  close(): Promise<void>;
}

/** A cluster: the factory of admin, producer and consumer clients. */
export interface ClusterPort {
  /** `embedded` or `kafka`, for logs and metrics. */
  readonly kind: 'embedded' | 'kafka';
  admin(options?: AdminOptions): AdminPort;
  producer(options: RawProducerOptions): RawProducerPort;
  consumer(options: GroupConsumerOptions): GroupConsumerPort;
  /** An assign-based partition reader (restoration, standbys, global tables); both built-in clusters implement it, a stateful app needs it. */
  reader?(options?: PartitionReaderOptions): PartitionReaderPort;
}
