/**
 * The window bytes store on a bytes engine (in memory or persistent): Kafka's
 * `InMemoryWindowStore` / `RocksDBWindowStore` semantics on ordered bytes.
 * Layout and costs: see `internal/window-engine-store.ts`.
 *
 * - a single-key fetch is one range scan of the key-first entries
 *   (`key | from | 0` … `key | to | MAX`), filtered to that exact key;
 * - a key-range fetch scans `lowerRange(keyFrom)` … `upperRange(keyTo, to)` and
 *   filters keys and times (Kafka's `hasNextCondition`); order: serialized key, then time;
 * - `fetchAll` and `all` scan the time-first index (order: time, then key) and
 *   look each value up: one point lookup per result.
 */
import { IllegalArgumentError } from '../errors.js';
import type { KeyValueBytesStore } from './bytes-store-contract.js';
import type { ChangelogRecord } from './store-contract.js';
import { EMPTY, EngineBackedStore, KEY_FIRST_PREFIX, TIME_FIRST_PREFIX, prefixed } from './internal/window-engine-store.js';
import { INT_MAX_VALUE, INVALID_RANGE_WARNING, LONG_MAX_VALUE, SEQNUM_SIZE, TIMESTAMP_SIZE, longBytes, readLong } from './internal/window-bytes.js';
import { WindowKeySchema } from './window-key-schema.js';
import type { WindowBytesEntry, WindowBytesStore } from './window-store.js';

/** Options of a {@link EngineWindowBytesStore}. */
export interface WindowBytesStoreOptions {
  retentionPeriod: number;
  windowSize: number;
  retainDuplicates: boolean;
  segmentInterval: number;
}

const KEY_FIRST_START = Buffer.from([KEY_FIRST_PREFIX]);
const KEY_FIRST_END = Buffer.from([KEY_FIRST_PREFIX + 1]);
const TIME_FIRST_END = Buffer.from([TIME_FIRST_PREFIX + 1]);

/** The time-first index key of a store key: `0x00 | time | key | seqnum` (Kafka's `TimeFirstWindowKeySchema`). */
function indexKeyOf(storeKey: Buffer): Buffer {
  const keyLength = storeKey.length - TIMESTAMP_SIZE - SEQNUM_SIZE;
  return Buffer.concat([
    Buffer.from([TIME_FIRST_PREFIX]),
    storeKey.subarray(keyLength, keyLength + TIMESTAMP_SIZE),
    storeKey.subarray(0, keyLength),
    storeKey.subarray(keyLength + TIMESTAMP_SIZE),
  ]);
}

/** The store key of a time-first index key. */
function storeKeyOfIndex(indexKey: Buffer): Buffer {
  return Buffer.concat([
    indexKey.subarray(1 + TIMESTAMP_SIZE, indexKey.length - SEQNUM_SIZE),
    indexKey.subarray(1, 1 + TIMESTAMP_SIZE),
    indexKey.subarray(indexKey.length - SEQNUM_SIZE),
  ]);
}

/** A {@link WindowBytesStore} on a {@link KeyValueBytesStore} engine. */
export class EngineWindowBytesStore extends EngineBackedStore implements WindowBytesStore {
  readonly windowSize: number;
  readonly retainDuplicates: boolean;

  constructor(name: string, engine: KeyValueBytesStore, options: WindowBytesStoreOptions) {
    super(name, engine, options.retentionPeriod, options.segmentInterval, 'window-store');
    this.windowSize = options.windowSize;
    this.retainDuplicates = options.retainDuplicates;
  }

  /**
   * 1. checks the window start; 2. advances stream time (purging when due);
   * 3. drops the put when its window has expired; 4. writes (or deletes) the entry and its index key.
   */
  put(key: Buffer, value: Buffer | null, windowStartTimestamp: number): Buffer {
    this.ensureOpen('put');
    if (!Number.isInteger(windowStartTimestamp) || windowStartTimestamp < 0) {
      throw new IllegalArgumentError(
        `Window store '${this.name}': windowStartTimestamp must be an integer >= 0 (epoch milliseconds); got ${windowStartTimestamp}`,
      );
    }
    this.advance(windowStartTimestamp);
    if (this.retainDuplicates) {
      this.seqnum = (this.seqnum + 1) & INT_MAX_VALUE;
      this.metaDirty = true;
    }
    const storeKey = WindowKeySchema.toStoreKeyBinary(key, windowStartTimestamp, this.retainDuplicates ? this.seqnum : 0);
    if (this.isExpired(windowStartTimestamp)) {
      this.drop(windowStartTimestamp);
    } else if (value !== null) {
      this.engine.put(prefixed(KEY_FIRST_PREFIX, storeKey), value);
      this.engine.put(indexKeyOf(storeKey), EMPTY);
    } else if (!this.retainDuplicates) {
      // A delete of one duplicate is a no-op: duplicates have no identity to delete by.
      this.engine.delete(prefixed(KEY_FIRST_PREFIX, storeKey));
      this.engine.delete(indexKeyOf(storeKey));
    }
    return storeKey;
  }

  /** The value at exactly this window start (the first duplicate when duplicates are retained). */
  fetchAt(key: Buffer, windowStartTimestamp: number): Buffer | null {
    this.ensureOpen('fetch');
    if (this.isExpired(windowStartTimestamp)) return null;
    if (!this.retainDuplicates) return this.engine.get(prefixed(KEY_FIRST_PREFIX, WindowKeySchema.toStoreKeyBinary(key, windowStartTimestamp, 0)));
    return this.fetchKey(key, windowStartTimestamp, windowStartTimestamp, true)[0]?.value ?? null;
  }

  fetchKey(key: Buffer, timeFrom: number, timeTo: number, forward: boolean): WindowBytesEntry[] {
    this.ensureOpen('fetch');
    const from = Math.max(timeFrom, this.minLiveTime());
    if (timeTo < from) return [];
    const lo = prefixed(KEY_FIRST_PREFIX, WindowKeySchema.lowerRangeFixedSize(key, from));
    const hi = prefixed(KEY_FIRST_PREFIX, WindowKeySchema.upperRangeFixedSize(key, timeTo));
    return this.scanPrimary(lo, hi, key, key, from, timeTo, forward);
  }

  fetchKeyRange(keyFrom: Buffer | null, keyTo: Buffer | null, timeFrom: number, timeTo: number, forward: boolean): WindowBytesEntry[] {
    this.ensureOpen('fetch');
    if (keyFrom !== null && keyTo !== null && Buffer.compare(keyFrom, keyTo) > 0) {
      this.logger?.warn(INVALID_RANGE_WARNING);
      return [];
    }
    const from = Math.max(timeFrom, this.minLiveTime());
    if (timeTo < from) return [];
    const lo = keyFrom === null ? KEY_FIRST_START : prefixed(KEY_FIRST_PREFIX, WindowKeySchema.lowerRange(keyFrom, from));
    const hi = keyTo === null ? KEY_FIRST_END : prefixed(KEY_FIRST_PREFIX, WindowKeySchema.upperRange(keyTo, timeTo));
    return this.scanPrimary(lo, hi, keyFrom, keyTo, from, timeTo, forward);
  }

  /** Every live window starting in `[timeFrom, timeTo]`, by time then key, via the time-first index. */
  fetchAll(timeFrom: number, timeTo: number, forward: boolean): WindowBytesEntry[] {
    this.ensureOpen('fetchAll');
    const from = Math.max(timeFrom, this.minLiveTime());
    if (timeTo < from) return [];
    const lo = prefixed(TIME_FIRST_PREFIX, longBytes(from));
    const hi = timeTo >= LONG_MAX_VALUE ? TIME_FIRST_END : prefixed(TIME_FIRST_PREFIX, longBytes(timeTo + 1));
    const index = forward ? this.engine.range(lo, hi) : this.engine.reverseRange(lo, hi);
    const out: WindowBytesEntry[] = [];
    for (const { key: indexKey } of index) {
      if (indexKey[0] !== TIME_FIRST_PREFIX || indexKey.length < 1 + TIMESTAMP_SIZE + SEQNUM_SIZE) continue;
      const time = readLong(indexKey, 1);
      if (time < from || time > timeTo) continue;
      const storeKey = storeKeyOfIndex(indexKey);
      const value = this.engine.get(prefixed(KEY_FIRST_PREFIX, storeKey));
      if (value !== null) out.push({ storeKey, key: WindowKeySchema.extractStoreKeyBytes(storeKey), windowStart: time, value });
    }
    return out;
  }

  private scanPrimary(lo: Buffer, hi: Buffer, keyFrom: Buffer | null, keyTo: Buffer | null, from: number, to: number, forward: boolean): WindowBytesEntry[] {
    const matches = WindowKeySchema.hasNextCondition(keyFrom, keyTo, from, to);
    const entries = forward ? this.engine.range(lo, hi) : this.engine.reverseRange(lo, hi);
    const out: WindowBytesEntry[] = [];
    for (const { key: engineKey, value } of entries) {
      if (engineKey[0] !== KEY_FIRST_PREFIX || engineKey.length < 1 + TIMESTAMP_SIZE + SEQNUM_SIZE) continue;
      const storeKey = engineKey.subarray(1);
      if (!matches(storeKey)) continue;
      out.push({ storeKey: Buffer.from(storeKey), key: WindowKeySchema.extractStoreKeyBytes(storeKey), windowStart: WindowKeySchema.extractStoreTimestamp(storeKey), value });
    }
    return out;
  }

  protected purgeBefore(minLiveTime: number): void {
    this.purgeIndex(Buffer.from([TIME_FIRST_PREFIX]), prefixed(TIME_FIRST_PREFIX, longBytes(minLiveTime)), (indexKey) => {
      if (indexKey.length < 1 + TIMESTAMP_SIZE + SEQNUM_SIZE || readLong(indexKey, 1) >= minLiveTime) return null;
      return prefixed(KEY_FIRST_PREFIX, storeKeyOfIndex(indexKey));
    });
  }

  protected translateRestored(record: ChangelogRecord, out: ChangelogRecord[]): void {
    const storeKey = record.key;
    const time = WindowKeySchema.extractStoreTimestamp(storeKey);
    this.observeRestored(time);
    if (this.retainDuplicates) this.seqnum = WindowKeySchema.extractStoreSequence(storeKey);
    if (this.isExpired(time)) return;
    const { timestamp, offset } = record;
    out.push({ key: prefixed(KEY_FIRST_PREFIX, storeKey), value: record.value, timestamp, offset });
    out.push({ key: indexKeyOf(storeKey), value: record.value === null ? null : EMPTY, timestamp, offset });
  }
}
