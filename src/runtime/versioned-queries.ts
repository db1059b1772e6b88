/**
 * Interactive queries of versioned key-value stores (KIP-889, KIP-960, KIP-968):
 * the read-only view `app.store()` gives for
 * `QueryableStoreTypes.versionedKeyValueStore()`, and Kafka's two query
 * objects, `VersionedKeyQuery` (one version: the latest, or the one valid as of
 * a time) and `MultiVersionedKeyQuery` (the versions valid in a time range),
 * which the view runs with `query(...)`.
 *
 * ```ts
 * const prices = app.store({ storeName: 'prices', queryableStoreType: QueryableStoreTypes.versionedKeyValueStore<string, number>() });
 * prices.get('apple');                       // the latest version, or null
 * prices.get('apple', Date.parse('2026-01-01')); // the version valid then
 * prices.query(VersionedKeyQuery.withKey('apple').asOf(1_700_000_000_000));
 * prices.query(MultiVersionedKeyQuery.withKey('apple').fromTime(t1).toTime(t2).withAscendingTimestamps());
 * ```
 *
 * sluice has no `StateQueryRequest` (IQv2): the query objects are run on the
 * local view, and across instances through the query server
 * (`GET /stores/<store>/keys/<key>?asOf=` and `.../versions?from=&to=&order=`).
 * Results are arrays: snapshots, as Kafka's IQv2 guarantees (a write after the
 * call does not change them).
 */
import { IllegalArgumentError } from '../errors.js';
import type { VersionedRecord } from '../state/versioned/versioned-key-value-store.js';

/** A time as epoch milliseconds or a `Date` (Kafka's `Instant`). */
export type QueryInstant = number | Date;

/** The order of a multi-version answer (Kafka's `ResultOrder`): `ANY` is newest first, as Kafka's store gives it. */
export const ResultOrder = {
  ANY: 'ANY',
  ASCENDING: 'ASCENDING',
  DESCENDING: 'DESCENDING',
} as const;

/** One of {@link ResultOrder}'s values. */
export type ResultOrder = (typeof ResultOrder)[keyof typeof ResultOrder];

/** The epoch ms of `time`, checked (a finite integer number of ms, or a valid `Date`). */
export function instantMs(what: string, time: QueryInstant): number {
  const ms = time instanceof Date ? time.getTime() : time;
  if (typeof ms !== 'number' || !Number.isSafeInteger(ms)) {
    throw new IllegalArgumentError(`${what} must be a time: an integer number of epoch milliseconds or a valid Date, got ${String(time)}`);
  }
  return ms;
}

function checkKey(what: string, key: unknown): void {
  if (key === null || key === undefined) throw new IllegalArgumentError(`${what}: key cannot be null.`);
}

/** One version of a key (Kafka's `VersionedKeyQuery`): the latest, or with {@link VersionedKeyQuery.asOf} the one valid then. Immutable. */
export class VersionedKeyQuery<K, V> {
  /** Type carrier of the value only. */
  declare readonly __value?: V;

  private constructor(
    /** The key asked for. */
    readonly key: K,
    /** The time the version must be valid at (epoch ms); undefined: the latest version. */
    readonly asOfTimestamp: number | undefined,
  ) {}

  /** A query of `key`'s latest version; `key` may not be null. */
  static withKey<K, V = unknown>(key: K): VersionedKeyQuery<K, V> {
    checkKey('VersionedKeyQuery.withKey', key);
    return new VersionedKeyQuery<K, V>(key, undefined);
  }

  /** The same query for the version valid at `asOfTimestamp` (inclusive). */
  asOf(asOfTimestamp: QueryInstant): VersionedKeyQuery<K, V> {
    if (asOfTimestamp === null || asOfTimestamp === undefined) throw new IllegalArgumentError('VersionedKeyQuery.asOf: asOf timestamp cannot be null.');
    return new VersionedKeyQuery<K, V>(this.key, instantMs('VersionedKeyQuery.asOf', asOfTimestamp));
  }
}

/**
 * The versions of a key valid at some time in `[fromTime, toTime]` (Kafka's `MultiVersionedKeyQuery`):
 * without `fromTime` from the oldest kept, without `toTime` up to the latest; newest first unless
 * {@link MultiVersionedKeyQuery.withAscendingTimestamps}. Immutable.
 */
export class MultiVersionedKeyQuery<K, V> {
  /** Type carrier of the value only. */
  declare readonly __value?: V;

  private constructor(
    /** The key asked for. */
    readonly key: K,
    /** Lower time bound (epoch ms), undefined: none (Kafka's `fromTime()`). */
    readonly fromTimeMs: number | undefined,
    /** Upper time bound (epoch ms), undefined: none (Kafka's `toTime()`). */
    readonly toTimeMs: number | undefined,
    /** The order of the versions. */
    readonly resultOrder: ResultOrder,
  ) {}

  /** A query of every version of `key`; `key` may not be null. */
  static withKey<K, V = unknown>(key: K): MultiVersionedKeyQuery<K, V> {
    checkKey('MultiVersionedKeyQuery.withKey', key);
    return new MultiVersionedKeyQuery<K, V>(key, undefined, undefined, ResultOrder.ANY);
  }

  /** Versions valid at or after `fromTime` (null: no lower bound). */
  fromTime(fromTime: QueryInstant | null): MultiVersionedKeyQuery<K, V> {
    const ms = fromTime === null || fromTime === undefined ? undefined : instantMs('MultiVersionedKeyQuery.fromTime', fromTime);
    return new MultiVersionedKeyQuery<K, V>(this.key, ms, this.toTimeMs, this.resultOrder);
  }

  /** Versions valid at or before `toTime` (null: no upper bound). */
  toTime(toTime: QueryInstant | null): MultiVersionedKeyQuery<K, V> {
    const ms = toTime === null || toTime === undefined ? undefined : instantMs('MultiVersionedKeyQuery.toTime', toTime);
    return new MultiVersionedKeyQuery<K, V>(this.key, this.fromTimeMs, ms, this.resultOrder);
  }

  /** Newest version first. */
  withDescendingTimestamps(): MultiVersionedKeyQuery<K, V> {
    return new MultiVersionedKeyQuery<K, V>(this.key, this.fromTimeMs, this.toTimeMs, ResultOrder.DESCENDING);
  }

  /** Oldest version first. */
  withAscendingTimestamps(): MultiVersionedKeyQuery<K, V> {
    return new MultiVersionedKeyQuery<K, V>(this.key, this.fromTimeMs, this.toTimeMs, ResultOrder.ASCENDING);
  }
}

/**
 * A read-only view of a versioned key-value store (the reads of Kafka's `VersionedKeyValueStore`, and its
 * IQv2 queries): over the stores of this instance's tasks, looked up at every call.
 */
export interface ReadOnlyVersionedKeyValueStore<K, V> {
  /** The latest version of `key` (`null`: none, or deleted); with `asOfTimestamp`, the version valid then. */
  get(key: K, asOfTimestamp?: QueryInstant): VersionedRecord<V> | null;
  /** Runs a {@link VersionedKeyQuery}: `null` when no version is valid at the time asked. */
  query(query: VersionedKeyQuery<K, V>): VersionedRecord<V> | null;
  /** Runs a {@link MultiVersionedKeyQuery}: the versions (a snapshot), empty when none. */
  query(query: MultiVersionedKeyQuery<K, V>): VersionedRecord<V>[];
}
