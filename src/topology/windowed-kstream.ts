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
import type { EmitStrategy } from './emit-strategy.js';
import type { KTable } from './ktable.js';
import type { Materialized, Named } from './options.js';

/** Kafka's `Initializer`: the starting aggregate of a new window. */
export type Initializer<A> = () => A;
/** Kafka's `Aggregator`: folds one value into the aggregate. */
export type Aggregator<K, V, A> = (key: K, value: V, aggregate: A) => A;
/** Kafka's `Reducer`: combines the aggregate with the next value. */
export type Reducer<V> = (aggregate: V, value: V) => V;
/** Kafka's `Merger`: combines the aggregates of two sessions that a record joins. */
export type Merger<K, A> = (key: K, aggregate1: A, aggregate2: A) => A;

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
