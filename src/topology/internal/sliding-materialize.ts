/**
 * The window store builder of a sliding-window aggregation (the store half of
 * Kafka's `SlidingWindowStoreMaterializer`): a timestamped window store over
 * `materialized.storeSupplier` (it must supply window stores) or, by
 * default, a persistent one of `retentionMs` and `windowSizeMs`;
 * changelogged unless `loggingEnabled` is false (changelog
 * `cleanup.policy=compact,delete`, `retention.ms` = retention + 1 day, set by
 * the builder), cached unless `cachingEnabled` is false.
 */
import { TopologyError } from '../../errors.js';
import type { StateStore, StoreBuilder } from '../../processors/state/state-store.js';
import { Stores } from '../../processors/state/stores.js';
import type { WindowBytesStoreSupplier } from '../../processors/state/window-store.js';
import type { Serde } from '../../serdes/serde.js';
import type { Materialized, MaterializedStoreSupplier } from '../options.js';

/** True when `supplier` supplies window stores (it has a window size). */
function isWindowSupplier(supplier: MaterializedStoreSupplier): supplier is WindowBytesStoreSupplier {
  return typeof (supplier as Partial<WindowBytesStoreSupplier>).windowSize === 'number';
}

/** `materialized`'s window store supplier, else a persistent timestamped one; a TopologyError for another kind of supplier. */
function windowSupplier<K, V>(storeName: string, materialized: Materialized<K, V>, retentionMs: number, windowSizeMs: number): WindowBytesStoreSupplier {
  const given = materialized.storeSupplier;
  if (given === undefined) return Stores.persistentTimestampedWindowStore(storeName, retentionMs, windowSizeMs, false);
  if (isWindowSupplier(given)) return given;
  throw new TopologyError(
    `Materialized.as(supplier of store '${given.name}'): a windowed aggregation needs a window store supplier; ` +
      'give Stores.persistentTimestampedWindowStore(name, retentionMs, windowSizeMs, false) or Stores.inMemoryWindowStore(...)',
  );
}

/** The timestamped window store builder of `materialized`, named `storeName`. */
export function slidingWindowStoreBuilder<K, V>(
  storeName: string,
  materialized: Materialized<K, V>,
  keySerde: Serde<K>,
  valueSerde: Serde<V>,
  retentionMs: number,
  windowSizeMs: number,
): StoreBuilder<StateStore> {
  const builder = Stores.timestampedWindowStoreBuilder(windowSupplier(storeName, materialized, retentionMs, windowSizeMs), keySerde, valueSerde);
  if (materialized.loggingEnabled === false) builder.withLoggingDisabled();
  else builder.withLoggingEnabled(materialized.logConfig ?? {});
  if (materialized.cachingEnabled === false) builder.withCachingDisabled();
  else builder.withCachingEnabled();
  return builder;
}
