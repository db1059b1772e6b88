/**
 * Merges cached entries over the entries of the store below (Kafka Streams'
 * `MergedSortedCacheKeyValueBytesStoreIterator`): both inputs are sorted the
 * same way; on equal keys the cache wins, and a cached tombstone hides the
 * key altogether.
 */
import type { BytesEntry } from './bytes-store-contract.js';
import type { CachedKeyValue } from './record-cache.js';

/** Merges `cached` over `stored`, both ascending (`forward`) or both descending. */
export function mergeCacheOverStore(cached: readonly CachedKeyValue[], stored: readonly BytesEntry[], forward: boolean): BytesEntry[] {
  const out: BytesEntry[] = [];
  const sign = forward ? 1 : -1;
  let c = 0;
  let s = 0;
  while (c < cached.length || s < stored.length) {
    const fromCache = cached[c];
    const fromStore = stored[s];
    if (fromCache === undefined) {
      out.push(fromStore as BytesEntry);
      s++;
      continue;
    }
    const cmp = fromStore === undefined ? -1 : sign * Buffer.compare(fromCache.key, fromStore.key);
    if (cmp > 0) {
      out.push(fromStore as BytesEntry);
      s++;
      continue;
    }
    if (cmp === 0) s++;
    c++;
    if (fromCache.entry.value !== null) out.push({ key: fromCache.key, value: fromCache.entry.value });
  }
  return out;
}
