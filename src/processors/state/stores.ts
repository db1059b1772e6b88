/**
 * Store factories, as Kafka Streams' `Stores`.
 */
import type { Serde } from '../../serdes/serde.js';
import { InMemoryKeyValueStore } from './in-memory-key-value-store.js';
import type { KeyValueStore, StateStore, StoreBuilder } from './state-store.js';
import type { KeyValueBytesStoreSupplier } from './bytes-store-contract.js';
import { standInSupplier, StandInStoreBuilder } from './store-layers-stand-in.js';
import { valueAndTimestampSerde, type ValueAndTimestamp } from './value-and-timestamp.js';

export type { KeyValueBytesStoreSupplier } from './bytes-store-contract.js';

/** A key-value store whose values carry the timestamp of the record that wrote them (Kafka's `TimestampedKeyValueStore`). */
export type TimestampedKeyValueStore<K, V> = KeyValueStore<K, ValueAndTimestamp<V>>;

/** Factories of state stores and store builders. */
export const Stores = {
  /** An in-memory key-value store named `name`. */
  inMemoryKeyValueStore(name: string): KeyValueBytesStoreSupplier {
    if (typeof name !== 'string' || name === '') throw new TypeError('Stores.inMemoryKeyValueStore: the store name must be a non-empty string');
    return standInSupplier(name, 'in-memory');
  },
  /** A persistent store for timestamped values (STAND-IN on this branch: in memory; the kvstores branch brings lmdb). */
  persistentTimestampedKeyValueStore(name: string): KeyValueBytesStoreSupplier {
    if (typeof name !== 'string' || name === '') throw new TypeError('Stores.persistentTimestampedKeyValueStore: the store name must be a non-empty string');
    return standInSupplier(name, 'persistent');
  },
  /** A builder of timestamped key-value stores (values are `ValueAndTimestamp<V>`). */
  timestampedKeyValueStoreBuilder<K, V>(supplier: KeyValueBytesStoreSupplier, keySerde: Serde<K>, valueSerde: Serde<V>): StoreBuilder<TimestampedKeyValueStore<K, V>> {
    return new StandInStoreBuilder<K, ValueAndTimestamp<V>>(supplier, keySerde, valueAndTimestampSerde(valueSerde), true);
  },
  /** A builder of typed key-value stores using `keySerde` / `valueSerde` for the stored bytes. */
  keyValueStoreBuilder<K, V>(
    supplier: KeyValueBytesStoreSupplier,
    keySerde: Serde<K>,
    valueSerde: Serde<V>,
  ): StoreBuilder<KeyValueStore<K, V>> {
    return new SimpleStoreBuilder(supplier.name, () => new InMemoryKeyValueStore<K, V>(supplier.name, keySerde, valueSerde));
  },
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
