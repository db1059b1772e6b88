/**
 * The bytes level of a versioned key-value store (Kafka's `VersionedBytesStore`
 * and `RocksDBVersionedStore`, KIP-889) and its engine: every version of a key
 * in one entry of a plain bytes engine (in memory, or lmdb), as the list of
 * `./version-list.ts`, plus one entry holding the observed stream time.
 *
 * Engine keys: `0x01 + key` for a key's versions, `0x00` for the stream time
 * (8 bytes), so no user key meets the stream-time entry.
 *
 * Restoration (the contract's step 3) replays the changelog (key, value or
 * tombstone, timestamp) as puts, in order, advancing the stream time as it
 * goes; a record already older than the grace period when it is replayed is
 * skipped, as Kafka's store skips it (not counted as dropped). Each batch
 * becomes one `restoreBatch` of the engine (one lmdb transaction with its
 * checkpoint): the final entry of every key it touched, then the stream time.
 */
import type { KeyValueBytesStore } from '../bytes-store-contract.js';
import type { BytesStoreLifecycle } from '../bytes-store-contract.js';
import type { ChangelogRecord, StoreInitContext } from '../store-contract.js';
import { decodeVersions, encodeVersions, latest, NOT_PUT, putVersion, versionAsOf, versionsBetween, type Version, type VersionRead } from './version-list.js';

/** A versioned bytes store: one layer of a versioned store's stack (Kafka's `VersionedBytesStore`). */
export interface VersionedBytesStore extends BytesStoreLifecycle {
  /** Puts `value` (`null`: a tombstone) valid from `timestamp`; returns its `validTo`, -1 when latest, `NOT_PUT` when too old. */
  put(key: Buffer, value: Buffer | null, timestamp: number): number;
  /** The latest version, or `null` (none, or a tombstone). */
  get(key: Buffer): VersionRead | null;
  /** The version valid at `asOf`, or `null`. */
  getAsOf(key: Buffer, asOf: number): VersionRead | null;
  /** Puts a tombstone at `timestamp`; returns the version that was valid at `timestamp` (`null` when none or too old). */
  delete(key: Buffer, timestamp: number): VersionRead | null;
  /** The versions valid at some time in `[from, to]`, newest first unless `ascending`. */
  versions(key: Buffer, from: number, to: number, ascending: boolean): VersionRead[];
  /** Puts and deletes dropped because they were older than the grace period (Kafka's `dropped-records` sensor). */
  readonly droppedRecords: number;
  /** The history retention (also the grace period), ms. */
  readonly historyRetentionMs: number;
}

const STREAM_TIME_KEY = Buffer.from([0x00]);
const KEY_PREFIX = Buffer.from([0x01]);
/** Kafka's `ConsumerRecord.NO_TIMESTAMP`: the stream time before any record. */
const NO_TIMESTAMP = -1;

function engineKey(key: Buffer): Buffer {
  return Buffer.concat([KEY_PREFIX, key]);
}

function encodeTime(time: number): Buffer {
  const b = Buffer.allocUnsafe(8);
  b.writeBigInt64BE(BigInt(time));
  return b;
}

/** The versioned engine over a plain bytes engine (see the module comment). */
export class ListVersionedBytesStore implements VersionedBytesStore {
  readonly name: string;
  readonly persistent: boolean;
  #streamTime = NO_TIMESTAMP;
  #streamTimeWritten = NO_TIMESTAMP;
  #dropped = 0;

  constructor(
    private readonly engine: KeyValueBytesStore,
    readonly historyRetentionMs: number,
  ) {
    this.name = engine.name;
    this.persistent = engine.persistent;
  }

  get droppedRecords(): number {
    return this.#dropped;
  }

  #bound(): number {
    return this.#streamTime - this.historyRetentionMs;
  }

  // ---- lifecycle ----

  init(context: StoreInitContext): void {
    this.engine.init(context);
    const stored = this.engine.get(STREAM_TIME_KEY);
    this.#streamTime = this.#streamTimeWritten = stored === null ? NO_TIMESTAMP : Number(stored.readBigInt64BE(0));
  }

  checkpoint(): number | undefined {
    return this.engine.checkpoint();
  }

  /** Replays the batch as puts (see the module comment), then hands the engine one batch with the same last offset. */
  restoreBatch(records: readonly ChangelogRecord[]): void {
    const last = records[records.length - 1];
    if (last === undefined) return;
    const touched = new Map<string, { key: Buffer; versions: Version[] }>();
    for (const record of records) {
      if (record.timestamp < this.#bound()) continue;
      const id = record.key.toString('latin1');
      let entry = touched.get(id);
      if (entry === undefined) {
        entry = { key: engineKey(record.key), versions: decodeVersions(this.engine.get(engineKey(record.key))) };
        touched.set(id, entry);
      }
      this.#streamTime = Math.max(this.#streamTime, record.timestamp);
      putVersion(entry.versions, record.value, record.timestamp, this.#bound());
    }
    const out: ChangelogRecord[] = [...touched.values()].map(({ key, versions }) => ({ key, value: encodeVersions(versions), timestamp: last.timestamp, offset: last.offset }));
    out.push({ key: STREAM_TIME_KEY, value: encodeTime(this.#streamTime), timestamp: last.timestamp, offset: last.offset });
    this.#streamTimeWritten = this.#streamTime;
    this.engine.restoreBatch(out);
  }

  /** Writes the stream time when it moved, then flushes the engine. */
  flush(): void {
    if (this.#streamTime !== this.#streamTimeWritten) {
      this.engine.put(STREAM_TIME_KEY, encodeTime(this.#streamTime));
      this.#streamTimeWritten = this.#streamTime;
    }
    this.engine.flush();
  }

  commit(changelogNextOffset: number | undefined): void {
    this.engine.commit(changelogNextOffset);
  }

  close(): void {
    this.engine.close();
  }

  isOpen(): boolean {
    return this.engine.isOpen();
  }

  // ---- data ----

  put(key: Buffer, value: Buffer | null, timestamp: number): number {
    if (timestamp < this.#bound()) {
      this.#dropped++;
      return NOT_PUT;
    }
    this.#streamTime = Math.max(this.#streamTime, timestamp);
    const versions = decodeVersions(this.engine.get(engineKey(key)));
    const validTo = putVersion(versions, value, timestamp, this.#bound());
    this.engine.put(engineKey(key), encodeVersions(versions));
    return validTo;
  }

  get(key: Buffer): VersionRead | null {
    return latest(decodeVersions(this.engine.get(engineKey(key))));
  }

  getAsOf(key: Buffer, asOf: number): VersionRead | null {
    return versionAsOf(decodeVersions(this.engine.get(engineKey(key))), asOf, this.#bound());
  }

  delete(key: Buffer, timestamp: number): VersionRead | null {
    if (timestamp < this.#bound()) {
      this.#dropped++;
      return null;
    }
    const existing = this.getAsOf(key, timestamp);
    this.put(key, null, timestamp);
    return existing;
  }

  versions(key: Buffer, from: number, to: number, ascending: boolean): VersionRead[] {
    return versionsBetween(decodeVersions(this.engine.get(engineKey(key))), from, to, this.#bound(), ascending);
  }
}
