/**
 * Windowed cogrouped streams (Kafka's `TimeWindowedCogroupedKStream` and
 * `SessionWindowedCogroupedKStream`): `cogrouped.windowedBy(windows)` then
 * `aggregate`, producing a `KTable<Windowed<K>, V>` backed by one window (or
 * session) store per task that the aggregation processor of every grouped
 * stream writes: Kafka's `KStreamWindowAggregate`,
 * `KStreamSlidingWindowAggregate` or `KStreamSessionWindowAggregate`, the same
 * processors as `KGroupedStream.windowedBy(...).aggregate(...)`, always
 * emitting on window update (Kafka offers no other strategy for cogroups).
 *
 * Each aggregation, in Kafka's order of generated names:
 * 1. the store name: `Materialized`'s, else `COGROUPKSTREAM-AGGREGATE-STATE-STORE-<n>`;
 * 2. the store, checked before the graph changes (retention: time windows
 *    size + grace, sliding windows 2 × time difference + grace, sessions gap
 *    + grace, unless `Materialized.withRetention`; never less);
 * 3. the nodes (internal/cogroup-builder.ts) and the table over the merge
 *    node, keyed by the windowed serde of the key serde (`Materialized`'s, else
 *    the first grouped stream's).
 */
import { IllegalArgumentError } from '../errors.js';
import type { KTableProcessorSupplier } from '../processors/dsl/ktable-contract.js';
import { SessionWindowAggregateSupplier } from '../processors/dsl/session-window-aggregate.js';
import { slidingAggregateSupplier } from '../processors/dsl/sliding-window-aggregate.js';
import { KStreamWindowAggregate } from '../processors/dsl/window-aggregate.js';
import type { Serde } from '../serdes/serde.js';
import { Serdes } from '../serdes/serdes.js';
import type { StateStore, StoreBuilder } from '../state/state-store.js';
import type { Windowed } from '../state/window-types.js';
import { WindowedSerdes } from '../state/windowed-serdes.js';
import type { Initializer, Merger } from './aggregation-functions.js';
import { requireFunction } from './internal/checks.js';
import { COGROUP_AGGREGATE_NAME, type CogroupAggregateBuilder, type CogroupPattern } from './internal/cogroup-builder.js';
import { newStoreName } from './internal/kafka-names.js';
import { materializedName, namedAndMaterialized } from './internal/materialize.js';
import { sessionStoreBuilderOf } from './internal/session-windowed.js';
import { slidingRetentionOf } from './internal/sliding-windowed.js';
import { timestampedWindowStoreBuilder } from './internal/window-materialize.js';
import type { KTable, SessionWindowedCogroupedKStream, TimeWindowedCogroupedKStream } from './dsl-interfaces.js';
import { tableOf, type DslContext } from './ktable.js';
import type { Materialized, Named } from './options.js';
import type { SessionWindows } from './session-windows.js';
import { SlidingWindows } from './sliding-windows.js';
import type { Windows } from './windows.js';

/** @internal What a cogrouped stream shares with the windowed streams made of it (Kafka passes the same map and builder). */
export interface CogroupState<K, VOut> {
  readonly ctx: DslContext;
  readonly patterns: Map<object, CogroupPattern<K, VOut>>;
  readonly builder: CogroupAggregateBuilder;
  /** The store's key serde: `materialized`'s, else the first grouped stream's. */
  keySerde(materialized: Materialized<K, VOut> | undefined): Serde<K>;
}

type Aggregation<K, A> = (key: K, value: unknown, aggregate: A) => A;

/** @internal The {@link TimeWindowedCogroupedKStream} of `windowedBy(TimeWindows | UnlimitedWindows | SlidingWindows)`. */
export class TimeWindowedCogroupedKStreamImpl<K, V> implements TimeWindowedCogroupedKStream<K, V> {
  constructor(
    private readonly state: CogroupState<K, V>,
    private readonly windows: Windows | SlidingWindows,
  ) {
    if (windows instanceof SlidingWindows && windows.timeDifferenceMs() === 0) {
      // as KGroupedStream.windowedBy(SlidingWindows): windows [t, t] have no time-window form here
      throw new IllegalArgumentError('windowedBy(SlidingWindows): the time difference must be at least 1 ms; got 0 (use ofTimeDifferenceWithNoGrace(1) or more)');
    }
  }

  /** Steps 1-3 of the module comment. */
  aggregate(initializer: Initializer<V>, named?: Named | string | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<Windowed<K>, V> {
    requireFunction(initializer, 'initializer');
    const split = namedAndMaterialized<K, V>(named, materialized);
    const m = split.materialized ?? {};
    const { ctx, builder } = this.state;
    const windows = this.windows;
    // 1.
    const givenName = materializedName(m as Materialized<unknown, unknown>);
    const storeName = givenName ?? newStoreName(ctx, COGROUP_AGGREGATE_NAME);
    // 2.
    const keySerde = this.state.keySerde(m);
    const valueSerde: Serde<V> = m.valueSerde ?? Serdes.Json<V>();
    let store: StoreBuilder<StateStore>;
    let windowSize: number;
    let makeSupplier: (aggregator: Aggregation<K, V>) => KTableProcessorSupplier<K, unknown, Windowed<K>, V>;
    if (windows instanceof SlidingWindows) {
      windowSize = windows.timeDifferenceMs();
      const retention = slidingRetentionOf(windows, storeName, m as Materialized<unknown, unknown>);
      store = timestampedWindowStoreBuilder<K, V>(
        { storeName, materialized: m, windowSizeMs: windowSize, gracePeriodMs: windows.gracePeriodMs(), defaultRetentionMs: retention, keySerde, valueSerde },
        retention,
      );
      makeSupplier = (aggregator) => slidingAggregateSupplier<K, unknown, V>(windows, storeName, { type: 'ON_WINDOW_UPDATE' }, initializer, aggregator);
    } else {
      windowSize = windows.size();
      const grace = windows.gracePeriodMs();
      store = timestampedWindowStoreBuilder<K, V>({ storeName, materialized: m, windowSizeMs: windowSize, gracePeriodMs: grace, defaultRetentionMs: windowSize + grace, keySerde, valueSerde });
      makeSupplier = (aggregator) =>
        new KStreamWindowAggregate<K, unknown, V>(windows, storeName, 'ON_WINDOW_UPDATE', initializer, aggregator as (key: K, value: unknown, aggregate: V | null) => V | null);
    }
    // 3.
    const table = builder.build<K, Windowed<K>, V>({
      patterns: this.state.patterns,
      named: split.named,
      storeName,
      stores: [store],
      makeSupplier,
      keySerde: WindowedSerdes.timeWindowedSerdeFrom(keySerde, windowSize),
      valueSerde,
      queryableStoreName: windows instanceof SlidingWindows ? storeName : givenName,
    });
    return tableOf(ctx, table);
  }
}

/** @internal The {@link SessionWindowedCogroupedKStream} of `windowedBy(SessionWindows)`. */
export class SessionWindowedCogroupedKStreamImpl<K, V> implements SessionWindowedCogroupedKStream<K, V> {
  constructor(
    private readonly state: CogroupState<K, V>,
    private readonly windows: SessionWindows,
  ) {}

  /** Steps 1-3 of the module comment. */
  aggregate(initializer: Initializer<V>, sessionMerger: Merger<K, V>, named?: Named | string | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<Windowed<K>, V> {
    requireFunction(initializer, 'initializer');
    requireFunction(sessionMerger, 'sessionMerger');
    const split = namedAndMaterialized<K, V>(named, materialized);
    const m = split.materialized ?? {};
    const { ctx, builder } = this.state;
    // 1.
    const storeName = materializedName(m as Materialized<unknown, unknown>) ?? newStoreName(ctx, COGROUP_AGGREGATE_NAME);
    // 2.
    const keySerde = this.state.keySerde(m);
    const valueSerde: Serde<V> = m.valueSerde ?? Serdes.Json<V>();
    const store = sessionStoreBuilderOf<K, V>(this.windows, { storeName, materialized: m, keySerde, valueSerde, emitOnWindowClose: false, operation: 'cogroup aggregate' });
    // 3.
    const table = builder.build<K, Windowed<K>, V>({
      patterns: this.state.patterns,
      named: split.named,
      storeName,
      stores: [store],
      makeSupplier: (aggregator) =>
        new SessionWindowAggregateSupplier<K, unknown, V>(this.windows, storeName, false, { operation: 'aggregate', initializer, aggregator, merger: sessionMerger }),
      keySerde: WindowedSerdes.sessionWindowedSerdeFrom(keySerde),
      valueSerde,
      queryableStoreName: storeName,
    });
    return tableOf(ctx, table);
  }
}
