/**
 * The caching base shared by key-value and session stores (what Kafka Streams'
 * `CachingKeyValueStore` and `CachingSessionStore` have in common, each a
 * `WrappedStateStore` and a `CachedStateStore`): writes go into the
 * instance's record cache (one namespace `<taskId>-<storeName>` per task and
 * store) and reach the store below only at a flush or when the cache evicts
 * them, so only the last update of a key between two commits is written
 * down, logged and forwarded by the flush listener. A delete is a cached
 * tombstone.
 *
 * Without a cache in the init context (or one of `maxBytes` 0) every write
 * goes straight down and the flush listener, if any, is called for it at once,
 * deletes of absent keys included: Kafka strips the caching layer when the
 * cache has 0 bytes, so the processor forwards every update itself.
 *
 * Each kind says how an entry is read from and written to the store below
 * ({@link CachingStore.readBelow}, {@link CachingStore.writeBelow}) and adds
 * its reads (cache merged over the store, see `../caching-merged-entries.ts`).
 */
import { IllegalStateError } from '../../errors.js';
import { formatTaskId } from '../../records/task-id.js';
import type { BytesFlushListener, BytesStoreLifecycle } from '../bytes-store-contract.js';
import { contextOverriding } from '../caching-context.js';
import { cacheEntry, RecordCache, type CachedRecordContext } from '../record-cache.js';
import type { ChangelogRecord, StoreInitContext, StoreRecordContext } from '../store-contract.js';
import { WrappedBytesStore } from './wrapped-bytes-store.js';

/** See the module comment. */
export abstract class CachingStore<S extends BytesStoreLifecycle> extends WrappedBytesStore<S> {
  private context: StoreInitContext | undefined;
  /** The instance's record cache, when enabled (set by `init`). */
  protected cache: RecordCache | undefined;
  /** This store's namespace in the cache. */
  protected namespace = '';
  private listener: BytesFlushListener | undefined;
  private sendOldValues = false;
  /** The record context of the entry being written down (what the layers below see as the current record). */
  private writingDown: StoreRecordContext | undefined;

  /** True once initialized with an enabled record cache. */
  get caching(): boolean {
    return this.cache !== undefined;
  }

  /**
   * Step 2:
   * 1. take the instance's cache (none, or `maxBytes` 0: pass-through);
   * 2. register this store's namespace `<taskId>-<storeName>` with a listener
   *    that writes the flushed entries down;
   * 3. init the store below with a context whose current record is the
   *    flushed entry's while it is written down.
   */
  override init(context: StoreInitContext): void {
    this.context = context;
    // 1.
    const cache = context.cache;
    this.cache = cache instanceof RecordCache && cache.maxBytes > 0 ? cache : undefined;
    // 2.
    this.namespace = RecordCache.namespace(formatTaskId(context.taskId), this.name);
    this.cache?.addDirtyEntryFlushListener(this.namespace, (entries) => {
      for (const entry of entries) this.putAndMaybeForward(entry.key, entry.newValue, toStoreContext(entry.entry.context));
    });
    // 3.
    this.wrapped.init(contextOverriding(context, () => this.writingDown));
  }

  /** Step 3: restoring drops what the cache holds of this store, then restores below. */
  override restoreBatch(records: readonly ChangelogRecord[]): void {
    this.cache?.clear(this.namespace);
    this.wrapped.restoreBatch(records);
  }

  /** Step 5: writes the dirty entries down (the flush listener forwards them), then flushes below. */
  override flush(): void {
    this.requireOpen('flush');
    this.flushCacheAndBelow();
  }

  /** Step 7: drops the namespace without writing it down (uncommitted writes are discarded), then closes below. */
  override close(): void {
    this.cache?.close(this.namespace);
    this.wrapped.close();
  }

  /**
   * Kafka's `CachedStateStore.setFlushListener`: returns true, and from now on
   * the listener forwards what this store writes down (at a flush, an
   * eviction, or at once without a cache), not the caller. May be called
   * before `init`.
   */
  setFlushListener(listener: BytesFlushListener, sendOldValues: boolean): boolean {
    this.listener = listener;
    this.sendOldValues = sendOldValues;
    return true;
  }

  /** The value of `storeKey` in the store below, or `null` (the listener's old value). */
  protected abstract readBelow(storeKey: Buffer): Buffer | null;

  /** Writes one flushed entry to the store below (`null`: deletes it). */
  protected abstract writeBelow(storeKey: Buffer, value: Buffer | null): void;

  /** Writes the namespace's dirty entries down, then flushes the store below. */
  protected flushCacheAndBelow(): void {
    this.cache?.flush(this.namespace);
    this.wrapped.flush();
  }

  /** A write: a dirty cache entry with the current record context, or without a cache straight down. */
  protected cacheWrite(storeKey: Buffer, value: Buffer | null): void {
    const current = (this.context as StoreInitContext).recordContext();
    if (this.cache === undefined) this.putAndMaybeForward(storeKey, value, current);
    else this.cache.put(this.namespace, storeKey, cacheEntry(value, true, current));
  }

  /**
   * Kafka's `putAndMaybeForward`, for one flushed entry (`context`: the record context of its write):
   * 1. with a listener: read the old value below when needed (a delete, or
   *    `sendOldValues`); with a cache, a delete of a key the store never had
   *    is neither written nor forwarded;
   * 2. write the entry down with its own record context as the current one
   *    (the change-logging layer below stamps the changelog record with it);
   * 3. call the listener with (key, new, old, the entry's record context).
   */
  private putAndMaybeForward(storeKey: Buffer, newValue: Buffer | null, context: StoreRecordContext): void {
    const listener = this.listener;
    // 1.
    const oldValue = listener !== undefined && (newValue === null || this.sendOldValues) ? this.readBelow(storeKey) : null;
    // Kafka's optimization belongs to a caching layer; with no cache Kafka strips the layer
    // (`rewriteTopology` at cache size 0), so every write passes.
    if (listener !== undefined && this.cache !== undefined && newValue === null && oldValue === null) return;
    // 2.
    const saved = this.writingDown;
    this.writingDown = context;
    try {
      this.writeBelow(storeKey, newValue);
    } finally {
      this.writingDown = saved;
    }
    // 3.
    listener?.(storeKey, newValue, this.sendOldValues ? oldValue : null, context);
  }

  /** Throws unless `init` was called. */
  protected requireInit(operation: string): void {
    if (this.context === undefined) {
      throw new IllegalStateError(`State store '${this.name}' cannot ${operation} before init(context); the runner initializes every store before processing`);
    }
  }

  /** Throws unless `init` was called and the store below is open. */
  protected requireOpen(operation: string): void {
    this.requireInit(operation);
    if (!this.wrapped.isOpen()) throw new IllegalStateError(`State store '${this.name}' cannot ${operation}: it is closed`);
  }
}

function toStoreContext(c: CachedRecordContext): StoreRecordContext {
  const out: StoreRecordContext = { timestamp: c.timestamp, headers: c.headers };
  if (c.topic !== '') out.topic = c.topic;
  if (c.partition >= 0) out.partition = c.partition;
  if (c.offset >= 0) out.offset = c.offset;
  return out;
}
