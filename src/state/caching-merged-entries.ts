/**
 * Merges cached entries over the entries of the store below (Kafka Streams'
 * `MergedSortedCacheKeyValueBytesStoreIterator` and its window and session
 * variants): both inputs are sorted the same way by key binary; on equal keys
 * the cache wins, and a cached tombstone hides the key altogether. One merge
 * for every store kind: a {@link MergedEntryView} says how the kind's entries
 * carry their key binary and how a cached value becomes an entry.
 */
import type { BytesEntry } from './bytes-store-contract.js';
import type { CachedKeyValue } from './record-cache.js';

/** How a store kind's entries look to the merge. */
export interface MergedEntryView<T> {
  /** The key binary the cache keys the entry by (the store key). */
  keyOf(entry: T): Buffer;
  /** The entry for a cached key binary and its (non-tombstone) value. */
  fromCache(key: Buffer, value: Buffer): T;
}

/** Key-value entries: the key is the store key. */
export const BYTES_ENTRY_VIEW: MergedEntryView<BytesEntry> = {
  keyOf: (entry) => entry.key,
  fromCache: (key, value) => ({ key, value }),
};

/** Merges `cached` over `stored`, both ascending (`forward`) or both descending. */
export function mergeCacheOverStore<T>(cached: readonly CachedKeyValue[], stored: readonly T[], forward: boolean, view: MergedEntryView<T>): T[] {
  const out: T[] = [];
  const sign = forward ? 1 : -1;
  let c = 0;
  let s = 0;
  while (c < cached.length || s < stored.length) {
    const fromCache = cached[c];
    const fromStore = stored[s];
    const cmp = fromCache === undefined ? 1 : fromStore === undefined ? -1 : sign * Buffer.compare(fromCache.key, view.keyOf(fromStore));
    if (cmp > 0) {
      out.push(fromStore as T);
      s++;
      continue;
    }
    if (cmp === 0) s++;
    c++;
    const value = (fromCache as CachedKeyValue).entry.value;
    if (value !== null) out.push(view.fromCache((fromCache as CachedKeyValue).key, value));
  }
  return out;
}
