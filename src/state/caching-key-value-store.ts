/**
 * The caching layer (Kafka Streams' `CachingKeyValueStore`): writes go into
 * the instance's record cache (one namespace per task and store) and reach
 * the store below only at a flush or when the cache evicts them, so only the
 * last update of a key between two commits is written down (and logged, and
 * forwarded by the flush listener). Reads look in the cache first; ranges
 * merge the cache over the store below; a delete is a cached tombstone.
 *
 * Without a cache in the init context (or one of `maxBytes` 0) every write
 * goes straight down and the flush listener, if any, is called for it right
 * away, deletes of absent keys included: Kafka strips the caching layer when
 * the cache has 0 bytes, so the processor forwards every update itself.
 */
import { IllegalStateError } from '../errors.js';
import { formatTaskId } from '../records/task-id.js';
import type { BytesEntry, BytesFlushListener, KeyValueBytesStore } from './bytes-store-contract.js';
import type { ChangelogRecord, StoreInitContext, StoreRecordContext } from './store-contract.js';
import { cacheEntry, RecordCache, type CachedRecordContext } from './record-cache.js';
import { mergeCacheOverStore } from './caching-merged-entries.js';
import { contextOverriding } from './caching-context.js';

/** Options of {@link CachingKeyValueStore}. */
export interface CachingStoreOptions {
  /** True when values carry the 8-byte timestamp prefix of a timestamped store (kept for queries; the cache holds them as they are). */
  timestamped: boolean;
}

/** See the module comment. */
export class CachingKeyValueStore implements KeyValueBytesStore {
  private context: StoreInitContext | undefined;
  private cache: RecordCache | undefined;
  private namespace = '';
  private listener: BytesFlushListener | undefined;
  private sendOldValues = false;
  /** The record context of the entry being written down (what the layers below see as the current record). */
  private writingDown: StoreRecordContext | undefined;

  constructor(
    private readonly inner: KeyValueBytesStore,
    readonly options: CachingStoreOptions = { timestamped: false },
  ) {}

  get name(): string {
    return this.inner.name;
  }

  get persistent(): boolean {
    return this.inner.persistent;
  }

  /** The store this layer wraps. */
  get wrapped(): KeyValueBytesStore {
    return this.inner;
  }

  /** True when values carry the 8-byte timestamp prefix. */
  get timestamped(): boolean {
    return this.options.timestamped;
  }

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
  init(context: StoreInitContext): void {
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
    this.inner.init(contextOverriding(context, () => this.writingDown));
  }

  checkpoint(): number | undefined {
    return this.inner.checkpoint();
  }

  restoreBatch(records: readonly ChangelogRecord[]): void {
    this.cache?.clear(this.namespace);
    this.inner.restoreBatch(records);
  }

  /** Step 5: writes the dirty entries down (the flush listener forwards them), then flushes below. */
  flush(): void {
    this.requireInit('flush');
    this.cache?.flush(this.namespace);
    this.inner.flush();
  }

  commit(changelogNextOffset: number | undefined): void {
    this.inner.commit(changelogNextOffset);
  }

  /** Step 7: drops the namespace without writing it down (uncommitted writes are discarded), then closes below. */
  close(): void {
    this.cache?.close(this.namespace);
    this.inner.close();
  }

  isOpen(): boolean {
    return this.inner.isOpen();
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

  get(key: Buffer): Buffer | null {
    this.requireOpen('get');
    return this.getInternal(key);
  }

  put(key: Buffer, value: Buffer | null): void {
    this.requireOpen('put');
    this.putInternal(key, value);
  }

  putIfAbsent(key: Buffer, value: Buffer): Buffer | null {
    this.requireOpen('putIfAbsent');
    const previous = this.getInternal(key);
    if (previous === null) this.putInternal(key, value);
    return previous;
  }

  delete(key: Buffer): Buffer | null {
    this.requireOpen('delete');
    const previous = this.getInternal(key);
    this.putInternal(key, null);
    return previous;
  }

  range(from: Buffer | null, to: Buffer | null): BytesEntry[] {
    this.requireOpen('range');
    if (from !== null && to !== null && Buffer.compare(from, to) > 0) return [];
    const stored = this.inner.range(from, to);
    return this.cache === undefined ? stored : mergeCacheOverStore(this.cache.range(this.namespace, from, to), stored, true);
  }

  reverseRange(from: Buffer | null, to: Buffer | null): BytesEntry[] {
    this.requireOpen('reverseRange');
    if (from !== null && to !== null && Buffer.compare(from, to) > 0) return [];
    const stored = this.inner.reverseRange(from, to);
    return this.cache === undefined ? stored : mergeCacheOverStore(this.cache.reverseRange(this.namespace, from, to), stored, false);
  }

  prefixScan(prefix: Buffer): BytesEntry[] {
    this.requireOpen('prefixScan');
    const stored = this.inner.prefixScan(prefix);
    if (this.cache === undefined) return stored;
    const cached = this.cache.range(this.namespace, prefix, null).filter((e) => e.key.subarray(0, prefix.length).equals(prefix));
    return mergeCacheOverStore(cached, stored, true);
  }

  approximateNumEntries(): number {
    this.requireOpen('approximateNumEntries');
    return this.inner.approximateNumEntries();
  }

  private getInternal(key: Buffer): Buffer | null {
    const cache = this.cache;
    if (cache === undefined) return this.inner.get(key);
    const entry = cache.get(this.namespace, key);
    if (entry !== undefined) return entry.value;
    const raw = this.inner.get(key);
    if (raw === null) return null;
    cache.put(this.namespace, key, cacheEntry(raw));
    return raw;
  }

  /** A write: a dirty cache entry with the current record context, or without a cache straight down. */
  private putInternal(key: Buffer, value: Buffer | null): void {
    const current = (this.context as StoreInitContext).recordContext();
    if (this.cache === undefined) return this.putAndMaybeForward(key, value, current);
    this.cache.put(this.namespace, key, cacheEntry(value, true, current));
  }

  /**
   * Kafka's `putAndMaybeForward`, for one flushed entry (`context`: the record context of its write):
   * 1. with a listener: read the old value below when needed (a delete, or
   *    `sendOldValues`); a delete of a key the store never had is skipped;
   * 2. write the entry down with its own record context as the current one
   *    (the change-logging layer below stamps the changelog record with it);
   * 3. call the listener with (key, new, old, the entry's record context).
   */
  private putAndMaybeForward(key: Buffer, newValue: Buffer | null, context: StoreRecordContext): void {
    const listener = this.listener;
    // 1.
    const oldValue = listener !== undefined && (newValue === null || this.sendOldValues) ? this.inner.get(key) : null;
    // Kafka's optimization (a delete of a key neither cached nor stored is neither written nor forwarded) belongs to
    // a caching layer; with no cache Kafka strips the layer (`rewriteTopology` at cache size 0), so every write passes.
    if (listener !== undefined && this.cache !== undefined && newValue === null && oldValue === null) return;
    // 2.
    const saved = this.writingDown;
    this.writingDown = context;
    try {
      this.inner.put(key, newValue);
    } finally {
      this.writingDown = saved;
    }
    // 3.
    listener?.(key, newValue, this.sendOldValues ? oldValue : null, context);
  }

  private requireInit(operation: string): void {
    if (this.context === undefined) {
      throw new IllegalStateError(`State store '${this.name}' cannot ${operation} before init(context); the runner initializes every store before processing`);
    }
  }

  private requireOpen(operation: string): void {
    this.requireInit(operation);
    if (!this.inner.isOpen()) throw new IllegalStateError(`State store '${this.name}' cannot ${operation}: it is closed`);
  }
}

function toStoreContext(c: CachedRecordContext): StoreRecordContext {
  const out: StoreRecordContext = { timestamp: c.timestamp, headers: c.headers };
  if (c.topic !== '') out.topic = c.topic;
  if (c.partition >= 0) out.partition = c.partition;
  if (c.offset >= 0) out.offset = c.offset;
  return out;
}
