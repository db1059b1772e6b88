/**
 * The read-only views `app.store()` gives of versioned, window and session
 * stores (Kafka's `ReadOnlyWindowStore`, `ReadOnlySessionStore` over its
 * `CompositeReadOnly*Store`s, and the reads of a versioned store): each call
 * looks the local stores up again (see `availableStores`), checks their kind,
 * and reads every local task's store, per task (a key lives in one task, so a
 * single-key read finds it in one). A store closed under a read (its task
 * moved away meanwhile) is an `InvalidStateStoreError` to retry, as Kafka's
 * composite stores say ("not available anymore and may have been migrated").
 */
import { IllegalArgumentError } from '../../errors.js';
import type { KeyValue } from '../../records/key-value.js';
import type { StoreKind } from '../../processors/store-kind.js';
import type { ReadOnlySessionStore } from '../../state/session-store.js';
import type { ReadOnlyWindowStore } from '../../state/window-store.js';
import type { Windowed } from '../../state/window-types.js';
import type { VersionedRecord } from '../../state/versioned/versioned-key-value-store.js';
import { availableStores, InvalidStateStoreError, wrongStoreType, type LocalStores, type StoreQueryParameters } from '../interactive-queries.js';
import { instantMs, MultiVersionedKeyQuery, ResultOrder, VersionedKeyQuery, type QueryInstant, type ReadOnlyVersionedKeyValueStore } from '../versioned-queries.js';

/** Kafka's `Long.MIN_VALUE` / `Long.MAX_VALUE` as the open bounds of a version range. */
const TIME_MIN = -(2 ** 63);
const TIME_MAX = 2 ** 63;

/** The error of a read from a store that was closed under it (Kafka's composite stores' message). */
function migrated(storeName: string): InvalidStateStoreError {
  return new InvalidStateStoreError(
    `State store '${storeName}' is not available anymore and may have been migrated to another instance; please re-discover its location from the state metadata (retry, or ask the instance that runs it)`,
  );
}

/**
 * The local stores of `params.storeName`, each checked to be one of `kinds`; each is wrapped so that
 * a read that fails because the store was closed meanwhile throws {@link migrated}.
 */
function storesOf<S extends object>(params: StoreQueryParameters<unknown>, local: LocalStores, kinds: readonly StoreKind[], asked: string): Array<{ store: S; kind: StoreKind }> {
  return availableStores(params.storeName, local).map(({ store, kind }) => {
    if (!kinds.includes(kind)) throw wrongStoreType(params.storeName, kind, asked);
    // the registry keeps stores untyped; the kind check above proved which store interface S it is
    const guarded = new Proxy(store as unknown as S, {
      get(target, property) {
        const member = Reflect.get(target, property, target) as unknown;
        if (typeof member !== 'function') return member;
        return (...args: unknown[]) => {
          if (!store.isOpen()) throw migrated(params.storeName);
          try {
            return (member as (...a: unknown[]) => unknown).apply(target, args);
          } catch (error) {
            if (!store.isOpen()) throw migrated(params.storeName);
            throw error;
          }
        };
      },
    });
    return { store: guarded, kind };
  });
}

/** A value of a timestamped window store, unwrapped when the view reads values only. */
function unwrapped<V>(value: unknown, unwrap: boolean): V {
  return (unwrap && value !== null && value !== undefined ? (value as { value: unknown }).value : value) as V;
}

/** The view of `QueryableStoreTypes.windowStore()` / `timestampedWindowStore()`. */
export function windowView<K, V>(params: StoreQueryParameters<unknown>, local: LocalStores): ReadOnlyWindowStore<K, V> {
  const timestamped = params.queryableStoreType.kind === 'timestampedWindow';
  const stores = (): Array<{ store: ReadOnlyWindowStore<K, unknown>; unwrap: boolean }> =>
    storesOf<ReadOnlyWindowStore<K, unknown>>(params, local, ['window', 'timestampedWindow'], timestamped ? 'a timestamped window view' : 'a window view').map(({ store, kind }) => {
      if (timestamped && kind !== 'timestampedWindow') {
        throw new InvalidStateStoreError(`Store '${params.storeName}' keeps no timestamps: query it with QueryableStoreTypes.windowStore()`, 'wrong-type');
      }
      return { store, unwrap: !timestamped && kind === 'timestampedWindow' };
    });
  const each = <E extends KeyValue<unknown, unknown>>(read: (s: ReadOnlyWindowStore<K, unknown>) => E[]): E[] =>
    stores().flatMap(({ store, unwrap }) => read(store).map((e) => ({ ...e, value: unwrapped<V>(e.value, unwrap) })));
  const view = {
    fetch(...args: unknown[]): unknown {
      if (args.length === 2) {
        for (const { store, unwrap } of stores()) {
          const value = store.fetch(args[0] as K, args[1] as number);
          if (value !== null && value !== undefined) return unwrapped<V>(value, unwrap);
        }
        return null;
      }
      if (args.length === 3) return each((s) => s.fetch(args[0] as K, args[1] as number, args[2] as number));
      return each((s) => s.fetch(args[0] as K | null, args[1] as K | null, args[2] as number, args[3] as number));
    },
    backwardFetch(...args: unknown[]): unknown {
      if (args.length === 3) return each((s) => s.backwardFetch(args[0] as K, args[1] as number, args[2] as number));
      return each((s) => s.backwardFetch(args[0] as K | null, args[1] as K | null, args[2] as number, args[3] as number));
    },
    fetchAll: (timeFrom: number, timeTo: number) => each((s) => s.fetchAll(timeFrom, timeTo)),
    backwardFetchAll: (timeFrom: number, timeTo: number) => each((s) => s.backwardFetchAll(timeFrom, timeTo)),
    all: () => each((s) => s.all()),
    backwardAll: () => each((s) => s.backwardAll()),
  };
  // overloaded methods of the public store interfaces: one implementation takes the union of their arguments, which TypeScript cannot check against the overload list
  return view as unknown as ReadOnlyWindowStore<K, V>;
}

/** The view of `QueryableStoreTypes.sessionStore()`. */
export function sessionView<K, V>(params: StoreQueryParameters<unknown>, local: LocalStores): ReadOnlySessionStore<K, V> {
  const stores = (): ReadOnlySessionStore<K, V>[] => storesOf<ReadOnlySessionStore<K, V>>(params, local, ['session'], 'a session view').map((s) => s.store);
  const each = (read: (s: ReadOnlySessionStore<K, V>) => KeyValue<Windowed<K>, V>[]): KeyValue<Windowed<K>, V>[] => stores().flatMap(read);
  type Find = (...a: unknown[]) => KeyValue<Windowed<K>, V>[];
  const view = {
    // overloaded methods of the public store interfaces: one implementation takes the union of their arguments, which TypeScript cannot check against the overload list
    findSessions: (...args: unknown[]) => each((s) => (s.findSessions as unknown as Find)(...args)),
    // overloaded methods of the public store interfaces: one implementation takes the union of their arguments, which TypeScript cannot check against the overload list
    backwardFindSessions: (...args: unknown[]) => each((s) => (s.backwardFindSessions as unknown as Find)(...args)),
    fetchSession(key: K, sessionStartTime: number, sessionEndTime: number): V | null {
      for (const store of stores()) {
        const value = store.fetchSession(key, sessionStartTime, sessionEndTime);
        if (value !== null && value !== undefined) return value;
      }
      return null;
    },
    // overloaded methods of the public store interfaces: one implementation takes the union of their arguments, which TypeScript cannot check against the overload list
    fetch: (...args: unknown[]) => each((s) => (s.fetch as unknown as Find)(...args)),
    // overloaded methods of the public store interfaces: one implementation takes the union of their arguments, which TypeScript cannot check against the overload list
    backwardFetch: (...args: unknown[]) => each((s) => (s.backwardFetch as unknown as Find)(...args)),
  };
  // overloaded methods of the public store interfaces: one implementation takes the union of their arguments, which TypeScript cannot check against the overload list
  return view as unknown as ReadOnlySessionStore<K, V>;
}

/** What the view reads of a versioned store (`MeteredVersionedKeyValueStore`). */
interface VersionedReads<K, V> {
  get(key: K, asOfTimestamp?: number): VersionedRecord<V> | null;
  versions(key: K, from: number, to: number, ascending: boolean): VersionedRecord<V>[];
}

/** The view of `QueryableStoreTypes.versionedKeyValueStore()`. */
export function versionedView<K, V>(params: StoreQueryParameters<unknown>, local: LocalStores): ReadOnlyVersionedKeyValueStore<K, V> {
  const stores = (): VersionedReads<K, V>[] => storesOf<VersionedReads<K, V>>(params, local, ['versioned'], 'a versioned view').map((s) => s.store);
  const get = (key: K, asOf: number | undefined): VersionedRecord<V> | null => {
    for (const store of stores()) {
      const record = store.get(key, asOf);
      if (record !== null && record !== undefined) return record;
    }
    return null;
  };
  return {
    get(key: K, asOfTimestamp?: QueryInstant): VersionedRecord<V> | null {
      return get(key, asOfTimestamp === undefined ? undefined : instantMs(`get('${params.storeName}') asOfTimestamp`, asOfTimestamp));
    },
    query(query: VersionedKeyQuery<K, V> | MultiVersionedKeyQuery<K, V>): never {
      if (query instanceof VersionedKeyQuery) return get(query.key, query.asOfTimestamp) as never;
      if (query instanceof MultiVersionedKeyQuery) {
        const from = query.fromTimeMs ?? TIME_MIN;
        const to = query.toTimeMs ?? TIME_MAX;
        if (from > to) throw new IllegalArgumentError(`MultiVersionedKeyQuery on store '${params.storeName}': the fromTime ${from} must not be after the toTime ${to}`);
        const ascending = query.resultOrder === ResultOrder.ASCENDING;
        return stores().flatMap((s) => s.versions(query.key, from, to, ascending)) as never;
      }
      throw new IllegalArgumentError(`store '${params.storeName}': query() takes a VersionedKeyQuery or a MultiVersionedKeyQuery, got ${String(query)}`);
    },
  };
}
