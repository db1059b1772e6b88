/**
 * Suppliers and the builder of versioned key-value stores (Kafka's
 * `VersionedBytesStoreSupplier` and `VersionedKeyValueStoreBuilder`). Each
 * `build()` assembles a new stack for one task:
 * 1. the engine: the supplier's plain bytes engine (in memory, or lmdb) under
 *    the versioned layer (`./versioned-bytes-store.ts`);
 * 2. when logging is enabled (the default): the change-logging layer;
 * 3. the typed outer layer with the serdes. Caching is not supported, as in
 *    Kafka (`withCachingEnabled()` throws).
 *
 * The changelog topic is compacted with `min.compaction.lag.ms` = history
 * retention + 24 h unless given (Kafka's `VersionedChangelogTopicConfig`), so
 * compaction never removes a version the store may still need on restore.
 */
import { IllegalArgumentError, IllegalStateError } from '../../errors.js';
import type { Serde } from '../../serdes/serde.js';
import type { KeyValueBytesStore } from '../bytes-store-contract.js';
import { serdeOrContextDefault } from '../internal/context-default-serde.js';
import type { StoreBuilder } from '../state-store.js';
import { ChangeLoggingVersionedBytesStore } from './change-logging-versioned-bytes-store.js';
import { ListVersionedBytesStore, type VersionedBytesStore } from './versioned-bytes-store.js';
import { MeteredVersionedKeyValueStore } from './versioned-key-value-store.js';

/** Kafka's `VERSIONED_STORE_CHANGE_LOG_ADDITIONAL_COMPACTION_LAG_MS`: one day. */
const ADDITIONAL_COMPACTION_LAG_MS = 24 * 60 * 60 * 1000;

/** Says which versioned bytes store to create, under which name, with which history retention. */
export interface VersionedBytesStoreSupplier {
  /** The store name, unique in a topology. */
  readonly name: string;
  /** `'in-memory'` or `'persistent'` (lmdb under the task's state directory). */
  readonly kind: 'in-memory' | 'persistent';
  /** How long (ms, behind the stream time) old versions stay readable; also the grace period of puts. */
  readonly historyRetentionMs: number;
  /** Kafka's segment interval (ms); kept for the API, sluice's engine keeps a key's versions together. */
  readonly segmentIntervalMs: number;
  /** A new, uninitialised versioned bytes engine. */
  get(): VersionedBytesStore;
}

/** A supplier over a plain bytes engine factory (used by `Stores`). */
export function versionedSupplier(name: string, kind: 'in-memory' | 'persistent', historyRetentionMs: number, segmentIntervalMs: number, engine: () => KeyValueBytesStore): VersionedBytesStoreSupplier {
  return { name, kind, historyRetentionMs, segmentIntervalMs, get: () => new ListVersionedBytesStore(engine(), historyRetentionMs) };
}

/** Checks a history retention or segment interval argument (ms, a whole number >= 0 / > 0). */
export function checkDuration(method: string, what: string, ms: number, allowZero: boolean): void {
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0 || (!allowZero && ms === 0)) {
    throw new IllegalArgumentError(`Stores.${method}: ${what} must be a whole number of ms ${allowZero ? '>= 0' : '> 0'}, got ${String(ms)}`);
  }
}

/** Builds typed versioned key-value stores over a versioned supplier (Kafka's `VersionedKeyValueStoreBuilder`). */
export class VersionedKeyValueStoreBuilder<K, V> implements StoreBuilder<MeteredVersionedKeyValueStore<K, V>> {
  loggingEnabled = true;
  logConfig: Readonly<Record<string, string>> = {};
  readonly cachingEnabled = false;
  readonly name: string;
  private readonly keySerde: Serde<K>;
  private readonly valueSerde: Serde<V>;

  /** A `null` serde is the app's default, bound when the topology is built for a runtime. */
  constructor(readonly supplier: VersionedBytesStoreSupplier, keySerde: Serde<K> | null, valueSerde: Serde<V> | null) {
    if (supplier === null || typeof supplier !== 'object' || typeof supplier.get !== 'function' || typeof supplier.historyRetentionMs !== 'number') {
      throw new TypeError("Stores.versionedKeyValueStoreBuilder: the supplier must be a versioned one, e.g. Stores.persistentVersionedKeyValueStore('name', historyRetentionMs)");
    }
    if (typeof supplier.name !== 'string' || supplier.name === '') throw new TypeError('Stores.versionedKeyValueStoreBuilder: the store supplier has no name; give it a non-empty name');
    this.name = supplier.name;
    this.keySerde = serdeOrContextDefault(this, supplier.name, 'key', keySerde);
    this.valueSerde = serdeOrContextDefault(this, supplier.name, 'value', valueSerde);
  }

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

  /** Versioned stores have no record cache (as in Kafka): throws. */
  withCachingEnabled(): this {
    throw new IllegalStateError(`Versioned store '${this.name}': caching is not supported for versioned stores (as in Kafka Streams); remove withCachingEnabled()`);
  }

  withCachingDisabled(): this {
    return this;
  }

  /** The changelog topic configs: compacted, `min.compaction.lag.ms` = history retention + 24 h unless given. */
  changelogConfig(): Record<string, string> {
    if (!this.loggingEnabled) return {};
    const lag = Math.min(this.supplier.historyRetentionMs + ADDITIONAL_COMPACTION_LAG_MS, Number.MAX_SAFE_INTEGER);
    return { 'cleanup.policy': 'compact', 'min.compaction.lag.ms': String(lag), ...this.logConfig };
  }

  build(): MeteredVersionedKeyValueStore<K, V> {
    // 1. the engine
    let store = this.supplier.get();
    // 2. change logging
    if (this.loggingEnabled) store = new ChangeLoggingVersionedBytesStore(store);
    // 3. the typed layer
    return new MeteredVersionedKeyValueStore(store, this.keySerde, this.valueSerde, { loggingEnabled: this.loggingEnabled, changelogConfig: this.changelogConfig() });
  }
}
