/**
 * The caching layer of session stores (Kafka Streams' `CachingSessionStore`):
 * what every caching layer does (the record cache, flush, the flush listener,
 * no cache: pass-through) is the base `./internal/caching-store.ts`. The
 * cache is keyed by the session's store key `key | end | start`; reads merge
 * the cache over the store: a cached entry wins, a cached tombstone hides the
 * session. Entries stay in the cache after a flush (clean), as Kafka's, so a
 * session that expired in the store is still read from the cache until
 * evicted. This layer adds the session key schema, the session reads and the
 * stream time counting the sessions still in the cache.
 */
import { mergeCacheOverStore, type MergedEntryView } from './caching-merged-entries.js';
import { CachingStore } from './internal/caching-store.js';
import { SessionKeySchema } from './session-key-schema.js';
import type { SessionBytesEntry, SessionBytesStore } from './session-store.js';

function entryOf(storeKey: Buffer, value: Buffer): SessionBytesEntry {
  const window = SessionKeySchema.extractWindow(storeKey);
  return { storeKey, key: SessionKeySchema.extractKeyBytes(storeKey), start: window.start, end: window.end, value };
}

/** Session entries: the cache keys them by their store key. */
const SESSION_ENTRY_VIEW: MergedEntryView<SessionBytesEntry> = { keyOf: (entry) => entry.storeKey, fromCache: entryOf };

/** See the module comment. */
export class CachingSessionStore extends CachingStore<SessionBytesStore> implements SessionBytesStore {
  private maxObservedEnd = -1;

  get retentionPeriod(): number {
    return this.wrapped.retentionPeriod;
  }
  get droppedRecords(): number {
    return this.wrapped.droppedRecords;
  }
  /** The store's stream time, counting the sessions still in the cache (Kafka's `maxObservedTimestamp`). */
  get streamTime(): number | undefined {
    const below = this.wrapped.streamTime;
    return below === undefined ? undefined : Math.max(below, this.maxObservedEnd);
  }

  put(key: Buffer, start: number, end: number, aggregate: Buffer | null): Buffer {
    this.requireOpen('put');
    const storeKey = SessionKeySchema.toBinaryBytes(key, start, end);
    if (aggregate !== null) this.maxObservedEnd = Math.max(this.maxObservedEnd, end);
    this.cacheWrite(storeKey, aggregate);
    return storeKey;
  }

  remove(key: Buffer, start: number, end: number): Buffer {
    return this.put(key, start, end, null);
  }

  fetchSession(key: Buffer, start: number, end: number): Buffer | null {
    this.requireOpen('fetchSession');
    const cached = this.cache?.get(this.namespace, SessionKeySchema.toBinaryBytes(key, start, end));
    return cached !== undefined ? cached.value : this.wrapped.fetchSession(key, start, end);
  }

  findSessions(keyFrom: Buffer | null, keyTo: Buffer | null, earliestSessionEndTime: number, latestSessionStartTime: number, forward: boolean): SessionBytesEntry[] {
    this.requireOpen('findSessions');
    const stored = this.wrapped.findSessions(keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime, forward);
    if (this.cache === undefined || (keyFrom !== null && keyTo !== null && Buffer.compare(keyFrom, keyTo) > 0)) return stored;
    const single = keyFrom !== null && keyTo !== null && keyFrom.equals(keyTo);
    const from = keyFrom === null ? null : single ? SessionKeySchema.lowerRangeFixedSize(keyFrom, earliestSessionEndTime) : SessionKeySchema.lowerRange(keyFrom, earliestSessionEndTime);
    const to = keyTo === null ? null : single ? SessionKeySchema.upperRangeFixedSize(keyTo, latestSessionStartTime) : SessionKeySchema.upperRange(keyTo, latestSessionStartTime);
    const matches = SessionKeySchema.hasNextCondition(keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime);
    const cached = (forward ? this.cache.range(this.namespace, from, to) : this.cache.reverseRange(this.namespace, from, to)).filter((e) => matches(e.key));
    return mergeCacheOverStore(cached, stored, forward, SESSION_ENTRY_VIEW);
  }

  /** The sessions ending in the range, cache over store, ordered by end, start, key (as the store's time index). */
  findSessionsByEndTime(earliestSessionEndTime: number, latestSessionEndTime: number, forward: boolean): SessionBytesEntry[] {
    this.requireOpen('findSessions');
    const stored = this.wrapped.findSessionsByEndTime(earliestSessionEndTime, latestSessionEndTime, forward);
    if (this.cache === undefined) return stored;
    const byKey = new Map(stored.map((e) => [e.storeKey.toString('hex'), e]));
    for (const { key, entry } of this.cache.all(this.namespace)) {
      const end = SessionKeySchema.extractEndTimestamp(key);
      if (end < earliestSessionEndTime || end > latestSessionEndTime) continue;
      if (entry.value === null) byKey.delete(key.toString('hex'));
      else byKey.set(key.toString('hex'), entryOf(key, entry.value));
    }
    const sign = forward ? 1 : -1;
    return [...byKey.values()].sort((a, b) => sign * (a.end - b.end || a.start - b.start || Buffer.compare(a.key, b.key)));
  }

  protected readBelow(storeKey: Buffer): Buffer | null {
    const { start, end } = SessionKeySchema.extractWindow(storeKey);
    return this.wrapped.fetchSession(SessionKeySchema.extractKeyBytes(storeKey), start, end);
  }

  protected writeBelow(storeKey: Buffer, value: Buffer | null): void {
    const key = SessionKeySchema.extractKeyBytes(storeKey);
    const { start, end } = SessionKeySchema.extractWindow(storeKey);
    if (value === null) this.wrapped.remove(key, start, end);
    else this.wrapped.put(key, start, end, value);
  }
}
