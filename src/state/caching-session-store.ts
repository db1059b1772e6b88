/**
 * The caching layer of session stores (Kafka Streams' `CachingSessionStore`):
 * writes go into the instance's record cache (one namespace per task and
 * store, keyed by the session's store key `key | end | start`) and reach the
 * store below only at a flush or when the cache evicts them, so only the last
 * update of a session between two commits is written down, logged and
 * forwarded by the flush listener. Reads merge the cache over the store:
 * a cached entry wins, a cached tombstone hides the session. Entries stay in
 * the cache after a flush (clean), as Kafka's, so a session that expired in
 * the store is still read from the cache until evicted.
 *
 * Without a cache in the init context (or one of `maxBytes` 0) every write
 * goes straight down and the flush listener is called for it at once, as
 * Kafka with the layer stripped at cache size 0.
 */
import { IllegalStateError } from '../errors.js';
import { formatTaskId } from '../records/task-id.js';
import type { BytesFlushListener } from './bytes-store-contract.js';
import { contextOverriding } from './caching-context.js';
import { cacheEntry, RecordCache, type CachedKeyValue, type CachedRecordContext } from './record-cache.js';
import { SessionKeySchema } from './session-key-schema.js';
import type { SessionBytesEntry, SessionBytesStore } from './session-store.js';
import type { ChangelogRecord, StoreInitContext, StoreRecordContext } from './store-contract.js';

function toStoreContext(c: CachedRecordContext): StoreRecordContext {
  const out: StoreRecordContext = { timestamp: c.timestamp, headers: c.headers };
  if (c.topic !== '') out.topic = c.topic;
  if (c.partition >= 0) out.partition = c.partition;
  if (c.offset >= 0) out.offset = c.offset;
  return out;
}

function entryOf(storeKey: Buffer, value: Buffer): SessionBytesEntry {
  const window = SessionKeySchema.extractWindow(storeKey);
  return { storeKey, key: SessionKeySchema.extractKeyBytes(storeKey), start: window.start, end: window.end, value };
}

/** Merges cached sessions over stored ones, both in store-key order (`forward`) or both reversed. */
function mergeSessions(cached: readonly CachedKeyValue[], stored: readonly SessionBytesEntry[], forward: boolean): SessionBytesEntry[] {
  const out: SessionBytesEntry[] = [];
  const sign = forward ? 1 : -1;
  let c = 0;
  let s = 0;
  while (c < cached.length || s < stored.length) {
    const fromCache = cached[c];
    const fromStore = stored[s];
    const cmp = fromCache === undefined ? 1 : fromStore === undefined ? -1 : sign * Buffer.compare(fromCache.key, fromStore.storeKey);
    if (cmp > 0) {
      out.push(fromStore as SessionBytesEntry);
      s++;
      continue;
    }
    if (cmp === 0) s++;
    c++;
    const value = (fromCache as CachedKeyValue).entry.value;
    if (value !== null) out.push(entryOf((fromCache as CachedKeyValue).key, value));
  }
  return out;
}

/** See the module comment. */
export class CachingSessionStore implements SessionBytesStore {
  private context: StoreInitContext | undefined;
  private cache: RecordCache | undefined;
  private namespace = '';
  private listener: BytesFlushListener | undefined;
  private sendOldValues = false;
  /** The record context of the entry being written down (what the layers below see as the current record). */
  private writingDown: StoreRecordContext | undefined;
  private maxObservedEnd = -1;

  constructor(readonly wrapped: SessionBytesStore) {}

  get name(): string {
    return this.wrapped.name;
  }
  get persistent(): boolean {
    return this.wrapped.persistent;
  }
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
  /** True once initialized with an enabled record cache. */
  get caching(): boolean {
    return this.cache !== undefined;
  }

  /**
   * Step 2:
   * 1. take the instance's cache (none, or `maxBytes` 0: pass-through);
   * 2. register the namespace `<taskId>-<storeName>` with a listener that
   *    writes the flushed sessions down;
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
    this.wrapped.init(contextOverriding(context, () => this.writingDown));
  }

  checkpoint(): number | undefined {
    return this.wrapped.checkpoint();
  }
  restoreBatch(records: readonly ChangelogRecord[]): void {
    this.cache?.clear(this.namespace);
    this.wrapped.restoreBatch(records);
  }
  /** Step 5: writes the dirty sessions down (the flush listener forwards them), then flushes below. */
  flush(): void {
    this.requireOpen('flush');
    this.cache?.flush(this.namespace);
    this.wrapped.flush();
  }
  commit(changelogNextOffset: number | undefined): void {
    this.wrapped.commit(changelogNextOffset);
  }
  /** Step 7: drops the namespace without writing it down, then closes below. */
  close(): void {
    this.cache?.close(this.namespace);
    this.wrapped.close();
  }
  isOpen(): boolean {
    return this.wrapped.isOpen();
  }

  /** Kafka's `CachedStateStore.setFlushListener`: from now on the listener forwards what this store writes down. */
  setFlushListener(listener: BytesFlushListener, sendOldValues: boolean): boolean {
    this.listener = listener;
    this.sendOldValues = sendOldValues;
    return true;
  }

  put(key: Buffer, start: number, end: number, aggregate: Buffer | null): Buffer {
    this.requireOpen('put');
    const storeKey = SessionKeySchema.toBinaryBytes(key, start, end);
    if (aggregate !== null) this.maxObservedEnd = Math.max(this.maxObservedEnd, end);
    const current = (this.context as StoreInitContext).recordContext();
    if (this.cache === undefined) this.putAndMaybeForward(storeKey, aggregate, current);
    else this.cache.put(this.namespace, storeKey, cacheEntry(aggregate, true, current));
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
    return mergeSessions(cached, stored, forward);
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

  /**
   * Kafka's `putAndMaybeForward`, for one flushed session (`context`: the record context of its write):
   * 1. with a listener: read the old aggregate below when needed (a removal, or
   *    `sendOldValues`); with a cache, a removal of a session the store never
   *    had is neither written nor forwarded;
   * 2. write it down with its own record context as the current one;
   * 3. call the listener with (store key, new, old, the entry's record context).
   */
  private putAndMaybeForward(storeKey: Buffer, newValue: Buffer | null, context: StoreRecordContext): void {
    const listener = this.listener;
    const key = SessionKeySchema.extractKeyBytes(storeKey);
    const { start, end } = SessionKeySchema.extractWindow(storeKey);
    // 1.
    const oldValue = listener !== undefined && (newValue === null || this.sendOldValues) ? this.wrapped.fetchSession(key, start, end) : null;
    if (listener !== undefined && this.cache !== undefined && newValue === null && oldValue === null) return;
    // 2.
    const saved = this.writingDown;
    this.writingDown = context;
    try {
      if (newValue === null) this.wrapped.remove(key, start, end);
      else this.wrapped.put(key, start, end, newValue);
    } finally {
      this.writingDown = saved;
    }
    // 3.
    listener?.(storeKey, newValue, this.sendOldValues ? oldValue : null, context);
  }

  private requireOpen(operation: string): void {
    if (this.context === undefined) {
      throw new IllegalStateError(`State store '${this.name}' cannot ${operation} before init(context); the runner initializes every store before processing`);
    }
    if (!this.wrapped.isOpen()) throw new IllegalStateError(`State store '${this.name}' cannot ${operation}: it is closed`);
  }
}
