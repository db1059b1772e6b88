/**
 * A re-grouped table ready for an aggregation with adder and subtractor
 * (Kafka's `KGroupedTable`). TODO(issue 16, table grouping): implemented by the grouping work.
 */
import { TopologyError } from '../errors.js';
import type { BuilderContext } from './internal/builder-context.js';
import type { KTable } from './ktable.js';
import type { Materialized, Named } from './options.js';

/**
 * A table grouped by a new key: each update of the parent table arrives as a
 * subtraction of the old value (from its old group) and an addition of the
 * new one (to its new group).
 */
export class KGroupedTable<K, V> {
  /** @internal Use `KTable.groupBy()`. */
  constructor(
    /** @internal */
    readonly ctx: BuilderContext,
    /** @internal The node forwarding the re-keyed changes. */
    readonly nodeName: string,
  ) {}

  /** Counts the rows per key. */
  count(_named?: Named | string | Materialized<K, number>, _materialized?: Materialized<K, number>): KTable<K, number> {
    throw new TopologyError('KGroupedTable.count is not implemented yet');
  }

  /** Combines the values per key with `adder` and takes replaced values out with `subtractor`. */
  reduce(_adder: (aggregate: V, value: V) => V, _subtractor: (aggregate: V, value: V) => V, _named?: Named | string | Materialized<K, V>, _materialized?: Materialized<K, V>): KTable<K, V> {
    throw new TopologyError('KGroupedTable.reduce is not implemented yet');
  }

  /** Folds the values per key from `initializer()` with `adder`, taking replaced values out with `subtractor`. */
  aggregate<VA>(
    _initializer: () => VA,
    _adder: (key: K, value: V, aggregate: VA) => VA,
    _subtractor: (key: K, value: V, aggregate: VA) => VA,
    _named?: Named | string | Materialized<K, VA>,
    _materialized?: Materialized<K, VA>,
  ): KTable<K, VA> {
    throw new TopologyError('KGroupedTable.aggregate is not implemented yet');
  }
}
