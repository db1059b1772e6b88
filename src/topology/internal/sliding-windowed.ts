/**
 * `KGroupedStream.windowedBy(SlidingWindows)` (Kafka's
 * `SlidingWindowedKStreamImpl`): count, reduce and aggregate into a
 * `KTable<Windowed<K>, V>` over a timestamped window store per task.
 *
 * Each aggregation, in Kafka's order of generated names:
 * 1. the store name: `materialized`'s (or its supplier's), else
 *    `KSTREAM-AGGREGATE-STATE-STORE-<n>` (`KSTREAM-REDUCE-...` for reduce);
 * 2. the retention: `materialized.retentionMs`, else `2 * timeDifference +
 *    grace`; smaller than that is an IllegalArgumentError with Kafka's message
 *    (new windows need the windows up to `2 * timeDifference` back);
 * 3. the processor name: `named`, else `KSTREAM-AGGREGATE-<n>` / `KSTREAM-REDUCE-<n>`;
 * 4. the parent: the grouped stream, or its repartition topic's source;
 * 5. the node and its store (`window-materialize.ts`; window size = the time
 *    difference; not cached under `EmitStrategy.onWindowClose()`, as Kafka);
 *    emitting on window close, also the store of its last emit close time
 *    (`<store>-emit-close-time`), so a restart emits no closed window again;
 * 6. the table: keys in `WindowedSerdes.timeWindowedSerdeFrom(keySerde, timeDifference)`.
 *
 * Serdes of the store: `materialized`'s, else the grouping's key serde (see
 * `GroupedStreamParts`) and, for values: `Serdes.Long()` for count, the
 * grouping's value serde for reduce, `Serdes.Json()` for aggregate (as
 * `KGroupedStream.aggregate`).
 */
import { IllegalArgumentError } from '../../errors.js';
import { slidingAggregateSupplier, slidingCountSupplier, slidingReduceSupplier, type SlidingWindowAggregateSupplier } from '../../processors/dsl/sliding-window-aggregate.js';
import type { WindowEmitStrategy } from '../../processors/dsl/window-aggregate-processor.js';
import type { Windowed } from '../../state/window-types.js';
import { WindowedSerdes } from '../../state/windowed-serdes.js';
import type { Serde } from '../../serdes/serde.js';
import { Serdes } from '../../serdes/serdes.js';
import { EmitStrategy } from '../emit-strategy.js';
import type { Materialized, Named } from '../options.js';
import type { SlidingWindows } from '../sliding-windows.js';
import type { Aggregator, Initializer, Reducer } from '../aggregation-functions.js';
import { nameOr } from './builder-context.js';
import { requireFunction, requireNonNull } from './checks.js';
import type { NewTable, TimeWindowedAggregations } from './dsl-parts.js';
import type { GroupedStreamParts } from './grouped-parts.js';
import { materializedName, namedAndMaterialized } from './materialize.js';
import { emitCloseTimeStoreBuilder, timestampedWindowStoreBuilder } from './window-materialize.js';
import { aggregationSerdes, checkedEmitStrategy } from './windowed-aggregation.js';

const AGGREGATE_NAME = 'KSTREAM-AGGREGATE-';
const REDUCE_NAME = 'KSTREAM-REDUCE-';

type MakeSupplier<K, V, A> = (storeName: string, emitStrategy: WindowEmitStrategy) => SlidingWindowAggregateSupplier<K, V, A>;

/** Kafka's `SlidingWindowStoreMaterializer` check: the store must keep the windows up to `2 * timeDifference + grace` back. */
export function slidingRetentionOf(windows: SlidingWindows, storeName: string, materialized: Materialized<unknown, unknown>): number {
  const timeDifference = windows.timeDifferenceMs();
  const grace = windows.gracePeriodMs();
  const retention = materialized.retentionMs ?? grace + 2 * timeDifference;
  if (timeDifference * 2 + grace > retention) {
    throw new IllegalArgumentError(
      `The retention period of the window store ${storeName} must be no smaller than 2 * time difference plus the grace period.` +
        ` Got time difference=[${timeDifference}], grace=[${grace}], retention=[${retention}]`,
    );
  }
  return retention;
}

class SlidingWindowedAggregations<K, V> implements TimeWindowedAggregations<K, V> {
  private strategy: EmitStrategy = EmitStrategy.onWindowUpdate();

  constructor(
    private readonly parts: GroupedStreamParts<K, V>,
    private readonly windows: SlidingWindows,
  ) {}

  count(named?: Named | string | Materialized<K, number>, materialized?: Materialized<K, number>): NewTable<Windowed<K>, number> {
    const args = namedAndMaterialized<K, number>(named, materialized);
    return this.build(AGGREGATE_NAME, args.named, args.materialized ?? {}, Serdes.Long(), (store, emit) => slidingCountSupplier<K, V>(this.windows, store, emit));
  }

  reduce(reducer: Reducer<V>, named?: Named | string | Materialized<K, V>, materialized?: Materialized<K, V>): NewTable<Windowed<K>, V> {
    requireFunction(reducer, 'reducer');
    const args = namedAndMaterialized<K, V>(named, materialized);
    return this.build(REDUCE_NAME, args.named, args.materialized ?? {}, this.parts.valueSerde(), (store, emit) => slidingReduceSupplier<K, V>(this.windows, store, emit, reducer));
  }

  aggregate<A>(
    initializer: Initializer<A>,
    aggregator: Aggregator<K, V, A>,
    named?: Named | string | Materialized<K, A>,
    materialized?: Materialized<K, A>,
  ): NewTable<Windowed<K>, A> {
    requireFunction(initializer, 'initializer');
    requireFunction(aggregator, 'aggregator');
    const args = namedAndMaterialized<K, A>(named, materialized);
    return this.build(AGGREGATE_NAME, args.named, args.materialized ?? {}, Serdes.Json<A>(), (store, emit) =>
      slidingAggregateSupplier<K, V, A>(this.windows, store, emit, initializer, aggregator),
    );
  }

  /** Kafka's `emitStrategy`: the aggregations created afterwards emit by `strategy`. */
  emitStrategy(strategy: EmitStrategy): void {
    this.strategy = checkedEmitStrategy(strategy);
  }

  /** One aggregation, in the steps of the module comment. */
  private build<A>(prefix: string, named: Named | string | undefined, materialized: Materialized<K, A>, defaultValueSerde: Serde<A>, make: MakeSupplier<K, V, A>): NewTable<Windowed<K>, A> {
    const { ctx } = this.parts;
    // 1.
    const storeName = materializedName(materialized as Materialized<unknown, unknown>) ?? ctx.newName(`${prefix}STATE-STORE-`);
    // 2.
    const retention = slidingRetentionOf(this.windows, storeName, materialized as Materialized<unknown, unknown>);
    // 3.
    const processorName = nameOr(ctx, named, prefix);
    // 4.
    const parent = this.parts.parentFor(storeName);
    // 5.
    const { keySerde, valueSerde } = aggregationSerdes(this.parts, materialized, defaultValueSerde);
    const timeDifference = this.windows.timeDifferenceMs();
    const builder = timestampedWindowStoreBuilder<K, A>(
      { storeName, materialized, windowSizeMs: timeDifference, gracePeriodMs: this.windows.gracePeriodMs(), defaultRetentionMs: retention, keySerde, valueSerde },
      retention,
    );
    const emitOnClose = this.strategy.type === 'ON_WINDOW_CLOSE';
    if (emitOnClose) builder.withCachingDisabled();
    const closeTimes = emitOnClose ? emitCloseTimeStoreBuilder(storeName, materialized as Materialized<unknown, unknown>) : undefined;
    const supplier = make(storeName, { type: this.strategy.type, emitCloseTimeStore: closeTimes?.name });
    ctx.topology.addProcessor(processorName, supplier, parent);
    ctx.topology.addStateStore(builder, processorName);
    if (closeTimes !== undefined) ctx.topology.addStateStore(closeTimes, processorName);
    // 6.
    const windowedSerde = WindowedSerdes.timeWindowedSerdeFrom(keySerde, timeDifference);
    return { nodeName: processorName, supplier, queryableStoreName: storeName, serdes: { key: windowedSerde, value: valueSerde } };
  }
}

/** The windowed stream of `parts` by `windows`. */
export function slidingWindowedStream<K, V>(parts: GroupedStreamParts<K, V>, windows: SlidingWindows): TimeWindowedAggregations<K, V> {
  requireNonNull(windows, 'windows');
  if (windows.timeDifferenceMs() === 0) {
    // Kafka accepts 0; its windows [t, t] have no time-window form here (a window's end must lie after its start)
    throw new IllegalArgumentError('windowedBy(SlidingWindows): the time difference must be at least 1 ms; got 0 (use ofTimeDifferenceWithNoGrace(1) or more)');
  }
  return new SlidingWindowedAggregations<K, V>(parts, windows);
}
