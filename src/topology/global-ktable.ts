/**
 * GlobalKTable: a table fully replicated on every instance (Kafka's
 * `GlobalKTableImpl`). Created by `StreamsBuilder.globalTable()`; its store
 * is a global store (see `Topology.addGlobalStore`).
 */
import type { KTableValueGetterSupplier } from '../processors/dsl/ktable-contract.js';

/**
 * A table whose every partition is read by every instance of the app,
 * restored before the app is RUNNING and kept up to date while it runs.
 * Joined from a stream with `stream.join(globalTable, keySelector, joiner)`:
 * no co-partitioning is needed, the stream's key is kept.
 */
export class GlobalKTable<K, V> {
  /** @internal Use `StreamsBuilder.globalTable()`. */
  constructor(
    /** @internal The table's view (reads the global store). */
    readonly valueGetterSupplier: () => KTableValueGetterSupplier<K, V>,
    /** The name of the global store when `Materialized` named it (then it is queryable with `app.store(...)`); else undefined. */
    readonly queryableStoreName: string | undefined,
  ) {}
}
