/**
 * GlobalKTable: a table fully replicated on every instance.
 * TODO(issue 16, global tables): implemented by the global-table work.
 */
import type { KTableValueGetterSupplier } from '../processors/dsl/ktable-contract.js';

/**
 * A table whose every partition is read by every instance of the app,
 * restored before the app is RUNNING and kept up to date while it runs.
 * Joined from a stream with `stream.join(globalTable, keySelector, joiner)`.
 */
export class GlobalKTable<K, V> {
  /** @internal Use `StreamsBuilder.globalTable()`. */
  constructor(
    /** @internal The table's view (reads the global store). */
    readonly valueGetterSupplier: () => KTableValueGetterSupplier<K, V>,
    /** The name of the global store, for interactive queries. */
    readonly queryableStoreName: string | undefined,
  ) {}
}
