/**
 * Store builders for DSL state (aggregations, materialized tables), as
 * Kafka's `KeyValueStoreMaterializer`: a timestamped store over
 * `materialized.storeSupplier` (default a persistent one), changelogged
 * unless `loggingEnabled` is false, cached unless `cachingEnabled` is false.
 */
import { Stores } from '../../processors/state/stores.js';
import type { StateStore, StoreBuilder } from '../../processors/state/state-store.js';
import type { Serde } from '../../serdes/serde.js';
import type { KeyValueBytesStoreSupplier } from '../../processors/state/bytes-store-contract.js';
import { IllegalArgumentError } from '../../errors.js';
import type { Materialized, MaterializedStoreSupplier, Named } from '../options.js';
import { requireNonNull, validateName } from './checks.js';

/** The timestamped key-value store builder of `materialized`, named `storeName`. */
export function timestampedStoreBuilder<K, V>(storeName: string, materialized: Materialized<K, V>, keySerde: Serde<K>, valueSerde: Serde<V>): StoreBuilder<StateStore> {
  const supplier = keyValueSupplierOf(materialized.storeSupplier, storeName) ?? Stores.persistentTimestampedKeyValueStore(storeName);
  const builder = Stores.timestampedKeyValueStoreBuilder(supplier, keySerde, valueSerde);
  if (materialized.loggingEnabled === false) builder.withLoggingDisabled();
  else builder.withLoggingEnabled(materialized.logConfig ?? {});
  if (materialized.cachingEnabled === false) builder.withCachingDisabled();
  else builder.withCachingEnabled();
  return builder;
}

/** The key-value supplier `Materialized.as(supplier)` gave, or an IllegalArgumentError for a window or session store supplier. */
function keyValueSupplierOf(supplier: MaterializedStoreSupplier | undefined, storeName: string): KeyValueBytesStoreSupplier | undefined {
  if (supplier === undefined || !('retentionPeriod' in supplier)) return supplier;
  throw new IllegalArgumentError(
    `Store '${storeName}': Materialized.as(...) gives a window or session store supplier, but this aggregation or table keeps a key-value store; ` +
      `give a key-value store supplier (e.g. Stores.persistentKeyValueStore('${storeName}')) or only the store name`,
  );
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
