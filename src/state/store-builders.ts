/**
 * The store builders (Kafka's `KeyValueStoreBuilder` and
 * `TimestampedKeyValueStoreBuilder`). Each `build()` assembles a new stack for
 * one task:
 * 1. the engine: `supplier.get()` (in memory, or lmdb);
 * 2. when logging is enabled (the default): the change-logging layer;
 * 3. when caching is enabled (off by default): the caching layer;
 * 4. the typed outer layer with the serdes, carrying `loggingEnabled` and the
 *    changelog topic configs `{ 'cleanup.policy': 'compact', ...logConfig }`.
 */
import type { Serde } from '../serdes/serde.js';
import type { KeyValueBytesStore, KeyValueBytesStoreSupplier } from './bytes-store-contract.js';
import { serdeOrContextDefault } from './internal/context-default-serde.js';

export { contextDefaultSerdes } from './internal/context-default-serde.js';
import { MeteredKeyValueStore, type TypedStoreOptions } from './metered-key-value-store.js';
import type { StateStore, StoreBuilder } from './state-store.js';
import { wrapCaching, wrapChangeLogging } from './store-layers.js';
import { MeteredTimestampedKeyValueStore } from './timestamped-key-value-store.js';

function checkArguments(method: string, supplier: KeyValueBytesStoreSupplier, keySerde: Serde<unknown> | null, valueSerde: Serde<unknown> | null): void {
  if (supplier === null || typeof supplier !== 'object' || typeof supplier.get !== 'function') {
    throw new TypeError(`Stores.${method}: the store supplier is missing; give one from Stores, e.g. Stores.${method}(Stores.persistentKeyValueStore('name'), keySerde, valueSerde)`);
  }
  if (typeof supplier.name !== 'string' || supplier.name === '') {
    throw new TypeError(`Stores.${method}: the store supplier has no name; give it a non-empty name`);
  }
  for (const [what, serde] of [['key', keySerde], ['value', valueSerde]] as const) {
    // null / undefined: the app's default serde (Kafka), bound when the topology is built for a runtime
    if (serde === null || serde === undefined) continue;
    if (typeof serde !== 'object' || typeof serde.serialize !== 'function' || typeof serde.deserialize !== 'function') {
      throw new TypeError(`Stores.${method}('${supplier.name}'): the ${what} serde is not a serde; give one, e.g. Serdes.String(), or null for the app's default`);
    }
  }
}

/** The logging / caching flags and the stack assembly shared by the key-value builders. */
abstract class LayeredStoreBuilder<S extends StateStore> implements StoreBuilder<S> {
  loggingEnabled = true;
  logConfig: Readonly<Record<string, string>> = {};
  cachingEnabled = false;
  readonly name: string;

  constructor(readonly supplier: KeyValueBytesStoreSupplier) {
    this.name = supplier.name;
  }

  abstract build(): S;

  withLoggingEnabled(config: Record<string, string> = {}): this {
    this.loggingEnabled = true;
    this.logConfig = { ...config };
    return this;
  }

  withLoggingDisabled(): this {
    this.loggingEnabled = false;
    this.logConfig = {};
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

  /** What the typed layer says about its changelog. */
  protected typedOptions(): TypedStoreOptions {
    return {
      loggingEnabled: this.loggingEnabled,
      changelogConfig: this.loggingEnabled ? { 'cleanup.policy': 'compact', ...this.logConfig } : {},
    };
  }

  /** Steps 1–3 of a build: the engine, then the change-logging and caching layers when enabled. */
  protected bytesStack(timestamped: boolean): KeyValueBytesStore {
    // 1. the engine
    let store = this.supplier.get();
    // 2. change logging
    if (this.loggingEnabled) store = wrapChangeLogging(store, { timestamped, logConfig: this.typedOptions().changelogConfig });
    // 3. caching
    if (this.cachingEnabled) store = wrapCaching(store, { timestamped });
    return store;
  }
}

/** Builds typed key-value stores over a bytes store supplier (Kafka's `KeyValueStoreBuilder`). */
export class KeyValueStoreBuilder<K, V> extends LayeredStoreBuilder<MeteredKeyValueStore<K, V>> {
  private readonly keySerde: Serde<K>;
  private readonly valueSerde: Serde<V>;

  /** A `null` serde is the app's default (Kafka's `context.keySerde()` at init), bound when the topology is built for a runtime. */
  constructor(supplier: KeyValueBytesStoreSupplier, keySerde: Serde<K> | null, valueSerde: Serde<V> | null) {
    checkArguments('keyValueStoreBuilder', supplier, keySerde, valueSerde);
    super(supplier);
    this.keySerde = serdeOrContextDefault(this, supplier.name, 'key', keySerde);
    this.valueSerde = serdeOrContextDefault(this, supplier.name, 'value', valueSerde);
  }

  build(): MeteredKeyValueStore<K, V> {
    // 4. the typed layer over steps 1–3
    return new MeteredKeyValueStore(this.bytesStack(false), this.keySerde, this.valueSerde, this.typedOptions());
  }
}

/** Builds timestamped key-value stores over a bytes store supplier (Kafka's `TimestampedKeyValueStoreBuilder`). */
export class TimestampedKeyValueStoreBuilder<K, V> extends LayeredStoreBuilder<MeteredTimestampedKeyValueStore<K, V>> {
  private readonly keySerde: Serde<K>;
  private readonly valueSerde: Serde<V>;

  /** A `null` serde is the app's default (Kafka's `context.keySerde()` at init), bound when the topology is built for a runtime. */
  constructor(supplier: KeyValueBytesStoreSupplier, keySerde: Serde<K> | null, valueSerde: Serde<V> | null) {
    checkArguments('timestampedKeyValueStoreBuilder', supplier, keySerde, valueSerde);
    super(supplier);
    this.keySerde = serdeOrContextDefault(this, supplier.name, 'key', keySerde);
    this.valueSerde = serdeOrContextDefault(this, supplier.name, 'value', valueSerde);
  }

  build(): MeteredTimestampedKeyValueStore<K, V> {
    // 4. the typed layer over steps 1–3
    return new MeteredTimestampedKeyValueStore(this.bytesStack(true), this.keySerde, this.valueSerde, this.typedOptions());
  }
}
