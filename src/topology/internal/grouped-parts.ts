/**
 * What a windowed grouping takes from its `KGroupedStream`: the builder, the
 * serdes known so far and the aggregation's parent node (the grouped stream,
 * or the source of its repartition topic, created on first use).
 */
import type { Serde } from '../../serdes/serde.js';
import type { BuilderContext, StreamSerdes } from './builder-context.js';

/** A `KGroupedStream`'s parts, for `windowedBy`. */
export interface GroupedStreamParts<K, V> {
  readonly ctx: BuilderContext;
  /** The grouping's serdes (`Grouped`, or the stream's known ones). */
  readonly serdes: StreamSerdes<K, V>;
  /** The key serde to use when `Materialized` gives none: the grouping's, the builder default, else `Serdes.Json()`. */
  keySerde(): Serde<K>;
  /** The value serde to use when none is given: the grouping's, the builder default, else `Serdes.Json()`. */
  valueSerde(): Serde<V>;
  /** The aggregation's parent node; `storeName` names an unnamed grouping's repartition topic. */
  parentFor(storeName: string): string;
}
