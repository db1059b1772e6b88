/**
 * KStream: the record-stream abstraction of the DSL.
 */
import { TopologyError } from '../errors.js';
import * as dsl from '../processors/dsl/stateless.js';
import type { KeyValue } from '../records/key-value.js';
import type { ProcessorSupplier, StreamPartitioner, TopicNameExtractor } from '../processors/processor.js';
import * as async from '../processors/async-processor.js';
import type { FixedKeyProcessorSupplier } from '../processors/fixed-key-processor.js';
import { processStream, processStreamValues } from './internal/process.js';
import type { Serde } from '../serdes/serde.js';
import { BranchedKStreamImpl } from './branched-kstream.js';
import type { BranchedKStream, KGroupedStream, KStream, KTable } from './dsl-interfaces.js';
import { requireFunction, requireNonNull, validateName } from './internal/checks.js';
import { nameOr, type StreamSerdes } from './internal/builder-context.js';
import type { NewStream } from './internal/dsl-parts.js';
import { KGroupedStreamImpl } from './kgrouped-stream.js';
import type { Grouped, Materialized, Named, Produced } from './options.js';
import type { Printed } from './printed.js';
import { addRepartitionOperation } from './internal/repartition.js';
import { checkNumberOfPartitions, type Repartitioned } from './repartitioned.js';
import { DefaultSerde } from './topology-runtime.js';
import { GlobalKTable } from './global-ktable.js';
import { materializedName, namedAndMaterialized } from './internal/materialize.js';
import { streamGlobalJoin } from './internal/stream-global-join.js';
import { streamStreamJoin, type StreamJoinKind } from './internal/stream-stream-join.js';
import { streamTableJoin } from './internal/stream-table-join.js';
import { addTableSource } from './internal/to-table.js';
import { windowedStreamPartitioner } from './internal/windowed-partitioner.js';
import { newStoreName, nodeName } from './internal/kafka-names.js';
import type { Joined } from './joined.js';
import type { JoinWindows } from './join-windows.js';
import type { AnyValueJoiner } from './joiners.js';
import type { ValueMapper, ValueMapperWithKey } from './value-mappers.js';
import { resolveMapper } from './internal/key-first.js';
import { KTableImpl, tableOf, type DslContext } from './ktable.js';
import type { StreamJoined } from './stream-joined.js';

/** @internal The implementation of {@link KStream} (dsl-interfaces.ts). */
export class KStreamImpl<K, V> implements KStream<K, V> {
  /** @internal Use `StreamsBuilder.stream()`. */
  constructor(
    /** @internal */
    readonly ctx: DslContext,
    /** The name of the node this stream reads from. */
    readonly nodeName: string,
    /** @internal Serdes of the stream, where known. */
    readonly serdes: StreamSerdes<K, V>,
    /** True after an operation that may have changed the key (map, selectKey, flatMap, process). */
    readonly keyChanged: boolean,
  ) {}

  private add<K2, V2>(
    prefix: string,
    supplier: ProcessorSupplier<K, V, K2, V2>,
    named: Named | string | undefined,
    serdes: StreamSerdes<K2, V2>,
    keyChanged: boolean,
    parents: string[] = [this.nodeName],
  ): KStream<K2, V2> {
    if (named === null) requireNonNull(named, 'named');
    const name = nameOr(this.ctx, named, prefix);
    this.ctx.topology.addProcessor(name, supplier, ...parents);
    return new KStreamImpl<K2, V2>(this.ctx, name, serdes, keyChanged);
  }

  /** The stream of a node the wiring of `internal/` added. */
  private streamOf<K2, V2>(stream: NewStream<K2, V2>): KStream<K2, V2> {
    return new KStreamImpl<K2, V2>(this.ctx, stream.nodeName, stream.serdes, stream.keyChanged);
  }

  filter(predicate: (key: K, value: V) => boolean, named?: Named | string): KStream<K, V> {
    requireFunction(predicate, 'predicate');
    return this.add('KSTREAM-FILTER-', dsl.filterSupplier(predicate, false), named, this.serdes, this.keyChanged);
  }

  filterNot(predicate: (key: K, value: V) => boolean, named?: Named | string): KStream<K, V> {
    requireFunction(predicate, 'predicate');
    return this.add('KSTREAM-FILTER-', dsl.filterSupplier(predicate, true), named, this.serdes, this.keyChanged);
  }

  map<KR, VR>(mapper: (key: K, value: V) => KeyValue<KR, VR>, named?: Named | string): KStream<KR, VR> {
    requireFunction(mapper, 'mapper');
    return this.add('KSTREAM-MAP-', dsl.mapSupplier(mapper), named, {}, true);
  }

  mapValues<VR>(mapper: ValueMapper<V, VR> | ValueMapperWithKey<K, V, VR>, named?: Named | string): KStream<K, VR> {
    const resolved = resolveMapper(mapper, 'valueMapper');
    return this.add('KSTREAM-MAPVALUES-', dsl.mapValuesSupplier(resolved), named, { key: this.serdes.key }, this.keyChanged);
  }

  selectKey<KR>(mapper: (key: K, value: V) => KR, named?: Named | string): KStream<KR, V> {
    requireFunction(mapper, 'mapper');
    return this.add('KSTREAM-KEY-SELECT-', dsl.selectKeySupplier(mapper), named, { value: this.serdes.value }, true);
  }

  flatMap<KR, VR>(mapper: (key: K, value: V) => Iterable<KeyValue<KR, VR>>, named?: Named | string): KStream<KR, VR> {
    requireFunction(mapper, 'mapper');
    return this.add('KSTREAM-FLATMAP-', dsl.flatMapSupplier(mapper), named, {}, true);
  }

  flatMapValues<VR>(mapper: ValueMapper<V, Iterable<VR>> | ValueMapperWithKey<K, V, Iterable<VR>>, named?: Named | string): KStream<K, VR> {
    const resolved = resolveMapper(mapper, 'valueMapper');
    return this.add('KSTREAM-FLATMAPVALUES-', dsl.flatMapValuesSupplier(resolved), named, { key: this.serdes.key }, this.keyChanged);
  }

  peek(action: (key: K, value: V) => unknown, named?: Named | string): KStream<K, V> {
    requireFunction(action, 'action');
    return this.add('KSTREAM-PEEK-', dsl.peekSupplier(action, true), named, this.serdes, this.keyChanged);
  }

  foreach(action: (key: K, value: V) => unknown, named?: Named | string): void {
    requireFunction(action, 'action');
    this.add('KSTREAM-FOREACH-', dsl.peekSupplier(action, false), named, this.serdes, this.keyChanged);
  }

  mapValuesAsync<VR>(mapper: ValueMapper<V, VR | PromiseLike<VR>> | ValueMapperWithKey<K, V, VR | PromiseLike<VR>>, options?: async.AsyncOptions): KStream<K, VR> {
    const resolved = resolveMapper(mapper, 'valueMapper');
    const supplier = async.mapValuesAsyncSupplier(resolved, async.checkedConcurrency(options));
    return this.add('KSTREAM-MAPVALUES-ASYNC-', supplier, options?.named, { key: this.serdes.key }, this.keyChanged);
  }

  flatMapValuesAsync<VR>(
    mapper: ValueMapper<V, Iterable<VR> | PromiseLike<Iterable<VR>>> | ValueMapperWithKey<K, V, Iterable<VR> | PromiseLike<Iterable<VR>>>,
    options?: async.AsyncOptions,
  ): KStream<K, VR> {
    const resolved = resolveMapper(mapper, 'valueMapper');
    const supplier = async.flatMapValuesAsyncSupplier(resolved, async.checkedConcurrency(options));
    return this.add('KSTREAM-FLATMAPVALUES-ASYNC-', supplier, options?.named, { key: this.serdes.key }, this.keyChanged);
  }

  filterAsync(predicate: (key: K, value: V) => boolean | PromiseLike<boolean>, options?: async.AsyncOptions): KStream<K, V> {
    requireFunction(predicate, 'predicate');
    return this.add('KSTREAM-FILTER-ASYNC-', async.filterAsyncSupplier(predicate, async.checkedConcurrency(options)), options?.named, this.serdes, this.keyChanged);
  }

  foreachAsync(action: (key: K, value: V) => unknown, options?: async.AsyncOptions): void {
    requireFunction(action, 'action');
    this.add('KSTREAM-FOREACH-ASYNC-', async.foreachAsyncSupplier(action, async.checkedConcurrency(options)), options?.named, this.serdes, this.keyChanged);
  }

  print(printed: Printed<K, V>): void {
    requireNonNull(printed, 'printed');
    let nodeName = '';
    const action = (key: K, value: V): void => void process.stdout.write(printed.line(nodeName, key, value));
    nodeName = this.add('KSTREAM-PRINTER-', dsl.peekSupplier(action, false), printed.processorName, this.serdes, this.keyChanged).nodeName;
  }

  merge(other: KStream<K, V>, named?: Named | string): KStream<K, V> {
    requireNonNull(other, 'stream');
    if (!(other instanceof KStreamImpl) || other.ctx !== this.ctx) {
      throw new TopologyError(`merge: both streams must come from the same StreamsBuilder (merging into '${this.nodeName}')`);
    }
    const serdes = { key: this.serdes.key ?? other.serdes.key, value: this.serdes.value ?? other.serdes.value };
    const parents = [this.nodeName, other.nodeName];
    return this.add('KSTREAM-MERGE-', dsl.passThroughSupplier(), named, serdes, this.keyChanged || other.keyChanged, parents);
  }

  split(named?: Named | string): BranchedKStream<K, V> {
    if (named === null) requireNonNull(named, 'named');
    const name = nameOr(this.ctx, named, 'KSTREAM-BRANCH-');
    return new BranchedKStreamImpl<K, V>(this.ctx, this, name, (n, supplier, parents, keyChanged) =>
      this.add<K, V>(n, supplier, n, this.serdes, keyChanged, parents),
    );
  }

  process<KOut, VOut>(supplier: ProcessorSupplier<K, V, KOut, VOut>, ...args: Array<string | Named>): KStream<KOut, VOut> {
    return this.streamOf(processStream(this, supplier, args));
  }

  processValues<VOut>(supplier: FixedKeyProcessorSupplier<K, V, VOut>, ...args: Array<string | Named>): KStream<K, VOut> {
    return this.streamOf(processStreamValues(this, supplier, args));
  }

  to(topic: string | TopicNameExtractor<K, V>, produced: Produced<K, V> = {}): void {
    requireNonNull(topic, 'topic');
    requireNonNull(produced, 'produced');
    const name = nameOr(this.ctx, produced.name, 'KSTREAM-SINK-');
    const target = typeof topic === 'string' ? `'${topic}'` : 'a TopicNameExtractor';
    const serdes = this.serdesOr(produced.keySerde, produced.valueSerde, `Sink '${name}' (to ${target} after '${this.nodeName}')`);
    // windowed keys without a partitioner: by the inner key, as Kafka's StreamSinkNode picks WindowedStreamPartitioner
    const partitioner = produced.partitioner ?? (windowedStreamPartitioner(serdes.keySerde) as StreamPartitioner<K, V> | undefined);
    this.ctx.topology.addSink<K, V>(name, topic, { ...serdes, ...(partitioner ? { partitioner } : {}) }, this.nodeName);
  }

  groupByKey(grouped: Grouped<K, V> = {}): KGroupedStream<K, V> {
    requireNonNull(grouped, 'grouped');
    if (grouped.name !== undefined) validateName(grouped.name);
    const serdes = { key: grouped.keySerde ?? this.serdes.key, value: grouped.valueSerde ?? this.serdes.value };
    return new KGroupedStreamImpl<K, V>(this.ctx, this.nodeName, serdes, this.keyChanged ? { name: grouped.name } : undefined);
  }

  groupBy<KR>(selector: (key: K, value: V) => KR, grouped: Grouped<NoInfer<KR>, V> = {}): KGroupedStream<KR, V> {
    requireFunction(selector, 'keySelector');
    requireNonNull(grouped, 'grouped');
    if (grouped.name !== undefined) validateName(grouped.name);
    const rekeyed = this.selectKey<KR>(selector, grouped.name);
    const serdes = { key: grouped.keySerde, value: grouped.valueSerde ?? this.serdes.value };
    return new KGroupedStreamImpl<KR, V>(this.ctx, rekeyed.nodeName, serdes, { name: grouped.name });
  }

  repartition(repartitioned: Repartitioned<K, V> = {}): KStream<K, V> {
    requireNonNull(repartitioned, 'repartitioned');
    if (repartitioned.name !== undefined) validateName(repartitioned.name);
    if (repartitioned.numberOfPartitions !== undefined) checkNumberOfPartitions(repartitioned.numberOfPartitions);
    if (repartitioned.partitioner !== undefined) requireFunction(repartitioned.partitioner, 'partitioner');
    const name = repartitioned.name ?? this.ctx.newName('KSTREAM-REPARTITION-');
    const { keySerde, valueSerde } = this.serdesOr(repartitioned.keySerde, repartitioned.valueSerde, `repartition '${name}' (after '${this.nodeName}')`, 'Repartitioned.with(keySerde, valueSerde)');
    const source = addRepartitionOperation<K, V>(this.ctx, {
      parent: this.nodeName,
      name,
      generatedName: repartitioned.name === undefined,
      keySerde,
      valueSerde,
      partitioner: repartitioned.partitioner,
      numberOfPartitions: repartitioned.numberOfPartitions,
    });
    return new KStreamImpl<K, V>(this.ctx, source, { key: keySerde, value: valueSerde }, false);
  }

  toTable(named?: Named | string | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<K, V> {
    const split = namedAndMaterialized<K, V>(named, materialized);
    // Kafka's order of names (KStreamImpl.toTable): 1. the node (`KSTREAM-TOTABLE-<n>`, an index consumed even when named),
    // 2. the store (`KSTREAM-TOTABLE-STATE-STORE-<n>` unless named), 3. the repartition nodes when the key may have changed.
    const name = nodeName(this.ctx, split.named, 'KSTREAM-TOTABLE-');
    const storeName = materializedName(split.materialized as Materialized<unknown, unknown> | undefined) ?? newStoreName(this.ctx, 'KSTREAM-TOTABLE-');
    const { keySerde, valueSerde } = this.serdesOr(split.materialized?.keySerde, split.materialized?.valueSerde, `toTable '${name}' (after '${this.nodeName}')`, 'Materialized.with(keySerde, valueSerde)');
    let parent = this.nodeName;
    if (this.keyChanged) {
      parent = addRepartitionOperation<K, V>(this.ctx, { parent, name, generatedName: split.named === undefined, keySerde, valueSerde, partitioner: undefined, numberOfPartitions: undefined });
    }
    return tableOf(this.ctx, addTableSource<K, V>(this.ctx, name, parent, storeName, split.materialized, keySerde, valueSerde));
  }

  join<VO, VR>(other: KStream<K, VO>, joiner: AnyValueJoiner<K, V, VO, VR>, windows: JoinWindows, streamJoined?: StreamJoined<K, V, VO>): KStream<K, VR>;
  join<VT, VR>(table: KTable<K, VT>, joiner: AnyValueJoiner<K, V, VT, VR>, joined?: Joined<K, V, VT>): KStream<K, VR>;
  join<GK, GV, VR>(globalTable: GlobalKTable<GK, GV>, keySelector: (key: K, value: V) => GK, joiner: AnyValueJoiner<K, V, GV, VR>, named?: Named | string): KStream<K, VR>;
  join(other: unknown, ...args: unknown[]): KStream<K, unknown> {
    return this.joinOf('inner', other, args);
  }

  leftJoin<VO, VR>(other: KStream<K, VO>, joiner: AnyValueJoiner<K, V, VO | null, VR>, windows: JoinWindows, streamJoined?: StreamJoined<K, V, VO>): KStream<K, VR>;
  leftJoin<VT, VR>(table: KTable<K, VT>, joiner: AnyValueJoiner<K, V, VT | null, VR>, joined?: Joined<K, V, VT>): KStream<K, VR>;
  leftJoin<GK, GV, VR>(globalTable: GlobalKTable<GK, GV>, keySelector: (key: K, value: V) => GK, joiner: AnyValueJoiner<K, V, GV | null, VR>, named?: Named | string): KStream<K, VR>;
  leftJoin(other: unknown, ...args: unknown[]): KStream<K, unknown> {
    return this.joinOf('left', other, args);
  }

  outerJoin<VO, VR>(other: KStream<K, VO>, joiner: AnyValueJoiner<K, V | null, VO | null, VR>, windows: JoinWindows, streamJoined?: StreamJoined<K, V, VO>): KStream<K, VR>;
  outerJoin(other: unknown, ...args: unknown[]): KStream<K, unknown> {
    // the arguments as given: no StreamJoined means the defaults (Kafka's three-argument overload)
    return this.joinOf('outer', other, args);
  }

  private joinOf(kind: StreamJoinKind, other: unknown, args: unknown[]): KStream<K, unknown> {
    requireNonNull(other, 'other');
    if (other instanceof KStreamImpl) {
      if (other.ctx !== this.ctx) throw new TopologyError(`join: both streams must come from the same StreamsBuilder (joining into '${this.nodeName}')`);
      return this.streamOf(streamStreamJoin(this, kind, other as KStreamImpl<K, unknown>, args));
    }
    if (kind === 'outer') throw new TopologyError('outerJoin joins two streams; a stream-table join is join or leftJoin');
    if (other instanceof KTableImpl) return this.streamOf(streamTableJoin(this, kind, other as KTableImpl<K, unknown>, args));
    if (other instanceof GlobalKTable) return this.streamOf(streamGlobalJoin(this, kind, other as GlobalKTable<unknown, unknown>, args));
    throw new TopologyError(`join: the other side must be a KStream, KTable or GlobalKTable; got ${typeof other}`);
  }

  /**
   * @internal The serdes to write with: explicit ones, else the stream's, else
   * the builder's defaults, else the runtime's (`defaultKeySerde` /
   * `defaultValueSerde`, bound when the topology is built for a runtime; a
   * TopologyError naming `writer` then when the runtime has none either).
   */
  serdesOr(
    keySerde: Serde<K> | undefined,
    valueSerde: Serde<V> | undefined,
    writer: string,
    serdesOption?: string,
  ): { keySerde: Serde<K>; valueSerde: Serde<V> } {
    const key = keySerde ?? this.serdes.key ?? (this.ctx.defaultKeySerde as Serde<K> | undefined) ?? (new DefaultSerde('key', writer, serdesOption, this.ctx.topology) as Serde<K>);
    const value =
      valueSerde ?? this.serdes.value ?? (this.ctx.defaultValueSerde as Serde<V> | undefined) ?? (new DefaultSerde('value', writer, serdesOption, this.ctx.topology) as Serde<V>);
    return { keySerde: key, valueSerde: value };
  }
}
