/**
 * KTable: the changelog-stream abstraction of the DSL (Kafka's `KTableImpl`).
 */
import { Change } from '../processors/dsl/change.js';
import type { KTableNodeSupplier, KTableProcessorSupplier, KTableValueGetterSupplier } from '../processors/dsl/ktable-contract.js';
import { KTableFilterSupplier, KTableMapValuesSupplier } from '../processors/dsl/ktable-ops.js';
import { KTableTransformValuesSupplier } from '../processors/dsl/ktable-transform-values.js';
import type { ValueTransformerWithKeySupplier } from '../processors/dsl/ktable-transform-values-types.js';
import { mapValuesSupplier } from '../processors/dsl/stateless.js';
import type { KeyValue } from '../records/key-value.js';
import type { Serde } from '../serdes/serde.js';
import { requireFunction, requireNonNull } from './internal/checks.js';
import type { BuilderContext, StreamSerdes } from './internal/builder-context.js';
import type { NewTable } from './internal/dsl-parts.js';
import { newStoreName, nodeName } from './internal/kafka-names.js';
import { materializedName, namedAndMaterialized, timestampedStoreBuilder, versionedOutput } from './internal/materialize.js';
import { groupTable } from './internal/table-grouping.js';
import { transformValuesArgs } from './internal/table-transform-values.js';
import { tableJoin, type TableJoinKind } from './internal/table-table-join.js';
import { suppressTable } from './internal/suppress.js';
import type { AnyValueJoiner, ForeignKeyExtractor } from './joiners.js';
import type { ValueMapper, ValueMapperWithKey } from './value-mappers.js';
import { resolveMapper } from './internal/key-first.js';
import type { KGroupedTable, KStream, KTable } from './dsl-interfaces.js';
import { DefaultSerde } from './topology-runtime.js';
import type { Grouped, Materialized, Named } from './options.js';
import type { Suppressed } from './suppressed.js';
import type { TableJoined } from './table-joined.js';

/**
 * @internal The builder state the DSL classes share: the wiring's
 * {@link BuilderContext} and factories of the two kinds a KTable builds
 * results of (`toStream`, `groupBy`), handed in by the StreamsBuilder:
 * kstream.ts and kgrouped-table.ts import this file, so it cannot import them.
 */
export interface DslContext extends BuilderContext {
  readonly dsl: {
    /** A `KStreamImpl` reading from `nodeName`. */
    stream<K, V>(ctx: DslContext, nodeName: string, serdes: StreamSerdes<K, V>, keyChanged: boolean): KStream<K, V>;
    /** A `KGroupedTableImpl` of the re-keyed node `nodeName`. */
    groupedTable<K, V>(ctx: DslContext, nodeName: string, serdes: StreamSerdes<K, V>, groupedName: string | undefined): KGroupedTable<K, V>;
  };
}

/** @internal The `KTable` of a table node the wiring of `internal/` added. */
export function tableOf<K, V>(ctx: DslContext, table: NewTable<K, V>): KTable<K, V> {
  return new KTableImpl<K, V>(ctx, table.nodeName, table.supplier, table.queryableStoreName, table.serdes);
}

/** @internal The implementation of {@link KTable} (dsl-interfaces.ts). */
export class KTableImpl<K, V> implements KTable<K, V> {
  /** @internal Use `StreamsBuilder.table()`, `KStream.toTable()` or an aggregation. */
  constructor(
    /** @internal */
    readonly ctx: DslContext,
    /** The name of the node producing the table's changes. */
    readonly nodeName: string,
    /** @internal The node's processor supplier: its view and old-values switch. */
    readonly supplier: KTableNodeSupplier<K, V>,
    /** The name of the store holding the table, when it is materialized under a name users may query. */
    readonly queryableStoreName: string | undefined,
    /** @internal Serdes of the table's keys and values, where known. */
    readonly serdes: StreamSerdes<K, V>,
  ) {}

  /** @internal The table's view (Kafka's `valueGetterSupplier()`); materializes a source table. */
  valueGetterSupplier(): KTableValueGetterSupplier<K, V> {
    return this.supplier.view();
  }

  /**
   * @internal Makes the node send old values (Kafka's `KTableImpl.enableSendingOldValues`):
   * returns whether it now does; see {@link KTableProcessorSupplier}.
   */
  enableSendingOldValues(forceMaterialization: boolean): boolean {
    if (!this.#sendOldValues) {
      if (!this.supplier.enableSendingOldValues(forceMaterialization)) return false;
      this.#sendOldValues = true;
    }
    return true;
  }

  /** @internal True once the node sends old values (Kafka's `sendingOldValueEnabled()`). */
  sendingOldValueEnabled(): boolean {
    return this.#sendOldValues;
  }

  #sendOldValues = false;

  /**
   * @internal Adds a KTable node `supplier` (child of this one), in Kafka's
   * order of names: 1. the store name (`materialized`'s, else a generated
   * `<prefix>STATE-STORE-<n>` when `materialized` is given); 2. the node name
   * (an index is consumed even when `named`). The node is materialized into
   * that store whenever `materialized` is given (a join's or aggregation's
   * rule); filter and mapValues pass an unnamed `materialized` as undefined,
   * since Kafka does not materialize them then.
   */
  addTableNode<K2, V2>(
    prefix: string,
    named: Named | string | undefined,
    materialized: Materialized<K2, V2> | undefined,
    makeSupplier: (queryableName: string | undefined) => KTableProcessorSupplier<unknown, unknown, K2, V2>,
    serdes: StreamSerdes<K2, V2>,
    parents: string[] = [this.nodeName],
  ): KTable<K2, V2> {
    // 1. store name
    const storeName = materialized === undefined ? undefined : (materializedName(materialized) ?? newStoreName(this.ctx, prefix));
    // 2. node name
    const name = nodeName(this.ctx, named, prefix);
    const supplier = makeSupplier(storeName);
    this.ctx.topology.addProcessor(name, supplier, ...parents);
    const tableSerdes = { key: materialized?.keySerde ?? serdes.key, value: materialized?.valueSerde ?? serdes.value };
    if (storeName !== undefined) {
      // Serdes not known here are the runtime's defaults, resolved when the topology is built for it (as Kafka's).
      const writer = `store '${storeName}' of '${name}'`;
      const keySerde = (tableSerdes.key ?? this.ctx.defaultKeySerde ?? new DefaultSerde('key', writer, 'Materialized.with(keySerde, valueSerde)', this.ctx.topology)) as Serde<K2>;
      const valueSerde = (tableSerdes.value ?? this.ctx.defaultValueSerde ?? new DefaultSerde('value', writer, 'Materialized.with(keySerde, valueSerde)', this.ctx.topology)) as Serde<V2>;
      this.ctx.topology.addStateStore(timestampedStoreBuilder(storeName, materialized ?? {}, keySerde, valueSerde), name);
    }
    return new KTableImpl<K2, V2>(this.ctx, name, supplier, storeName, tableSerdes);
  }

  filter(predicate: (key: K, value: V) => boolean, named?: Named | string | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<K, V> {
    requireFunction(predicate, 'predicate');
    return this.doFilter(predicate, false, named, materialized);
  }

  filterNot(predicate: (key: K, value: V) => boolean, named?: Named | string | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<K, V> {
    requireFunction(predicate, 'predicate');
    return this.doFilter(predicate, true, named, materialized);
  }

  private doFilter(predicate: (key: K, value: V) => boolean, not: boolean, a: Named | string | Materialized<K, V> | undefined, b: Materialized<K, V> | undefined): KTable<K, V> {
    const { named, materialized } = namedAndMaterialized(a, b);
    const { queryable, serdes } = this.queryableOnly<V>(materialized, 'KTABLE-FILTER-', this.serdes);
    return this.addTableNode<K, V>('KTABLE-FILTER-', named, queryable, (q) => new KTableFilterSupplier<K, V>(this, predicate, not, q, versionedOutput(materialized)) as never, serdes);
  }

  mapValues<VR>(mapper: ValueMapper<V, VR> | ValueMapperWithKey<K, V, VR>, named?: Named | string | Materialized<K, VR>, materialized?: Materialized<K, VR>): KTable<K, VR> {
    const resolved = resolveMapper(mapper, 'mapper');
    const split = namedAndMaterialized<K, VR>(named, materialized);
    const { queryable, serdes } = this.queryableOnly<VR>(split.materialized, 'KTABLE-MAPVALUES-', { key: this.serdes.key });
    return this.addTableNode<K, VR>('KTABLE-MAPVALUES-', split.named, queryable, (q) => new KTableMapValuesSupplier<K, V, VR>(this, resolved, q, versionedOutput(split.materialized)) as never, serdes);
  }

  transformValues<VR>(supplier: ValueTransformerWithKeySupplier<K, V, VR>, ...args: Array<string | Named | Materialized<K, VR>>): KTable<K, VR> {
    const { named, queryable, materialized, namedStores, storeNames } = transformValuesArgs(supplier, args);
    const serdes = { key: materialized?.keySerde ?? this.serdes.key, value: materialized?.valueSerde };
    const table = this.addTableNode<K, VR>(
      'KTABLE-TRANSFORMVALUES-',
      named,
      queryable,
      (q) => new KTableTransformValuesSupplier<K, V, VR>(this, supplier, q, storeNames) as never,
      serdes,
    );
    if (namedStores.length > 0) this.ctx.topology.connectProcessorAndStateStores(table.nodeName, ...namedStores);
    return table;
  }

  /**
   * Kafka's rule for filter/mapValues: an unnamed `Materialized` consumes a
   * store index but is not materialized; its serdes still apply.
   */
  private queryableOnly<V2>(
    materialized: Materialized<K, V2> | undefined,
    prefix: string,
    serdes: StreamSerdes<K, V2>,
  ): { queryable: Materialized<K, V2> | undefined; serdes: StreamSerdes<K, V2> } {
    if (materialized === undefined || materializedName(materialized as Materialized<unknown, unknown>) !== undefined) return { queryable: materialized, serdes };
    newStoreName(this.ctx, prefix);
    return { queryable: undefined, serdes: { key: materialized.keySerde ?? serdes.key, value: materialized.valueSerde ?? serdes.value } };
  }

  toStream<KR>(mapper: (key: K, value: V | null) => KR, named?: Named | string): KStream<KR, V>;
  toStream(named?: Named | string): KStream<K, V>;
  toStream<KR>(mapperOrNamed?: ((key: K, value: V | null) => KR) | Named | string, named?: Named | string): KStream<K, V> | KStream<KR, V> {
    if (typeof mapperOrNamed === 'function' || named !== undefined) {
      const mapper = requireFunction(mapperOrNamed, 'mapper') as (key: K, value: V) => KR;
      return this.toStream(named).selectKey(mapper);
    }
    if (mapperOrNamed === null) requireNonNull(mapperOrNamed, 'named');
    const name = nodeName(this.ctx, mapperOrNamed, 'KTABLE-TOSTREAM-');
    this.ctx.topology.addProcessor(name, mapValuesSupplier<K, Change<V>, V | null>((change) => change.newValue), this.nodeName);
    return this.ctx.dsl.stream<K, V>(this.ctx, name, this.serdes, false);
  }

  groupBy<KR, VR>(selector: (key: K, value: V) => KeyValue<KR, VR> | null, grouped: Grouped<KR, VR> = {}): KGroupedTable<KR, VR> {
    requireFunction(selector, 'selector');
    requireNonNull(grouped, 'grouped');
    const regrouped = groupTable(this, selector, grouped);
    return this.ctx.dsl.groupedTable<KR, VR>(this.ctx, regrouped.nodeName, regrouped.serdes, regrouped.groupedName);
  }

  suppress(suppressed: Suppressed<K>): KTable<K, V> {
    requireNonNull(suppressed, 'suppressed');
    return tableOf(this.ctx, suppressTable(this, suppressed));
  }

  join<VO, VR>(other: KTable<K, VO>, joiner: AnyValueJoiner<K, V, VO, VR>, named?: Named | string | Materialized<K, VR>, materialized?: Materialized<K, VR>): KTable<K, VR>;
  join<KO, VO, VR>(
    other: KTable<KO, VO>,
    foreignKeyExtractor: ForeignKeyExtractor<V, KO> | ValueMapperWithKey<K, V, KO>,
    joiner: AnyValueJoiner<K, V, VO, VR>,
    tableJoined?: TableJoined<K, KO> | Named | string | Materialized<K, VR>,
    materialized?: Materialized<K, VR>,
  ): KTable<K, VR>;
  join(other: object, ...args: unknown[]): KTable<K, any> {
    return this.joinOf('inner', other as KTable<unknown, unknown>, args);
  }

  leftJoin<VO, VR>(other: KTable<K, VO>, joiner: AnyValueJoiner<K, V, VO | null, VR>, named?: Named | string | Materialized<K, VR>, materialized?: Materialized<K, VR>): KTable<K, VR>;
  leftJoin<KO, VO, VR>(
    other: KTable<KO, VO>,
    foreignKeyExtractor: ForeignKeyExtractor<V, KO> | ValueMapperWithKey<K, V, KO>,
    joiner: AnyValueJoiner<K, V, VO | null, VR>,
    tableJoined?: TableJoined<K, KO> | Named | string | Materialized<K, VR>,
    materialized?: Materialized<K, VR>,
  ): KTable<K, VR>;
  leftJoin(other: object, ...args: unknown[]): KTable<K, any> {
    return this.joinOf('left', other as KTable<unknown, unknown>, args);
  }

  outerJoin<VO, VR>(other: KTable<K, VO>, joiner: AnyValueJoiner<K, V | null, VO | null, VR>, named?: Named | string | Materialized<K, VR>, materialized?: Materialized<K, VR>): KTable<K, VR> {
    return this.joinOf<VR>('outer', other as KTable<unknown, unknown>, [joiner, named, materialized]);
  }

  private joinOf<VR = unknown>(kind: TableJoinKind, other: unknown, args: unknown[]): KTable<K, VR> {
    requireNonNull(other, 'other');
    // the joiner in `args` makes the values VR; tableJoin's arguments are untyped (one entry for every join form)
    return tableOf(this.ctx, tableJoin(this, kind, other, args, (value): value is KTableImpl<unknown, unknown> => value instanceof KTableImpl) as NewTable<K, VR>);
  }
}
