/**
 * Table sources: `StreamsBuilder.table()` and `KStream.toTable()` (Kafka's
 * `InternalStreamsBuilder.table` / `TableSourceNode` and `KStreamImpl.toTable`).
 */
import { KTableSourceSupplier } from '../../processors/dsl/ktable-source.js';
import type { Serde } from '../../serdes/serde.js';
import type { Materialized } from '../options.js';
import type { BuilderContext } from './builder-context.js';
import type { NewTable } from './dsl-parts.js';
import { isVersionedSupplier, materializedName, timestampedStoreBuilder } from './materialize.js';

/**
 * Adds the KTable source node `name` under `parent`. Its store is named by
 * `materialized` (then the table is materialized and queryable), else
 * `generatedStoreName` (then it is materialized only when a downstream node
 * needs it: a join, a filter asked for old values). `keySerde`/`valueSerde`
 * are the table's serdes (those of its store and its records).
 */
export function addTableSource<K, V>(
  ctx: BuilderContext,
  name: string,
  parent: string,
  generatedStoreName: string,
  materialized: Materialized<K, V> | undefined,
  keySerde: Serde<K>,
  valueSerde: Serde<V>,
): NewTable<K, V> {
  const queryable = materializedName(materialized as Materialized<unknown, unknown> | undefined);
  const storeName = queryable ?? generatedStoreName;
  const supplier = new KTableSourceSupplier<K, V>(storeName, () => {
    ctx.topology.addStateStore(timestampedStoreBuilder(storeName, materialized ?? {}, keySerde, valueSerde), name);
  }, isVersionedSupplier(materialized?.storeSupplier));
  ctx.topology.addProcessor(name, supplier, parent);
  if (queryable !== undefined) supplier.materialize();
  return { nodeName: name, supplier, queryableStoreName: queryable, serdes: { key: keySerde, value: valueSerde } };
}
