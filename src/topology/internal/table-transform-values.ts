/**
 * The arguments of `KTable.transformValues(supplier, [named,] [materialized,] ...stateStoreNames)`
 * (Kafka's four overloads in one), checked with Kafka's messages:
 *
 * 1. the supplier must be a function or have `get()`;
 * 2. strings are store names; a `Named` object names the node, a
 *    `Materialized` materializes it (only when it names a store, as Kafka's
 *    `queryableStoreName`; an unnamed one sets the serdes and consumes no index);
 * 3. the stores the transformer uses: the named ones, then those its
 *    supplier declares with `stores()` (the view's users are connected to both).
 */
import type { ValueTransformerWithKeySupplier } from '../../processors/dsl/ktable-transform-values-types.js';
import { IllegalArgumentError } from '../../errors.js';
import type { Materialized, Named } from '../options.js';
import { requireNonNull } from './checks.js';
import { isMaterialized, materializedName } from './materialize.js';

/** What one `transformValues` call asks for. */
export interface TransformValuesArgs<K, VR> {
  readonly named: Named | undefined;
  /** The `Materialized`, when it names a store (the node is then materialized). */
  readonly queryable: Materialized<K, VR> | undefined;
  /** The `Materialized` given, named or not (its serdes apply either way). */
  readonly materialized: Materialized<K, VR> | undefined;
  /** The stores named in the call (to connect to the node). */
  readonly namedStores: string[];
  /** Step 3: every store the transformer uses. */
  readonly storeNames: string[];
}

/** Steps 1-3 of the module comment. */
export function transformValuesArgs<K, V, VR>(supplier: ValueTransformerWithKeySupplier<K, V, VR>, args: ReadonlyArray<string | Named | Materialized<K, VR>>): TransformValuesArgs<K, VR> {
  // 1.
  requireNonNull(supplier, 'transformerSupplier');
  if (typeof supplier !== 'function' && typeof (supplier as { get?: unknown }).get !== 'function') {
    throw new IllegalArgumentError('transformValues needs a ValueTransformerWithKeySupplier: a function returning a new transformer, or an object with get()');
  }
  // 2.
  let named: Named | undefined;
  let materialized: Materialized<K, VR> | undefined;
  const storeNames: string[] = [];
  for (const arg of args) {
    if (typeof arg === 'string') storeNames.push(arg);
    else if (arg === null || arg === undefined) requireNonNull(arg, storeNames.length > 0 || named !== undefined ? 'stateStoreNames' : 'named');
    else if (isMaterialized(arg)) materialized = arg as Materialized<K, VR>;
    else named = arg as Named;
  }
  const queryable = materialized !== undefined && materializedName(materialized as Materialized<unknown, unknown>) !== undefined ? materialized : undefined;
  // 3.
  const declared = typeof supplier.stores === 'function' ? [...(supplier.stores() ?? [])].map((b) => b.name) : [];
  return { named, queryable, materialized, namedStores: storeNames, storeNames: [...storeNames, ...declared] };
}
