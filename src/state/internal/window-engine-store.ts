/**
 * What the window and session bytes stores share: the lifecycle delegated to
 * the bytes engine, the store's stream time (retention) and its sequence
 * number, kept in the engine under a metadata key, and the purge of expired
 * entries.
 *
 * Engine layout (prefix byte first, as Kafka's `PrefixedWindowKeySchemas`):
 * - `0x01 | store key` → value: the primary entries, key first (Kafka's key schema after the prefix);
 * - `0x00 | time | …`  → empty: a time-first index, for time-range scans and expiry;
 * - `0x02`             → stream time (8 bytes) | sequence number (4 bytes).
 *
 * Cost: every write is two engine writes (entry + index); a time-range scan
 * reads the index then one point lookup per entry. Expired entries are
 * filtered out of every read at once and deleted from the engine in bulk each
 * time stream time has advanced by a segment interval (Kafka's segments drop
 * at the same pace). Expiry deletions are local: they are not logged (the
 * changelog topic expires them by `retention.ms`).
 */
import type { Logger } from 'pino';
import { StateMachine } from '../../internal/state-machine.js';
import type { KeyValueBytesStore } from '../bytes-store-contract.js';
import type { ChangelogRecord, StoreInitContext } from '../store-contract.js';
import type { BytesStoreLifecycle } from '../window-store.js';
import { readLong, writeLong } from './window-bytes.js';

/** Prefix of the time-first index entries. */
export const TIME_FIRST_PREFIX = 0x00;
/** Prefix of the key-first primary entries. */
export const KEY_FIRST_PREFIX = 0x01;
/** The metadata key (stream time and sequence number). */
export const META_KEY = Buffer.from([0x02]);
/** The value of index entries. */
export const EMPTY = Buffer.alloc(0);
/** Kafka's `ConsumerRecord.NO_TIMESTAMP`: no stream time observed yet. */
const NO_TIMESTAMP = -1;

type StoreState = 'CREATED' | 'OPEN' | 'CLOSED';
const TRANSITIONS: { [S in StoreState]: readonly StoreState[] } = { CREATED: ['OPEN', 'CLOSED'], OPEN: ['CLOSED'], CLOSED: [] };

/** `prefix | parts…` */
export function prefixed(prefix: number, ...parts: Buffer[]): Buffer {
  return Buffer.concat([Buffer.from([prefix]), ...parts]);
}

/** Base of the engine-backed window and session bytes stores. */
export abstract class EngineBackedStore implements BytesStoreLifecycle {
  private readonly machine: StateMachine<StoreState>;
  protected logger: Logger | undefined;
  /** The largest timestamp put (window start, session end), or -1. */
  protected observedStreamTime = NO_TIMESTAMP;
  /** The last sequence number used (window stores retaining duplicates). */
  protected seqnum = 0;
  /** True when stream time or the sequence number changed since the last flush. */
  protected metaDirty = false;
  private nextPurgeAt = Number.NEGATIVE_INFINITY;
  private dropped = 0;

  /** The store's stream time: the largest timestamp put or restored (window start, session end), or -1. */
  get streamTime(): number {
    return this.observedStreamTime;
  }

  constructor(
    readonly name: string,
    protected readonly engine: KeyValueBytesStore,
    readonly retentionPeriod: number,
    private readonly segmentInterval: number,
    private readonly component: string,
  ) {
    this.machine = new StateMachine<StoreState>(`State store '${name}'`, TRANSITIONS, 'CREATED', {
      messages: {
        wrongState: (d) =>
          `${d.what}: ${d.method}() is not allowed in state ${d.state}; ` +
          (d.state === 'CREATED' ? 'call init() first' : d.state === 'CLOSED' ? 'the store was closed (build a new one)' : `allowed in: ${d.allowed.join(' | ')}`),
      },
    });
  }

  get persistent(): boolean {
    return this.engine.persistent;
  }

  get droppedRecords(): number {
    return this.dropped;
  }

  /** Step 2: opens the engine and reads back stream time and sequence number. */
  init(context: StoreInitContext): void {
    this.machine.require('init', ['CREATED']);
    this.engine.init(context);
    this.logger = context.logger.child({ component: this.component, store: this.name });
    const meta = this.engine.get(META_KEY);
    if (meta !== null && meta.length === 12) {
      this.observedStreamTime = readLong(meta, 0);
      this.seqnum = meta.readInt32BE(8);
    }
    this.machine.transition('OPEN');
  }

  checkpoint(): number | undefined {
    return this.engine.checkpoint();
  }

  /**
   * Step 3: restores changelog records keyed by store key binary.
   * 1. each record advances stream time; an expired one is skipped;
   * 2. the others become an entry and an index write (a tombstone deletes both);
   * 3. the metadata record goes last, with the offset of the last record, so the
   *    engine's checkpoint moves past the batch even when every record was skipped.
   */
  restoreBatch(records: readonly ChangelogRecord[]): void {
    this.ensureOpen('restoreBatch');
    const last = records[records.length - 1];
    if (last === undefined) return;
    const out: ChangelogRecord[] = [];
    for (const record of records) this.translateRestored(record, out);
    out.push({ key: META_KEY, value: this.encodeMeta(), timestamp: last.timestamp, offset: last.offset });
    this.engine.restoreBatch(out);
    this.metaDirty = false;
  }

  /** Step 5: writes stream time and sequence number with the other uncommitted writes, then flushes the engine. */
  flush(): void {
    this.ensureOpen('flush');
    if (this.metaDirty) {
      this.engine.put(META_KEY, this.encodeMeta());
      this.metaDirty = false;
    }
    this.engine.flush();
  }

  /** Step 6: the engine applies its uncommitted writes with the checkpoint. */
  commit(changelogNextOffset: number | undefined): void {
    this.ensureOpen('commit');
    this.engine.commit(changelogNextOffset);
  }

  /** Step 7: closes the engine (uncommitted writes are discarded). Idempotent. */
  close(): void {
    if (this.machine.state === 'CLOSED') return;
    if (this.machine.state === 'OPEN') this.engine.close();
    this.machine.transition('CLOSED');
  }

  isOpen(): boolean {
    return this.machine.state === 'OPEN';
  }

  protected ensureOpen(method: string): void {
    this.machine.require(method, ['OPEN']);
  }

  /** The smallest live timestamp: anything before it has expired (Kafka adds one: a record expires exactly `retentionPeriod` after). */
  protected minLiveTime(): number {
    return Math.max(0, this.observedStreamTime - this.retentionPeriod + 1);
  }

  /** True when `timestamp` has expired relative to stream time. */
  protected isExpired(timestamp: number): boolean {
    return timestamp <= this.observedStreamTime - this.retentionPeriod;
  }

  /** Moves stream time to `timestamp` (if later) and purges expired entries when a segment interval has passed. */
  protected advance(timestamp: number): void {
    if (timestamp > this.observedStreamTime) {
      this.observedStreamTime = timestamp;
      this.metaDirty = true;
    }
    const minLive = this.minLiveTime();
    if (minLive > 0 && minLive >= this.nextPurgeAt) {
      this.purgeBefore(minLive);
      this.nextPurgeAt = minLive + this.segmentInterval;
    }
  }

  /** Moves stream time during restoration (no purge: the first put after it purges). */
  protected observeRestored(timestamp: number): void {
    if (timestamp > this.observedStreamTime) this.observedStreamTime = timestamp;
  }

  /** Counts and logs a put for an expired window or session (Kafka: "Skipping record for expired segment."). */
  protected drop(timestamp: number): void {
    this.dropped++;
    this.logger?.debug({ timestamp, streamTime: this.observedStreamTime, retentionPeriod: this.retentionPeriod }, 'Skipping record for expired segment');
  }

  /** Deletes every index key in `[from, to]` for which `expired` names a primary key, and that primary entry. */
  protected purgeIndex(from: Buffer, to: Buffer, expired: (indexKey: Buffer) => Buffer | null): void {
    for (const { key } of this.engine.range(from, to)) {
      const primary = expired(key);
      if (primary === null) continue;
      this.engine.delete(primary);
      this.engine.delete(key);
    }
  }

  private encodeMeta(): Buffer {
    const out = Buffer.alloc(12);
    writeLong(out, 0, this.observedStreamTime);
    out.writeInt32BE(this.seqnum | 0, 8);
    return out;
  }

  /** Deletes every entry older than `minLiveTime` from the engine. */
  protected abstract purgeBefore(minLiveTime: number): void;
  /** Turns one restored changelog record into engine records (none when expired). */
  protected abstract translateRestored(record: ChangelogRecord, out: ChangelogRecord[]): void;
}
