/**
 * Local interactive queries (Kafka Streams' `KafkaStreams.store(StoreQueryParameters)`):
 * read-only views over the stores of the tasks this instance runs.
 *
 * ```ts
 * const counts = app.store({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() });
 * counts.get('hello'); counts.range('a', 'm'); counts.all(); counts.approximateNumEntries();
 * const perMinute = app.store({ storeName: 'per-minute', queryableStoreType: QueryableStoreTypes.windowStore<string, number>() });
 * perMinute.fetch('hello', 0, Date.now());   // and session stores, versioned stores (versioned-queries.ts)
 * ```
 *
 * A view looks the stores up at every call, so it follows rebalances. While a
 * task holding the store restores, or when no task of this instance holds
 * it, a call throws an {@link InvalidStateStoreError} saying which and what
 * to do (retry, or ask another instance).
 */
import { StreamsError } from '../errors.js';
import type { KeyValue } from '../records/key-value.js';
import type { ManagedStateStore } from '../state/store-contract.js';
import type { ReadOnlySessionStore } from '../state/session-store.js';
import type { ReadOnlyWindowStore } from '../state/window-store.js';
import type { ValueAndTimestamp } from '../state/value-and-timestamp.js';
import type { ReadOnlyVersionedKeyValueStore } from './versioned-queries.js';
import { KEY_VALUE_KINDS, storeKindOf, type StoreKind } from '../processors/store-kind.js';
import type { TaskState } from './internal/task-state.js';

/** The kind of store a view reads (Kafka's `QueryableStoreType`). */
export interface QueryableStoreType<T> {
  readonly kind: 'keyValue' | 'timestampedKeyValue' | 'versioned' | 'window' | 'timestampedWindow' | 'session';
  /** Type carrier only. */
  readonly __view?: T;
}

/** A read-only key-value view (Kafka's `ReadOnlyKeyValueStore`). */
export interface ReadOnlyKeyValueStore<K, V> {
  get(key: K): V | null;
  /** Entries with `from <= key <= to` of every local task's store (per task in key order). */
  range(from: K | null, to: K | null): KeyValue<K, V>[];
  all(): KeyValue<K, V>[];
  approximateNumEntries(): number;
}

/** A value with the timestamp of its last update. */
export interface TimestampedValue<V> {
  value: V;
  timestamp: number;
}

/** Factories of {@link QueryableStoreType}s, as Kafka's `QueryableStoreTypes`. */
export const QueryableStoreTypes = {
  /** Values only (a timestamped store's timestamps are dropped, as Kafka's facade does). */
  keyValueStore<K, V>(): QueryableStoreType<ReadOnlyKeyValueStore<K, V>> {
    return { kind: 'keyValue' };
  },
  /** Values with their timestamps. */
  timestampedKeyValueStore<K, V>(): QueryableStoreType<ReadOnlyKeyValueStore<K, TimestampedValue<V>>> {
    return { kind: 'timestampedKeyValue' };
  },
  /** A versioned key-value store's versions: `get(key)`, `get(key, asOf)`, `query(VersionedKeyQuery | MultiVersionedKeyQuery)`. */
  versionedKeyValueStore<K, V>(): QueryableStoreType<ReadOnlyVersionedKeyValueStore<K, V>> {
    return { kind: 'versioned' };
  },
  /** A window store (Kafka's `windowStore()`): values only, a timestamped window store's timestamps dropped. */
  windowStore<K, V>(): QueryableStoreType<ReadOnlyWindowStore<K, V>> {
    return { kind: 'window' };
  },
  /** A timestamped window store (every DSL windowed aggregation's): values with their timestamps. */
  timestampedWindowStore<K, V>(): QueryableStoreType<ReadOnlyWindowStore<K, ValueAndTimestamp<V>>> {
    return { kind: 'timestampedWindow' };
  },
  /** A session store (Kafka's `sessionStore()`): `fetch(key)`, `findSessions(...)`, `fetchSession(...)`. */
  sessionStore<K, V>(): QueryableStoreType<ReadOnlySessionStore<K, V>> {
    return { kind: 'session' };
  },
};

/** What `app.store()` takes (Kafka's `StoreQueryParameters`). */
export interface StoreQueryParameters<T> {
  storeName: string;
  queryableStoreType: QueryableStoreType<T>;
  /**
   * Also read the copies of this instance's standby tasks (Kafka's `enableStaleStores()`): they may lag
   * behind the active task by what they have not read from the changelog yet. Default false: active tasks only.
   */
  enableStaleStores?: boolean;
}

/**
 * A store that cannot be queried (Kafka's `InvalidStateStoreException`): restoring, not local, the app is not
 * running (`reason` `'unavailable'`: retry, or ask another instance), or the store is not of the kind the view
 * reads (`reason` `'wrong-type'`, e.g. a window store asked for as a key-value store: retrying will not help).
 */
export class InvalidStateStoreError extends StreamsError {
  /** Why: `'unavailable'` now (retry), or `'wrong-type'` (the store cannot be read this way). */
  readonly reason: 'unavailable' | 'wrong-type';
  constructor(message: string, reason: 'unavailable' | 'wrong-type' = 'unavailable') {
    super(message, { code: 'INVALID_STATE_STORE', kind: 'usage' });
    this.name = 'InvalidStateStoreError';
    this.reason = reason;
  }
}

/** How a store of each kind is described in errors. */
const KIND_TEXT: Record<StoreKind, string> = {
  keyValue: 'a key-value store',
  timestampedKeyValue: 'a timestamped key-value store',
  versioned: 'a versioned key-value store',
  window: 'a window store',
  timestampedWindow: 'a timestamped window store',
  session: 'a session store',
  buffer: "an internal buffer (a suppression's), not a queryable store",
  other: 'a store of a kind interactive queries do not read',
};

/** How to read a store of each kind: the view and the query server's path. */
const HOW_TO_READ: Partial<Record<StoreKind, string>> = {
  keyValue: 'QueryableStoreTypes.keyValueStore(), GET /stores/<store>/keys/<key> or /stores/<store>?from=&to=',
  timestampedKeyValue: 'QueryableStoreTypes.keyValueStore() or timestampedKeyValueStore(), GET /stores/<store>/keys/<key> or /stores/<store>?from=&to=',
  versioned: 'QueryableStoreTypes.versionedKeyValueStore(), GET /stores/<store>/keys/<key>?asOf=<ms> or /stores/<store>/keys/<key>/versions?from=&to=',
  window: 'QueryableStoreTypes.windowStore(), GET /stores/<store>/keys/<key>/windows?from=&to= or /stores/<store>/windows?from=&to=',
  timestampedWindow: 'QueryableStoreTypes.windowStore() or timestampedWindowStore(), GET /stores/<store>/keys/<key>/windows?from=&to= or /stores/<store>/windows?from=&to=',
  session: 'QueryableStoreTypes.sessionStore(), GET /stores/<store>/keys/<key>/sessions or /stores/<store>/sessions',
};

/** The store kinds interactive queries read (the `servedStoreTypes` of the query server's 400s). */
export const QUERYABLE_KINDS: readonly StoreKind[] = ['keyValue', 'timestampedKeyValue', 'versioned', 'window', 'timestampedWindow', 'session'];

/** The error for a store of `kind` read through a view of another kind (`asked`, e.g. 'a key-value view'). */
export function wrongStoreType(storeName: string, kind: StoreKind, asked = 'a key-value view'): InvalidStateStoreError {
  const how = HOW_TO_READ[kind]?.replace(/<store>/g, storeName);
  return new InvalidStateStoreError(
    `Store '${storeName}' is ${KIND_TEXT[kind]} and cannot be read as ${asked}: ` +
      (how
        ? `read it with ${how}`
        : 'interactive queries serve key-value, versioned, window and session stores; materialize the result you want to query (Materialized.as(...))'),
    'wrong-type',
  );
}

/** The local instances of a store, as the app finds them at the moment of a call. */
export type LocalStores = () => { appState: string; stores: Array<{ taskId: string; state: TaskState; store: ManagedStateStore; kind?: StoreKind }> };

interface TypedKeyValue {
  get(key: unknown): unknown;
  range(from: unknown, to: unknown): KeyValue<unknown, unknown>[];
  approximateNumEntries(): number;
}

/**
 * The local stores of `storeName` once they can be read: throws an {@link InvalidStateStoreError} while the
 * app is not running, a task holding it is restoring, or no task of this instance holds it.
 */
export function availableStores(storeName: string, local: LocalStores): Array<{ taskId: string; store: ManagedStateStore; kind: StoreKind }> {
  const { appState, stores: found } = local();
  if (appState === 'CREATED') {
    throw new InvalidStateStoreError(`Store '${storeName}' cannot be queried yet: the app is not started (state CREATED); call app.start() and query it once the app is RUNNING`);
  }
  if (appState !== 'RUNNING' && appState !== 'REBALANCING') {
    throw new InvalidStateStoreError(`Store '${storeName}' cannot be queried while the app is ${appState}; query it once the app is RUNNING`);
  }
  const restoring = found.filter((s) => s.state !== 'RUNNING');
  if (restoring.length > 0) {
    throw new InvalidStateStoreError(
      `Store '${storeName}' is not available: task(s) ${restoring.map((s) => s.taskId).join(', ')} of this instance are ${restoring[0]?.state === 'RESTORING' ? 'restoring it' : 'not running'}; retry shortly`,
    );
  }
  if (found.length === 0) {
    throw new InvalidStateStoreError(`Store '${storeName}' is not held by any task of this instance (no task of it is assigned here, or no such store); query the instance that runs it, or retry after the rebalance`);
  }
  return found.map((s) => ({ taskId: s.taskId, store: s.store, kind: s.kind ?? storeKindOf(s.store) }));
}

/** A view of store `storeName` over the local tasks. */
export function keyValueView<K, V>(params: StoreQueryParameters<unknown>, local: LocalStores): ReadOnlyKeyValueStore<K, V> {
  const { storeName, queryableStoreType } = params;
  const stores = (): Array<{ store: TypedKeyValue; unwrap: boolean }> =>
    availableStores(storeName, local).map(({ store, kind }) => {
      if (!KEY_VALUE_KINDS.includes(kind)) throw wrongStoreType(storeName, kind);
      if (queryableStoreType.kind === 'timestampedKeyValue' && kind !== 'timestampedKeyValue') {
        throw new InvalidStateStoreError(`Store '${storeName}' keeps no timestamps: query it with QueryableStoreTypes.keyValueStore()`, 'wrong-type');
      }
      // by the store's type, never by the value's shape: a stored { value, timestamp } object stays whole
      const unwrap = queryableStoreType.kind === 'keyValue' && kind === 'timestampedKeyValue';
      // the registry keeps stores untyped (StateStore); the checks above proved the kind, not the K/V the caller names
      return { store: store as unknown as TypedKeyValue, unwrap };
    });
  const read = (value: unknown, unwrap: boolean): unknown => (unwrap && value !== null && value !== undefined ? (value as TimestampedValue<unknown>).value : value);
  return {
    get(key: K): V | null {
      for (const { store, unwrap } of stores()) {
        const value = store.get(key);
        if (value !== null && value !== undefined) return read(value, unwrap) as V;
      }
      return null;
    },
    range(from: K | null, to: K | null): KeyValue<K, V>[] {
      return stores().flatMap(({ store, unwrap }) => store.range(from, to).map((e) => ({ key: e.key as K, value: read(e.value, unwrap) as V })));
    },
    all(): KeyValue<K, V>[] {
      return this.range(null, null);
    },
    approximateNumEntries(): number {
      return stores().reduce((n, s) => n + s.store.approximateNumEntries(), 0);
    },
  };
}
