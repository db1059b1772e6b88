/**
 * The record cache (Kafka Streams' `ThreadCache`): one per application
 * instance, a byte budget (`statestoreCacheMaxBytes`, default 10 MiB, 0
 * disables caching) shared by the namespaces of every caching store of every
 * task (`<taskId>-<storeName>`). Each namespace is an LRU
 * ({@link NamedCache}). When a put takes the total over the budget, entries
 * are evicted from the namespace that was written, least recently used first;
 * an evicted dirty entry is flushed to its store (written below and forwarded)
 * together with the other dirty entries of that namespace, as Kafka does.
 */
import type { RecordCacheLike } from './store-contract.js';
import { NamedCache, type CacheEntry, type DirtyEntryFlushListener } from './record-cache-named.js';

export { cacheEntry, nodeSize, NamedCache } from './record-cache-named.js';
export type { CacheEntry, CachedRecordContext, DirtyEntry, DirtyEntryFlushListener } from './record-cache-named.js';

/** Kafka Streams' default `statestore.cache.max.bytes`: 10 MiB. */
export const DEFAULT_CACHE_MAX_BYTES = 10 * 1024 * 1024;

/** One cached entry returned by a range read. */
export interface CachedKeyValue {
  key: Buffer;
  entry: CacheEntry;
}

/** See the module comment. */
export class RecordCache implements RecordCacheLike {
  private readonly caches = new Map<string, NamedCache>();
  private totalBytes = 0;
  puts = 0;
  gets = 0;
  evicts = 0;
  flushes = 0;

  constructor(private max: number = DEFAULT_CACHE_MAX_BYTES) {
    if (!Number.isFinite(max) || max < 0) {
      throw new RangeError(`statestoreCacheMaxBytes must be a number >= 0 (0 disables the record cache), got ${String(max)}`);
    }
  }

  /** The namespace of a store of a task: `<taskId>-<storeName>` (Kafka's `nameSpaceFromTaskIdAndStore`). */
  static namespace(taskId: string, storeName: string): string {
    return `${taskId}-${storeName}`;
  }

  get maxBytes(): number {
    return this.max;
  }

  /** Bytes held by every namespace together. */
  get sizeBytes(): number {
    return this.totalBytes;
  }

  /** Number of entries in every namespace together. */
  size(): number {
    let n = 0;
    for (const cache of this.caches.values()) n += cache.size;
    return n;
  }

  /** Registers the listener of `namespace`, called at each flush and eviction of dirty entries. */
  addDirtyEntryFlushListener(namespace: string, listener: DirtyEntryFlushListener): void {
    this.getOrCreate(namespace).setListener(listener);
  }

  /** Flushes the dirty entries of `namespace` to its listener. */
  flush(namespace: string): void {
    this.flushes++;
    const cache = this.caches.get(namespace);
    if (cache !== undefined) this.tracked(cache, () => cache.flush());
  }

  get(namespace: string, key: Buffer): CacheEntry | undefined {
    this.gets++;
    return this.caches.get(namespace)?.get(key);
  }

  /** Puts an entry, then evicts from the same namespace while the cache is over its budget. */
  put(namespace: string, key: Buffer, entry: CacheEntry): void {
    this.puts++;
    const cache = this.getOrCreate(namespace);
    this.tracked(cache, () => cache.put(key, entry));
    this.maybeEvict(cache);
  }

  putIfAbsent(namespace: string, key: Buffer, entry: CacheEntry): CacheEntry | undefined {
    const cache = this.getOrCreate(namespace);
    const result = this.tracked(cache, () => cache.putIfAbsent(key, entry));
    this.maybeEvict(cache);
    if (result === undefined) this.puts++;
    return result;
  }

  delete(namespace: string, key: Buffer): CacheEntry | undefined {
    const cache = this.caches.get(namespace);
    return cache === undefined ? undefined : this.tracked(cache, () => cache.delete(key));
  }

  /** Entries with `from <= key <= to` (`< to` unless `toInclusive`), ascending; a snapshot of the keys, entries read lazily as Kafka's iterator does. */
  range(namespace: string, from: Buffer | null, to: Buffer | null, toInclusive = true): CachedKeyValue[] {
    return this.entries(namespace, (c) => c.keyRange(from, to, toInclusive, true));
  }

  /** The same entries, descending. */
  reverseRange(namespace: string, from: Buffer | null, to: Buffer | null): CachedKeyValue[] {
    return this.entries(namespace, (c) => c.keyRange(from, to, true, false));
  }

  all(namespace: string): CachedKeyValue[] {
    return this.range(namespace, null, null);
  }

  reverseAll(namespace: string): CachedKeyValue[] {
    return this.reverseRange(namespace, null, null);
  }

  /** Drops `namespace` (and its listener) without flushing. */
  close(namespace: string): void {
    const removed = this.caches.get(namespace);
    if (removed === undefined) return;
    this.caches.delete(namespace);
    this.totalBytes -= removed.sizeInBytes;
    removed.close();
  }

  /** Empties `namespace` without flushing (its listener stays). */
  clear(namespace: string): void {
    const cleared = this.caches.get(namespace);
    if (cleared === undefined) return;
    this.totalBytes -= cleared.sizeInBytes;
    cleared.clear();
  }

  /** Changes the budget; a smaller one evicts round-robin over the namespaces until it fits (Kafka's `resize`). */
  resize(maxBytes: number): void {
    const shrink = maxBytes < this.max;
    this.max = maxBytes;
    if (!shrink || this.caches.size === 0) return;
    while (this.totalBytes > this.max) {
      let evicted = false;
      for (const cache of this.caches.values()) {
        if (this.totalBytes <= this.max) break;
        if (cache.isEmpty()) continue;
        this.tracked(cache, () => cache.evict());
        this.evicts++;
        evicted = true;
      }
      if (!evicted) return;
    }
  }

  /**
   * Kafka's `maybeEvict`: evicts from the namespace just written while the
   * total is over the budget; stops when that namespace is empty (the rest
   * belongs to other namespaces, which a put of theirs will shrink).
   */
  private maybeEvict(cache: NamedCache): void {
    while (this.totalBytes > this.max) {
      if (cache.isEmpty()) return;
      this.tracked(cache, () => cache.evict());
      this.evicts++;
    }
  }

  /** Runs `op` on `cache` and keeps the total equal to the sum of the namespaces (also when `op` re-enters the cache). */
  private tracked<T>(cache: NamedCache, op: () => T): T {
    const before = cache.sizeInBytes;
    try {
      return op();
    } finally {
      this.totalBytes += cache.sizeInBytes - before;
    }
  }

  private entries(namespace: string, keys: (cache: NamedCache) => Buffer[]): CachedKeyValue[] {
    const cache = this.caches.get(namespace);
    if (cache === undefined) return [];
    const out: CachedKeyValue[] = [];
    for (const key of keys(cache)) {
      const entry = cache.get(key);
      if (entry !== undefined) out.push({ key, entry });
    }
    return out;
  }

  private getOrCreate(namespace: string): NamedCache {
    let cache = this.caches.get(namespace);
    if (cache === undefined) {
      cache = new NamedCache(namespace);
      this.caches.set(namespace, cache);
    }
    return cache;
  }
}
