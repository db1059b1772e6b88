/**
 * StreamsBuilder: the entry point of the DSL.
 */
import { TopologyError } from '../errors.js';
import type { StateStore, StoreBuilder } from '../state/state-store.js';
import type { ProcessorSupplier } from '../processors/processor.js';
import type { Serde } from '../serdes/serde.js';
import { requireNonNull } from './internal/checks.js';
import { nameOr } from './internal/builder-context.js';
import type { KStream, KTable } from './dsl-interfaces.js';
import { KGroupedTableImpl } from './kgrouped-table.js';
import { KStreamImpl } from './kstream.js';
import type { Consumed, ConsumedWithSerdes } from './options.js';
import type { TimestampExtractor } from '../processors/timestamp-extractors.js';
import { setSourceChangelogTopic, Topology, type SourceTopics } from './topology.js';
import { parseTopologyOptimization, REUSE_KTABLE_SOURCE_TOPICS, type TopologyOptimization } from './internal/optimization.js';
import { DefaultSerde } from './topology-runtime.js';
import type { GlobalKTable } from './global-ktable.js';
import { addGlobalTable, globalSourceNames } from './internal/global-table.js';
import { addTableSource } from './internal/to-table.js';
import { newStoreName, nodeName, suffixedNodeName } from './internal/kafka-names.js';
import { materializedName } from './internal/materialize.js';
import { tableOf, type DslContext } from './ktable.js';
import type { Materialized } from './options.js';

/** Options of a {@link StreamsBuilder}; `KD`/`VD` are the key and value types of its default serdes. */
export interface StreamsBuilderOptions<KD = unknown, VD = unknown> {
  /** Key serde when a stream or sink names none (default: `Serdes.Buffer()` for sources, none for sinks after a key change). */
  defaultKeySerde?: Serde<KD>;
  /** Value serde when a stream or sink names none. */
  defaultValueSerde?: Serde<VD>;
}

/** The props of {@link StreamsBuilder.build} (Kafka's `builder.build(props)`). */
export interface BuildProps {
  /**
   * Kafka's `topology.optimization`: `'none'` (default) or `'all'` (or
   * `'reuse.ktable.source.topics'`): the store of each `builder.table(topic)`
   * source then uses `topic` itself as its changelog: no
   * `<applicationId>-<store>-changelog` topic, nothing logged, restoration
   * reads the source topic up to the committed offset. Requires the table's
   * store serdes to write the bytes of the source topic (the same serdes).
   */
  topologyOptimization?: TopologyOptimization;
}

/**
 * Builds a topology with the DSL. Node names are generated as Kafka Streams
 * does (`KSTREAM-SOURCE-0000000000`, `KSTREAM-FILTER-0000000001`, ...) unless
 * a `Named` / `name` is given.
 *
 * `KD`/`VD`: the key and value types a stream gets when it names no serde —
 * those of the builder's default serdes, else `Buffer` (`Serdes.Buffer()`).
 */
export class StreamsBuilder<KD = Buffer, VD = Buffer> {
  private readonly topology = new Topology();
  private index = 0;
  /** Set by the first `stream()` (every node may be named, so `index` may stay 0). */
  #hasSource = false;
  private readonly ctx: DslContext;
  /** The store of each `table()` source and its topic (for `reuse.ktable.source.topics`). */
  readonly #tableSourceStores = new Map<string, string>();
  /** The source node of each topic set / pattern read by `stream()`, reused when it is read again (Kafka's `mergeDuplicateSourceNodes`). */
  readonly #streamSources = new Map<string, { name: string; timestampExtractor: TimestampExtractor | undefined }>();
  /** The sides of sources that name no serde: bound to the runtime's default serdes, else Buffer (see {@link DefaultSerde}). */
  readonly #runtimeDefaults = { key: new DefaultSerde('key'), value: new DefaultSerde('value') };

  constructor(options: StreamsBuilderOptions<KD, VD> = {}) {
    this.ctx = {
      topology: this.topology,
      dsl: {
        stream: (ctx, name, serdes, keyChanged) => new KStreamImpl(ctx, name, serdes, keyChanged),
        groupedTable: (ctx, name, serdes, groupedName) => new KGroupedTableImpl(ctx, name, serdes, groupedName),
      },
      newName: (prefix) => `${prefix}${String(this.index++).padStart(10, '0')}`,
      defaultKeySerde: options.defaultKeySerde,
      defaultValueSerde: options.defaultValueSerde,
    };
  }

  /**
   * A stream of the records of `topics` (a name, names, or a pattern such as
   * `/orders-.+/` matching whole topic names, resolved once at start: Java's
   * `stream(Pattern)`), deserialized with `consumed`'s serdes.
   * A side without a serde uses the builder's default serde, else the
   * runtime's `defaultKeySerde` / `defaultValueSerde` (KafkaStreams or
   * TopologyTestDriver config, resolved when the topology is built for it),
   * else `Serdes.Buffer()`, and is typed accordingly (`KD`/`VD`: type the
   * builder, `new StreamsBuilder<string, string>()`, when the config gives
   * String defaults); naming stream types that differ therefore needs the
   * serdes that produce them.
   */
  stream<K, V>(topics: SourceTopics, consumed: ConsumedWithSerdes<K, V>): KStream<K, V>;
  stream<K>(topics: SourceTopics, consumed: Consumed<K, VD> & { keySerde: Serde<K> }): KStream<K, VD>;
  stream<V>(topics: SourceTopics, consumed: Consumed<KD, V> & { valueSerde: Serde<V> }): KStream<KD, V>;
  stream(topics: SourceTopics, consumed?: Consumed<KD, VD>): KStream<KD, VD>;
  stream<K, V>(topics: SourceTopics, consumed: Consumed<K, V> = {}): KStream<K, V> {
    const name = nameOr(this.ctx, consumed.name, 'KSTREAM-SOURCE-');
    // The overloads tie K/V to the given serde, else to KD/VD, i.e. to the default serde (whose type is KD/VD) or Buffer.
    const keySerde = (consumed.keySerde ?? this.#defaultKeySerde) as Serde<K>;
    const valueSerde = (consumed.valueSerde ?? this.#defaultValueSerde) as Serde<V>;
    // The same topics (or the same pattern) read again: the stream hangs off the first source node, as Kafka merges
    // duplicate DSL sources (its deserializers and timestamp extractor read for both; the name just taken stays unused).
    const key = subscriptionKey(topics);
    const known = key === undefined ? undefined : this.#streamSources.get(key);
    if (known !== undefined) {
      if (consumed.timestampExtractor !== undefined && consumed.timestampExtractor !== known.timestampExtractor) {
        throw new TopologyError(`builder.stream: source '${known.name}' already reads these topics with another timestamp extractor; read them once, or give the same extractor`);
      }
      return new KStreamImpl<K, V>(this.ctx, known.name, { key: keySerde, value: valueSerde }, false);
    }
    this.topology.addSource<K, V>(name, topics, { keyDeserializer: keySerde, valueDeserializer: valueSerde, ...extractorOf(consumed) });
    if (key !== undefined) this.#streamSources.set(key, { name, timestampExtractor: consumed.timestampExtractor });
    this.#hasSource = true;
    return new KStreamImpl<K, V>(this.ctx, name, { key: keySerde, value: valueSerde }, false);
  }

  /**
   * A table of `topic`: each record is the latest value of its key, a null
   * value deletes it (Kafka's `builder.table`). Serdes as for `stream()`;
   * `materialized` names the store (then the table is materialized and
   * queryable) and its type, logging and caching. Unnamed, the table keeps a
   * store (`<topic>-STATE-STORE-<n>`) only when a downstream node needs to
   * look values up. Nodes: `KSTREAM-SOURCE-<n>` and `KTABLE-SOURCE-<n>`, or
   * `<name>-source` and `<name>` when `consumed.name` is given. Serdes:
   * `consumed`'s, else `materialized`'s, else the defaults.
   */
  table<K, V>(topic: string, consumed: ConsumedWithSerdes<K, V>, materialized?: Materialized<K, V>): KTable<K, V>;
  table<K, V>(topic: string, consumed: Consumed<K, V>, materialized: Materialized<K, V>): KTable<K, V>;
  table(topic: string, consumed?: Consumed<KD, VD>, materialized?: Materialized<KD, VD>): KTable<KD, VD>;
  table<K, V>(topic: string, consumed: Consumed<K, V> = {}, materialized?: Materialized<K, V>): KTable<K, V> {
    requireNonNull(topic, 'topic');
    requireNonNull(consumed, 'consumed');
    if (materialized === null) requireNonNull(materialized, 'materialized');
    if (typeof topic !== 'string') throw new TopologyError('builder.table reads one topic, given by name');
    // Kafka's order of names (InternalStreamsBuilder.table): 1. the store (`<topic>-STATE-STORE-<n>` unless named),
    // 2. the source (`<name>-source` when Consumed names it), 3. the table source (`<name>`); 2 and 3 consume an index even when named.
    const storeName = materializedName(materialized as Materialized<unknown, unknown> | undefined) ?? newStoreName(this.ctx, `${topic}-`);
    const sourceName = suffixedNodeName(this.ctx, consumed.name, '-source', 'KSTREAM-SOURCE-');
    const tableSourceName = nodeName(this.ctx, consumed.name, 'KTABLE-SOURCE-');
    // Serdes: Consumed's, else Materialized's (Kafka copies Consumed's into the Materialized), else the defaults.
    const keySerde = (consumed.keySerde ?? materialized?.keySerde ?? this.#defaultKeySerde) as Serde<K>;
    const valueSerde = (consumed.valueSerde ?? materialized?.valueSerde ?? this.#defaultValueSerde) as Serde<V>;
    this.topology.addSource<K, V>(sourceName, topic, { keyDeserializer: keySerde, valueDeserializer: valueSerde, ...extractorOf(consumed) });
    this.#hasSource = true;
    this.#tableSourceStores.set(storeName, topic);
    return tableOf(this.ctx, addTableSource<K, V>(this.ctx, tableSourceName, sourceName, storeName, materialized, keySerde, valueSerde));
  }

  /**
   * A table of `topic` replicated in full on every instance (Kafka's
   * `builder.globalTable`): restored before the app is RUNNING and kept up
   * to date while it runs; joined from a stream with
   * `stream.join(globalTable, keySelector, joiner)`.
   */
  globalTable<K, V>(topic: string, consumed: ConsumedWithSerdes<K, V>, materialized?: Materialized<K, V>): GlobalKTable<K, V>;
  /** Serdes named by `materialized` only: the records are read with them (Kafka's `globalTable(topic, materialized)`). */
  globalTable<K, V>(topic: string, consumed: Consumed<K, V>, materialized: Materialized<K, V>): GlobalKTable<K, V>;
  globalTable(topic: string, consumed?: Consumed<KD, VD>, materialized?: Materialized<KD, VD>): GlobalKTable<KD, VD>;
  globalTable<K, V>(topic: string, consumed: Consumed<K, V> = {}, materialized: Materialized<K, V> = {}): GlobalKTable<K, V> {
    requireNonNull(topic, 'topic');
    requireNonNull(consumed, 'consumed');
    // As Kafka: a side `consumed` names no serde for is read with `materialized`'s serde, else the default.
    const keySerde = (consumed.keySerde ?? materialized?.keySerde ?? this.#defaultKeySerde) as Serde<K>;
    const valueSerde = (consumed.valueSerde ?? materialized?.valueSerde ?? this.#defaultValueSerde) as Serde<V>;
    this.#hasSource = true;
    return addGlobalTable<K, V>(this.ctx, topic, { ...consumed, keySerde, valueSerde }, materialized);
  }

  /**
   * Adds a global store kept by `stateUpdateSupplier` from `topic` (Kafka's
   * `StreamsBuilder.addGlobalStore`; see `Topology.addGlobalStore`): logging
   * is disabled (the topic is the changelog); the source is
   * `<consumed name>-source`, else `KSTREAM-SOURCE-<n>`, the processor the
   * consumed name, else `KTABLE-SOURCE-<n>`.
   */
  addGlobalStore<K, V>(storeBuilder: StoreBuilder<StateStore>, topic: string, consumed: Consumed<K, V>, stateUpdateSupplier: ProcessorSupplier<K, V, void, void>): this {
    requireNonNull(storeBuilder, 'storeBuilder');
    requireNonNull(consumed, 'consumed');
    storeBuilder.withLoggingDisabled();
    const { sourceName, processorName } = globalSourceNames(this.ctx, consumed.name);
    const keySerde = (consumed.keySerde ?? this.#defaultKeySerde) as Serde<K>;
    const valueSerde = (consumed.valueSerde ?? this.#defaultValueSerde) as Serde<V>;
    this.topology.addGlobalStore<K, V>(storeBuilder, sourceName, { keySerde, valueSerde, ...extractorOf(consumed) }, topic, processorName, stateUpdateSupplier);
    this.#hasSource = true;
    return this;
  }

  /** The builder's default key serde, else the runtime's (`Serdes.Buffer()` without one; then `KD` is `Buffer`). */
  get #defaultKeySerde(): Serde<KD> | Serde<Buffer> {
    return (this.ctx.defaultKeySerde as Serde<KD> | undefined) ?? (this.#runtimeDefaults.key as Serde<Buffer>);
  }

  /** The builder's default value serde, else the runtime's (`Serdes.Buffer()` without one; then `VD` is `Buffer`). */
  get #defaultValueSerde(): Serde<VD> | Serde<Buffer> {
    return (this.ctx.defaultValueSerde as Serde<VD> | undefined) ?? (this.#runtimeDefaults.value as Serde<Buffer>);
  }

  /** Adds a state store for `stream.process(supplier, storeName)`. */
  addStateStore(storeBuilder: StoreBuilder<StateStore>): this {
    requireNonNull(storeBuilder, 'builder');
    this.topology.addStateStore(storeBuilder);
    return this;
  }

  /**
   * The built topology, validated (a TopologyError names what is wrong);
   * `props.topologyOptimization` as Kafka's `builder.build(props)` (see {@link BuildProps}).
   */
  build(props: BuildProps = {}): Topology {
    if (!this.#hasSource) throw new TopologyError('StreamsBuilder.build(): the topology is empty; add a stream with builder.stream(topic)');
    const reuseSourceTopics = parseTopologyOptimization(requireNonNull(props, 'props').topologyOptimization).has(REUSE_KTABLE_SOURCE_TOPICS);
    for (const [store, topic] of this.#tableSourceStores) setSourceChangelogTopic(this.topology, store, reuseSourceTopics ? topic : undefined);
    this.topology.validate();
    return this.topology;
  }
}

/** The `timestampExtractor` of `consumed` as a source option (none: nothing). */
function extractorOf<K, V>(consumed: Consumed<K, V>): { timestampExtractor?: TimestampExtractor } {
  return consumed.timestampExtractor === undefined ? {} : { timestampExtractor: consumed.timestampExtractor };
}

/** What makes two `stream()` subscriptions the same source (Kafka: equal topic sets, or equal pattern text and flags). */
function subscriptionKey(topics: SourceTopics): string | undefined {
  if (topics instanceof RegExp) return `pattern:${topics.flags}:${topics.source}`;
  if (typeof topics === 'string') return `topics:${JSON.stringify([topics])}`;
  if (!Array.isArray(topics)) return undefined;
  return `topics:${JSON.stringify([...new Set(topics as readonly string[])].sort())}`;
}
