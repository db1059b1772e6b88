/**
 * Store builders for DSL state (aggregations, materialized tables), as
 * Kafka's `KeyValueStoreMaterializer`: a timestamped store over
 * `materialized.storeSupplier` (default the one `dslStoreSuppliers` makes), changelogged
 * unless `loggingEnabled` is false, cached unless `cachingEnabled` is false.
 */
import { Stores } from '../../state/stores.js';
import { dslKeyValueSupplier } from '../../state/dsl-store-suppliers.js';
import type { StateStore, StoreBuilder } from '../../state/state-store.js';
import type { Serde } from '../../serdes/serde.js';
import type { KeyValueBytesStoreSupplier } from '../../state/bytes-store-contract.js';
import type { SessionBytesStoreSupplier } from '../../state/session-store.js';
import type { WindowBytesStoreSupplier } from '../../state/window-store.js';
import type { VersionedBytesStoreSupplier } from '../../state/versioned/versioned-store-builder.js';
import { TopologyError } from '../../errors.js';
import type { Materialized, MaterializedStoreSupplier, Named } from '../options.js';
import { requireNonNull, validateName } from './checks.js';

/** The kind of store a supplier makes: window suppliers have a window size, session suppliers a retention without one. */
export function supplierKind(supplier: MaterializedStoreSupplier): 'key-value' | 'window' | 'session' {
  if (typeof (supplier as Partial<WindowBytesStoreSupplier>).windowSize === 'number') return 'window';
  if (typeof (supplier as Partial<SessionBytesStoreSupplier>).retentionPeriod === 'number') return 'session';
  return 'key-value';
}

const SUPPLIER_FACTORIES = {
  'key-value': 'Stores.persistentKeyValueStore / inMemoryKeyValueStore',
  window: 'Stores.persistentWindowStore / inMemoryWindowStore',
  session: 'Stores.persistentSessionStore / inMemorySessionStore',
} as const;

/** `supplier` as the kind `operation` needs, else a TopologyError naming the factories to use. */
export function requireSupplierKind<S extends MaterializedStoreSupplier>(supplier: MaterializedStoreSupplier, kind: 'key-value' | 'window' | 'session', operation: string): S {
  const actual = supplierKind(supplier);
  if (actual === kind) return supplier as S;
  throw new TopologyError(
    `${operation}: Materialized.as(supplier) needs a ${kind} store supplier (${SUPPLIER_FACTORIES[kind]}); got the ${actual} store supplier '${supplier.name}'`,
  );
}

/** True when `supplier` makes versioned key-value stores (`Stores.persistentVersionedKeyValueStore`). */
export function isVersionedSupplier(supplier: MaterializedStoreSupplier | undefined): supplier is VersionedBytesStoreSupplier {
  return typeof (supplier as Partial<VersionedBytesStoreSupplier> | undefined)?.historyRetentionMs === 'number';
}

/**
 * Kafka's `maybeSetOutputVersioned` for a node that may be given a
 * `Materialized` (filter, mapValues): undefined without one (the node's
 * output is versioned when its parent's is), else whether its store supplier
 * is versioned.
 */
export function versionedOutput<K, V>(materialized: Materialized<K, V> | undefined): boolean | undefined {
  return materialized === undefined ? undefined : isVersionedSupplier(materialized.storeSupplier);
}

/**
 * The timestamped key-value store builder of `materialized`, named
 * `storeName`; with a versioned supplier, a versioned store (no cache, as
 * Kafka's `KeyValueStoreMaterializer`) when `versionedFor` is undefined (a
 * table source, a table filter, mapValues or join result), else a
 * TopologyError naming the operation `versionedFor` that cannot use one yet.
 */
export function timestampedStoreBuilder<K, V>(
  storeName: string,
  materialized: Materialized<K, V>,
  keySerde: Serde<K>,
  valueSerde: Serde<V>,
  versionedFor?: string,
): StoreBuilder<StateStore> {
  if (isVersionedSupplier(materialized.storeSupplier)) {
    if (versionedFor !== undefined) {
      throw new TopologyError(`${versionedFor} (store '${storeName}'): a versioned store supplier cannot materialize it yet; use Stores.persistentKeyValueStore / inMemoryKeyValueStore`);
    }
    const versioned = Stores.versionedKeyValueStoreBuilder(materialized.storeSupplier, keySerde, valueSerde);
    if (materialized.loggingEnabled === false) versioned.withLoggingDisabled();
    else versioned.withLoggingEnabled(materialized.logConfig ?? {});
    return versioned;
  }
  const supplier =
    materialized.storeSupplier === undefined
      ? dslKeyValueSupplier({ name: storeName, timestamped: true }, materialized.dslStoreSuppliers)
      : requireSupplierKind<KeyValueBytesStoreSupplier>(materialized.storeSupplier, 'key-value', `store '${storeName}'`);
  const builder = Stores.timestampedKeyValueStoreBuilder(supplier, keySerde, valueSerde);
  if (materialized.loggingEnabled === false) builder.withLoggingDisabled();
  else builder.withLoggingEnabled(materialized.logConfig ?? {});
  if (materialized.cachingEnabled === false) builder.withCachingDisabled();
  else builder.withCachingEnabled();
  return builder;
}

/** The store name `materialized` gives (its supplier's, else `storeName`), validated; undefined when it names none. */
export function materializedName(materialized: Materialized<unknown, unknown> | undefined): string | undefined {
  const named = materialized?.storeSupplier?.name ?? materialized?.storeName;
  return named === undefined ? undefined : validateName(named);
}

/** True when `value` is a `Materialized` rather than a `Named` (a Named has `name` only). */
export function isMaterialized(value: unknown): value is Materialized<unknown, unknown> {
  return typeof value === 'object' && value !== null && !('name' in value && Object.keys(value).length === 1 && typeof (value as Named).name === 'string');
}

/**
 * Splits Kafka's `(Named)`, `(Materialized)` or `(Named, Materialized)`
 * overload arguments. A `null` argument fails with Kafka's message: `named
 * can't be null` for the first (one null cannot tell a Named from a
 * Materialized; Java's overloads can), `materialized can't be null` for the
 * second.
 */
export function namedAndMaterialized<K, V>(
  a: Named | string | Materialized<K, V> | undefined,
  b: Materialized<K, V> | undefined,
): { named: Named | string | undefined; materialized: Materialized<K, V> | undefined } {
  if (a === null) requireNonNull(a, 'named');
  if (b === null) requireNonNull(b, 'materialized');
  if (b !== undefined) return { named: a as Named | string | undefined, materialized: b };
  if (typeof a === 'string' || a === undefined) return { named: a, materialized: undefined };
  return isMaterialized(a) ? { named: undefined, materialized: a as Materialized<K, V> } : { named: a as Named, materialized: undefined };
}
