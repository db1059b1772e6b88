/**
 * Ports of Kafka's `StreamsBuilderTest` cases for the DSL store choice
 * (KIP-954): the store of `count()` is in memory when `Materialized` says so
 * (`withStoreType(IN_MEMORY)`) or when the config's `dsl.store.suppliers.class`
 * is `InMemoryDslStoreSuppliers`; Kafka asserts the store's class
 * (`InMemoryKeyValueStore`, `InMemoryWindowStore`, `InMemorySessionStore`),
 * sluice the store's `persistent` flag and that no lmdb environment opened.
 * Kafka's `new StreamsBuilder(new TopologyConfig(...))` overrides have no
 * sluice form (the choice is the runtime config's), so those variants are not
 * ported. The windowed cases use `TimeWindows.ofSizeWithNoGrace(1 h)`:
 * sluice's `windowedBy` does not take Kafka's `JoinWindows` (a `Windows` in Java).
 */
import { describe, expect, it, vi } from 'vitest';
import { BuiltInDslStoreSuppliers, Materialized, Serdes, SessionWindows, StreamsBuilder, TimeWindows } from '../../../../src/index.js';
import type { StateStore, Topology } from '../../../../src/index.js';
import { TopologyTestDriver } from '../../../../src/testing.js';

const opened = vi.hoisted(() => ({ count: 0 }));
vi.mock('lmdb', async (importOriginal) => {
  const lmdb = await importOriginal<typeof import('lmdb')>();
  return {
    ...lmdb,
    open: (...args: Parameters<typeof lmdb.open>) => {
      opened.count++;
      return lmdb.open(...args);
    },
  };
});

const HOUR = 3_600_000;
const S = Serdes.String();

/** `persistent` of the store named 'store' (or the only store) once `topology` runs with `config`, and the lmdb environments opened. */
function storeOf(topology: Topology, name: string, inMemoryConfig: boolean): { persistent: boolean | undefined; lmdbOpened: number } {
  opened.count = 0;
  const driver = new TopologyTestDriver(topology, inMemoryConfig ? { dslStoreSuppliers: BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers } : {});
  try {
    driver.createInputTopic('topic', S, S).pipeInput('A', 'aa', 0);
    return { persistent: driver.getStateStore<StateStore & { readonly persistent?: boolean }>(name)?.persistent, lmdbOpened: opened.count };
  } finally {
    driver.close();
  }
}

/** The single store name of `topology`. */
function onlyStore(topology: Topology): string {
  const names = topology.describe().subtopologies.flatMap((s) => s.nodes.flatMap((n) => (n.type === 'processor' ? n.stores : [])));
  expect(names).toHaveLength(1);
  return names[0] as string;
}

const IN_MEMORY = { persistent: false, lmdbOpened: 0 };

describe('StreamsBuilderTest: DslStoreSuppliers (ported)', () => {
  // StreamsBuilderTest.shouldUseDslStoreSupplierDefinedInMaterialized
  it('shouldUseDslStoreSupplierDefinedInMaterialized', () => {
    const builder = new StreamsBuilder();
    builder.stream('topic', { keySerde: S, valueSerde: S }).groupByKey().count(Materialized.as<string, number>('store').withStoreType('in_memory')).toStream();
    expect(storeOf(builder.build(), 'store', false)).toEqual(IN_MEMORY);
  });

  // StreamsBuilderTest.shouldUseDslStoreSupplierDefinedConfiguredInStreamsConfig
  it('shouldUseDslStoreSupplierDefinedConfiguredInStreamsConfig', () => {
    const builder = new StreamsBuilder();
    builder.stream('topic', { keySerde: S, valueSerde: S }).groupByKey().count().toStream();
    const topology = builder.build();
    expect(storeOf(topology, onlyStore(topology), true)).toEqual(IN_MEMORY);
    // and the default (RocksDB in Kafka) is lmdb
    expect(storeOf(topology, onlyStore(topology), false)).toEqual({ persistent: true, lmdbOpened: 1 });
  });

  // StreamsBuilderTest.shouldUseDslStoreSupplierDefinedInMaterializedForWindowedOperation
  it('shouldUseDslStoreSupplierDefinedInMaterializedForWindowedOperation', () => {
    const builder = new StreamsBuilder();
    builder
      .stream('topic', { keySerde: S, valueSerde: S })
      .groupByKey()
      .windowedBy(TimeWindows.ofSizeWithNoGrace(HOUR))
      .count(Materialized.as<string, number>('store').withStoreType('in_memory'))
      .toStream();
    expect(storeOf(builder.build(), 'store', false)).toEqual(IN_MEMORY);
  });

  // StreamsBuilderTest.shouldUseDslStoreSupplierDefinedConfiguredInStreamsConfigForWindowedOperation
  it('shouldUseDslStoreSupplierDefinedConfiguredInStreamsConfigForWindowedOperation', () => {
    const builder = new StreamsBuilder();
    builder.stream('topic', { keySerde: S, valueSerde: S }).groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(HOUR)).count().toStream();
    const topology = builder.build();
    expect(storeOf(topology, onlyStore(topology), true)).toEqual(IN_MEMORY);
  });

  // StreamsBuilderTest.shouldUseDslStoreSupplierDefinedInMaterializedForSessionWindowedOperation
  it('shouldUseDslStoreSupplierDefinedInMaterializedForSessionWindowedOperation', () => {
    const builder = new StreamsBuilder();
    builder
      .stream('topic', { keySerde: S, valueSerde: S })
      .groupByKey()
      .windowedBy(SessionWindows.ofInactivityGapAndGrace(HOUR, 0))
      .count(Materialized.as<string, number>('store').withStoreType('in_memory'))
      .toStream();
    expect(storeOf(builder.build(), 'store', false)).toEqual(IN_MEMORY);
  });

  // StreamsBuilderTest.shouldUseDslStoreSupplierDefinedConfiguredInStreamsConfigForSessionWindowedOperation
  it('shouldUseDslStoreSupplierDefinedConfiguredInStreamsConfigForSessionWindowedOperation', () => {
    const builder = new StreamsBuilder();
    builder.stream('topic', { keySerde: S, valueSerde: S }).groupByKey().windowedBy(SessionWindows.ofInactivityGapAndGrace(HOUR, 0)).count().toStream();
    const topology = builder.build();
    expect(storeOf(topology, onlyStore(topology), true)).toEqual(IN_MEMORY);
  });

  // StreamsBuilderTest.shouldUseDslStoreSupplierDefinedInMaterialized, with Kafka's Materialized.as(DslStoreSuppliers) form
  it('Materialized.as(DslStoreSuppliers) picks the engine and keeps a generated name', () => {
    const builder = new StreamsBuilder();
    builder.stream('topic', { keySerde: S, valueSerde: S }).groupByKey().count(Materialized.as<string, number>(new BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers())).toStream();
    const topology = builder.build();
    expect(onlyStore(topology)).toMatch(/^KSTREAM-AGGREGATE-STATE-STORE-/);
    expect(storeOf(topology, onlyStore(topology), false)).toEqual(IN_MEMORY);
  });
});
