/**
 * The function types of the windowed aggregations (Kafka's `Initializer`,
 * `Aggregator`, `Reducer`, `Merger`): their own module, importing nothing,
 * so the public interfaces (windowed-kstream.ts, which re-exports them) and
 * the wiring files of `internal/` name them without importing each other.
 */

/** Kafka's `Initializer`: the starting aggregate of a new window. */
export type Initializer<A> = () => A;
/** Kafka's `Aggregator`: folds one value into the aggregate. */
export type Aggregator<K, V, A> = (key: K, value: V, aggregate: A) => A;
/** Kafka's `Reducer`: combines the aggregate with the next value. */
export type Reducer<V> = (aggregate: V, value: V) => V;
/** Kafka's `Merger`: combines the aggregates of two sessions that a record joins. */
export type Merger<K, A> = (key: K, aggregate1: A, aggregate2: A) => A;
