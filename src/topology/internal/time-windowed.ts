/**
 * `KGroupedStream.windowedBy(TimeWindows | UnlimitedWindows)` (Kafka's
 * `TimeWindowedKStreamImpl`): count / reduce / aggregate per key and window
 * into a `KTable<Windowed<K>, V>` backed by a timestamped window store per
 * task.
 *
 * Each aggregation, in Kafka's order (so generated names match Kafka's):
 * 1. count with an explicit `Materialized` naming no store burns one store
 *    name, as Kafka keeps doing for topology compatibility;
 * 2. the store name: `Materialized`'s (or its supplier's), else
 *    `KSTREAM-AGGREGATE-STATE-STORE-<n>` / `KSTREAM-REDUCE-STATE-STORE-<n>`;
 * 3. the node name: `Named`'s (an index is burnt either way), else
 *    `KSTREAM-AGGREGATE-<n>` / `KSTREAM-REDUCE-<n>`;
 * 4. the parent: the grouped stream, or its repartition topic's source;
 * 5. the processor ({@link KStreamWindowAggregate}) and its window store
 *    (`window-materialize.ts`: retention size + grace unless
 *    `Materialized.withRetention`, checked); emitting on window close, also
 *    the store of its last emit close time (`<store>-emit-close-time`);
 * 6. the table, its key serde `WindowedSerdes.timeWindowedSerdeFrom(keySerde, size)`.
 */
import { IllegalArgumentError } from '../../errors.js';
import { KStreamWindowAggregate, reducerAggregator } from '../../processors/dsl/window-aggregate.js';
import { WindowedSerdes } from '../../state/windowed-serdes.js';
import type { Windowed } from '../../state/window-types.js';
import type { Serde } from '../../serdes/serde.js';
import { Serdes } from '../../serdes/serdes.js';
import { EmitStrategy } from '../emit-strategy.js';
import type { Materialized, Named } from '../options.js';
import { UnlimitedWindows } from '../unlimited-windows.js';
import type { Aggregator, Initializer, Reducer } from '../aggregation-functions.js';
import type { Windows } from '../windows.js';
import { requireFunction, requireNonNull } from './checks.js';
import type { NewTable, TimeWindowedAggregations } from './dsl-parts.js';
import type { GroupedStreamParts } from './grouped-parts.js';
import { nodeName, newStoreName } from './kafka-names.js';
import { materializedName, namedAndMaterialized } from './materialize.js';
import { emitCloseTimeStoreBuilder, timestampedWindowStoreBuilder } from './window-materialize.js';
import { checkedEmitStrategy } from './windowed-aggregation.js';

const AGGREGATE_NAME = 'KSTREAM-AGGREGATE-';
const REDUCE_NAME = 'KSTREAM-REDUCE-';

/** One aggregation's inputs, after the overloads are split. */
interface AggregationSpec<K, V, A> {
  readonly prefix: string;
  readonly named: Named | string | undefined;
  readonly materialized: Materialized<K, A>;
  readonly valueSerde: Serde<A>;
  readonly initializer: () => A | null;
  readonly aggregator: (key: K, value: V, aggregate: A | null) => A | null;
}

class TimeWindowedAggregationsImpl<K, V> implements TimeWindowedAggregations<K, V> {
  private strategy: EmitStrategy = EmitStrategy.onWindowUpdate();

  constructor(
    private readonly parts: GroupedStreamParts<K, V>,
    private readonly windows: Windows,
  ) {}

  count(named?: Named | string | Materialized<K, number>, materialized?: Materialized<K, number>): NewTable<Windowed<K>, number> {
    const split = namedAndMaterialized(named, materialized);
    // step 1: count(Named, Materialized) without a store name burns one (Kafka's TODO for topology compatibility)
    if (split.materialized !== undefined && materializedName(split.materialized) === undefined) newStoreName(this.parts.ctx, AGGREGATE_NAME);
    const m = split.materialized ?? {};
    return this.build<number>({
      prefix: AGGREGATE_NAME,
      named: split.named,
      materialized: m,
      valueSerde: m.valueSerde ?? Serdes.Long(),
      initializer: () => 0,
      aggregator: (_key, _value, aggregate) => (aggregate ?? 0) + 1,
    });
  }

  reduce(reducer: Reducer<V>, named?: Named | string | Materialized<K, V>, materialized?: Materialized<K, V>): NewTable<Windowed<K>, V> {
    requireFunction(reducer, 'reducer');
    const split = namedAndMaterialized(named, materialized);
    const m = split.materialized ?? {};
    return this.build<V>({
      prefix: REDUCE_NAME,
      named: split.named,
      materialized: m,
      valueSerde: m.valueSerde ?? this.parts.valueSerde(),
      initializer: () => null,
      aggregator: reducerAggregator<K, V>(reducer),
    });
  }

  aggregate<A>(
    initializer: Initializer<A>,
    aggregator: Aggregator<K, V, A>,
    named?: Named | string | Materialized<K, A>,
    materialized?: Materialized<K, A>,
  ): NewTable<Windowed<K>, A> {
    requireFunction(initializer, 'initializer');
    requireFunction(aggregator, 'aggregator');
    const split = namedAndMaterialized(named, materialized);
    const m = split.materialized ?? {};
    return this.build<A>({
      prefix: AGGREGATE_NAME,
      named: split.named,
      materialized: m,
      valueSerde: m.valueSerde ?? Serdes.Json<A>(),
      initializer,
      aggregator: aggregator as (key: K, value: V, aggregate: A | null) => A,
    });
  }

  emitStrategy(strategy: EmitStrategy): void {
    checkedEmitStrategy(strategy);
    if (this.windows instanceof UnlimitedWindows && strategy.type === 'ON_WINDOW_CLOSE') {
      throw new IllegalArgumentError('ON_WINDOW_CLOSE emit strategy cannot be used for UnlimitedWindows');
    }
    this.strategy = strategy;
  }

  /** Steps 2-6 of the module comment. */
  private build<A>(spec: AggregationSpec<K, V, A>): NewTable<Windowed<K>, A> {
    const { ctx } = this.parts;
    const givenName = materializedName(spec.materialized);
    const storeName = givenName ?? newStoreName(ctx, spec.prefix);
    const processorName = nodeName(ctx, spec.named, spec.prefix);
    const keySerde = spec.materialized.keySerde ?? this.parts.keySerde();
    // the store builder first: its retention check fails before anything is added to the topology
    const storeBuilder = timestampedWindowStoreBuilder<K, A>({
      storeName,
      materialized: spec.materialized,
      windowSizeMs: this.windows.size(),
      gracePeriodMs: this.windows.gracePeriodMs(),
      defaultRetentionMs: this.windows.size() + this.windows.gracePeriodMs(),
      keySerde,
      valueSerde: spec.valueSerde,
      emitOnClose: this.strategy.type === 'ON_WINDOW_CLOSE',
    });
    const emitOnClose = this.strategy.type === 'ON_WINDOW_CLOSE';
    const closeTimes = emitOnClose ? emitCloseTimeStoreBuilder(storeName, spec.materialized as Materialized<unknown, unknown>) : undefined;
    const supplier = new KStreamWindowAggregate<K, V, A>(this.windows, storeName, this.strategy.type, spec.initializer, spec.aggregator, closeTimes?.name);
    const parent = this.parts.parentFor(storeName);
    ctx.topology.addProcessor(processorName, supplier, parent);
    ctx.topology.addStateStore(storeBuilder, processorName);
    if (closeTimes !== undefined) ctx.topology.addStateStore(closeTimes, processorName);
    return {
      nodeName: processorName,
      supplier,
      queryableStoreName: givenName,
      serdes: { key: WindowedSerdes.timeWindowedSerdeFrom(keySerde, this.windows.size()), value: spec.valueSerde },
    };
  }
}

/** The aggregations of `parts` windowed by `windows` (`TimeWindows` or `UnlimitedWindows`). */
export function timeWindowedStream<K, V>(parts: GroupedStreamParts<K, V>, windows: Windows): TimeWindowedAggregations<K, V> {
  return new TimeWindowedAggregationsImpl<K, V>(parts, requireNonNull(windows, 'windows'));
}
