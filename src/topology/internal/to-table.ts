/**
 * Table sources: `StreamsBuilder.table()` and `KStream.toTable()` (Kafka's
 * `TableSourceNode` / `KStreamImpl.toTable`).
 */
import { KTableSourceSupplier } from '../../processors/dsl/ktable-source.js';
import type { Serde } from '../../serdes/serde.js';
import { KTable } from '../ktable.js';
import type { Materialized } from '../options.js';
import type { BuilderContext } from './builder-context.js';
import { materializedName, timestampedStoreBuilder } from './materialize.js';

/**
 * Adds the KTable source node `name` under `parent`: its store is named by
 * `materialized` (then the table is materialized and queryable), else
 * `storeName` (generated; materialized only when a downstream node needs it).
 */
export function addTableSource<K, V>(
  ctx: BuilderContext,
  name: string,
  parent: string,
  generatedStoreName: string,
  materialized: Materialized<K, V> | undefined,
  keySerde: Serde<K>,
  valueSerde: Serde<V>,
): KTable<K, V> {
  const queryable = materializedName(materialized as Materialized<unknown, unknown> | undefined);
  const storeName = queryable ?? generatedStoreName;
  const serdes = { key: materialized?.keySerde ?? keySerde, value: materialized?.valueSerde ?? valueSerde };
  const supplier = new KTableSourceSupplier<K, V>(storeName, () => {
    ctx.topology.addStateStore(timestampedStoreBuilder(storeName, materialized ?? {}, serdes.key, serdes.value), name);
  });
  ctx.topology.addProcessor(name, supplier, parent);
  if (queryable !== undefined) supplier.materialize();
  return new KTable<K, V>(ctx, name, supplier as never, queryable, serdes);
}
