/**
 * `windowedBy(SessionWindows)` (Kafka's `SessionWindowedKStreamImpl` and
 * `SessionStoreMaterializer`): count, reduce and aggregate per key and
 * session into a `KTable<Windowed<K>, V>`, backed by a session store per
 * task.
 *
 * Each aggregation, in Kafka's naming order:
 * 1. the store name: `Materialized`'s (or its supplier's), else
 *    `KSTREAM-AGGREGATE-STATE-STORE-<n>` / `KSTREAM-REDUCE-STATE-STORE-<n>`;
 * 2. the node name: `Named`'s, else `KSTREAM-AGGREGATE-<n>` / `KSTREAM-REDUCE-<n>`
 *    (the index consumed either way);
 * 3. the store (checked before the graph changes): `Materialized`'s session
 *    store supplier, else `Stores.persistentSessionStore(name, retention)`,
 *    retention `Materialized.withRetention` else gap + grace (and never
 *    less: Kafka's check and message); changelogged unless
 *    `withLoggingDisabled()`; cached unless `withCachingDisabled()` or
 *    emitting on window close;
 * 4. the parent: the grouped stream, or its repartition topic's source; the
 *    aggregation node and its store are added under it.
 *
 * The table's key serde is `WindowedSerdes.sessionWindowedSerdeFrom` of the
 * key serde (`Materialized`'s, else the grouping's).
 */
import { IllegalArgumentError } from '../../errors.js';
import { SessionWindowAggregateSupplier, type SessionAggregation } from '../../processors/dsl/session-window-aggregate.js';
import type { SessionBytesStoreSupplier } from '../../state/session-store.js';
import type { StateStore, StoreBuilder } from '../../state/state-store.js';
import { Stores } from '../../state/stores.js';
import { dslSessionSupplier } from '../../state/dsl-store-suppliers.js';
import type { Windowed } from '../../state/window-types.js';
import { WindowedSerdes } from '../../state/windowed-serdes.js';
import type { Serde } from '../../serdes/serde.js';
import { Serdes } from '../../serdes/serdes.js';
import { EmitStrategy } from '../emit-strategy.js';
import type { Materialized, Named } from '../options.js';
import type { SessionWindows } from '../session-windows.js';
import type { Aggregator, Initializer, Merger, Reducer } from '../aggregation-functions.js';
import { requireFunction, requireNonNull } from './checks.js';
import type { NewTable, SessionWindowedAggregations } from './dsl-parts.js';
import type { GroupedStreamParts } from './grouped-parts.js';
import { newStoreName, nodeName } from './kafka-names.js';
import { materializedName, namedAndMaterialized, requireSupplierKind } from './materialize.js';
import { aggregationSerdes, checkedEmitStrategy } from './windowed-aggregation.js';

const AGGREGATE_NAME = 'KSTREAM-AGGREGATE-';
const REDUCE_NAME = 'KSTREAM-REDUCE-';

/** Kafka's `SessionStoreMaterializer.retentionPeriod()` and its constructor's check. */
function retentionOf(windows: SessionWindows, materialized: Materialized<unknown, unknown>, storeName: string): number {
  const retention = materialized.retentionMs ?? windows.inactivityGap() + windows.gracePeriodMs();
  if (windows.inactivityGap() + windows.gracePeriodMs() > retention) {
    throw new IllegalArgumentError(
      `The retention period of the session store ${storeName} must be no smaller than the session inactivity gap plus the grace period.` +
        ` Got gap=[${windows.inactivityGap()}], grace=[${windows.gracePeriodMs()}], retention=[${retention}]`,
    );
  }
  return retention;
}

/** What {@link sessionStoreBuilderOf} needs besides the windows. */
export interface SessionStoreSpec<K, A> {
  readonly storeName: string;
  readonly materialized: Materialized<K, A>;
  readonly keySerde: Serde<K>;
  readonly valueSerde: Serde<A>;
  readonly emitOnWindowClose: boolean;
  /** The operation, for the message of a wrong supplier (`aggregate`, `cogroup aggregate`, ...). */
  readonly operation: string;
}

/** Step 3 of the module comment: the session store of one aggregation (also a cogrouped one's). */
export function sessionStoreBuilderOf<K, A>(windows: SessionWindows, spec: SessionStoreSpec<K, A>): StoreBuilder<StateStore> {
  const { storeName, materialized } = spec;
  const retention = retentionOf(windows, materialized as Materialized<unknown, unknown>, storeName);
  const supplier =
    materialized.storeSupplier === undefined
      ? dslSessionSupplier({ name: storeName, retentionPeriod: retention }, materialized.dslStoreSuppliers)
      : requireSupplierKind<SessionBytesStoreSupplier>(materialized.storeSupplier, 'session', `store '${storeName}' of a session-windowed ${spec.operation}`);
  const builder = Stores.sessionStoreBuilder(supplier, spec.keySerde, spec.valueSerde);
  if (materialized.loggingEnabled === false) builder.withLoggingDisabled();
  else builder.withLoggingEnabled(materialized.logConfig ?? {});
  if (materialized.cachingEnabled !== false && !spec.emitOnWindowClose) builder.withCachingEnabled();
  else builder.withCachingDisabled();
  return builder;
}

class SessionWindowedAggregationsImpl<K, V> implements SessionWindowedAggregations<K, V> {
  private strategy: EmitStrategy = EmitStrategy.onWindowUpdate();

  constructor(
    private readonly parts: GroupedStreamParts<K, V>,
    private readonly windows: SessionWindows,
  ) {}

  emitStrategy(strategy: EmitStrategy): void {
    this.strategy = checkedEmitStrategy(strategy);
  }

  count(a?: Named | string | Materialized<K, number>, b?: Materialized<K, number>): NewTable<Windowed<K>, number> {
    const { named, materialized } = namedAndMaterialized<K, number>(a, b);
    // Kafka's count(Named, Materialized) takes one extra store index for an unnamed Materialized (newStoreName)
    if (materialized !== undefined && materializedName(materialized) === undefined) newStoreName(this.parts.ctx, AGGREGATE_NAME);
    return this.build<number>(AGGREGATE_NAME, named, materialized ?? {}, Serdes.Long(), {
      operation: 'count',
      initializer: () => 0,
      aggregator: (_key, _value, aggregate) => aggregate + 1,
      merger: (_key, one, two) => one + two,
    });
  }

  reduce(reducer: Reducer<V>, a?: Named | string | Materialized<K, V>, b?: Materialized<K, V>): NewTable<Windowed<K>, V> {
    requireFunction(reducer, 'reducer');
    const { named, materialized } = namedAndMaterialized<K, V>(a, b);
    // Kafka's aggregatorForReducer / mergerForAggregator: the reduce initializer is null
    const aggregator = (_key: K, value: V, aggregate: V | null): V => (aggregate === null ? value : reducer(aggregate, value));
    return this.build<V>(REDUCE_NAME, named, materialized ?? {}, this.parts.valueSerde(), {
      operation: 'reduce',
      // Kafka's reduce has no initial value (null); the aggregator above handles it, the aggregation's type cannot say so
      initializer: () => null as V,
      aggregator,
      merger: (key, one, two) => aggregator(key, two, one),
    });
  }

  aggregate<A>(
    initializer: Initializer<A>,
    aggregator: Aggregator<K, V, A>,
    sessionMerger: Merger<K, A>,
    a?: Named | string | Materialized<K, A>,
    b?: Materialized<K, A>,
  ): NewTable<Windowed<K>, A> {
    requireFunction(initializer, 'initializer');
    requireFunction(aggregator, 'aggregator');
    requireFunction(sessionMerger, 'sessionMerger');
    const { named, materialized } = namedAndMaterialized<K, A>(a, b);
    return this.build<A>(AGGREGATE_NAME, named, materialized ?? {}, Serdes.Json<A>(), {
      operation: 'aggregate',
      initializer,
      aggregator,
      merger: sessionMerger,
    });
  }

  /** The steps of the module comment. */
  private build<A>(
    prefix: string,
    named: Named | string | undefined,
    materialized: Materialized<K, A>,
    defaultValueSerde: Serde<A>,
    aggregation: SessionAggregation<K, V, A>,
  ): NewTable<Windowed<K>, A> {
    const { ctx } = this.parts;
    const emitOnWindowClose = this.strategy.type === 'ON_WINDOW_CLOSE';
    // 1.
    const storeName = materializedName(materialized) ?? newStoreName(ctx, prefix);
    // 2.
    const processorName = nodeName(ctx, named, prefix);
    // 3.
    const { keySerde, valueSerde } = aggregationSerdes(this.parts, materialized, defaultValueSerde);
    const builder = sessionStoreBuilderOf(this.windows, { storeName, materialized, keySerde, valueSerde, emitOnWindowClose, operation: aggregation.operation });
    // 4.
    const parent = this.parts.parentFor(storeName);
    const tableSupplier = new SessionWindowAggregateSupplier<K, V, A>(this.windows, storeName, emitOnWindowClose, aggregation);
    ctx.topology.addProcessor(processorName, tableSupplier, parent);
    ctx.topology.addStateStore(builder, processorName);
    return { nodeName: processorName, supplier: tableSupplier, queryableStoreName: storeName, serdes: { key: WindowedSerdes.sessionWindowedSerdeFrom(keySerde), value: valueSerde } };
  }
}

/** The aggregations of `parts` windowed by `windows`. */
export function sessionWindowedStream<K, V>(parts: GroupedStreamParts<K, V>, windows: SessionWindows): SessionWindowedAggregations<K, V> {
  requireNonNull(windows, 'windows');
  return new SessionWindowedAggregationsImpl<K, V>(parts, windows);
}
