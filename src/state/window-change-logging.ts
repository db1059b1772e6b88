/**
 * The change-logging layers of window and session stores (Kafka's
 * `ChangeLoggingWindowBytesStore`, `ChangeLoggingTimestampedWindowBytesStore`,
 * `ChangeLoggingSessionBytesStore`): every put (and session remove) is sent
 * to the store's changelog keyed by the store key binary, so the changelog has
 * Kafka's layout. The record's timestamp is the processed record's (the
 * stored timestamp for timestamped stores, whose changelog values carry no
 * timestamp prefix: restoring prepends the changelog record's timestamp).
 * Restoration and the rest of the lifecycle are passed down unchanged.
 */
import type { ChangelogRecord, ChangelogSink, StoreInitContext } from './store-contract.js';
import type { SessionBytesEntry, SessionBytesStore } from './session-store.js';
import type { BytesStoreLifecycle, WindowBytesEntry, WindowBytesStore } from './window-store.js';
import { longBytes, readLong, TIMESTAMP_SIZE } from './internal/window-bytes.js';

/** Lifecycle delegation and the changelog sink, shared by both layers. */
abstract class ChangeLoggingLayer<S extends BytesStoreLifecycle> implements BytesStoreLifecycle {
  private sink: ChangelogSink | undefined;
  private context: StoreInitContext | undefined;

  constructor(readonly wrapped: S) {}

  get name(): string {
    return this.wrapped.name;
  }
  get persistent(): boolean {
    return this.wrapped.persistent;
  }
  init(context: StoreInitContext): void {
    this.wrapped.init(context);
    this.context = context;
    this.sink = context.changelog;
  }
  checkpoint(): number | undefined {
    return this.wrapped.checkpoint();
  }
  restoreBatch(records: readonly ChangelogRecord[]): void {
    this.wrapped.restoreBatch(records);
  }
  flush(): void {
    this.wrapped.flush();
  }
  commit(changelogNextOffset: number | undefined): void {
    this.wrapped.commit(changelogNextOffset);
  }
  close(): void {
    this.wrapped.close();
  }
  isOpen(): boolean {
    return this.wrapped.isOpen();
  }

  /** Sends one changelog record (timestamp: the processed record's unless given). */
  protected log(key: Buffer, value: Buffer | null, timestamp?: number): void {
    if (this.sink === undefined || this.context === undefined) return;
    this.sink.send(this.name, key, value, timestamp ?? this.context.recordContext().timestamp);
  }
}

/** Logs every put of a window bytes store. */
export class ChangeLoggingWindowBytesStore extends ChangeLoggingLayer<WindowBytesStore> implements WindowBytesStore {
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
  put(key: Buffer, value: Buffer | null, windowStartTimestamp: number): Buffer {
    const storeKey = this.wrapped.put(key, value, windowStartTimestamp);
    this.logPut(storeKey, value);
    return storeKey;
  }
  /** Sends the write; the timestamped layer strips the timestamp. */
  protected logPut(storeKey: Buffer, value: Buffer | null): void {
    this.log(storeKey, value);
  }
  fetchAt(key: Buffer, windowStartTimestamp: number): Buffer | null {
    return this.wrapped.fetchAt(key, windowStartTimestamp);
  }
  fetchKey(key: Buffer, timeFrom: number, timeTo: number, forward: boolean): WindowBytesEntry[] {
    return this.wrapped.fetchKey(key, timeFrom, timeTo, forward);
  }
  fetchKeyRange(keyFrom: Buffer | null, keyTo: Buffer | null, timeFrom: number, timeTo: number, forward: boolean): WindowBytesEntry[] {
    return this.wrapped.fetchKeyRange(keyFrom, keyTo, timeFrom, timeTo, forward);
  }
  fetchAll(timeFrom: number, timeTo: number, forward: boolean): WindowBytesEntry[] {
    return this.wrapped.fetchAll(timeFrom, timeTo, forward);
  }
}

/**
 * Logs the puts of a timestamped window store (values `timestamp(8) | value`):
 * the changelog value is the plain value, the record timestamp the stored one.
 * Restoring turns changelog records back into `timestamp | value`.
 */
export class ChangeLoggingTimestampedWindowBytesStore extends ChangeLoggingWindowBytesStore {
  protected override logPut(storeKey: Buffer, value: Buffer | null): void {
    if (value === null || value.length < TIMESTAMP_SIZE) this.log(storeKey, value);
    else this.log(storeKey, Buffer.from(value.subarray(TIMESTAMP_SIZE)), readLong(value, 0));
  }
  override restoreBatch(records: readonly ChangelogRecord[]): void {
    super.restoreBatch(
      records.map((r) => (r.value === null ? r : { ...r, value: Buffer.concat([longBytes(r.timestamp), r.value]) })),
    );
  }
}

/** Logs every put and remove of a session bytes store. */
export class ChangeLoggingSessionBytesStore extends ChangeLoggingLayer<SessionBytesStore> implements SessionBytesStore {
  get retentionPeriod(): number {
    return this.wrapped.retentionPeriod;
  }
  get streamTime(): number | undefined {
    return this.wrapped.streamTime;
  }
  get droppedRecords(): number {
    return this.wrapped.droppedRecords;
  }
  put(key: Buffer, start: number, end: number, aggregate: Buffer | null): Buffer {
    const storeKey = this.wrapped.put(key, start, end, aggregate);
    this.log(storeKey, aggregate);
    return storeKey;
  }
  remove(key: Buffer, start: number, end: number): Buffer {
    const storeKey = this.wrapped.remove(key, start, end);
    this.log(storeKey, null);
    return storeKey;
  }
  fetchSession(key: Buffer, start: number, end: number): Buffer | null {
    return this.wrapped.fetchSession(key, start, end);
  }
  findSessions(keyFrom: Buffer | null, keyTo: Buffer | null, earliestSessionEndTime: number, latestSessionStartTime: number, forward: boolean): SessionBytesEntry[] {
    return this.wrapped.findSessions(keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime, forward);
  }
  findSessionsByEndTime(earliestSessionEndTime: number, latestSessionEndTime: number, forward: boolean): SessionBytesEntry[] {
    return this.wrapped.findSessionsByEndTime(earliestSessionEndTime, latestSessionEndTime, forward);
  }
}
