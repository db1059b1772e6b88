/**
 * Store factories, as Kafka Streams' `Stores`: bytes store suppliers (which
 * engine, under which name) and the builders that put the layers and serdes
 * on top of them.
 */
import type { Serde } from '../serdes/serde.js';
import type { KeyValueBytesStoreSupplier } from './bytes-store-contract.js';
import { InMemoryKeyValueBytesStore } from './in-memory/in-memory-key-value-bytes-store.js';
import { LmdbKeyValueBytesStore } from './lmdb/lmdb-key-value-bytes-store.js';
import type { KeyValueStore, StoreBuilder } from './state-store.js';
import { KeyValueStoreBuilder, TimestampedKeyValueStoreBuilder } from './store-builders.js';
import type { TimestampedKeyValueStore } from './timestamped-key-value-store.js';
import { WindowStores } from './window-stores.js';
import { VersionedStores } from './versioned/versioned-stores.js';

export type { KeyValueBytesStoreSupplier } from './bytes-store-contract.js';

function checkName(method: string, name: string): void {
  if (typeof name !== 'string' || name === '') throw new TypeError(`Stores.${method}: the store name must be a non-empty string`);
}

/** Factories of state store suppliers and store builders. */
export const Stores = {
  /** An in-memory key-value store named `name` (restored in full from its changelog when a task starts). */
  inMemoryKeyValueStore(name: string): KeyValueBytesStoreSupplier {
    checkName('inMemoryKeyValueStore', name);
    return { name, kind: 'in-memory', get: () => new InMemoryKeyValueBytesStore(name) };
  },
  /** A persistent key-value store named `name`: lmdb under the task's state directory, restored only past its checkpoint. */
  persistentKeyValueStore(name: string): KeyValueBytesStoreSupplier {
    checkName('persistentKeyValueStore', name);
    return { name, kind: 'persistent', get: () => new LmdbKeyValueBytesStore(name) };
  },
  /**
   * A persistent store for timestamped values (use it with
   * {@link Stores.timestampedKeyValueStoreBuilder}); the same lmdb engine, its
   * values carry the 8-byte timestamp prefix.
   */
  persistentTimestampedKeyValueStore(name: string): KeyValueBytesStoreSupplier {
    checkName('persistentTimestampedKeyValueStore', name);
    return { name, kind: 'persistent', get: () => new LmdbKeyValueBytesStore(name) };
  },
  /** A builder of typed key-value stores (logging enabled, caching disabled by default, as Kafka); a `null` serde is the app's default serde. */
  keyValueStoreBuilder<K, V>(supplier: KeyValueBytesStoreSupplier, keySerde: Serde<K> | null, valueSerde: Serde<V> | null): StoreBuilder<KeyValueStore<K, V>> {
    return new KeyValueStoreBuilder(supplier, keySerde, valueSerde);
  },
  /** A builder of timestamped key-value stores (values are `ValueAndTimestamp<V>`), over any supplier; a `null` serde is the app's default serde. */
  timestampedKeyValueStoreBuilder<K, V>(
    supplier: KeyValueBytesStoreSupplier,
    keySerde: Serde<K> | null,
    valueSerde: Serde<V> | null,
  ): StoreBuilder<TimestampedKeyValueStore<K, V>> {
    return new TimestampedKeyValueStoreBuilder(supplier, keySerde, valueSerde);
  },
  // ---- window and session stores (window-stores.ts) ----
  ...WindowStores,
  // ---- versioned key-value stores (versioned/versioned-stores.ts) ----
  ...VersionedStores,
};
