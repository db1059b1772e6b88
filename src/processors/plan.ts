/**
 * A validated, immutable topology plan: what the topology layer hands the
 * task implementation. Built by `src/topology`, consumed by `stream-task.ts`.
 */
import type { Deserializer, Serializer } from '../serdes/serde.js';
import type { ProcessorSupplier, StreamPartitioner, TopicNameExtractor } from './processor.js';
import type { StateStore, StoreBuilder } from '../state/state-store.js';
import type { ResolvedExtractor } from './timestamp-extractors.js';

/** A source node: reads topics and deserializes. */
export interface SourceNodeDef {
  kind: 'source';
  name: string;
  /** The topics read; for a pattern source, the matching topics once resolved (empty before). */
  topics: string[];
  /**
   * A regex subscription (`builder.stream(/orders-.+/)`): matches a whole
   * topic name (anchored, as Java's `Pattern.matcher(topic).matches()`).
   */
  pattern?: RegExp;
  /** The pattern as the user wrote it (`orders-.*`), as `describe()` prints it. */
  topicPattern?: string;
  keyDeserializer: Deserializer<unknown>;
  valueDeserializer: Deserializer<unknown>;
  /** The source's timestamp extractor (`Consumed.withTimestampExtractor`); absent: the task's default. */
  timestampExtractor?: ResolvedExtractor;
}

/** A processor node. */
export interface ProcessorNodeDef {
  kind: 'processor';
  name: string;
  supplier: ProcessorSupplier<unknown, unknown, unknown, unknown>;
  parents: string[];
  stores: string[];
}

/** A sink node: hands records to the collector. */
export interface SinkNodeDef {
  kind: 'sink';
  name: string;
  topic: string | TopicNameExtractor;
  keySerializer: Serializer<unknown>;
  valueSerializer: Serializer<unknown>;
  partitioner?: StreamPartitioner;
  parents: string[];
}

/** Any node. */
export type NodeDef = SourceNodeDef | ProcessorNodeDef | SinkNodeDef;

/** A state store of the topology. */
export interface StoreDef {
  name: string;
  builder: StoreBuilder<StateStore>;
  /**
   * Set on the store of a `builder.table(topic)` source when the topology was
   * built with `topologyOptimization: 'all'` (Kafka's
   * `reuse.ktable.source.topics`): the source topic is the store's changelog.
   * No `-changelog` topic is created, nothing is logged, restoration reads
   * the task's partition of this topic up to the group's committed offset,
   * and the store's checkpoint is that committed offset.
   */
  sourceChangelogTopic?: string;
}

/** One sub-topology: a connected component of nodes. */
export interface SubtopologyPlan {
  id: number;
  /** Node names, parents before children. */
  nodes: string[];
  sourceTopics: string[];
  sinkTopics: string[];
  stores: string[];
}

/**
 * A global store (Kafka's `addGlobalStore`): a store every instance keeps in
 * full, read from all partitions of `topic` by the source `sourceName` and
 * kept by the processor `processorName`. Not part of any task: its nodes are
 * in `nodes` but in no entry of `subtopologies`.
 */
export interface GlobalStorePlan {
  /** The sub-topology id `describe()` prints (`Sub-topology: 0 for global store`). */
  id: number;
  storeName: string;
  topic: string;
  sourceName: string;
  processorName: string;
}

/** The whole validated topology. */
export interface TopologyPlan {
  nodes: ReadonlyMap<string, NodeDef>;
  /** Children of each node in the order they were connected. */
  children: ReadonlyMap<string, string[]>;
  stores: ReadonlyMap<string, StoreDef>;
  subtopologies: SubtopologyPlan[];
  /**
   * Internal (repartition) topics written and read by the topology, by the
   * names used in its nodes. Unresolved in a topology's own plan (e.g.
   * `KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition`); resolved to
   * `<applicationId>-<name>` once an executor knows the application id.
   */
  internalTopics: string[];
  /** Internal topics with a fixed partition count (`Repartitioned.withNumberOfPartitions`), by the names used in `internalTopics`. */
  internalTopicPartitions?: ReadonlyMap<string, number>;
  /**
   * Co-partition groups (joins): the source topics feeding each group of
   * nodes given to `Topology.copartition`, which must have equal partition
   * counts (internal topics among them are sized to match). Named as in `nodes`.
   */
  copartitionGroups?: string[][];
  /** The source nodes behind each of `copartitionGroups` (to recompute it once source patterns are resolved). */
  copartitionSources?: string[][];
  /**
   * Internal topics whose partition count is that of the other source topics
   * of the sub-topology reading them, not of the one writing them (a
   * foreign-key join's subscription topic is co-partitioned with the right
   * table, its response topic with the left one).
   */
  internalTopicsSizedByReaders?: readonly string[];
  /** Global stores (their source topics are read by no task); absent or empty without. */
  globalStores?: readonly GlobalStorePlan[];
}
