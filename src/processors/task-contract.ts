/**
 * The seam between a built topology and whatever executes it: the
 * `TopologyTestDriver` (in-process) and the `KafkaStreams` runtime (on a
 * cluster). The topology layer implements {@link TopologyRuntime}; executors
 * supply a {@link RecordCollector} and call {@link TaskProcessor} methods.
 *
 * Records flow through the processor nodes of a task in offset order,
 * synchronously unless a processor returns a promise: then `process` (and
 * `punctuateWallClock`) return a promise the executor must await before the
 * next call, and only then count the record as processed. A synchronous run
 * returns plain values (no promise is allocated). Sends are handed to the
 * collector synchronously; the collector tracks their completion.
 */
import type { Logger } from 'pino';
import type { ConsumedRecord, Headers } from '../records/types.js';
import type { Serializer } from '../serdes/serde.js';
import type {
  DeserializationExceptionHandler,
  ErrorHandlerContext,
  ProcessingExceptionHandler,
} from '../handlers/types.js';
import type { TaskId } from '../records/task-id.js';
import type { StateStore } from '../state/state-store.js';
import type { ResolvedExtractor } from './timestamp-extractors.js';
import type { StoreKind } from './store-kind.js';

export { formatTaskId, type TaskId } from '../records/task-id.js';

/** An output record leaving a sink node, not yet serialized. */
export interface OutputRecord<K = unknown, V = unknown> {
  topic: string;
  key: K | null;
  value: V | null;
  keySerializer: Serializer<K>;
  valueSerializer: Serializer<V>;
  headers: Headers;
  timestamp: number;
  /** Set when the sink's partitioner chose a partition; otherwise the collector partitions (murmur2 on the key bytes). */
  partition?: number;
  /** Set for a dead-letter record of that handler: a failure to write it fails the task (never dropped), naming the handler. */
  deadLetterOf?: 'deserializationExceptionHandler' | 'processingExceptionHandler';
}

/**
 * Receives the outputs of a task. Serialization happens in the collector (as
 * in Kafka Streams' RecordCollectorImpl), so serialization failures reach the
 * production exception handler with `handleSerializationException`.
 */
export interface RecordCollector {
  /**
   * Hands one output record over. `context` describes the input record that
   * led to it, with `processorNodeId` set to the sink node.
   * Must not throw for record-level problems (the collector asks the
   * production handler); may throw a StreamsError when the handler says FAIL
   * and the executor must stop processing the task.
   */
  send(record: OutputRecord, context: ErrorHandlerContext): void;
  /**
   * Optional (added for sink partitioners): the partition count of `topic`,
   * or `undefined` when unknown. A sink with a `StreamPartitioner` calls its
   * partitioner only when this answers; otherwise the collector partitions.
   */
  partitionsFor?(topic: string): number | undefined;
  /**
   * Optional: counts one output record a sink dropped on purpose (its
   * partitioner chose no partition) in the task's `droppedRecords`.
   */
  recordDropped?(context: ErrorHandlerContext): void;
}

/** Options of a task beyond collector and handlers. */
export interface TaskOptions {
  /** The wall clock (default `Date.now`), used for wall-clock schedules. */
  clock?: () => number;
  /** The task's logger (default: a `stream-task` child of the root logger, with the task id). */
  logger?: Logger;
  /** The instance's global stores by name (`builder.globalTable`): every processor reaches them with `getStateStore`, without a connection. */
  globalStore?: (name: string) => StateStore | undefined;
  /**
   * Wall-clock ms between two scans of a left/outer stream–stream join's
   * store of waiting records (Kafka's internal
   * `__emit.interval.ms.kstreams.outer.join.spurious.results.fix__`, default
   * 1000; the TopologyTestDriver sets 0, as Kafka's does).
   */
  outerJoinEmitIntervalMs?: number;
  /**
   * Wall-clock ms between two scans for closed windows of a windowed
   * aggregation emitting on window close (Kafka's internal
   * `__emit.interval.ms.kstreams.windowed.aggregation__`). Default 0: every
   * record scans (an index range read), so that after a restart the last
   * emitted close time follows from the store's stream time (Kafka, default
   * 1000, keeps it in the commit's metadata instead).
   */
  windowedAggregationEmitIntervalMs?: number;
  /**
   * The timestamp extractor of sources that configure none (the app's
   * `defaultTimestampExtractor`); default `FailOnInvalidTimestamp`.
   */
  defaultTimestampExtractor?: ResolvedExtractor;
  /**
   * Called once for each record Kafka's task-level `dropped-records` sensor
   * counts: an operator's drop (null key, expired window, invalid timestamp,
   * ...) and a deserialization or processing handler's CONTINUE. The
   * TopologyTestDriver's `metrics()` counts them.
   */
  onDroppedRecord?: () => void;
  /**
   * The bound (ms) of one call of an async processor (`asyncProcessor`,
   * `KStream.mapValuesAsync`, ...) and of the drain before a commit (the
   * app's `asyncCallTimeoutMs`, default 30 000).
   */
  asyncCallTimeoutMs?: number;
  /**
   * Called once for each record of an async step whose failed call the
   * processing handler answered CONTINUE for (the runtime counts it in
   * `recordsSkipped`, as a synchronous record's 'skipped' outcome).
   */
  onAsyncSkipped?: () => void;
}

/** The metrics of one async processor node (summed over a task's or an app's tasks). */
export interface AsyncNodeStats {
  /** Calls admitted and not finished (running, or waiting behind an earlier call of their key). */
  inFlight: number;
  /** Calls finished (settled, failed or timed out). */
  calls: number;
  /** Calls that rejected, threw or timed out. */
  failed: number;
  /** Sum of the finished calls' durations, ms (start to settle). */
  totalLatencyMs: number;
  /** The longest call, ms. */
  maxLatencyMs: number;
  /** Sum of the time finished calls waited behind an earlier call of their key, ms. */
  totalQueueMs: number;
}

/** The handlers a task applies while processing. */
export interface TaskHandlers {
  deserialization: DeserializationExceptionHandler;
  processing: ProcessingExceptionHandler;
}

/** What `TaskProcessor.process` did with one input record. */
export type ProcessOutcome =
  /** Went through the topology (outputs, if any, were handed to the collector). */
  | 'processed'
  /** Skipped because a handler answered CONTINUE (deserialization or processing error). */
  | 'skipped';

/** A state store as the executor sees it (lifecycle steps in ./state/store-contract.ts). */
export type { ManagedStateStore, StoreRecordContext } from '../state/store-contract.js';
import type { ManagedStateStore, StoreRecordContext } from '../state/store-contract.js';

/** One task of a topology: the processor nodes of one subtopology for one partition. */
export interface TaskProcessor {
  readonly taskId: TaskId;
  /** The input partitions of this task (one per source topic of its subtopology). */
  readonly inputPartitions: ReadonlyArray<{ topic: string; partition: number }>;
  /** Calls `init` on every processor. */
  init(): void;
  /**
   * Deserializes and processes one record. Throws (or, when async, rejects
   * with) a StreamsError when a handler answered FAIL (the cause is the
   * original error) or when a handler throws (kind fatal). Returns a promise
   * only when an async processor (or punctuator) is still running; the
   * executor must await it before calling `process` or `punctuateWallClock`
   * again (an IllegalStateError says so otherwise).
   */
  process(record: ConsumedRecord): ProcessOutcome | Promise<ProcessOutcome>;
  /**
   * Runs due wall-clock punctuators for `nowMs` (a promise when one of them is
   * async). Stream-time punctuators run inside `process`.
   */
  punctuateWallClock(nowMs: number): void | Promise<void>;
  /** True when a processor called `context.commit()` since the last `clearCommitRequest()`. */
  readonly commitRequested: boolean;
  clearCommitRequest(): void;
  /** The task's state stores (the runner calls `init`, restores them, and `commit`s them after each transaction). */
  readonly stores: ReadonlyArray<ManagedStateStore>;
  /** The context of the record being processed (or of the punctuation): what a store stamps its changelog records and cache entries with. */
  recordContext(): StoreRecordContext;
  /**
   * Step 5 of the store lifecycle, at every commit before the transaction
   * commits: flushes every store (a caching store forwards its dirty entries
   * downstream and into the changelog, so processors may forward from here).
   * When such a forward went into an async processor, that work continues
   * after the call: {@link TaskProcessor.whenIdle} returns it, and the runner
   * awaits it before flushing the producer.
   */
  flushStores(): void;
  /**
   * Optional (added with the record cache): the async work still running
   * (a process, punctuation or flush forward into an async processor), or
   * `undefined` when the task is idle.
   */
  whenIdle?(): Promise<void> | undefined;
  /**
   * Optional (added with the live UI): adds the records each node of this task
   * received since the task was created to `into`, by node name.
   */
  nodeRecordCounts?(into: Map<string, number>): void;
  /**
   * Optional (added with async processors): forwards the outputs of the async
   * calls that finished since (the executor calls it on its tick, in the
   * task's queue); a promise when a child went async.
   */
  pumpAsync?(): void | Promise<void>;
  /**
   * Optional (added with async processors): `listener` is called (synchronously,
   * from the promise callback) each time a call of an async processor settles,
   * so the executor can queue a {@link TaskProcessor.pumpAsync} in the task's
   * queue right away instead of at its next tick; `undefined` removes it. The
   * listener must not forward anything itself.
   */
  onAsyncSettled?(listener: (() => void) | undefined): void;
  /**
   * Optional (added with async processors): waits until no async call is in
   * flight and every output is forwarded (at most `asyncCallTimeoutMs`; calls
   * still running then fail as processing errors); `undefined` when nothing
   * is in flight. The executor awaits it before every commit.
   */
  drainAsync?(): Promise<void> | undefined;
  /**
   * Optional (added with async processors): abandons every async call in
   * flight at once (the task failed: nothing of them will be committed); a
   * `process()` waiting for a free slot then resolves.
   */
  abandonAsync?(): void;
  /** Optional (added with async processors): adds the metrics of this task's async nodes to `into`, by node name. */
  asyncStats?(into: Map<string, AsyncNodeStats>): void;
  /**
   * Optional (added with the Schema Registry serdes): the I/O the source
   * deserializers need before `records` (a fetched batch) are processed
   * (`Deserializer.resolve`): a promise only when there is some. The executor
   * awaits it before buffering the batch; a rejection fails the task (a
   * retriable one is retried from the last commit).
   */
  resolveInput?(records: readonly ConsumedRecord[]): Promise<void> | undefined;
  /**
   * Optional (added with the Schema Registry serdes): the I/O the sink
   * serializers of fixed topics need before the task processes
   * (`Serializer.prepare`): a promise only when there is some. The executor
   * awaits it when the task starts.
   */
  prepareOutput?(): Promise<void> | undefined;
  /** Calls `close` on every processor and store. */
  close(): void;
}

/** One subtopology as the executor needs it. */
export interface SubtopologyInfo {
  id: number;
  /** Source topics (co-partitioned: a task takes the same partition of each). */
  sourceTopics: string[];
  /** Topics its sinks write to, where known statically. */
  sinkTopics: string[];
}

/** An internal (repartition) topic: the runtime creates it before subscribing. */
export interface InternalTopicInfo {
  /** Its name: `<applicationId>-<name>-repartition` once resolved. */
  name: string;
  /** Source topics of the sub-topologies writing it: its partition count is the maximum of theirs (some may be internal). */
  partitionCountFrom: string[];
  /** A fixed partition count (`Repartitioned.withNumberOfPartitions`); else sized from `partitionCountFrom`. */
  numberOfPartitions?: number;
  /** Ids of the sub-topologies writing it. */
  writtenBy: number[];
  /** Ids of the sub-topologies reading it. */
  readBy: number[];
}

/** The changelog topic of a logged state store. */
export interface ChangelogTopicInfo {
  storeName: string;
  /** `<applicationId>-<storeName>-changelog`. */
  topic: string;
  /** The sub-topology whose tasks own the store: the changelog has as many partitions as its source topics. */
  subtopology: number;
  /** Topic configs to create it with (`cleanup.policy=compact`, window stores `compact,delete` and `retention.ms`). */
  config: Readonly<Record<string, string>>;
}

/** A global store and the topic it is read from. */
export interface GlobalStoreInfo {
  storeName: string;
  topic: string;
  /** The sub-topology id `describe()` gives it. */
  id: number;
}

/** A source node subscribed by pattern. */
export interface SourcePatternInfo {
  /** The source node's name. */
  source: string;
  /** Anchored: matches whole topic names. */
  pattern: RegExp;
  /** The pattern as written (`orders-.*`). */
  text: string;
}

/** A built topology, as executors see it. */
export interface TopologyRuntime {
  readonly subtopologies: ReadonlyArray<SubtopologyInfo>;
  /** Every source topic of every subtopology (internal topics included). */
  sourceTopics(): string[];
  /** The internal (repartition) topics, by resolved name when an application id was given. */
  readonly internalTopics: ReadonlyArray<InternalTopicInfo>;
  /**
   * The partition count of each internal topic given the counts of the
   * external source topics (max of the upstream sub-topology's source topics);
   * throws a TopologyError when an upstream count is missing.
   */
  internalTopicPartitionCounts(external: ReadonlyMap<string, number>): Map<string, number>;
  /**
   * Checks the co-partitioning requirement against the actual partition counts
   * (topic → partitions); throws a TopologyError naming the topics otherwise.
   */
  validatePartitionCounts(partitionCounts: ReadonlyMap<string, number>): void;
  /** The changelog topics of the logged stores (optional for hand-written runtimes: none then). */
  changelogTopics?(applicationId: string): ChangelogTopicInfo[];
  /**
   * The stores restored from their table source's topic instead of a
   * changelog (`reuse.ktable.source.topics`): store name → source topic
   * (optional: none then). Such a store logs nothing.
   */
  sourceChangelogs?(): ReadonlyMap<string, string>;
  /** The regex subscriptions of source nodes, unresolved (none: absent or empty). */
  sourcePatterns?(): ReadonlyArray<SourcePatternInfo>;
  /**
   * This topology with every pattern source reading the topics of `topics`
   * its pattern matches (a TopologyError when a pattern matches none, or a
   * topic matches two patterns); executors call it once, before subscribing.
   */
  resolveSourcePatterns?(topics: readonly string[]): TopologyRuntime;
  /** The global stores (`builder.globalTable`, `Topology.addGlobalStore`); absent or empty without. */
  globalStores?(): ReadonlyArray<GlobalStoreInfo>;
  /** The kind of each state store by name (optional for hand-written runtimes: unknown then); the query API lists and reads stores by it. */
  storeKinds?(): ReadonlyMap<string, StoreKind>;
  /** The state stores of each sub-topology, by id (optional for hand-written runtimes: none then); key metadata finds a store's tasks by it. */
  storesBySubtopology?(): ReadonlyMap<number, readonly string[]>;
  /**
   * The task keeping every global store (Kafka's `GlobalStateUpdateTask`):
   * its sources read the global topics, its processors write the stores; it
   * is fed every partition of those topics and never writes to `collector`.
   */
  createGlobalTask?(collector: RecordCollector, handlers: TaskHandlers, options?: TaskOptions): TaskProcessor | undefined;
  /** Creates the task `taskId` writing to `collector`. */
  createTask(taskId: TaskId, collector: RecordCollector, handlers: TaskHandlers, options?: TaskOptions): TaskProcessor;
}
