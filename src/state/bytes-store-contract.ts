/**
 * The bytes level of the store stack, as Kafka Streams layers it:
 *
 *   typed store (serdes, `KeyValueStore<K, V>`)
 *     → caching layer (optional: the record cache, `./internal/caching-store.ts`)
 *       → change-logging layer (optional: sends every write to the changelog)
 *         → bytes engine (in memory, or persistent on lmdb)
 *
 * Every layer below the typed one is a {@link KeyValueBytesStore}; a wrapper
 * delegates the lifecycle (`init`, `checkpoint`, `restoreBatch`, `flush`,
 * `commit`, `close`) to the store it wraps. Keys order by their bytes
 * (`Buffer.compare`, unsigned lexicographic, as Kafka's `Bytes`).
 */
import type { ChangelogRecord, StoreInitContext, StoreRecordContext } from './store-contract.js';

/** One entry of a bytes store. */
export interface BytesEntry {
  key: Buffer;
  value: Buffer;
}

/** The store lifecycle every bytes layer (key-value, window, session) delegates down (see `store-contract.ts`). */
export interface BytesStoreLifecycle {
  readonly name: string;
  readonly persistent: boolean;
  init(context: StoreInitContext): void;
  checkpoint(): number | undefined;
  /** Applies changelog records keyed by the store's key binary. */
  restoreBatch(records: readonly ChangelogRecord[]): void;
  flush(): void;
  commit(changelogNextOffset: number | undefined): void;
  close(): void;
  isOpen(): boolean;
}

/** A bytes key-value store: one layer of the stack. Range results are snapshots (writing while iterating is safe). */
export interface KeyValueBytesStore extends BytesStoreLifecycle {

  get(key: Buffer): Buffer | null;
  /** A `null` value deletes. */
  put(key: Buffer, value: Buffer | null): void;
  putIfAbsent(key: Buffer, value: Buffer): Buffer | null;
  delete(key: Buffer): Buffer | null;
  /** `from <= key <= to`, ascending; a `null` bound is open; `from > to` gives nothing. */
  range(from: Buffer | null, to: Buffer | null): BytesEntry[];
  /** The same entries, descending. */
  reverseRange(from: Buffer | null, to: Buffer | null): BytesEntry[];
  /** Entries whose key starts with `prefix`, ascending. */
  prefixScan(prefix: Buffer): BytesEntry[];
  approximateNumEntries(): number;
  /**
   * Optional (added by the caching layer): registers the listener a caching
   * store calls for every entry it writes down (at a flush, an eviction, or at
   * once when the instance has no cache) and returns true (Kafka's
   * `CachedStateStore.setFlushListener`); a stack without a caching layer
   * returns false (or lacks the method), and the caller forwards its updates
   * itself. A wrapping layer passes it down.
   */
  setFlushListener?(listener: BytesFlushListener, sendOldValues: boolean): boolean;
}

/**
 * Called by a caching store for each dirty entry it writes down (Kafka's
 * `CacheFlushListener`): the key, the new value (`null`: deleted), the old
 * value (only when `sendOldValues`, else `null`) and the record context of the
 * write that made the entry dirty.
 */
export type BytesFlushListener = (key: Buffer, newValue: Buffer | null, oldValue: Buffer | null, context: StoreRecordContext) => void;

/** Says which bytes store to create, under which name (Kafka's `KeyValueBytesStoreSupplier`). */
export interface KeyValueBytesStoreSupplier {
  readonly name: string;
  /** `'in-memory'` or `'persistent'` (lmdb under the task's state directory). */
  readonly kind: 'in-memory' | 'persistent';
  /** A new, uninitialised bytes engine. */
  get(): KeyValueBytesStore;
}
