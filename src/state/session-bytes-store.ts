/**
 * The session bytes store on a bytes engine (in memory or persistent): Kafka's
 * `InMemorySessionStore` / `RocksDBSessionStore` semantics on ordered bytes.
 * Layout and costs: see `internal/window-engine-store.ts`; the time-first
 * index is Kafka's `TimeFirstSessionKeySchema` (`0x00 | end | start | key`).
 *
 * - `findSessions(key, …)` scans `key | earliestEnd | 0` … `key | MAX | latestStart`
 *   and keeps the sessions overlapping `[earliestEnd, latestStart]`;
 *   a key range scans `lowerRange(keyFrom)` … `upperRange(keyTo, latestStart)`;
 *   order: serialized key, then end, then start;
 * - `findSessionsByEndTime` scans the index (order: end, start, key). As
 *   Kafka's time-ordered session store (`fetchSessions`, which emit-on-close
 *   aggregations use) it returns expired sessions not purged yet: an expired
 *   session lingers up to one segment interval, as in a Kafka segment, so a
 *   session that closes (`end + gap + grace` passed, i.e. expired under the
 *   default retention) can still be emitted. Restoration keeps the same.
 */
import { IllegalArgumentError } from '../errors.js';
import type { KeyValueBytesStore } from './bytes-store-contract.js';
import type { ChangelogRecord } from './store-contract.js';
import { EMPTY, EngineBackedStore, KEY_FIRST_PREFIX, TIME_FIRST_PREFIX, prefixed } from './internal/window-engine-store.js';
import { INVALID_RANGE_WARNING, LONG_MAX_VALUE, TIMESTAMP_SIZE, longBytes, readLong } from './internal/window-bytes.js';
import { SessionKeySchema } from './session-key-schema.js';
import type { SessionBytesEntry, SessionBytesStore } from './session-store.js';

/** Options of a {@link EngineSessionBytesStore}. */
export interface SessionBytesStoreOptions {
  retentionPeriod: number;
  segmentInterval: number;
}

const SUFFIX = 2 * TIMESTAMP_SIZE;
const KEY_FIRST_START = Buffer.from([KEY_FIRST_PREFIX]);
const KEY_FIRST_END = Buffer.from([KEY_FIRST_PREFIX + 1]);
const TIME_FIRST_END = Buffer.from([TIME_FIRST_PREFIX + 1]);

/** `0x00 | end | start | key` of a store key `key | end | start`. */
function indexKeyOf(storeKey: Buffer): Buffer {
  const keyLength = storeKey.length - SUFFIX;
  return Buffer.concat([Buffer.from([TIME_FIRST_PREFIX]), storeKey.subarray(keyLength), storeKey.subarray(0, keyLength)]);
}

/** The store key of a time-first index key. */
function storeKeyOfIndex(indexKey: Buffer): Buffer {
  return Buffer.concat([indexKey.subarray(1 + SUFFIX), indexKey.subarray(1, 1 + SUFFIX)]);
}

function checkSession(store: string, start: number, end: number): void {
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start) {
    throw new IllegalArgumentError(`Session store '${store}': a session needs integer times with 0 <= start <= end; got start=${start}, end=${end}`);
  }
}

/** A {@link SessionBytesStore} on a {@link KeyValueBytesStore} engine. */
export class EngineSessionBytesStore extends EngineBackedStore implements SessionBytesStore {
  private readonly lingerMs: number;

  constructor(name: string, engine: KeyValueBytesStore, options: SessionBytesStoreOptions) {
    super(name, engine, options.retentionPeriod, options.segmentInterval, 'session-store');
    this.lingerMs = options.segmentInterval;
  }

  /** Sessions ending before this are purged (or not restored): expired for longer than a segment interval. */
  private purgedBefore(): number {
    return Math.max(0, this.minLiveTime() - this.lingerMs);
  }

  /** 1. checks the session; 2. advances stream time to its end; 3. drops it when expired; 4. writes or removes it. */
  put(key: Buffer, start: number, end: number, aggregate: Buffer | null): Buffer {
    this.ensureOpen('put');
    checkSession(this.name, start, end);
    this.advance(end);
    const storeKey = SessionKeySchema.toBinaryBytes(key, start, end);
    if (this.isExpired(end)) {
      this.drop(end);
    } else if (aggregate !== null) {
      this.engine.put(prefixed(KEY_FIRST_PREFIX, storeKey), aggregate);
      this.engine.put(indexKeyOf(storeKey), EMPTY);
    } else {
      this.deleteEntry(storeKey);
    }
    return storeKey;
  }

  remove(key: Buffer, start: number, end: number): Buffer {
    this.ensureOpen('remove');
    checkSession(this.name, start, end);
    const storeKey = SessionKeySchema.toBinaryBytes(key, start, end);
    this.deleteEntry(storeKey);
    return storeKey;
  }

  fetchSession(key: Buffer, start: number, end: number): Buffer | null {
    this.ensureOpen('fetchSession');
    if (this.isExpired(end)) return null;
    return this.engine.get(prefixed(KEY_FIRST_PREFIX, SessionKeySchema.toBinaryBytes(key, start, end)));
  }

  findSessions(keyFrom: Buffer | null, keyTo: Buffer | null, earliestSessionEndTime: number, latestSessionStartTime: number, forward: boolean): SessionBytesEntry[] {
    this.ensureOpen('findSessions');
    if (keyFrom !== null && keyTo !== null && Buffer.compare(keyFrom, keyTo) > 0) {
      this.logger?.warn(INVALID_RANGE_WARNING);
      return [];
    }
    const earliestEnd = Math.max(earliestSessionEndTime, this.minLiveTime());
    const single = keyFrom !== null && keyTo !== null && keyFrom.equals(keyTo);
    let lo: Buffer;
    let hi: Buffer;
    if (single) {
      lo = prefixed(KEY_FIRST_PREFIX, SessionKeySchema.lowerRangeFixedSize(keyFrom, earliestEnd));
      hi = prefixed(KEY_FIRST_PREFIX, SessionKeySchema.upperRangeFixedSize(keyFrom, latestSessionStartTime));
    } else {
      lo = keyFrom === null ? KEY_FIRST_START : prefixed(KEY_FIRST_PREFIX, SessionKeySchema.lowerRange(keyFrom, earliestEnd));
      hi = keyTo === null ? KEY_FIRST_END : prefixed(KEY_FIRST_PREFIX, SessionKeySchema.upperRange(keyTo, latestSessionStartTime));
    }
    const matches = SessionKeySchema.hasNextCondition(keyFrom, keyTo, earliestEnd, latestSessionStartTime);
    const out: SessionBytesEntry[] = [];
    for (const { key: engineKey, value } of forward ? this.engine.range(lo, hi) : this.engine.reverseRange(lo, hi)) {
      if (engineKey[0] !== KEY_FIRST_PREFIX || engineKey.length < 1 + SUFFIX) continue;
      const storeKey = Buffer.from(engineKey.subarray(1));
      if (matches(storeKey)) out.push(this.entry(storeKey, value));
    }
    return out;
  }

  findSessionsByEndTime(earliestSessionEndTime: number, latestSessionEndTime: number, forward: boolean): SessionBytesEntry[] {
    this.ensureOpen('findSessions');
    const from = Math.max(earliestSessionEndTime, this.purgedBefore());
    if (latestSessionEndTime < from) return [];
    const lo = prefixed(TIME_FIRST_PREFIX, longBytes(from));
    const hi = latestSessionEndTime >= LONG_MAX_VALUE ? TIME_FIRST_END : prefixed(TIME_FIRST_PREFIX, longBytes(latestSessionEndTime + 1));
    const out: SessionBytesEntry[] = [];
    for (const { key: indexKey } of forward ? this.engine.range(lo, hi) : this.engine.reverseRange(lo, hi)) {
      if (indexKey[0] !== TIME_FIRST_PREFIX || indexKey.length < 1 + SUFFIX) continue;
      const end = readLong(indexKey, 1);
      if (end < from || end > latestSessionEndTime) continue;
      const storeKey = storeKeyOfIndex(indexKey);
      const value = this.engine.get(prefixed(KEY_FIRST_PREFIX, storeKey));
      if (value !== null) out.push(this.entry(storeKey, value));
    }
    return out;
  }

  private entry(storeKey: Buffer, value: Buffer): SessionBytesEntry {
    return {
      storeKey,
      key: SessionKeySchema.extractKeyBytes(storeKey),
      start: SessionKeySchema.extractStartTimestamp(storeKey),
      end: SessionKeySchema.extractEndTimestamp(storeKey),
      value,
    };
  }

  private deleteEntry(storeKey: Buffer): void {
    this.engine.delete(prefixed(KEY_FIRST_PREFIX, storeKey));
    this.engine.delete(indexKeyOf(storeKey));
  }

  protected purgeBefore(minLiveTime: number): void {
    const before = Math.max(0, minLiveTime - this.lingerMs);
    this.purgeIndex(Buffer.from([TIME_FIRST_PREFIX]), prefixed(TIME_FIRST_PREFIX, longBytes(before)), (indexKey) => {
      if (indexKey.length < 1 + SUFFIX || readLong(indexKey, 1) >= before) return null;
      return prefixed(KEY_FIRST_PREFIX, storeKeyOfIndex(indexKey));
    });
  }

  protected translateRestored(record: ChangelogRecord, out: ChangelogRecord[]): void {
    const storeKey = record.key;
    const end = SessionKeySchema.extractEndTimestamp(storeKey);
    this.observeRestored(end);
    if (end < this.purgedBefore()) return;
    const { timestamp, offset } = record;
    out.push({ key: prefixed(KEY_FIRST_PREFIX, storeKey), value: record.value, timestamp, offset });
    out.push({ key: indexKeyOf(storeKey), value: record.value === null ? null : EMPTY, timestamp, offset });
  }
}
