/**
 * A re-grouped table ready for an aggregation with adder and subtractor
 * (Kafka's `KGroupedTableImpl`).
 */
import { tableAggregateSupplier, tableReduceSupplier, type KTableAggregateSupplier } from '../processors/dsl/ktable-aggregate.js';
import type { Serde } from '../serdes/serde.js';
import { Serdes } from '../serdes/serdes.js';
import type { StreamSerdes } from './internal/builder-context.js';
import { requireFunction, requireNonNull, validateName } from './internal/checks.js';
import { isVersionedSupplier, materializedName, namedAndMaterialized, timestampedStoreBuilder } from './internal/materialize.js';
import { addTableRepartition, serdeOr, tableRepartitionTopic } from './internal/table-grouping.js';
import type { KGroupedTable, KTable } from './dsl-interfaces.js';
import { KTableImpl, type DslContext } from './ktable.js';
import type { Materialized, Named } from './options.js';

const AGGREGATE_NAME = 'KTABLE-AGGREGATE-';
const REDUCE_NAME = 'KTABLE-REDUCE-';

/** Kafka's `(Named)` / `(Materialized)` / `(Named, Materialized)` overloads; an explicit null is refused as Kafka's `requireNonNull`. */
function splitArgs<K, V>(
  a: Named | string | Materialized<K, V> | undefined,
  b: Materialized<K, V> | undefined,
): { named: Named | string | undefined; materialized: Materialized<K, V> } {
  if (b === null) requireNonNull(b, 'materialized');
  if (a === null) requireNonNull(a, b === undefined ? 'materialized' : 'named');
  const split = namedAndMaterialized<K, V>(a, b);
  return { named: split.named, materialized: split.materialized ?? {} };
}

/** @internal The implementation of {@link KGroupedTable} (dsl-interfaces.ts). */
export class KGroupedTableImpl<K, V> implements KGroupedTable<K, V> {
  /** The source of the named grouping's repartition topic, shared by its aggregations (Kafka reuses the node). */
  private repartitionSource: string | undefined;

  /** @internal Use `KTable.groupBy()`. */
  constructor(
    /** @internal */
    readonly ctx: DslContext,
    /** @internal The node forwarding the re-keyed changes. */
    readonly nodeName: string,
    /** @internal The grouping's serdes (`Grouped`), where given. */
    readonly serdes: StreamSerdes<K, V> = {},
    /** @internal `Grouped.name`: names the repartition topic. */
    readonly groupedName?: string,
  ) {}

  count(named?: Named | string | Materialized<K, number>, materialized?: Materialized<K, number>): KTable<K, number> {
    const split = splitArgs<K, number>(named, materialized);
    return this.doAggregate<number>(
      (store) => tableAggregateSupplier<K, V, number>(store, () => 0, (_k, _v, n) => n + 1, (_k, _v, n) => n - 1),
      split.named,
      AGGREGATE_NAME,
      split.materialized,
      Serdes.Long(),
    );
  }

  reduce(
    adder: (aggregate: V, value: V) => V,
    subtractor: (aggregate: V, value: V) => V,
    named?: Named | string | Materialized<K, V>,
    materialized?: Materialized<K, V>,
  ): KTable<K, V> {
    requireFunction(adder, 'adder');
    requireFunction(subtractor, 'subtractor');
    const split = splitArgs<K, V>(named, materialized);
    return this.doAggregate<V>(
      (store) => tableReduceSupplier<K, V>(store, adder, subtractor),
      split.named,
      REDUCE_NAME,
      split.materialized,
      serdeOr(this.serdes.value, this.ctx.defaultValueSerde),
    );
  }

  aggregate<VA>(
    initializer: () => VA,
    adder: (key: K, value: V, aggregate: VA) => VA,
    subtractor: (key: K, value: V, aggregate: VA) => VA,
    named?: Named | string | Materialized<K, VA>,
    materialized?: Materialized<K, VA>,
  ): KTable<K, VA> {
    requireFunction(initializer, 'initializer');
    requireFunction(adder, 'adder');
    requireFunction(subtractor, 'subtractor');
    const split = splitArgs<K, VA>(named, materialized);
    return this.doAggregate<VA>(
      (store) => tableAggregateSupplier<K, V, VA>(store, initializer, adder, subtractor),
      split.named,
      AGGREGATE_NAME,
      split.materialized,
      Serdes.Json<VA>(),
    );
  }

  /**
   * Kafka's `KGroupedTableImpl.doAggregate`, with its order of generated names:
   * 1. the store name (`KTABLE-AGGREGATE-STATE-STORE-<n>` unless named, reduce too);
   * 2. the sink and source names (`<named>-sink` / `<named>-source`, else generated, even when a named grouping reuses its topic);
   * 3. the processor name (`<named>`, else `KTABLE-AGGREGATE-<n>` / `KTABLE-REDUCE-<n>`);
   * 4. the repartition topic `<Grouped.name or store name>-repartition`, its sink and source (once for a named grouping);
   * 5. the aggregation node under the source, with its timestamped (or versioned) store.
   */
  private doAggregate<A>(
    makeSupplier: (storeName: string) => KTableAggregateSupplier<K, V, A>,
    named: Named | string | undefined,
    prefix: string,
    materialized: Materialized<K, A>,
    defaultValueSerde: Serde<A>,
  ): KTable<K, A> {
    const given = named === undefined ? undefined : validateName(typeof named === 'string' ? named : named.name);
    // 1.
    const queryable = materializedName(materialized as Materialized<unknown, unknown>);
    const storeName = queryable ?? this.ctx.newName(`${AGGREGATE_NAME}STATE-STORE-`);
    // 2.
    const sinkName = given === undefined ? this.ctx.newName('KSTREAM-SINK-') : `${given}-sink`;
    const sourceName = given === undefined ? this.ctx.newName('KSTREAM-SOURCE-') : `${given}-source`;
    // 3.
    const processorName = given ?? this.ctx.newName(prefix);
    // 4.
    const groupKeySerde = serdeOr(this.serdes.key, this.ctx.defaultKeySerde);
    if (this.repartitionSource === undefined || this.groupedName === undefined) {
      addTableRepartition<K, V>(this.ctx, {
        parent: this.nodeName,
        topic: tableRepartitionTopic(this.groupedName, storeName),
        sinkName,
        sourceName,
        keySerde: groupKeySerde,
        valueSerde: serdeOr(this.serdes.value, this.ctx.defaultValueSerde),
      });
      this.repartitionSource = sourceName;
    }
    // 5.
    const keySerde = materialized.keySerde ?? groupKeySerde;
    const valueSerde = materialized.valueSerde ?? defaultValueSerde;
    const supplier = makeSupplier(storeName);
    // Kafka's statefulProcessorNode.setOutputVersioned: a versioned store supplier is allowed (KIP-914)
    supplier.outputVersioned = isVersionedSupplier(materialized.storeSupplier);
    this.ctx.topology.addProcessor(processorName, supplier, this.repartitionSource);
    this.ctx.topology.addStateStore(timestampedStoreBuilder(storeName, materialized, keySerde, valueSerde), processorName);
    return new KTableImpl<K, A>(this.ctx, processorName, supplier, queryable, { key: keySerde, value: valueSerde });
  }
}
