/**
 * The low-level topology: sources, processors, sinks and state stores wired
 * by name, as Kafka Streams' `Topology`.
 */
import { TopologyError } from '../errors.js';
import type { NodeDef, StoreDef, TopologyPlan } from '../processors/plan.js';
import { suppliedStores, type ProcessorSupplier, type StreamPartitioner, type TopicNameExtractor } from '../processors/processor.js';
import type { StateStore, StoreBuilder } from '../state/state-store.js';
import { resolveTimestampExtractor, type TimestampExtractor } from '../processors/timestamp-extractors.js';
import type { Deserializer, Serde, Serializer } from '../serdes/serde.js';
import { describePlan, type TopologyDescription } from './description.js';
import { DefaultSerde } from './internal/default-serde.js';
import { TopologyGraph } from './internal/graph.js';
import { anchoredPattern } from './internal/source-patterns.js';
import { defined } from '../internal/defined.js';

/**
 * Deserializers of a source node; default (none given, or `null`): the app's
 * `defaultKeySerde` / `defaultValueSerde`, else `Serdes.Buffer()`. Give either a
 * serde (`keySerde`, as the DSL takes) or a bare deserializer
 * (`keyDeserializer`, as Java's `addSource` takes); the deserializer wins
 * when both are given.
 */
export interface SourceOptions<K = unknown, V = unknown> {
  keyDeserializer?: Deserializer<K>;
  valueDeserializer?: Deserializer<V>;
  /** A serde whose deserializing half reads the keys. */
  keySerde?: Serde<K>;
  /** A serde whose deserializing half reads the values. */
  valueSerde?: Serde<V>;
  /** The source's timestamp extractor (Java's `addSource(..., timestampExtractor, ...)`); default: the app's `defaultTimestampExtractor`. */
  timestampExtractor?: TimestampExtractor;
}

/**
 * Serializers and partitioner of a sink node; default serdes (none given, or
 * `null`): the app's `defaultKeySerde` / `defaultValueSerde`, else `Serdes.Buffer()`.
 * Give either a serde (`keySerde`) or a bare serializer (`keySerializer`);
 * the serializer wins when both are given.
 */
export interface SinkOptions<K = unknown, V = unknown> {
  keySerializer?: Serializer<K>;
  valueSerializer?: Serializer<V>;
  /** A serde whose serializing half writes the keys. */
  keySerde?: Serde<K>;
  /** A serde whose serializing half writes the values. */
  valueSerde?: Serde<V>;
  /** Chooses the partition; default: murmur2 of the serialized key (by the collector). */
  partitioner?: StreamPartitioner<K, V>;
}

/** What a source reads: a topic, topics, or a pattern matching whole topic names (`/orders-.+/`). */
export type SourceTopics = string | readonly string[] | RegExp;

const graphs = new WeakMap<Topology, TopologyGraph>();

/** The validated plan of a topology (internal: for the runtime seam and the test driver). */
export function planOf(topology: Topology): TopologyPlan {
  const graph = graphs.get(topology);
  if (graph === undefined) throw new TopologyError('Not a sluice Topology: build one with new Topology() or StreamsBuilder.build()');
  return graph.plan();
}

/**
 * The nodes of `topology` added so far, its internal topics and its stores
 * (internal: for walks up the DSL graph at build time, e.g. the grace search
 * of `suppress(Suppressed.untilWindowCloses(...))`, or the versioned-store
 * check of a stream–table join with a grace period). Read-only views.
 */
export function graphNodesOf(topology: Topology): { nodes: ReadonlyMap<string, NodeDef>; internalTopics: ReadonlySet<string>; stores: ReadonlyMap<string, StoreDef> } {
  const graph = graphs.get(topology);
  if (graph === undefined) throw new TopologyError('Not a sluice Topology: build one with new Topology() or StreamsBuilder.build()');
  return { nodes: graph.nodes, internalTopics: graph.internalTopics, stores: graph.stores };
}

/**
 * Marks `topic` (an unresolved name such as `counts-repartition`) as an
 * internal topic of `topology`: executors prefix it with `<applicationId>-`
 * and the runtime creates it (internal: used by the DSL's repartitioning),
 * with `numberOfPartitions` when given, else sized as its upstream topics.
 */
export function addInternalTopic(topology: Topology, topic: string, numberOfPartitions?: number): void {
  const graph = graphs.get(topology);
  if (graph === undefined) throw new TopologyError('Not a sluice Topology: build one with new Topology() or StreamsBuilder.build()');
  if (graph.internalTopics.has(topic)) {
    throw new TopologyError(`Internal topic '${topic}' is already used by this topology; give the grouping another name with Grouped.as('<name>')`);
  }
  graph.internalTopics.add(topic);
  if (numberOfPartitions !== undefined) graph.internalTopicPartitions.set(topic, numberOfPartitions);
}

/**
 * Marks the internal topic `topic` (added with {@link addInternalTopic}) as
 * sized by the sub-topology reading it: its partition count is that of that
 * sub-topology's other source topics (internal: a foreign-key join's
 * subscription and response topics, co-partitioned with the table they meet).
 */
export function sizeInternalTopicByReaders(topology: Topology, topic: string): void {
  const graph = graphs.get(topology);
  if (graph === undefined || !graph.internalTopics.has(topic)) throw new TopologyError(`'${topic}' is not an internal topic of this topology; add it with addInternalTopic first`);
  graph.internalTopicsSizedByReaders.add(topic);
}

/**
 * Makes `topic` the changelog of the store `storeName` (Kafka's
 * `connectSourceStoreAndTopic`, for `reuse.ktable.source.topics`), or undoes
 * it with `undefined`; a store the topology does not have is left alone
 * (an unmaterialized table source has none). Internal: used by `StreamsBuilder.build`.
 */
export function setSourceChangelogTopic(topology: Topology, storeName: string, topic: string | undefined): void {
  const graph = graphs.get(topology);
  if (graph === undefined) throw new TopologyError('Not a sluice Topology: build one with new Topology() or StreamsBuilder.build()');
  const def = graph.stores.get(storeName);
  if (def === undefined) return;
  const { sourceChangelogTopic: _previous, ...rest } = def;
  graph.stores.set(storeName, topic === undefined ? rest : { ...rest, sourceChangelogTopic: topic });
}

function checkNames(kind: string, names: readonly unknown[]): string[] {
  for (const n of names) {
    if (typeof n !== 'string' || n === '') throw new TopologyError(`${kind}: expected non-empty node names, got ${JSON.stringify(n)}`);
  }
  return [...new Set(names as string[])];
}

/**
 * A processing topology. Nodes are referred to by name; parents may be added
 * in any order. Structural checks (unknown parent, cycle, unconnected store)
 * run in `validate()`, which `describe()` and every executor call; a
 * duplicate name, a topic read twice or a sink without topic fail at once.
 */
export class Topology {
  constructor() {
    graphs.set(this, new TopologyGraph());
  }

  private get graph(): TopologyGraph {
    return defined(graphs.get(this), 'graph of this Topology (set by its constructor)');
  }

  /**
   * Adds a source node `name` reading `topics`: names, or a pattern
   * (`/orders-.+/`, Java's `Pattern`) matching whole topic names. A pattern
   * is resolved against the cluster's topics once, at start (the test driver:
   * as topics are piped); no topic may be both named by one source and
   * matched by another's pattern.
   */
  addSource<K = Buffer, V = Buffer>(name: string, topics: SourceTopics, options: SourceOptions<K, V> = {}): this {
    const pattern = topics instanceof RegExp ? topics : undefined;
    const list = typeof topics === 'string' ? [topics] : pattern !== undefined ? [] : [...((topics as readonly string[] | null) ?? [])];
    if (pattern === undefined && (list.length === 0 || list.some((t) => typeof t !== 'string' || t === ''))) {
      throw new TopologyError(`Source '${name}' needs at least one non-empty topic name or a pattern (/orders-.+/); got ${JSON.stringify(topics)}`);
    }
    this.graph.addNode({
      kind: 'source',
      name,
      topics: [...new Set(list)],
      ...(pattern !== undefined ? { pattern: anchoredPattern(pattern), topicPattern: pattern.source } : {}),
      keyDeserializer: (options.keyDeserializer ?? options.keySerde ?? new DefaultSerde('key')) as Deserializer<unknown>,
      valueDeserializer: (options.valueDeserializer ?? options.valueSerde ?? new DefaultSerde('value')) as Deserializer<unknown>,
      ...(options.timestampExtractor !== undefined ? { timestampExtractor: resolveTimestampExtractor(options.timestampExtractor, `The timestampExtractor of source '${name}'`) } : {}),
    });
    return this;
  }

  /**
   * Adds a processor node `name` receiving the records of `parentNames`. When
   * `supplier` declares stores (`stores()`, Kafka's `ConnectedStoreProvider`),
   * each is added (a builder already added is shared) and connected to it.
   */
  addProcessor<KIn, VIn, KOut, VOut>(
    name: string,
    supplier: ProcessorSupplier<KIn, VIn, KOut, VOut>,
    ...parentNames: string[]
  ): this {
    this.addProcessorNode(name, supplier, parentNames);
    for (const storeBuilder of suppliedStores(supplier, name)) this.addStateStore(storeBuilder, name);
    return this;
  }

  private addProcessorNode<KIn, VIn, KOut, VOut>(name: string, supplier: ProcessorSupplier<KIn, VIn, KOut, VOut>, parentNames: string[]): void {
    if (supplier === null || (typeof supplier !== 'function' && typeof (supplier as { get?: unknown })?.get !== 'function')) {
      throw new TopologyError(`Processor '${name}' needs a supplier: a function returning a new Processor, or an object with get()`);
    }
    this.graph.addNode({
      kind: 'processor',
      name,
      supplier: supplier as ProcessorSupplier<unknown, unknown, unknown, unknown>,
      parents: checkNames(`Processor '${name}'`, parentNames),
      stores: [],
    });
  }

  /**
   * Adds a sink node `name` writing to `topic` (or to the topic an extractor
   * chooses per record). Options are optional: `addSink(name, topic, ...parents)`
   * or `addSink(name, topic, options, ...parents)`.
   */
  addSink<K = Buffer, V = Buffer>(
    name: string,
    topic: string | TopicNameExtractor<K, V>,
    optionsOrParent?: SinkOptions<K, V> | string,
    ...parentNames: string[]
  ): this {
    if (!(typeof topic === 'function' || (typeof topic === 'string' && topic !== ''))) {
      throw new TopologyError(`Sink '${name}' has no topic: give a topic name or a TopicNameExtractor (key, value, context) => topic`);
    }
    const options = typeof optionsOrParent === 'object' && optionsOrParent !== null ? optionsOrParent : {};
    const parents = typeof optionsOrParent === 'string' ? [optionsOrParent, ...parentNames] : parentNames;
    this.graph.addNode({
      kind: 'sink',
      name,
      topic: topic as string | TopicNameExtractor,
      keySerializer: (options.keySerializer ?? options.keySerde ?? new DefaultSerde('key')) as Serializer<unknown>,
      valueSerializer: (options.valueSerializer ?? options.valueSerde ?? new DefaultSerde('value')) as Serializer<unknown>,
      ...(options.partitioner ? { partitioner: options.partitioner as StreamPartitioner } : {}),
      parents: checkNames(`Sink '${name}'`, parents),
    });
    return this;
  }

  /**
   * Adds a state store (one instance per task) and connects it to
   * `processorNames`. Adding the same builder again only connects it (Kafka's
   * rule); another builder of an existing store's name is a TopologyError.
   */
  addStateStore(storeBuilder: StoreBuilder<StateStore>, ...processorNames: string[]): this {
    if (!storeBuilder || typeof storeBuilder.build !== 'function' || typeof storeBuilder.name !== 'string' || storeBuilder.name === '') {
      throw new TopologyError('addStateStore needs a store builder with a name, e.g. Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), keySerde, valueSerde)');
    }
    this.graph.addStore({ name: storeBuilder.name, builder: storeBuilder });
    for (const processor of checkNames(`State store '${storeBuilder.name}'`, processorNames)) {
      this.graph.connect(processor, [storeBuilder.name]);
    }
    return this;
  }

  /**
   * Adds a global store (Kafka's `addGlobalStore`): every instance keeps it
   * in full, read from all partitions of `topic` (deserialized as `options`
   * says) by the source `sourceName` and kept by the processor
   * `processorName` of `stateUpdateSupplier` (it writes what it receives into
   * the store and forwards nothing). It is restored before the app is
   * RUNNING and kept up to date while it runs; the topic is the store's
   * changelog, so the builder must have logging disabled. Every processor
   * reads it with `getStateStore(name)`, without a connection.
   */
  addGlobalStore<K = Buffer, V = Buffer>(
    storeBuilder: StoreBuilder<StateStore>,
    sourceName: string,
    options: SourceOptions<K, V>,
    topic: string,
    processorName: string,
    stateUpdateSupplier: ProcessorSupplier<K, V, void, void>,
  ): this {
    if (!storeBuilder || typeof storeBuilder.build !== 'function' || typeof storeBuilder.name !== 'string' || storeBuilder.name === '') {
      throw new TopologyError('addGlobalStore needs a store builder with a name, e.g. Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), keySerde, valueSerde).withLoggingDisabled()');
    }
    this.graph.checkNewGlobalStoreName(storeBuilder.name);
    if (storeBuilder.loggingEnabled) throw new TopologyError(`StateStore ${storeBuilder.name} for global table must not have logging enabled.`);
    if (sourceName === processorName) throw new TopologyError('sourceName and processorName must be different.');
    if (typeof topic !== 'string' || topic === '') throw new TopologyError(`Global store '${storeBuilder.name}' needs the name of the topic it reads; got ${JSON.stringify(topic)}`);
    this.addSource<K, V>(sourceName, topic, options);
    // The supplier's own stores() are not added: Kafka's addGlobalStore ignores them too.
    this.addProcessorNode(processorName, stateUpdateSupplier, [sourceName]);
    this.addStateStore(storeBuilder, processorName);
    this.graph.globalStores.set(storeBuilder.name, { storeName: storeBuilder.name, topic, sourceName, processorName });
    return this;
  }

  /** Gives processor `processorName` access to the stores `storeNames`. */
  connectProcessorAndStateStores(processorName: string, ...storeNames: string[]): this {
    if (storeNames.length === 0) {
      throw new TopologyError(`connectProcessorAndStateStores('${processorName}'): name at least one state store`);
    }
    this.graph.connect(processorName, checkNames(`Processor '${processorName}'`, storeNames));
    return this;
  }

  /**
   * @internal Marks the inputs of `nodeNames` (a join's two sides) as
   * co-partitioned: the source topics feeding them must have the same
   * partition count, checked at start (repartition topics among them are
   * created with the count of the others), as Kafka's copartition groups.
   */
  copartition(...nodeNames: string[]): this {
    this.graph.copartitionGroups.push(checkNames('copartition', nodeNames));
    return this;
  }

  /** Checks the structure; throws a TopologyError naming the node and the fix. */
  validate(): void {
    this.graph.plan();
  }

  /** Describes the topology (validating it first). */
  describe(): TopologyDescription {
    return describePlan(this.graph.plan());
  }
}
