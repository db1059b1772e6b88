/**
 * Window stores (Kafka's `ReadOnlyWindowStore`, `WindowStore`,
 * `TimestampedWindowStore`) and their bytes layer.
 *
 * A window store keeps, per key, one value per window start (several when it
 * retains duplicates). Results are snapshots in serialized-key order (key
 * range fetches) or in window-start order (`fetchAll`, `all`), as arrays:
 * writing while iterating them is safe.
 *
 * Retention: the store's stream time is the largest window start it was
 * given; a window starting at or before `streamTime - retentionPeriod` has
 * expired: a put for it is dropped (and counted), reads no longer return it.
 */
import type { KeyValue } from '../records/key-value.js';
import type { BytesFlushListener, BytesStoreLifecycle, KeyValueBytesStore } from './bytes-store-contract.js';
import type { StateStore } from './state-store.js';
import type { Windowed } from './window-types.js';

/** Read access to a window store (Kafka's `ReadOnlyWindowStore`). */
export interface ReadOnlyWindowStore<K, V> {
  /** The value of `key` for the window starting exactly at `windowStartTimestamp`, or `null`. */
  fetch(key: K, windowStartTimestamp: number): V | null;
  /** The values of `key` for windows starting in `[timeFrom, timeTo]`, by window start: `{ key: windowStart, value }`. */
  fetch(key: K, timeFrom: number, timeTo: number): KeyValue<number, V>[];
  /** Windows of keys in `[keyFrom, keyTo]` (a `null` bound is open) starting in `[timeFrom, timeTo]`, in serialized-key order. */
  fetch(keyFrom: K | null, keyTo: K | null, timeFrom: number, timeTo: number): KeyValue<Windowed<K>, V>[];
  /** {@link fetch} of one key, latest window first. */
  backwardFetch(key: K, timeFrom: number, timeTo: number): KeyValue<number, V>[];
  /** {@link fetch} of a key range, in reverse order. */
  backwardFetch(keyFrom: K | null, keyTo: K | null, timeFrom: number, timeTo: number): KeyValue<Windowed<K>, V>[];
  /** Every window starting in `[timeFrom, timeTo]`, by window start then key. */
  fetchAll(timeFrom: number, timeTo: number): KeyValue<Windowed<K>, V>[];
  /** {@link fetchAll}, latest first. */
  backwardFetchAll(timeFrom: number, timeTo: number): KeyValue<Windowed<K>, V>[];
  /** Every live window, by window start then key. */
  all(): KeyValue<Windowed<K>, V>[];
  /** {@link all}, latest first. */
  backwardAll(): KeyValue<Windowed<K>, V>[];
}

/** A window store (Kafka's `WindowStore`). */
export interface WindowStore<K, V> extends StateStore, ReadOnlyWindowStore<K, V> {
  /**
   * Stores `value` for `key` in the window starting at `windowStartTimestamp`
   * (epoch ms, >= 0); a `null` value deletes it (a no-op when duplicates are
   * retained). Dropped when the window has expired.
   */
  put(key: K, value: V | null, windowStartTimestamp: number): void;
}

import type { ValueAndTimestamp } from './value-and-timestamp.js';
export type { ValueAndTimestamp } from './value-and-timestamp.js';

/** A window store of values with timestamps (Kafka's `TimestampedWindowStore`). */
export type TimestampedWindowStore<K, V> = WindowStore<K, ValueAndTimestamp<V>>;

/** One window of a bytes window store: the serialized key, its window start and value. */
export interface WindowBytesEntry {
  /** The store key binary (Kafka's `WindowKeySchema` layout). */
  storeKey: Buffer;
  key: Buffer;
  windowStart: number;
  value: Buffer;
}

/** The store lifecycle every bytes layer delegates down: one definition, in `bytes-store-contract.ts`. */
export type { BytesStoreLifecycle } from './bytes-store-contract.js';

/** The bytes level of a window store (Kafka's `WindowStore<Bytes, byte[]>`). */
export interface WindowBytesStore extends BytesStoreLifecycle {
  readonly retentionPeriod: number;
  readonly windowSize: number;
  readonly retainDuplicates: boolean;
  /** Puts dropped because their window had expired (Kafka's `dropped-records` sensor). */
  readonly droppedRecords: number;
  /** Stores (or deletes) and returns the store key binary used (the changelog key). */
  put(key: Buffer, value: Buffer | null, windowStartTimestamp: number): Buffer;
  fetchAt(key: Buffer, windowStartTimestamp: number): Buffer | null;
  fetchKey(key: Buffer, timeFrom: number, timeTo: number, forward: boolean): WindowBytesEntry[];
  fetchKeyRange(keyFrom: Buffer | null, keyTo: Buffer | null, timeFrom: number, timeTo: number, forward: boolean): WindowBytesEntry[];
  fetchAll(timeFrom: number, timeTo: number, forward: boolean): WindowBytesEntry[];
  /** Kafka's `CachedStateStore.setFlushListener`: only a caching layer has it (keys are store keys `key | windowStart | seqnum`). */
  setFlushListener?(listener: BytesFlushListener, sendOldValues: boolean): boolean;
}

/** Says which bytes window store to create (Kafka's `WindowBytesStoreSupplier`). */
export interface WindowBytesStoreSupplier {
  readonly name: string;
  readonly kind: 'in-memory' | 'persistent';
  readonly retentionPeriod: number;
  readonly windowSize: number;
  readonly retainDuplicates: boolean;
  /** How much stream time passes between two purges of expired windows (Kafka's segment interval). */
  readonly segmentInterval: number;
  /** True for `persistentTimestampedWindowStore` (informational: values are bytes either way). */
  readonly timestamped: boolean;
  /** A new, uninitialised bytes window store on a new bytes engine. */
  get(): WindowBytesStore;
}

/** Creates the bytes engine under a store (in memory, or persistent on lmdb). */
export type BytesEngineFactory = (name: string) => KeyValueBytesStore;
