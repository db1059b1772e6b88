/**
 * The caching layer of key-value stores (Kafka Streams' `CachingKeyValueStore`):
 * what every caching layer does (the record cache, flush, the flush listener,
 * no cache: pass-through) is the base `./internal/caching-store.ts`. This
 * layer adds the key-value reads: a get looks in the cache first (and caches
 * what it read below, clean); ranges and prefix scans merge the cache over
 * the store below.
 */
import type { BytesEntry, KeyValueBytesStore } from './bytes-store-contract.js';
import { cacheEntry } from './record-cache.js';
import { BYTES_ENTRY_VIEW, mergeCacheOverStore } from './caching-merged-entries.js';
import { CachingStore } from './internal/caching-store.js';

/** Options of {@link CachingKeyValueStore}. */
export interface CachingStoreOptions {
  /** True when values carry the 8-byte timestamp prefix of a timestamped store (kept for queries; the cache holds them as they are). */
  timestamped: boolean;
}

/** See the module comment. */
export class CachingKeyValueStore extends CachingStore<KeyValueBytesStore> implements KeyValueBytesStore {
  constructor(
    wrapped: KeyValueBytesStore,
    readonly options: CachingStoreOptions = { timestamped: false },
  ) {
    super(wrapped);
  }

  /** True when values carry the 8-byte timestamp prefix. */
  get timestamped(): boolean {
    return this.options.timestamped;
  }

  /** Step 5, as the base's, but a key-value store only needs to be initialized to flush. */
  override flush(): void {
    this.requireInit('flush');
    this.flushCacheAndBelow();
  }

  get(key: Buffer): Buffer | null {
    this.requireOpen('get');
    return this.getInternal(key);
  }

  put(key: Buffer, value: Buffer | null): void {
    this.requireOpen('put');
    this.cacheWrite(key, value);
  }

  putIfAbsent(key: Buffer, value: Buffer): Buffer | null {
    this.requireOpen('putIfAbsent');
    const previous = this.getInternal(key);
    if (previous === null) this.cacheWrite(key, value);
    return previous;
  }

  delete(key: Buffer): Buffer | null {
    this.requireOpen('delete');
    const previous = this.getInternal(key);
    this.cacheWrite(key, null);
    return previous;
  }

  range(from: Buffer | null, to: Buffer | null): BytesEntry[] {
    this.requireOpen('range');
    if (from !== null && to !== null && Buffer.compare(from, to) > 0) return [];
    const stored = this.wrapped.range(from, to);
    return this.cache === undefined ? stored : mergeCacheOverStore(this.cache.range(this.namespace, from, to), stored, true, BYTES_ENTRY_VIEW);
  }

  reverseRange(from: Buffer | null, to: Buffer | null): BytesEntry[] {
    this.requireOpen('reverseRange');
    if (from !== null && to !== null && Buffer.compare(from, to) > 0) return [];
    const stored = this.wrapped.reverseRange(from, to);
    return this.cache === undefined ? stored : mergeCacheOverStore(this.cache.reverseRange(this.namespace, from, to), stored, false, BYTES_ENTRY_VIEW);
  }

  prefixScan(prefix: Buffer): BytesEntry[] {
    this.requireOpen('prefixScan');
    const stored = this.wrapped.prefixScan(prefix);
    if (this.cache === undefined) return stored;
    const cached = this.cache.range(this.namespace, prefix, null).filter((e) => e.key.subarray(0, prefix.length).equals(prefix));
    return mergeCacheOverStore(cached, stored, true, BYTES_ENTRY_VIEW);
  }

  approximateNumEntries(): number {
    this.requireOpen('approximateNumEntries');
    return this.wrapped.approximateNumEntries();
  }

  protected readBelow(key: Buffer): Buffer | null {
    return this.wrapped.get(key);
  }

  protected writeBelow(key: Buffer, value: Buffer | null): void {
    this.wrapped.put(key, value);
  }

  private getInternal(key: Buffer): Buffer | null {
    const cache = this.cache;
    if (cache === undefined) return this.wrapped.get(key);
    const entry = cache.get(this.namespace, key);
    if (entry !== undefined) return entry.value;
    const raw = this.wrapped.get(key);
    if (raw === null) return null;
    cache.put(this.namespace, key, cacheEntry(raw));
    return raw;
  }
}
