/**
 * The structure of global tables and global stores, ported from Kafka
 * Streams' `TopologyTest`, `StreamsBuilderTest`, `InternalStreamsBuilderTest`
 * and `KStreamImplTest` (names and expectations unchanged; each case names
 * its Java test). A global store is a sub-topology of its own that generates
 * no tasks: its topic is read by no task.
 */
import { describe, expect, it } from 'vitest';
import { Materialized, Serdes, Stores, StreamsBuilder, Topology, type KeyValueStore } from '../../../../../src/index.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import { planOf } from '../../../../../src/topology/topology.js';
import { TOSTRING_JOINER } from '../../../../helpers/ktable/global-join-capture.js';
import { storeOf } from '../../../../helpers/store-of.js';

const S = Serdes.String();
const noop = () => ({ process() {} });

function globalStoreBuilder(name: string) {
  return Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), S, S).withLoggingDisabled();
}

/** Kafka's `InternalTopologyBuilder.GlobalStore.toString()`. */
function expectedGlobalStore(store: string, source: string, topic: string, processor: string, id: number): string {
  return (
    `  Sub-topology: ${id} for global store (will not generate tasks)\n` +
    `    Source: ${source} (topics: [${topic}])\n      --> ${processor}\n` +
    `    Processor: ${processor} (stores: [${store}])\n      --> none\n      <-- ${source}\n`
  );
}

describe('global stores in describe()', () => {
  // TopologyTest.shouldDescribeGlobalStoreTopology
  it('shouldDescribeGlobalStoreTopology', () => {
    const topology = new Topology().addGlobalStore(globalStoreBuilder('globalStore'), 'source', {}, 'globalTopic', 'processor', noop);
    const description = topology.describe();
    expect(description.toString()).toBe(`Topologies:\n ${expectedGlobalStore('globalStore', 'source', 'globalTopic', 'processor', 0)}`);
    expect(description.subtopologies).toEqual([]);
    expect(description.globalStores.map((g) => [g.id, g.source.name, g.processor.name, g.processor.stores])).toEqual([[0, 'source', 'processor', ['globalStore']]]);
  });

  // TopologyTest.shouldDescribeMultipleGlobalStoreTopology
  it('shouldDescribeMultipleGlobalStoreTopology', () => {
    const topology = new Topology()
      .addGlobalStore(globalStoreBuilder('globalStore1'), 'source1', {}, 'globalTopic1', 'processor1', noop)
      .addGlobalStore(globalStoreBuilder('globalStore2'), 'source2', {}, 'globalTopic2', 'processor2', noop);
    expect(topology.describe().toString()).toBe(
      `Topologies:\n ${expectedGlobalStore('globalStore1', 'source1', 'globalTopic1', 'processor1', 0)}${expectedGlobalStore('globalStore2', 'source2', 'globalTopic2', 'processor2', 1)}`,
    );
  });

  // TopologyTest.shouldNotAllowToAddGlobalStoreWithSourceNameEqualsProcessorName
  it('shouldNotAllowToAddGlobalStoreWithSourceNameEqualsProcessorName', () => {
    expect(() => new Topology().addGlobalStore(globalStoreBuilder('anyName'), 'sameName', {}, 'anyTopicName', 'sameName', noop)).toThrow('sourceName and processorName must be different.');
  });

  // (Kafka's InternalTopologyBuilder.addGlobalStore check) a logged store cannot be a global store
  it('rejects a global store with logging enabled, with Kafka message', () => {
    const logged = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('logged'), S, S);
    expect(() => new Topology().addGlobalStore(logged, 'source', {}, 'topic', 'processor', noop)).toThrow('StateStore logged for global table must not have logging enabled.');
  });

  it('prints a global table between task sub-topologies by id, the join reading it without a store connection', () => {
    const builder = new StreamsBuilder();
    const global = builder.globalTable('global', { keySerde: S, valueSerde: S });
    builder.stream('stream', { keySerde: S, valueSerde: S }).join(global, (_k, v) => v, TOSTRING_JOINER).to('out');
    expect(builder.build().describe().toString()).toBe(
      'Topologies:\n ' +
        expectedGlobalStore('global-STATE-STORE-0000000000', 'KSTREAM-SOURCE-0000000001', 'global', 'KTABLE-SOURCE-0000000002', 0) +
        '  Sub-topology: 1\n' +
        '    Source: KSTREAM-SOURCE-0000000003 (topics: [stream])\n      --> KSTREAM-LEFTJOIN-0000000004\n' +
        '    Processor: KSTREAM-LEFTJOIN-0000000004 (stores: [])\n      --> KSTREAM-SINK-0000000005\n      <-- KSTREAM-SOURCE-0000000003\n' +
        '    Sink: KSTREAM-SINK-0000000005 (topic: out)\n      <-- KSTREAM-LEFTJOIN-0000000004\n\n',
    );
  });
});

describe('global table names and stores', () => {
  // StreamsBuilderTest.shouldUseSpecifiedNameForGlobalTableSourceProcessor
  it('shouldUseSpecifiedNameForGlobalTableSourceProcessor', () => {
    const builder = new StreamsBuilder();
    builder.globalTable('stream-topic', { name: 'source-processor' });
    builder.globalTable('stream-topic-two');
    const plan = planOf(builder.build());
    expect(plan.globalStores?.map((g) => g.storeName).sort()).toEqual(['stream-topic-STATE-STORE-0000000000', 'stream-topic-two-STATE-STORE-0000000003']);
    expect(plan.globalStores?.map((g) => [g.sourceName, g.processorName]).sort()).toEqual([
      ['KSTREAM-SOURCE-0000000004', 'KTABLE-SOURCE-0000000005'],
      ['source-processor-source', 'source-processor'],
    ]);
  });

  // StreamsBuilderTest.shouldUseSpecifiedNameForGlobalStoreProcessor
  it('shouldUseSpecifiedNameForGlobalStoreProcessor', () => {
    const builder = new StreamsBuilder();
    builder.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('store'), S, S), 'topic', { keySerde: S, valueSerde: S, name: 'test' }, noop);
    const plan = planOf(builder.build());
    expect(plan.globalStores?.map((g) => [g.sourceName, g.processorName])).toEqual([['test-source', 'test']]);
  });

  // StreamsBuilderTest.shouldUseDefaultNameForGlobalStoreProcessor
  it('shouldUseDefaultNameForGlobalStoreProcessor', () => {
    const builder = new StreamsBuilder();
    builder.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('store'), S, S), 'topic', { keySerde: S, valueSerde: S }, noop);
    const plan = planOf(builder.build());
    expect(plan.globalStores?.map((g) => [g.sourceName, g.processorName])).toEqual([['KSTREAM-SOURCE-0000000000', 'KTABLE-SOURCE-0000000001']]);
  });

  // StreamsBuilderTest.shouldAddGlobalStore
  it('shouldAddGlobalStore', () => {
    const builder = new StreamsBuilder();
    builder.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('store'), S, S), 'topic', { keySerde: S, valueSerde: S }, () => {
      let store: KeyValueStore<string, string>;
      return {
        init(context) {
          store = context.getStateStore<KeyValueStore<string, string>>('store');
        },
        process(record) {
          store.put(record.key, record.value);
        },
      };
    });
    const driver = new TopologyTestDriver(builder.build());
    try {
      driver.createInputTopic('topic', S, S).pipeInput('hey', 'there');
      const store = storeOf(driver.getKeyValueStore<string, string>('store'));
      expect(store.get('hey')).toBe('there');
    } finally {
      driver.close();
    }
  });

  // StreamsBuilderTest.shouldUseSerdesDefinedInMaterializedToConsumeGlobalTable
  it('shouldUseSerdesDefinedInMaterializedToConsumeGlobalTable', () => {
    const builder = new StreamsBuilder();
    const L = Serdes.Int64();
    builder.globalTable('topic', {}, Materialized.as<bigint, string>('store').withKeySerde(L).withValueSerde(S));
    const driver = new TopologyTestDriver(builder.build());
    try {
      const inputTopic = driver.createInputTopic('topic', L, S);
      inputTopic.pipeInput(1n, 'value1');
      inputTopic.pipeInput(2n, 'value2');
      const store = storeOf(driver.getKeyValueStore<bigint, string>('store'));
      expect(store.get(1n)).toBe('value1');
      expect(store.get(2n)).toBe('value2');
    } finally {
      driver.close();
    }
  });

  // InternalStreamsBuilderTest.shouldBuildGlobalTableWithNonQueryableStoreName
  it('shouldBuildGlobalTableWithNonQueryableStoreName', () => {
    const table1 = new StreamsBuilder().globalTable('topic2', { keySerde: S, valueSerde: S }, Materialized.with(S, S));
    expect(table1.queryableStoreName).toBeUndefined();
  });

  // InternalStreamsBuilderTest.shouldBuildGlobalTableWithQueryaIbleStoreName
  it('shouldBuildGlobalTableWithQueryaIbleStoreName', () => {
    const table1 = new StreamsBuilder().globalTable('topic2', { keySerde: S, valueSerde: S }, Materialized.as('globalTable'));
    expect(table1.queryableStoreName).toBe('globalTable');
  });

  // InternalStreamsBuilderTest.shouldBuildSimpleGlobalTableTopology
  it('shouldBuildSimpleGlobalTableTopology', () => {
    const builder = new StreamsBuilder();
    builder.globalTable('table', { keySerde: S, valueSerde: S }, Materialized.as('globalTable'));
    const plan = planOf(builder.build());
    expect(plan.globalStores?.map((g) => g.storeName)).toEqual(['globalTable']);
    expect(plan.stores.get('globalTable')?.builder.loggingEnabled).toBe(false);
  });

  // InternalStreamsBuilderTest.shouldBuildGlobalTopologyWithAllGlobalTables
  it('shouldBuildGlobalTopologyWithAllGlobalTables', () => {
    const builder = new StreamsBuilder();
    builder.globalTable('table', { keySerde: S, valueSerde: S }, Materialized.as('global1'));
    builder.globalTable('table2', { keySerde: S, valueSerde: S }, Materialized.as('global2'));
    const plan = planOf(builder.build());
    expect(new Set(plan.globalStores?.map((g) => g.topic))).toEqual(new Set(['table', 'table2']));
    expect(plan.globalStores).toHaveLength(2);
    expect(plan.subtopologies).toEqual([]);
  });

  // KStreamImplTest.shouldPropagateRepartitionFlagAfterGlobalKTableJoin
  it('shouldPropagateRepartitionFlagAfterGlobalKTableJoin', () => {
    const builder = new StreamsBuilder<string, string>({ defaultKeySerde: S, defaultValueSerde: S });
    const globalKTable = builder.globalTable('globalTopic');
    builder
      .stream('topic')
      .selectKey((_k, v) => v)
      .join(globalKTable, (k, v) => k + v, (v1, v2) => v1 + v2)
      .groupByKey()
      .count();
    const match = /Sink: .*-repartition/.exec(builder.build().describe().toString());
    expect(match).not.toBeNull();
    expect(match?.[0].endsWith('repartition')).toBe(true);
  });

  it('a processor connected to a global store explicitly is refused with Kafka message', () => {
    const topology = new Topology()
      .addGlobalStore(globalStoreBuilder('g'), 'gsource', {}, 'gtopic', 'gprocessor', noop)
      .addSource('source', 'topic')
      .addProcessor('p', noop, 'source')
      .connectProcessorAndStateStores('p', 'g');
    expect(() => topology.describe()).toThrow('Global StateStore g can be used by a Processor without being specified; it should not be explicitly passed.');
  });
});
