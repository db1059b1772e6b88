/**
 * Session stores (Kafka's `ReadOnlySessionStore`, `SessionStore`) and their
 * bytes layer. A session store keeps one aggregate per key and session window
 * `[start, end]`. Results are snapshots in serialized-key order, as arrays.
 *
 * Retention: the store's stream time is the largest session end it was given;
 * a session ending at or before `streamTime - retentionPeriod` has expired.
 */
import type { KeyValue } from '../records/key-value.js';
import type { BytesFlushListener } from './bytes-store-contract.js';
import type { StateStore } from './state-store.js';
import type { BytesStoreLifecycle } from './window-store.js';
import type { Windowed } from './window-types.js';

/** Read access to a session store (Kafka's `ReadOnlySessionStore`). */
export interface ReadOnlySessionStore<K, AGG> {
  /** Sessions of `key` that end at or after `earliestSessionEndTime` and start at or before `latestSessionStartTime`. */
  findSessions(key: K, earliestSessionEndTime: number, latestSessionStartTime: number): KeyValue<Windowed<K>, AGG>[];
  /** The same for keys in `[keyFrom, keyTo]` (a `null` bound is open). */
  findSessions(keyFrom: K | null, keyTo: K | null, earliestSessionEndTime: number, latestSessionStartTime: number): KeyValue<Windowed<K>, AGG>[];
  /** Every session ending in `[earliestSessionEndTime, latestSessionEndTime]`, by end time. */
  findSessions(earliestSessionEndTime: number, latestSessionEndTime: number): KeyValue<Windowed<K>, AGG>[];
  /** {@link findSessions}, in reverse order. */
  backwardFindSessions(key: K, earliestSessionEndTime: number, latestSessionStartTime: number): KeyValue<Windowed<K>, AGG>[];
  backwardFindSessions(keyFrom: K | null, keyTo: K | null, earliestSessionEndTime: number, latestSessionStartTime: number): KeyValue<Windowed<K>, AGG>[];
  /** The aggregate of exactly this session, or `null`. */
  fetchSession(key: K, sessionStartTime: number, sessionEndTime: number): AGG | null;
  /** Every live session of `key`. */
  fetch(key: K): KeyValue<Windowed<K>, AGG>[];
  /** Every live session of keys in `[keyFrom, keyTo]`. */
  fetch(keyFrom: K | null, keyTo: K | null): KeyValue<Windowed<K>, AGG>[];
  /** {@link fetch}, in reverse order. */
  backwardFetch(key: K): KeyValue<Windowed<K>, AGG>[];
  backwardFetch(keyFrom: K | null, keyTo: K | null): KeyValue<Windowed<K>, AGG>[];
}

/** A session store (Kafka's `SessionStore`). */
export interface SessionStore<K, AGG> extends StateStore, ReadOnlySessionStore<K, AGG> {
  /** Stores the aggregate of a session; a `null` aggregate removes it. Dropped when the session has expired. */
  put(sessionKey: Windowed<K>, aggregate: AGG | null): void;
  /** Removes a session (nothing happens when it does not exist). */
  remove(sessionKey: Windowed<K>): void;
}

/** One session of a bytes session store. */
export interface SessionBytesEntry {
  /** The store key binary (Kafka's `SessionKeySchema` layout). */
  storeKey: Buffer;
  key: Buffer;
  start: number;
  end: number;
  value: Buffer;
}

/** The bytes level of a session store (Kafka's `SessionStore<Bytes, byte[]>`). */
export interface SessionBytesStore extends BytesStoreLifecycle {
  readonly retentionPeriod: number;
  /** The largest session end put or restored, or -1 (engine stores; the layers pass it on). */
  readonly streamTime?: number;
  /** Puts dropped because their session had expired. */
  readonly droppedRecords: number;
  /** Stores (or removes, for `null`) and returns the store key binary (the changelog key). */
  put(key: Buffer, start: number, end: number, aggregate: Buffer | null): Buffer;
  /** Removes and returns the store key binary. */
  remove(key: Buffer, start: number, end: number): Buffer;
  fetchSession(key: Buffer, start: number, end: number): Buffer | null;
  findSessions(keyFrom: Buffer | null, keyTo: Buffer | null, earliestSessionEndTime: number, latestSessionStartTime: number, forward: boolean): SessionBytesEntry[];
  findSessionsByEndTime(earliestSessionEndTime: number, latestSessionEndTime: number, forward: boolean): SessionBytesEntry[];
  /** Kafka's `CachedStateStore.setFlushListener`: only a caching layer has it (keys are store keys `key | end | start`). */
  setFlushListener?(listener: BytesFlushListener, sendOldValues: boolean): boolean;
}

/** Says which bytes session store to create (Kafka's `SessionBytesStoreSupplier`). */
export interface SessionBytesStoreSupplier {
  readonly name: string;
  readonly kind: 'in-memory' | 'persistent';
  readonly retentionPeriod: number;
  /** How much stream time passes between two purges of expired sessions (Kafka's segment interval). */
  readonly segmentInterval: number;
  /** A new, uninitialised bytes session store on a new bytes engine. */
  get(): SessionBytesStore;
}
