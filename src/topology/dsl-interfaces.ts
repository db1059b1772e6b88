/**
 * The public shape of the DSL, as Kafka Streams' interfaces: {@link KStream},
 * {@link KTable}, the grouped and windowed streams and the branches of a
 * split. They name each other in their signatures (`KStream.toTable()`
 * returns a `KTable`, `KTable.toStream()` a `KStream`, ...), so they live in
 * this one module, which imports no implementation: the classes that
 * implement them (`KStreamImpl` in kstream.ts, `KTableImpl` in ktable.ts,
 * ...) import it, and no import circle is left among the DSL files.
 * Users get these interfaces from `StreamsBuilder`; they never construct one.
 */
import type { KeyValue } from '../records/key-value.js';
import type { ValueTransformerWithKeySupplier } from '../processors/dsl/ktable-transform-values-types.js';
import type { FixedKeyProcessorSupplier } from '../processors/fixed-key-processor.js';
import type { ProcessorSupplier, TopicNameExtractor } from '../processors/processor.js';
import type { AsyncOptions } from '../processors/async-processor.js';
import type { Windowed } from '../state/window-types.js';
import type { Aggregator, Initializer, Merger, Reducer } from './aggregation-functions.js';
import type { EmitStrategy } from './emit-strategy.js';
import type { GlobalKTable } from './global-ktable.js';
import type { JoinWindows } from './join-windows.js';
import type { Joined } from './joined.js';
import type { AnyValueJoiner, ForeignKeyExtractor } from './joiners.js';
import type { Grouped, Materialized, Named, Produced } from './options.js';
import type { Printed } from './printed.js';
import type { Repartitioned } from './repartitioned.js';
import type { SessionWindows } from './session-windows.js';
import type { SlidingWindows } from './sliding-windows.js';
import type { StreamJoined } from './stream-joined.js';
import type { Suppressed } from './suppressed.js';
import type { TableJoined } from './table-joined.js';
import type { ValueMapper, ValueMapperWithKey } from './value-mappers.js';
import type { Windows } from './windows.js';

/**
 * A stream of key-value records. Every operation adds a processor node and
 * returns a new stream; records flow synchronously, in offset order.
 * Created by `StreamsBuilder.stream()`.
 */
export interface KStream<K, V> {
  /** The name of the processor node this stream reads from (for topology descriptions and tests). */
  readonly nodeName: string;
  /** True after an operation that may have changed the key (map, selectKey, flatMap, process): a later grouping or join repartitions. */
  readonly keyChanged: boolean;

  /** Keeps the records for which `predicate` is true. */
  filter(predicate: (key: K, value: V) => boolean, named?: Named | string): KStream<K, V>;

  /** Drops the records for which `predicate` is true. */
  filterNot(predicate: (key: K, value: V) => boolean, named?: Named | string): KStream<K, V>;

  /** Replaces key and value: `mapper` returns `{ key, value }`. */
  map<KR, VR>(mapper: (key: K, value: V) => KeyValue<KR, VR>, named?: Named | string): KStream<KR, VR>;

  /**
   * Replaces the value with `mapper(value)`; the key is unchanged. The
   * key-taking form is key first, as Kafka's `ValueMapperWithKey`:
   * `mapValues(ValueMapperWithKey.of((readOnlyKey, value) => …))`.
   */
  mapValues<VR>(mapper: ValueMapper<V, VR> | ValueMapperWithKey<K, V, VR>, named?: Named | string): KStream<K, VR>;

  /** Replaces the key with `mapper(key, value)`. */
  selectKey<KR>(mapper: (key: K, value: V) => KR, named?: Named | string): KStream<KR, V>;

  /** Turns each record into zero or more records. */
  flatMap<KR, VR>(mapper: (key: K, value: V) => Iterable<KeyValue<KR, VR>>, named?: Named | string): KStream<KR, VR>;

  /**
   * Turns each value into zero or more values (`mapper(value)`) with the same
   * key. The key-taking form is key first, as Kafka's `ValueMapperWithKey`:
   * `flatMapValues(ValueMapperWithKey.of((readOnlyKey, value) => […]))`.
   */
  flatMapValues<VR>(mapper: ValueMapper<V, Iterable<VR>> | ValueMapperWithKey<K, V, Iterable<VR>>, named?: Named | string): KStream<K, VR>;

  /** Calls `action` for each record and passes it on (an action returning a promise is awaited first). */
  peek(action: (key: K, value: V) => unknown, named?: Named | string): KStream<K, V>;

  /**
   * Calls `action` for each record (terminal). An action returning a promise
   * (an `async` one) is awaited in order (the task's next record waits); a
   * rejection goes to the processing exception handler. Other DSL functions
   * must be synchronous.
   */
  foreach(action: (key: K, value: V) => unknown, named?: Named | string): void;

  /**
   * Replaces the value with what `mapper(value)` resolves to, running the
   * calls of different keys at the same time (up to `options.concurrency`
   * records in flight per task, default 16) while calls of one key run one
   * after another; outputs go downstream per key in input order, each with
   * its input's timestamp and headers. Exactly-once is kept: a commit waits
   * for the calls in flight (at most `asyncCallTimeoutMs`), so no offset
   * passes an unfinished record. A rejection goes to the processing exception
   * handler (CONTINUE drops only that record); a call that does not settle
   * within `asyncCallTimeoutMs` is a processing error (`ASYNC_CALL_TIMEOUT`).
   * The key-taking form is key first: `ValueMapperWithKey.of(async (readOnlyKey, value) => …)`.
   * See `asyncProcessor` for what a call may do with state stores.
   *
   * @example
   * ```ts
   * stream.mapValuesAsync(async (order) => ({ ...order, customer: await crm.lookup(order.customerId) }), { concurrency: 64 });
   * ```
   */
  mapValuesAsync<VR>(mapper: ValueMapper<V, VR | PromiseLike<VR>> | ValueMapperWithKey<K, V, VR | PromiseLike<VR>>, options?: AsyncOptions): KStream<K, VR>;

  /** As {@link KStream.mapValuesAsync}, each value turned into the zero or more values `mapper(value)` resolves to (an array; `null` is a processing error). */
  flatMapValuesAsync<VR>(
    mapper: ValueMapper<V, Iterable<VR> | PromiseLike<Iterable<VR>>> | ValueMapperWithKey<K, V, Iterable<VR> | PromiseLike<Iterable<VR>>>,
    options?: AsyncOptions,
  ): KStream<K, VR>;

  /** As {@link KStream.mapValuesAsync}, keeping the records for which `predicate(key, value)` resolves to true. */
  filterAsync(predicate: (key: K, value: V) => boolean | PromiseLike<boolean>, options?: AsyncOptions): KStream<K, V>;

  /**
   * Calls `action(key, value)` for each record (terminal) as an async step
   * (see {@link KStream.mapValuesAsync}): calls of different keys run concurrently,
   * of one key in input order; a commit waits for them, so each input's call
   * has finished before its offset commits (after a crash, calls not
   * committed run again: at least once for the action's own effects).
   */
  foreachAsync(action: (key: K, value: V) => unknown, options?: AsyncOptions): void;

  /**
   * Prints each record (terminal), as Kafka's `print(Printed)`: a line
   * `[label]: key, value` on standard output (`Printed.toSysOut()`; the label
   * defaults to the processor's name, `KSTREAM-PRINTER-<n>`).
   */
  print(printed: Printed<K, V>): void;

  /** Merges `other` into one stream (records of both, each in its own order). */
  merge(other: KStream<K, V>, named?: Named | string): KStream<K, V>;

  /** Splits the stream into branches: `split().branch(p1).branch(p2).defaultBranch()`. */
  split(named?: Named | string): BranchedKStream<K, V>;

  /**
   * Runs a user processor; `args` are the names of the state stores it uses (besides its supplier's
   * `stores()`), optionally preceded by a `Named`. Returns the stream of what it forwards.
   */
  process<KOut, VOut>(supplier: ProcessorSupplier<K, V, KOut, VOut>, ...args: Array<string | Named>): KStream<KOut, VOut>;

  /** Runs a fixed-key processor (KIP-820): values change, keys never, so unlike `process` a later `groupByKey` or join does not repartition. `args` as for `process`. */
  processValues<VOut>(supplier: FixedKeyProcessorSupplier<K, V, VOut>, ...args: Array<string | Named>): KStream<K, VOut>;

  /** Writes the stream to `topic`, or to the topic `extractor(key, value, context)` names. */
  to(topic: string | TopicNameExtractor<K, V>, produced?: Produced<K, V>): void;

  /**
   * Groups by the current key for an aggregation. After an operation that may
   * have changed the key (map, selectKey, flatMap, process, ...) each
   * aggregation first repartitions through an internal topic (see {@link KGroupedStream}).
   */
  groupByKey(grouped?: Grouped<K, V>): KGroupedStream<K, V>;

  /**
   * Groups by the key `selector(key, value)`: a selectKey (named `Grouped.name`
   * when given) followed, at each aggregation, by a repartition topic
   * `<applicationId>-<name>-repartition` written with `grouped`'s serdes
   * (else the stream's value serde, the builder's defaults, `Serdes.Json()`).
   * The key serde is `grouped.keySerde`, else the builder's default key
   * serde; with neither, keys fall back to `Serdes.Json()` (the new key's
   * type is unknown to sluice), so pass `Grouped.with(keySerde, valueSerde)`.
   */
  groupBy<KR>(selector: (key: K, value: V) => KR, grouped?: Grouped<NoInfer<KR>, V>): KGroupedStream<KR, V>;

  /**
   * Sends the records through a repartition topic `<applicationId>-<name>-repartition`
   * (Java's `repartition(Repartitioned)`) and returns the stream read back from
   * it, in a new sub-topology: `name` is `Repartitioned.name`, else
   * `KSTREAM-REPARTITION-<n>`; the topic has `numberOfPartitions` partitions,
   * else as many as the upstream sub-topology's source topics; records are
   * partitioned by `partitioner`, else murmur2 of the key bytes (null keys pass too).
   * Serdes: `repartitioned`'s, else the stream's, else the config's defaults.
   */
  repartition(repartitioned?: Repartitioned<K, V>): KStream<K, V>;

  /**
   * The stream as a table: each record is the latest value of its key (a
   * null value deletes it). Materialized into a store when `materialized`
   * names one (then queryable), else only when a downstream node needs it.
   * After a key-changing operation the records first go through a
   * repartition topic `<name>-repartition`, as Kafka's `toTable`. The node is
   * `KSTREAM-TOTABLE-<n>` (Kafka's name) unless `named`; serdes are the
   * `Materialized`'s, else the stream's, else the defaults.
   */
  toTable(named?: Named | string | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<K, V>;

  /**
   * Joins with another stream within `windows` (`JoinWindows`): `joiner(value,
   * otherValue)` (or, key first, a `ValueJoinerWithKey.of((readOnlyKey, value,
   * otherValue) => …)`) for each pair of records of equal key whose timestamps
   * are close enough. With a table: each record joins the table's current
   * value of its key (records without one are dropped). With a global table:
   * each record joins the row `keySelector(key, value)` names.
   */
  join<VO, VR>(other: KStream<K, VO>, joiner: AnyValueJoiner<K, V, VO, VR>, windows: JoinWindows, streamJoined?: StreamJoined<K, V, VO>): KStream<K, VR>;

  join<VT, VR>(table: KTable<K, VT>, joiner: AnyValueJoiner<K, V, VT, VR>, joined?: Joined<K, V, VT>): KStream<K, VR>;

  join<GK, GV, VR>(globalTable: GlobalKTable<GK, GV>, keySelector: (key: K, value: V) => GK, joiner: AnyValueJoiner<K, V, GV, VR>, named?: Named | string): KStream<K, VR>;

  /** As {@link join}, but every record of this stream is kept: the other value is null when nothing joins. */
  leftJoin<VO, VR>(other: KStream<K, VO>, joiner: AnyValueJoiner<K, V, VO | null, VR>, windows: JoinWindows, streamJoined?: StreamJoined<K, V, VO>): KStream<K, VR>;

  leftJoin<VT, VR>(table: KTable<K, VT>, joiner: AnyValueJoiner<K, V, VT | null, VR>, joined?: Joined<K, V, VT>): KStream<K, VR>;

  leftJoin<GK, GV, VR>(globalTable: GlobalKTable<GK, GV>, keySelector: (key: K, value: V) => GK, joiner: AnyValueJoiner<K, V, GV | null, VR>, named?: Named | string): KStream<K, VR>;

  /** Windowed outer join with another stream: records of either side are kept; the missing side is null. */
  outerJoin<VO, VR>(other: KStream<K, VO>, joiner: AnyValueJoiner<K, V | null, VO | null, VR>, windows: JoinWindows, streamJoined?: StreamJoined<K, V, VO>): KStream<K, VR>;

}

/**
 * A table: the latest value per key of a changelog stream. Every operation
 * adds a KTable node forwarding `Change`s (new and, where needed, old value
 * of a key; a null new value deletes the key) and returns a new table.
 * Created by `StreamsBuilder.table()`, `KStream.toTable()` and the
 * aggregations of grouped streams and tables.
 *
 * **No value is `null`.** A table has one "no value" (Java's `null`): an
 * input record whose value deserializes to `null` or `undefined` deletes its
 * key, and a mapper or joiner returning `undefined` is read as returning
 * `null` (a delete). Tables never forward `undefined`: `Change.newValue` /
 * `oldValue`, value getters and `toStream()` records carry `null`.
 */
export interface KTable<K, V> {
  /** The name of the processor node of this table. */
  readonly nodeName: string;
  /** The name of the store the table is materialized in, when it is queryable (Kafka's `queryableStoreName()`); otherwise undefined. */
  readonly queryableStoreName: string | undefined;


  /**
   * Keeps the values for which `predicate(key, value)` is true; a value
   * failing it becomes a delete (null) of its key. With a `Materialized`
   * naming a store the result is kept there (queryable); an unnamed one only
   * sets the serdes, as Kafka's.
   */
  filter(predicate: (key: K, value: V) => boolean, named?: Named | string | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<K, V>;

  /** Drops the values for which `predicate` is true (they become deletes); otherwise as {@link filter}. */
  filterNot(predicate: (key: K, value: V) => boolean, named?: Named | string | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<K, V>;

  /**
   * Replaces each value with `mapper(value)` (or, key first as Kafka's
   * `ValueMapperWithKey`, `ValueMapperWithKey.of((readOnlyKey, value) => …)`);
   * the key is unchanged. A
   * delete stays a delete (the mapper is not called for null), a mapper
   * result of null or undefined is a delete. Materialization as {@link filter};
   * the value serde is the `Materialized`'s (the value type changes).
   */
  mapValues<VR>(mapper: ValueMapper<V, VR> | ValueMapperWithKey<K, V, VR>, named?: Named | string | Materialized<K, VR>, materialized?: Materialized<K, VR>): KTable<K, VR>;

  /**
   * Replaces each value with `transformer.transform(readOnlyKey, value)`
   * (Kafka's `transformValues(ValueTransformerWithKeySupplier, …)`): a
   * transformer per task, created by `supplier` (a function or an object with
   * `get()`), may keep state and use the stores named in `args` (connected to
   * the node; add them with `builder.addStateStore(...)`) or declared by the
   * supplier's `stores()`; its context cannot forward. Unlike
   * {@link mapValues} the transformer also sees deletes (`value` null); a
   * result of null or undefined is a delete. The key is unchanged.
   *
   * `args`: an optional `Named` object (strings are store names), an optional
   * `Materialized`, then the store names (Kafka's
   * `(supplier, [materialized,] [named,] ...stateStoreNames)`). Node
   * `KTABLE-TRANSFORMVALUES-<n>`. Only a `Materialized` naming a store
   * materializes the result (queryable); otherwise the table is a view whose
   * lookups (joins, groupBy's old values) call a transformer of their own on
   * the parent's value, so a stateful transformer should be materialized.
   * The key serde is kept; the value serde is the `Materialized`'s.
   */
  transformValues<VR>(supplier: ValueTransformerWithKeySupplier<K, V, VR>, ...args: Array<string | Named | Materialized<K, VR>>): KTable<K, VR>;

  /**
   * The stream of the table's updates (`KTABLE-TOSTREAM-<n>`): one record
   * per change, with the new value; a delete is a record with a null value
   * (a tombstone when written to a topic).
   *
   * With a `mapper` (Kafka's `toStream(KeyValueMapper)`), each record's key
   * becomes `mapper(key, value)` (`value` null for a delete): the stream of
   * `toStream(named).selectKey(mapper)`, nodes `KTABLE-TOSTREAM-<n>` (or
   * `named`) then `KSTREAM-KEY-SELECT-<n>`. The stream is marked key-changed:
   * a later aggregation or join repartitions it; its key serde is unknown.
   */
  toStream<KR>(mapper: (key: K, value: V | null) => KR, named?: Named | string): KStream<KR, V>;
  /** The stream of the table's updates, keys unchanged (see the overload with a mapper). */
  toStream(named?: Named | string): KStream<K, V>;

  /**
   * Re-groups the table by `selector(key, value)` → `{ key, value }` for an
   * aggregation with adder and subtractor (see {@link KGroupedTable}); the
   * records go through a repartition topic. A row whose selector result is
   * null, or has a null key or value, is left out of every group.
   */
  groupBy<KR, VR>(selector: (key: K, value: V) => KeyValue<KR, VR> | null, grouped?: Grouped<KR, VR>): KGroupedTable<KR, VR>;

  /** Holds back updates as `suppressed` says (`Suppressed.untilTimeLimit(...)`). */
  suppress(suppressed: Suppressed<K>): KTable<K, V>;

  /**
   * Inner join with `other` on the key: `joiner(value, otherValue)` for
   * each key present in both; or, with a foreign-key extractor as second
   * argument, the foreign-key join: each value of this table joins the row of
   * `other` whose key is `extractor(value)`. The key-taking forms are key
   * first, as Kafka's: `ValueJoinerWithKey.of((readOnlyKey, value, otherValue) => …)`,
   * `ValueMapperWithKey.of((readOnlyKey, value) => foreignKey)`.
   */
  join<VO, VR>(other: KTable<K, VO>, joiner: AnyValueJoiner<K, V, VO, VR>, named?: Named | string | Materialized<K, VR>, materialized?: Materialized<K, VR>): KTable<K, VR>;

  join<KO, VO, VR>(
    other: KTable<KO, VO>,
    foreignKeyExtractor: ForeignKeyExtractor<V, KO> | ValueMapperWithKey<K, V, KO>,
    joiner: AnyValueJoiner<K, V, VO, VR>,
    tableJoined?: TableJoined<K, KO> | Named | string | Materialized<K, VR>,
    materialized?: Materialized<K, VR>,
  ): KTable<K, VR>;

  /** Left join: every key (or row, for a foreign-key join) of this table; `otherValue` null when `other` has none. */
  leftJoin<VO, VR>(other: KTable<K, VO>, joiner: AnyValueJoiner<K, V, VO | null, VR>, named?: Named | string | Materialized<K, VR>, materialized?: Materialized<K, VR>): KTable<K, VR>;

  leftJoin<KO, VO, VR>(
    other: KTable<KO, VO>,
    foreignKeyExtractor: ForeignKeyExtractor<V, KO> | ValueMapperWithKey<K, V, KO>,
    joiner: AnyValueJoiner<K, V, VO | null, VR>,
    tableJoined?: TableJoined<K, KO> | Named | string | Materialized<K, VR>,
    materialized?: Materialized<K, VR>,
  ): KTable<K, VR>;

  /** Outer join on the key: every key of either table; the missing side's value is null. */
  outerJoin<VO, VR>(other: KTable<K, VO>, joiner: AnyValueJoiner<K, V | null, VO | null, VR>, named?: Named | string | Materialized<K, VR>, materialized?: Materialized<K, VR>): KTable<K, VR>;
}

/**
 * A stream grouped by key, ready for an aggregation. After `groupBy` (or
 * `groupByKey` after a key-changing operation) each aggregation reads the
 * records through a repartition topic `<applicationId>-<name>-repartition`
 * (name: `Grouped.name`, else the state store's name), which starts a new
 * sub-topology, as in Kafka Streams.
 *
 * Serdes of the store, the repartition topic and the resulting KTable, per
 * side: `Materialized`'s (store only), else the grouping's (`Grouped` or the
 * stream's known serde), else the builder's default serde, else — when none
 * is known, e.g. after `groupBy` without `Grouped.with(keySerde, ...)` nor a
 * default — `Serdes.Json()` (a string key is then written as `"green"`,
 * with quotes). Counts default to `Serdes.Long()`.
 */
export interface KGroupedStream<K, V> {
  /**
   * Counts the records per key. The counts are stored and, by default,
   * written with `Serdes.Long()` (8-byte big-endian, Java's `LongSerializer`),
   * as Kafka Streams does; `materialized.valueSerde` overrides it. As
   * Kafka's `count(Named)` / `count(Named, Materialized)`, a `named` (a
   * {@link Named} or a string) names the aggregation's processor.
   */
  count(named?: Named | string | Materialized<K, number>, materialized?: Materialized<K, number>): KTable<K, number>;

  /** Combines the values per key: the first value as is, then `reducer(aggregate, value)`. */
  reduce(reducer: (aggregate: V, value: V) => V, materialized?: Materialized<K, V>): KTable<K, V>;

  /** Folds the values per key, starting from `initializer()`. */
  aggregate<A>(
    initializer: () => A,
    aggregator: (key: K, value: V, aggregate: A) => A,
    materialized?: Materialized<K, A>,
  ): KTable<K, A>;

  /**
   * Windows the grouping for a windowed aggregation: by `TimeWindows`
   * (tumbling, hopping), `UnlimitedWindows` or `SlidingWindows` into a
   * {@link TimeWindowedKStream}, by `SessionWindows` into a
   * {@link SessionWindowedKStream}.
   */
  windowedBy(windows: Windows | SlidingWindows): TimeWindowedKStream<K, V>;

  windowedBy(windows: SessionWindows): SessionWindowedKStream<K, V>;

  /**
   * Starts a cogroup (Kafka's `cogroup`, KIP-150): this grouped stream, whose
   * values `aggregator(key, value, aggregate)` folds, and more grouped streams
   * of the same key type added by
   * `CogroupedKStream.cogroup(other, otherAggregator)`, each with its own
   * aggregator, all aggregated into one
   * table by `aggregate(initializer)` (or `windowedBy(windows).aggregate(...)`).
   */
  cogroup<VOut>(aggregator: Aggregator<K, V, VOut>): CogroupedKStream<K, VOut>;

}

/**
 * A table grouped by a new key (`KTable.groupBy`): each update of the parent
 * table arrives as a subtraction of the old value (from its old group) and
 * an addition of the new one (to its new group), through a repartition
 * topic `<applicationId>-<name>-repartition` (name: `Grouped.name`, else the
 * aggregation's store name) that starts a new sub-topology.
 *
 * Every aggregation is kept in a timestamped key-value store (persistent,
 * changelogged and cached by default) and returns the table of the
 * aggregates. Each takes Kafka's overloads as trailing arguments: `(Named)`,
 * `(Materialized)` or `(Named, Materialized)`.
 *
 * Serdes, per side: keys `Materialized`'s (store only), else `Grouped`'s,
 * else the builder's default, else `Serdes.Json()`; values of the
 * repartition topic `Grouped`'s, else the default, else `Serdes.Json()`
 * (wrapped as Kafka's `Change` format); stored counts `Serdes.Long()`,
 * reductions the grouping's value serde, aggregates `Serdes.Json()`, unless
 * `Materialized` names one.
 */
export interface KGroupedTable<K, V> {
  /**
   * Counts the rows per key: +1 for a row entering the group, −1 for one
   * leaving it; a count that drops to 0 stays (and is forwarded as 0).
   * Stored with `Serdes.Long()` unless `materialized.valueSerde` says otherwise.
   */
  count(named?: Named | string | Materialized<K, number>, materialized?: Materialized<K, number>): KTable<K, number>;

  /**
   * Combines the values per key: `adder(aggregate, value)` for a row entering
   * the group (the first value as is), `subtractor(aggregate, oldValue)` for
   * one leaving it. A null result deletes the key.
   */
  reduce(
    adder: (aggregate: V, value: V) => V,
    subtractor: (aggregate: V, value: V) => V,
    named?: Named | string | Materialized<K, V>,
    materialized?: Materialized<K, V>,
  ): KTable<K, V>;

  /**
   * Folds the values per key from `initializer()`: `adder(key, value, aggregate)`
   * for a row entering the group, `subtractor(key, oldValue, aggregate)` for
   * one leaving it. A null result deletes the key.
   */
  aggregate<VA>(
    initializer: () => VA,
    adder: (key: K, value: V, aggregate: VA) => VA,
    subtractor: (key: K, value: V, aggregate: VA) => VA,
    named?: Named | string | Materialized<K, VA>,
    materialized?: Materialized<K, VA>,
  ): KTable<K, VA>;
}

/** The branches of a split stream; finish with `defaultBranch()` or `noDefaultBranch()`. */
export interface BranchedKStream<K, V> {
  /** Adds a branch taking the records (not taken by an earlier branch) for which `predicate` is true. */
  branch(predicate: (key: K, value: V) => boolean, branched?: Branched<K, V>): this;

  /** Adds the branch of the records no predicate took, and returns the branches by name. */
  defaultBranch(branched?: Branched<K, V>): Map<string, KStream<K, V>>;

  /** Drops the records no predicate took, and returns the branches by name. */
  noDefaultBranch(): Map<string, KStream<K, V>>;
}

/** A grouped stream windowed by `TimeWindows`, `SlidingWindows` or `UnlimitedWindows`. */
export interface TimeWindowedKStream<K, V> {
  /** Counts the records per key and window (values written with `Serdes.Long()` by default). */
  count(named?: Named | string | Materialized<K, number>, materialized?: Materialized<K, number>): KTable<Windowed<K>, number>;
  /** Combines the values per key and window: the first value as is, then `reducer(aggregate, value)`. */
  reduce(reducer: Reducer<V>, named?: Named | string | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<Windowed<K>, V>;
  /** Folds the values per key and window, starting from `initializer()`. */
  aggregate<A>(
    initializer: Initializer<A>,
    aggregator: Aggregator<K, V, A>,
    named?: Named | string | Materialized<K, A>,
    materialized?: Materialized<K, A>,
  ): KTable<Windowed<K>, A>;
  /** The same windowed stream emitting by `strategy` (KIP-825; default `EmitStrategy.onWindowUpdate()`). */
  emitStrategy(strategy: EmitStrategy): TimeWindowedKStream<K, V>;
}

/** A grouped stream windowed by `SessionWindows`. */
export interface SessionWindowedKStream<K, V> {
  /** Counts the records per key and session. */
  count(named?: Named | string | Materialized<K, number>, materialized?: Materialized<K, number>): KTable<Windowed<K>, number>;
  /** Combines the values per key and session (merging sessions with the same reducer). */
  reduce(reducer: Reducer<V>, named?: Named | string | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<Windowed<K>, V>;
  /** Folds the values per key and session; `sessionMerger` combines two sessions a record bridges. */
  aggregate<A>(
    initializer: Initializer<A>,
    aggregator: Aggregator<K, V, A>,
    sessionMerger: Merger<K, A>,
    named?: Named | string | Materialized<K, A>,
    materialized?: Materialized<K, A>,
  ): KTable<Windowed<K>, A>;
  /** The same windowed stream emitting by `strategy` (KIP-825; default `EmitStrategy.onWindowUpdate()`). */
  emitStrategy(strategy: EmitStrategy): SessionWindowedKStream<K, V>;
}

/**
 * How a branch is named and what is done with it. Without a function the
 * branch stream itself goes into the result map; `withFunction` puts the
 * function's result (unless null/undefined); `withConsumer` puts nothing.
 */
export interface Branched<K, V> {
  /** Appended to the split name to name the branch (default: its 1-based position; `0` for the default branch). */
  readonly name?: string;
  readonly fn?: (stream: KStream<K, V>) => KStream<K, V> | null | undefined | void;
  readonly kind?: 'function' | 'consumer';
}

/** Helpers for {@link Branched}. */
export const Branched = {
  /** A branch named `name`. */
  as<K, V>(name: string): Branched<K, V> {
    return { name };
  },
  /** Transforms the branch; the result goes into the map. */
  withFunction<K, V>(fn: (stream: KStream<K, V>) => KStream<K, V> | null | undefined, name?: string): Branched<K, V> {
    return { fn, kind: 'function', ...(name === undefined ? {} : { name }) };
  },
  /** Consumes the branch; nothing goes into the map. */
  withConsumer<K, V>(fn: (stream: KStream<K, V>) => void, name?: string): Branched<K, V> {
    return { fn, kind: 'consumer', ...(name === undefined ? {} : { name }) };
  },
};

/**
 * Several grouped streams of the same key type, each with its own
 * aggregator, to be aggregated into one table (Kafka's `CogroupedKStream`).
 * Created by `KGroupedStream.cogroup(aggregator)`.
 *
 * Each grouped stream whose key may have changed (`groupBy`, or
 * `groupByKey` after a key-changing operation) is read through its own
 * repartition topic `<Grouped.name or store name>-repartition`; all inputs
 * must be co-partitioned (the same partition count), as for a join.
 */
export interface CogroupedKStream<K, VOut> {
  /**
   * Adds `groupedStream`, whose values `aggregator(key, value, aggregate)`
   * folds into the same aggregate. Adding a grouped stream again replaces its
   * aggregator. Returns this cogrouped stream.
   */
  cogroup<VIn>(groupedStream: KGroupedStream<K, VIn>, aggregator: Aggregator<K, VIn, VOut>): CogroupedKStream<K, VOut>;
  /**
   * Aggregates the records of all the grouped streams per key, starting from
   * `initializer()`, into a table backed by a timestamped key-value store
   * (persistent, changelogged and cached by default). As Kafka's overloads,
   * `named` (a `Named` or a string) names the nodes
   * (`<name>-cogroup-agg-<i>`, `<name>-cogroup-merge`), `materialized` the
   * store (else `COGROUPKSTREAM-AGGREGATE-STATE-STORE-<n>`) and its serdes:
   * the key serde defaults to the first grouped stream's, the value serde
   * to `Serdes.Json()` (Java: `default.value.serde`). Records with a null
   * key or value are dropped, logged and counted.
   */
  aggregate(initializer: Initializer<VOut>, named?: Named | string | Materialized<K, VOut>, materialized?: Materialized<K, VOut>): KTable<K, VOut>;
  /**
   * Windows the cogroup by `TimeWindows` (tumbling, hopping),
   * `UnlimitedWindows` or `SlidingWindows` into a
   * {@link TimeWindowedCogroupedKStream}.
   */
  windowedBy(windows: Windows | SlidingWindows): TimeWindowedCogroupedKStream<K, VOut>;
  /** Windows the cogroup by `SessionWindows` into a {@link SessionWindowedCogroupedKStream}. */
  windowedBy(windows: SessionWindows): SessionWindowedCogroupedKStream<K, VOut>;
}

/** A cogrouped stream windowed by `TimeWindows`, `SlidingWindows` or `UnlimitedWindows` (Kafka's `TimeWindowedCogroupedKStream`). */
export interface TimeWindowedCogroupedKStream<K, V> {
  /**
   * Aggregates the records of all the grouped streams per key and window,
   * starting from `initializer()`; `named` names the nodes, `materialized`
   * the window store and its serdes (value serde default `Serdes.Json()`).
   */
  aggregate(initializer: Initializer<V>, named?: Named | string | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<Windowed<K>, V>;
}

/** A cogrouped stream windowed by `SessionWindows` (Kafka's `SessionWindowedCogroupedKStream`). */
export interface SessionWindowedCogroupedKStream<K, V> {
  /**
   * Aggregates the records of all the grouped streams per key and session,
   * starting from `initializer()`; `sessionMerger` combines two sessions a
   * record bridges; `named` names the nodes, `materialized` the session store
   * and its serdes (value serde default `Serdes.Json()`).
   */
  aggregate(initializer: Initializer<V>, sessionMerger: Merger<K, V>, named?: Named | string | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<Windowed<K>, V>;
}
