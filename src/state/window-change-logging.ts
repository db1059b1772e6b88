/**
 * The change-logging layers of window and session stores (Kafka's
 * `ChangeLoggingWindowBytesStore`, `ChangeLoggingTimestampedWindowBytesStore`,
 * `ChangeLoggingSessionBytesStore`): every put (and session remove) is sent
 * to the store's changelog keyed by the store key binary, so the changelog has
 * Kafka's layout. The record's timestamp is the processed record's (the
 * stored timestamp for timestamped stores, whose changelog values carry no
 * timestamp prefix: restoring prepends the changelog record's timestamp).
 *
 * What all kinds share (lifecycle, the timestamped layout, restoration) is the
 * base `./internal/change-logging-store.ts`; each layer here adds its writes
 * and passes its reads through.
 */
import type { SessionBytesEntry, SessionBytesStore } from './session-store.js';
import type { WindowBytesEntry, WindowBytesStore } from './window-store.js';
import { ChangeLoggingStore } from './internal/change-logging-store.js';

/** Logs every put of a window bytes store. */
export class ChangeLoggingWindowBytesStore extends ChangeLoggingStore<WindowBytesStore> implements WindowBytesStore {
  protected readonly logsHeaders = false;

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
    this.log(storeKey, value);
    return storeKey;
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
  constructor(wrapped: WindowBytesStore) {
    super(wrapped, { timestamped: true });
  }
}

/** Logs every put and remove of a session bytes store. */
export class ChangeLoggingSessionBytesStore extends ChangeLoggingStore<SessionBytesStore> implements SessionBytesStore {
  protected readonly logsHeaders = false;

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
