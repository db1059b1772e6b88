/**
 * The versioned-store factories of `Stores` (Kafka's
 * `Stores.persistentVersionedKeyValueStore` and `versionedKeyValueStoreBuilder`),
 * plus `inMemoryVersionedKeyValueStore` (sluice's: the same semantics on the
 * in-memory engine; Kafka has only the RocksDB one).
 */
import type { Serde } from '../../serdes/serde.js';
import { InMemoryKeyValueBytesStore } from '../in-memory/in-memory-key-value-bytes-store.js';
import { LmdbKeyValueBytesStore } from '../lmdb/lmdb-key-value-bytes-store.js';
import type { StoreBuilder } from '../state-store.js';
import type { VersionedKeyValueStore } from './versioned-key-value-store.js';
import { checkDuration, VersionedKeyValueStoreBuilder, versionedSupplier, type VersionedBytesStoreSupplier } from './versioned-store-builder.js';

/** Kafka's default segment interval for a history retention (RocksDbVersionedKeyValueBytesStoreSupplier). */
function defaultSegmentInterval(historyRetentionMs: number): number {
  if (historyRetentionMs <= 60_000) return Math.max(Math.floor(historyRetentionMs / 3), 2_000);
  if (historyRetentionMs <= 300_000) return Math.max(Math.floor(historyRetentionMs / 5), 20_000);
  if (historyRetentionMs <= 3_600_000) return Math.max(Math.floor(historyRetentionMs / 12), 60_000);
  return Math.max(Math.floor(historyRetentionMs / 24), 300_000);
}

function checkName(method: string, name: string): void {
  if (typeof name !== 'string' || name === '') throw new TypeError(`Stores.${method}: the store name must be a non-empty string`);
}

/** The versioned part of `Stores`. */
export const VersionedStores = {
  /**
   * A persistent versioned key-value store (lmdb under the task's state
   * directory): versions stay readable for `historyRetentionMs` behind the
   * highest timestamp put so far, which is also the grace period of puts.
   * `segmentIntervalMs` is accepted as Kafka's (default as Kafka's); sluice's
   * engine keeps all versions of a key together and does not use it.
   */
  persistentVersionedKeyValueStore(name: string, historyRetentionMs: number, segmentIntervalMs?: number): VersionedBytesStoreSupplier {
    checkName('persistentVersionedKeyValueStore', name);
    checkDuration('persistentVersionedKeyValueStore', 'historyRetentionMs', historyRetentionMs, true);
    if (segmentIntervalMs !== undefined) checkDuration('persistentVersionedKeyValueStore', 'segmentIntervalMs', segmentIntervalMs, false);
    return versionedSupplier(name, 'persistent', historyRetentionMs, segmentIntervalMs ?? defaultSegmentInterval(historyRetentionMs), () => new LmdbKeyValueBytesStore(name));
  },
  /** The in-memory versioned key-value store: the same semantics, restored in full from its changelog when a task starts. */
  inMemoryVersionedKeyValueStore(name: string, historyRetentionMs: number): VersionedBytesStoreSupplier {
    checkName('inMemoryVersionedKeyValueStore', name);
    checkDuration('inMemoryVersionedKeyValueStore', 'historyRetentionMs', historyRetentionMs, true);
    return versionedSupplier(name, 'in-memory', historyRetentionMs, defaultSegmentInterval(historyRetentionMs), () => new InMemoryKeyValueBytesStore(name));
  },
  /** A builder of typed versioned key-value stores (logging enabled by default; caching is not supported, as in Kafka); a `null` serde is the app's default. */
  versionedKeyValueStoreBuilder<K, V>(supplier: VersionedBytesStoreSupplier, keySerde: Serde<K> | null, valueSerde: Serde<V> | null): StoreBuilder<VersionedKeyValueStore<K, V>> {
    return new VersionedKeyValueStoreBuilder(supplier, keySerde, valueSerde);
  },
};
