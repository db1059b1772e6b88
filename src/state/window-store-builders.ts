/**
 * Builders of window and session stores (Kafka's `WindowStoreBuilder`,
 * `TimestampedWindowStoreBuilder`, `SessionStoreBuilder`). The stack each
 * `build()` makes:
 *
 *   typed store (serdes) → change-logging layer (unless logging is disabled) → bytes store on its engine
 *
 * Caching: a store built with `withCachingEnabled()` gets the record-cache
 * layer (`CachingWindowStore`, `CachingSessionStore`) between the typed store
 * and the change-logging layer, as Kafka's `WindowStoreBuilder` and
 * `SessionStoreBuilder`:
 *
 *   typed store → caching layer → change-logging layer → bytes store
 *
 * A window store retaining duplicates never caches and its changelog is
 * `cleanup.policy=delete`, as in Kafka.
 *
 * Changelog topic configs (Kafka's `WindowedChangelogTopicConfig`):
 * `cleanup.policy=compact,delete`, then the user's `withLoggingEnabled(config)`,
 * then `retention.ms = retentionPeriod + 1 day` unless the user set it.
 */
import { IllegalArgumentError } from '../errors.js';
import type { Serde } from '../serdes/serde.js';
import { CachingSessionStore } from './caching-session-store.js';
import { CachingWindowStore } from './caching-window-store.js';
import { LONG_MAX_VALUE } from './internal/window-bytes.js';
import { valueAndTimestampSerde } from './internal/window-value-timestamp.js';
import type { StateStore, StoreBuilder } from './state-store.js';
import type { SessionBytesStoreSupplier, SessionStore } from './session-store.js';
import { TypedSessionStore } from './session-typed-store.js';
import {
  ChangeLoggingSessionBytesStore,
  ChangeLoggingTimestampedWindowBytesStore,
  ChangeLoggingWindowBytesStore,
} from './window-change-logging.js';
import type { TimestampedWindowStore, WindowBytesStore, WindowBytesStoreSupplier, WindowStore } from './window-store.js';
import { TimestampedTypedWindowStore, TypedWindowStore } from './window-typed-store.js';

/** Kafka's `windowstore.changelog.additional.retention.ms` default: 1 day. */
export const WINDOWED_CHANGELOG_ADDITIONAL_RETENTION_MS = 24 * 60 * 60 * 1000;

/** The changelog topic configs of a window or session store with this retention. */
export function windowedChangelogConfig(retentionPeriod: number, logConfig: Readonly<Record<string, string>>): Record<string, string> {
  const config: Record<string, string> = { 'cleanup.policy': 'compact,delete', ...logConfig };
  if (!('retention.ms' in logConfig)) {
    const retention = retentionPeriod + WINDOWED_CHANGELOG_ADDITIONAL_RETENTION_MS;
    config['retention.ms'] = retention >= LONG_MAX_VALUE ? '9223372036854775807' : String(retention);
  }
  return config;
}

function requireSupplier(supplier: unknown): void {
  if (supplier === null || supplier === undefined) throw new IllegalArgumentError('supplier cannot be null');
}

/** The logging and caching flags every window and session builder carries. */
abstract class WindowingStoreBuilder<S extends StateStore> implements StoreBuilder<S> {
  loggingEnabled = true;
  logConfig: Readonly<Record<string, string>> = {};
  cachingEnabled = false;

  constructor(readonly name: string, readonly retentionPeriod: number) {}

  abstract build(): S;

  withLoggingEnabled(config: Record<string, string> = {}): this {
    if (config === null || typeof config !== 'object') throw new IllegalArgumentError('config can\'t be null');
    this.loggingEnabled = true;
    this.logConfig = { ...this.logConfig, ...config };
    return this;
  }
  withLoggingDisabled(): this {
    this.loggingEnabled = false;
    return this;
  }
  /** Puts the record-cache layer into the stack (see the module comment). */
  withCachingEnabled(): this {
    this.cachingEnabled = true;
    return this;
  }
  withCachingDisabled(): this {
    this.cachingEnabled = false;
    return this;
  }

  /** The options of the typed store. */
  protected storeOptions(): { loggingEnabled: boolean; changelogConfig: Readonly<Record<string, string>> } {
    return { loggingEnabled: this.loggingEnabled, changelogConfig: windowedChangelogConfig(this.retentionPeriod, this.logConfig) };
  }
}

/** What window builders share: the bytes-store supplier and serdes; a store retaining duplicates never caches and its changelog only deletes. */
abstract class WindowBytesStoreBuilder<S extends StateStore, K, V> extends WindowingStoreBuilder<S> {
  constructor(
    readonly supplier: WindowBytesStoreSupplier,
    protected readonly keySerde: Serde<K>,
    protected readonly valueSerde: Serde<V>,
  ) {
    requireSupplier(supplier);
    super(supplier.name, supplier.retentionPeriod);
    if (supplier.retainDuplicates) this.logConfig = { 'cleanup.policy': 'delete' };
  }

  /**
   * The bytes stack of a build: 1. caching off when the store retains
   * duplicates; 2. a new bytes store from the supplier; 3. the change-logging
   * layer when logging is on; 4. the caching layer when caching is on.
   */
  protected bytesStack(logging: (inner: WindowBytesStore) => WindowBytesStore): WindowBytesStore {
    // 1.
    if (this.supplier.retainDuplicates) this.cachingEnabled = false;
    // 2.
    const inner = this.supplier.get();
    // 3.
    const logged = this.loggingEnabled ? logging(inner) : inner;
    // 4.
    return this.cachingEnabled ? new CachingWindowStore(logged) : logged;
  }
}

/** Builds {@link WindowStore}s from a {@link WindowBytesStoreSupplier}. */
export class WindowStoreBuilder<K, V> extends WindowBytesStoreBuilder<WindowStore<K, V>, K, V> {
  build(): TypedWindowStore<K, V> {
    const stack = this.bytesStack((inner) => new ChangeLoggingWindowBytesStore(inner));
    return new TypedWindowStore<K, V>(stack, this.keySerde, this.valueSerde, this.storeOptions());
  }
}

/** Builds {@link TimestampedWindowStore}s (values `{ value, timestamp }`, stored as Kafka's `ValueAndTimestamp` bytes). */
export class TimestampedWindowStoreBuilder<K, V> extends WindowBytesStoreBuilder<TimestampedWindowStore<K, V>, K, V> {
  build(): TimestampedTypedWindowStore<K, V> {
    return new TimestampedTypedWindowStore<K, V>(
      this.bytesStack((inner) => new ChangeLoggingTimestampedWindowBytesStore(inner)),
      this.keySerde,
      valueAndTimestampSerde(this.valueSerde),
      this.storeOptions(),
    );
  }
}

/** Builds {@link SessionStore}s from a {@link SessionBytesStoreSupplier}. */
export class SessionStoreBuilder<K, AGG> extends WindowingStoreBuilder<SessionStore<K, AGG>> {
  constructor(
    readonly supplier: SessionBytesStoreSupplier,
    protected readonly keySerde: Serde<K>,
    protected readonly valueSerde: Serde<AGG>,
  ) {
    requireSupplier(supplier);
    if (supplier.name === null || supplier.name === undefined) throw new IllegalArgumentError('name cannot be null');
    super(supplier.name, supplier.retentionPeriod);
  }

  build(): TypedSessionStore<K, AGG> {
    const inner = this.supplier.get();
    const logged = this.loggingEnabled ? new ChangeLoggingSessionBytesStore(inner) : inner;
    return new TypedSessionStore<K, AGG>(this.cachingEnabled ? new CachingSessionStore(logged) : logged, this.keySerde, this.valueSerde, this.storeOptions());
  }
}
