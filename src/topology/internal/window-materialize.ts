/**
 * Window-store materialization of windowed aggregations (Kafka's
 * `WindowStoreMaterializer` and `SlidingWindowStoreMaterializer`), one
 * function for time and sliding windows:
 *
 * 1. retention: `Materialized.withRetention(ms)`, else the caller's default
 *    (window size plus grace for time windows); sliding windows give their
 *    own, checked against `2 * timeDifference + grace`;
 * 2. the check that the store keeps a window until it closes:
 *    `size + grace <= retention`, with Kafka's message;
 * 3. the supplier: `Materialized.as(supplier)`'s (it must be a window store
 *    supplier), else `Stores.persistentTimestampedWindowStore(name, retention, size, false)`;
 *    emitting on window close, the default store keeps one more millisecond
 *    (retention + 1), as Kafka's time-ordered store for that strategy does
 *    (its `getActualFrom` keeps a window starting exactly `retention` before
 *    stream time, so the window closing at that instant can still be
 *    emitted); its changelog `retention.ms` stays Kafka's, retention + 1 day;
 * 4. the builder: a timestamped window store, changelogged unless
 *    `loggingEnabled` is false (topic `cleanup.policy=compact,delete`,
 *    `retention.ms` = retention + 1 day), cached unless `cachingEnabled` is false.
 */
import { IllegalArgumentError } from '../../errors.js';
import { Stores } from '../../state/stores.js';
import { dslKeyValueSupplier, dslStoreSuppliersLike, dslWindowSupplier } from '../../state/dsl-store-suppliers.js';
import type { StateStore, StoreBuilder } from '../../state/state-store.js';
import { WINDOWED_CHANGELOG_ADDITIONAL_RETENTION_MS } from '../../state/window-store-builders.js';
import type { WindowBytesStoreSupplier } from '../../state/window-store.js';
import { emitCloseTimeStoreName } from '../../processors/dsl/window-emit-close-times.js';
import type { Serde } from '../../serdes/serde.js';
import { Serdes } from '../../serdes/serdes.js';
import type { Materialized, MaterializedStoreSupplier } from '../options.js';

/** What the window store of one windowed aggregation needs. */
export interface WindowStoreSpec<K, V> {
  readonly storeName: string;
  readonly materialized: Materialized<K, V>;
  /** The size of the store's windows (Kafka's `windows.size()`). */
  readonly windowSizeMs: number;
  /** The grace period of the windows. */
  readonly gracePeriodMs: number;
  /** The retention when `Materialized` sets none (time windows: size + grace). */
  readonly defaultRetentionMs: number;
  readonly keySerde: Serde<K>;
  readonly valueSerde: Serde<V>;
  /** True with `EmitStrategy.onWindowClose()` of time windows (step 3; sliding windows keep Kafka's retention). */
  readonly emitOnClose?: boolean;
}

/** True when `supplier` is a window store supplier (it has a window size). */
export function isWindowBytesStoreSupplier(supplier: MaterializedStoreSupplier | undefined): supplier is WindowBytesStoreSupplier {
  return supplier !== undefined && 'windowSize' in supplier;
}

/** Steps 1-2: the store's retention, checked against size + grace (Kafka's message). */
export function windowStoreRetention(spec: Pick<WindowStoreSpec<unknown, unknown>, 'storeName' | 'materialized' | 'windowSizeMs' | 'gracePeriodMs' | 'defaultRetentionMs'>): number {
  const retention = spec.materialized.retentionMs ?? spec.defaultRetentionMs;
  if (spec.windowSizeMs + spec.gracePeriodMs > retention) {
    throw new IllegalArgumentError(
      `The retention period of the window store ${spec.storeName} must be no smaller than its window size plus the grace period.` +
        ` Got size=[${spec.windowSizeMs}], grace=[${spec.gracePeriodMs}], retention=[${retention}]`,
    );
  }
  return retention;
}

/**
 * Steps 1-4: the timestamped window store builder of a windowed aggregation;
 * `retention`: steps 1-2 done by the caller (sliding windows), else here.
 */
export function timestampedWindowStoreBuilder<K, V>(spec: WindowStoreSpec<K, V>, retention = windowStoreRetention(spec)): StoreBuilder<StateStore> {
  const given = spec.materialized.storeSupplier;
  if (given !== undefined && !isWindowBytesStoreSupplier(given)) {
    throw new IllegalArgumentError(
      `Store '${spec.storeName}': Materialized.as(supplier of store '${given.name}'): a windowed aggregation needs a window store supplier; ` +
        `give Stores.persistentTimestampedWindowStore('${spec.storeName}', ${retention}, ${spec.windowSizeMs}, false), Stores.inMemoryWindowStore(...) or only the store name`,
    );
  }
  const extraMs = given === undefined && spec.emitOnClose === true ? 1 : 0;
  const supplier =
    given ??
    dslWindowSupplier({ name: spec.storeName, retentionPeriod: retention + extraMs, windowSize: spec.windowSizeMs, retainDuplicates: false, timestamped: true }, spec.materialized.dslStoreSuppliers);
  const builder = Stores.timestampedWindowStoreBuilder(supplier, spec.keySerde, spec.valueSerde);
  const logConfig = { ...(extraMs > 0 ? { 'retention.ms': String(retention + WINDOWED_CHANGELOG_ADDITIONAL_RETENTION_MS) } : {}), ...(spec.materialized.logConfig ?? {}) };
  if (spec.materialized.loggingEnabled === false) builder.withLoggingDisabled();
  else builder.withLoggingEnabled(logConfig);
  if (spec.materialized.cachingEnabled === false) builder.withCachingDisabled();
  else builder.withCachingEnabled();
  return builder;
}

/**
 * The store of the last emit close time of an aggregation emitting on window
 * close (`<storeName>-emit-close-time`, Kafka keeps it as processor metadata
 * in the committed offsets): a key-value store of the same kind as the window
 * store, changelogged unless the window store is not, never cached.
 */
export function emitCloseTimeStoreBuilder(storeName: string, materialized: Materialized<unknown, unknown>): StoreBuilder<StateStore> {
  const name = emitCloseTimeStoreName(storeName);
  // A given window supplier: the built-in suppliers of its engine; else the same suppliers as the window store (per store, else the app's).
  const given = isWindowBytesStoreSupplier(materialized.storeSupplier) ? materialized.storeSupplier : undefined;
  const supplier = dslKeyValueSupplier({ name, timestamped: false }, given === undefined ? materialized.dslStoreSuppliers : dslStoreSuppliersLike(given));
  const builder = Stores.keyValueStoreBuilder(supplier, Serdes.String(), Serdes.Long());
  if (materialized.loggingEnabled === false) builder.withLoggingDisabled();
  else builder.withLoggingEnabled({});
  return builder;
}
