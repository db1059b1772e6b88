/**
 * `StreamsBuilder.globalTable` (Kafka's `InternalStreamsBuilder.globalTable`):
 * a global store kept by a table source, with Kafka's names:
 * 1. the store: `materialized`'s name, else `<topic>-STATE-STORE-<n>`;
 * 2. the source: `<consumed name>-source`, else `KSTREAM-SOURCE-<n>`;
 * 3. the processor: the consumed name, else `KTABLE-SOURCE-<n>`;
 * 4. the store has logging disabled (the topic is its changelog) and, in
 *    sluice, caching disabled (nothing is forwarded from it).
 */
import { TopologyError } from '../../errors.js';
import { KTableSourceSupplier } from '../../processors/dsl/ktable-source.js';
import { materializedValueGetterSupplier } from '../../processors/dsl/ktable-contract.js';
import type { ProcessorSupplier } from '../../processors/processor.js';
import type { Serde } from '../../serdes/serde.js';
import { GlobalKTable } from '../global-ktable.js';
import type { Consumed, Materialized } from '../options.js';
import type { BuilderContext } from './builder-context.js';
import { materializedName, timestampedStoreBuilder } from './materialize.js';
import { validateName } from './checks.js';

/**
 * The source and processor names of a global store (Kafka's
 * `NamedInternal.suffixWithOrElseGet` / `orElseGenerateWithPrefix`): an
 * index is burnt for each even when `name` is given.
 */
export function globalSourceNames(ctx: BuilderContext, name: string | undefined): { sourceName: string; processorName: string } {
  const generatedSource = ctx.newName('KSTREAM-SOURCE-');
  const generatedProcessor = ctx.newName('KTABLE-SOURCE-');
  if (name === undefined) return { sourceName: generatedSource, processorName: generatedProcessor };
  return { sourceName: validateName(`${validateName(name)}-source`), processorName: name };
}

/** Adds a global table reading `topic` (serdes: `materialized`'s for the store, else `consumed`'s). */
export function addGlobalTable<K, V>(ctx: BuilderContext, topic: string, consumed: Consumed<K, V>, materialized: Materialized<K, V>): GlobalKTable<K, V> {
  if (typeof topic !== 'string' || topic === '') throw new TopologyError(`builder.globalTable reads one topic, given by name; got ${JSON.stringify(topic)}`);
  if (materialized === null || typeof materialized !== 'object') throw new TopologyError("materialized can't be null");
  // 1.–3. names, in Kafka's order
  const queryable = materializedName(materialized as Materialized<unknown, unknown>);
  const storeName = queryable ?? ctx.newName(`${topic}-STATE-STORE-`);
  const { sourceName, processorName } = globalSourceNames(ctx, consumed.name);
  // 4. the store
  const keySerde = (materialized.keySerde ?? consumed.keySerde) as Serde<K>;
  const valueSerde = (materialized.valueSerde ?? consumed.valueSerde) as Serde<V>;
  const builder = timestampedStoreBuilder(storeName, { ...materialized, loggingEnabled: false, cachingEnabled: false }, keySerde, valueSerde, 'A global table');
  const supplier = new KTableSourceSupplier<K, V>(storeName, () => undefined);
  supplier.materialize();
  ctx.topology.addGlobalStore<K, V>(
    builder,
    sourceName,
    {
      ...(consumed.keySerde ? { keySerde: consumed.keySerde } : {}),
      ...(consumed.valueSerde ? { valueSerde: consumed.valueSerde } : {}),
      ...(consumed.timestampExtractor ? { timestampExtractor: consumed.timestampExtractor } : {}),
    },
    topic,
    processorName,
    // a global store's processor forwards nothing; the table source's processor would forward changes (it has no children here)
    supplier as ProcessorSupplier<K, V, void, void>,
  );
  return new GlobalKTable<K, V>(() => materializedValueGetterSupplier<K, V>(storeName), queryable);
}
