/**
 * Windowed grouped streams (Kafka's `TimeWindowedKStream` and
 * `SessionWindowedKStream`): `grouped.windowedBy(windows)` then `count`,
 * `reduce` or `aggregate`, each producing a `KTable<Windowed<K>, V>` backed
 * by a window (or session) store per task, persistent, changelogged and
 * cached by default, as in Kafka Streams. Records later than the window's
 * end plus grace (by stream time) are dropped, logged at DEBUG and counted.
 *
 * `Materialized` is keyed by the plain key `K`: its key serde is the inner
 * key's; the resulting table's key serde is the windowed serde of it
 * (`WindowedSerdes.timeWindowedSerdeFrom` / `sessionWindowedSerdeFrom`).
 */
import type { Windowed } from '../state/window-types.js';
import type { Aggregator, Initializer, Merger, Reducer } from './aggregation-functions.js';
import type { EmitStrategy } from './emit-strategy.js';
import type { SessionWindowedAggregations, TimeWindowedAggregations } from './internal/dsl-parts.js';
import type { KTable, SessionWindowedKStream, TimeWindowedKStream } from './dsl-interfaces.js';
import { tableOf, type DslContext } from './ktable.js';
import type { Materialized, Named } from './options.js';

export type { Aggregator, Initializer, Merger, Reducer } from './aggregation-functions.js';

/**
 * @internal The {@link TimeWindowedKStream} of a grouping: the wiring
 * (internal/time-windowed.ts, internal/sliding-windowed.ts) adds each
 * aggregation's nodes, this builds its table.
 */
export class TimeWindowedKStreamImpl<K, V> implements TimeWindowedKStream<K, V> {
  constructor(
    private readonly ctx: DslContext,
    private readonly aggregations: TimeWindowedAggregations<K, V>,
  ) {}

  count(named?: Named | string | Materialized<K, number>, materialized?: Materialized<K, number>): KTable<Windowed<K>, number> {
    return tableOf(this.ctx, this.aggregations.count(named, materialized));
  }

  reduce(reducer: Reducer<V>, named?: Named | string | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<Windowed<K>, V> {
    return tableOf(this.ctx, this.aggregations.reduce(reducer, named, materialized));
  }

  aggregate<A>(initializer: Initializer<A>, aggregator: Aggregator<K, V, A>, named?: Named | string | Materialized<K, A>, materialized?: Materialized<K, A>): KTable<Windowed<K>, A> {
    return tableOf(this.ctx, this.aggregations.aggregate(initializer, aggregator, named, materialized));
  }

  emitStrategy(strategy: EmitStrategy): TimeWindowedKStream<K, V> {
    this.aggregations.emitStrategy(strategy);
    return this;
  }
}

/** @internal The {@link SessionWindowedKStream} of a grouping: internal/session-windowed.ts adds each aggregation's nodes, this builds its table. */
export class SessionWindowedKStreamImpl<K, V> implements SessionWindowedKStream<K, V> {
  constructor(
    private readonly ctx: DslContext,
    private readonly aggregations: SessionWindowedAggregations<K, V>,
  ) {}

  count(named?: Named | string | Materialized<K, number>, materialized?: Materialized<K, number>): KTable<Windowed<K>, number> {
    return tableOf(this.ctx, this.aggregations.count(named, materialized));
  }

  reduce(reducer: Reducer<V>, named?: Named | string | Materialized<K, V>, materialized?: Materialized<K, V>): KTable<Windowed<K>, V> {
    return tableOf(this.ctx, this.aggregations.reduce(reducer, named, materialized));
  }

  aggregate<A>(
    initializer: Initializer<A>,
    aggregator: Aggregator<K, V, A>,
    sessionMerger: Merger<K, A>,
    named?: Named | string | Materialized<K, A>,
    materialized?: Materialized<K, A>,
  ): KTable<Windowed<K>, A> {
    return tableOf(this.ctx, this.aggregations.aggregate(initializer, aggregator, sessionMerger, named, materialized));
  }

  emitStrategy(strategy: EmitStrategy): SessionWindowedKStream<K, V> {
    this.aggregations.emitStrategy(strategy);
    return this;
  }
}
