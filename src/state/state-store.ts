/**
 * State store contracts: what processors see, and how stores are built per task.
 */
import type { KeyValue } from '../records/key-value.js';
import type { Serializer } from '../serdes/serde.js';

/** A state store. Stores are per task; the executor flushes them at commit and closes them with the task. */
export interface StateStore {
  /** The store name, unique in a topology. */
  readonly name: string;
  /**
   * Makes writes since the last flush durable. Called at every commit: a
   * transactional or changelogged store publishes its pending writes here and
   * nowhere else.
   */
  flush(): void;
  /** Releases the store; later calls throw IllegalStateError. */
  close(): void;
  /** False after `close()`. */
  isOpen(): boolean;
}

/**
 * A key-value store. Iteration order (`range`, `all`) is the order of the
 * serialized key bytes, as in Kafka Streams. Results of `range` and `all` are
 * snapshots: writing while iterating them is safe.
 */
export interface KeyValueStore<K, V> extends StateStore {
  /** The value for `key`, or `null` when absent. */
  get(key: K): V | null;
  /** Stores `value` under `key`; a `null` value deletes the key. */
  put(key: K, value: V | null): void;
  /** Stores `value` only when `key` is absent; returns the previous value (or `null`). */
  putIfAbsent(key: K, value: V): V | null;
  /** Stores every entry. */
  putAll(entries: ReadonlyArray<KeyValue<K, V | null>>): void;
  /** Removes `key`; returns the previous value (or `null`). */
  delete(key: K): V | null;
  /** Entries with `from <= key <= to` in serialized-key order; a `null` bound is open. */
  range(from: K | null, to: K | null): KeyValue<K, V>[];
  /** Every entry in serialized-key order. */
  all(): KeyValue<K, V>[];
  /** The entries of `range(from, to)`, in descending serialized-key order. */
  reverseRange(from: K | null, to: K | null): KeyValue<K, V>[];
  /** Every entry, in descending serialized-key order. */
  reverseAll(): KeyValue<K, V>[];
  /**
   * The entries whose serialized key starts with `prefixKeySerializer`'s bytes
   * of `prefix`, in serialized-key order (Kafka's `prefixScan`).
   */
  prefixScan<P>(prefix: P, prefixKeySerializer: Serializer<P>): KeyValue<K, V>[];
  /** The number of entries. */
  approximateNumEntries(): number;
}

/** Builds one store instance per task (Kafka's `StoreBuilder`). Logging is enabled and caching disabled by default, as in Kafka. */
export interface StoreBuilder<S extends StateStore = StateStore> {
  /** The name of the stores it builds. */
  readonly name: string;
  /** A new store instance (called once per task that uses the store). */
  build(): S;
  /** Logs writes to `<applicationId>-<name>-changelog`, with these extra topic configs. */
  withLoggingEnabled(config?: Record<string, string>): this;
  withLoggingDisabled(): this;
  /** Puts the record cache (`statestoreCacheMaxBytes`) in front of the store. */
  withCachingEnabled(): this;
  withCachingDisabled(): this;
  readonly loggingEnabled: boolean;
  /** The extra changelog topic configs given to `withLoggingEnabled`. */
  readonly logConfig: Readonly<Record<string, string>>;
  readonly cachingEnabled: boolean;
}
