/**
 * The caching layer of window stores (Kafka Streams' `CachingWindowStore`):
 * what every caching layer does (the record cache, flush, the flush listener,
 * no cache: pass-through) is the base `./internal/caching-store.ts`. The
 * cache is keyed by the window's store key `key | windowStart | seqnum 0`
 * (a store retaining duplicates never caches: its builder turns caching off).
 * Reads merge the cache over the store: a cached entry wins, a cached
 * tombstone hides the window. Entries stay in the cache after a flush
 * (clean), as Kafka's, so a window that expired in the store is still read
 * from the cache until evicted; a put of an expired window is cached, and
 * dropped by the store below when it is written down. This layer adds the
 * window key schema and the window reads.
 */
import { IllegalArgumentError } from '../errors.js';
import { mergeCacheOverStore, type MergedEntryView } from './caching-merged-entries.js';
import { CachingStore } from './internal/caching-store.js';
import type { CachedKeyValue } from './record-cache.js';
import { WindowKeySchema } from './window-key-schema.js';
import type { WindowBytesEntry, WindowBytesStore } from './window-store.js';

function entryOf(storeKey: Buffer, value: Buffer): WindowBytesEntry {
  return { storeKey, key: WindowKeySchema.extractStoreKeyBytes(storeKey), windowStart: WindowKeySchema.extractStoreTimestamp(storeKey), value };
}

/** Window entries: the cache keys them by their store key. */
const WINDOW_ENTRY_VIEW: MergedEntryView<WindowBytesEntry> = { keyOf: (entry) => entry.storeKey, fromCache: entryOf };

/** See the module comment. */
export class CachingWindowStore extends CachingStore<WindowBytesStore> implements WindowBytesStore {
  get retentionPeriod(): number {
    return this.wrapped.retentionPeriod;
  }
  get windowSize(): number {
    return this.wrapped.windowSize;
  }
  get retainDuplicates(): boolean {
    return this.wrapped.retainDuplicates;
  }
  get droppedRecords(): number {
    return this.wrapped.droppedRecords;
  }

  /** Caches the write (a `null` value: a cached tombstone); returns the store key, as the store below would. */
  put(key: Buffer, value: Buffer | null, windowStartTimestamp: number): Buffer {
    this.requireOpen('put');
    if (!Number.isInteger(windowStartTimestamp) || windowStartTimestamp < 0) {
      throw new IllegalArgumentError(`Window store '${this.name}': windowStartTimestamp must be an integer >= 0 (epoch milliseconds); got ${windowStartTimestamp}`);
    }
    const storeKey = WindowKeySchema.toStoreKeyBinary(key, windowStartTimestamp, 0);
    this.cacheWrite(storeKey, value);
    return storeKey;
  }

  fetchAt(key: Buffer, windowStartTimestamp: number): Buffer | null {
    this.requireOpen('fetch');
    const cached = this.cache?.get(this.namespace, WindowKeySchema.toStoreKeyBinary(key, windowStartTimestamp, 0));
    return cached !== undefined ? cached.value : this.wrapped.fetchAt(key, windowStartTimestamp);
  }

  fetchKey(key: Buffer, timeFrom: number, timeTo: number, forward: boolean): WindowBytesEntry[] {
    this.requireOpen('fetch');
    const stored = this.wrapped.fetchKey(key, timeFrom, timeTo, forward);
    if (this.cache === undefined) return stored;
    const from = WindowKeySchema.lowerRangeFixedSize(key, timeFrom);
    const to = WindowKeySchema.upperRangeFixedSize(key, timeTo);
    return mergeCacheOverStore(this.cachedIn(from, to, key, key, timeFrom, timeTo, forward), stored, forward, WINDOW_ENTRY_VIEW);
  }

  fetchKeyRange(keyFrom: Buffer | null, keyTo: Buffer | null, timeFrom: number, timeTo: number, forward: boolean): WindowBytesEntry[] {
    this.requireOpen('fetch');
    // an inverted key range: the store below warns (Kafka's message) and returns nothing
    const stored = this.wrapped.fetchKeyRange(keyFrom, keyTo, timeFrom, timeTo, forward);
    if (this.cache === undefined || (keyFrom !== null && keyTo !== null && Buffer.compare(keyFrom, keyTo) > 0)) return stored;
    const from = keyFrom === null ? null : WindowKeySchema.lowerRange(keyFrom, timeFrom);
    const to = keyTo === null ? null : WindowKeySchema.upperRange(keyTo, timeTo);
    return mergeCacheOverStore(this.cachedIn(from, to, keyFrom, keyTo, timeFrom, timeTo, forward), stored, forward, WINDOW_ENTRY_VIEW);
  }

  /** Every window starting in the range, cache over store, ordered by window start then key (as the store's time index). */
  fetchAll(timeFrom: number, timeTo: number, forward: boolean): WindowBytesEntry[] {
    this.requireOpen('fetchAll');
    const stored = this.wrapped.fetchAll(timeFrom, timeTo, forward);
    if (this.cache === undefined) return stored;
    const byKey = new Map(stored.map((e) => [e.storeKey.toString('hex'), e]));
    for (const { key, entry } of this.cache.all(this.namespace)) {
      const start = WindowKeySchema.extractStoreTimestamp(key);
      if (start < timeFrom || start > timeTo) continue;
      if (entry.value === null) byKey.delete(key.toString('hex'));
      else byKey.set(key.toString('hex'), entryOf(key, entry.value));
    }
    const sign = forward ? 1 : -1;
    return [...byKey.values()].sort((a, b) => sign * (a.windowStart - b.windowStart || Buffer.compare(a.key, b.key)));
  }

  protected readBelow(storeKey: Buffer): Buffer | null {
    return this.wrapped.fetchAt(WindowKeySchema.extractStoreKeyBytes(storeKey), WindowKeySchema.extractStoreTimestamp(storeKey));
  }

  protected writeBelow(storeKey: Buffer, value: Buffer | null): void {
    this.wrapped.put(WindowKeySchema.extractStoreKeyBytes(storeKey), value, WindowKeySchema.extractStoreTimestamp(storeKey));
  }

  /** The cached entries between the store keys `from` and `to` (a null bound is open) that Kafka's `hasNextCondition` keeps. */
  private cachedIn(from: Buffer | null, to: Buffer | null, keyFrom: Buffer | null, keyTo: Buffer | null, timeFrom: number, timeTo: number, forward: boolean): CachedKeyValue[] {
    const cache = this.cache;
    if (cache === undefined) return [];
    const matches = WindowKeySchema.hasNextCondition(keyFrom, keyTo, timeFrom, timeTo);
    return (forward ? cache.range(this.namespace, from, to) : cache.reverseRange(this.namespace, from, to)).filter((e) => matches(e.key));
  }
}
