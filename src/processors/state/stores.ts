/**
 * Store factories, as Kafka Streams' `Stores`.
 */
import type { Serde } from '../../serdes/serde.js';
import { InMemoryKeyValueStore } from './in-memory-key-value-store.js';
import type { KeyValueStore, StateStore, StoreBuilder } from './state-store.js';
import { WindowStores } from './window-stores.js';

/** Says which kind of bytes store to create, under which name. */
export interface KeyValueBytesStoreSupplier {
  readonly name: string;
  /** `'in-memory'` for now; a transactional or persistent kind may follow. */
  readonly kind: 'in-memory';
}

/** Factories of state stores and store builders. */
export const Stores = {
  /** An in-memory key-value store named `name`. */
  inMemoryKeyValueStore(name: string): KeyValueBytesStoreSupplier {
    if (typeof name !== 'string' || name === '') throw new TypeError('Stores.inMemoryKeyValueStore: the store name must be a non-empty string');
    return { name, kind: 'in-memory' };
  },
  /** A builder of typed key-value stores using `keySerde` / `valueSerde` for the stored bytes. */
  keyValueStoreBuilder<K, V>(
    supplier: KeyValueBytesStoreSupplier,
    keySerde: Serde<K>,
    valueSerde: Serde<V>,
  ): StoreBuilder<KeyValueStore<K, V>> {
    return new SimpleStoreBuilder(supplier.name, () => new InMemoryKeyValueStore<K, V>(supplier.name, keySerde, valueSerde));
  },
  // ---- window and session stores (window-stores.ts) ----
  ...WindowStores,
};

/** Placeholder builder carrying the logging / caching flags (replaced by the layered builders). */
class SimpleStoreBuilder<S extends StateStore> implements StoreBuilder<S> {
  loggingEnabled = true;
  logConfig: Readonly<Record<string, string>> = {};
  cachingEnabled = false;
  constructor(readonly name: string, private readonly make: () => S) {}
  build(): S {
    return this.make();
  }
  withLoggingEnabled(config: Record<string, string> = {}): this {
    this.loggingEnabled = true;
    this.logConfig = { ...config };
    return this;
  }
  withLoggingDisabled(): this {
    this.loggingEnabled = false;
    return this;
  }
  withCachingEnabled(): this {
    this.cachingEnabled = true;
    return this;
  }
  withCachingDisabled(): this {
    this.cachingEnabled = false;
    return this;
  }
}
