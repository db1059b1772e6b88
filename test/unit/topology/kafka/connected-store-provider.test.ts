/**
 * Processor suppliers that declare their stores (Kafka's
 * `ConnectedStoreProvider.stores()`). Ported from Kafka Streams'
 * `TopologyTest`, `InternalTopologyBuilderTest` (the store-name cases),
 * `ProcessorTopologyTest` (the `defineWithStores` cases) and
 * `KStreamTransformIntegrationTest` (the transform cases with a connected
 * store provider, written with `process`, their KIP-820 successor); inputs
 * and expected outputs unchanged. Kafka's messages start with "Invalid
 * topology: ", which sluice's TopologyError does not add.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  Serdes,
  Stores,
  StreamsBuilder,
  Topology,
  TopologyError,
  type KeyValueStore,
  type Processor,
  type ProcessorContext,
  type ProcessorSupplier,
  type StoreBuilder,
  type StreamRecord,
} from '../../../../src/index.js';
import { TopologyTestDriver } from '../../../../src/testing.js';
import { storeOf } from '../../../helpers/store-of.js';

const S = Serdes.String();
const I = Serdes.Int32();

function topologyError(call: () => unknown): TopologyError {
  try {
    call();
  } catch (e) {
    expect(e).toBeInstanceOf(TopologyError);
    return e as TopologyError;
  }
  throw new Error('expected a TopologyError');
}

/** MockProcessorSupplierProvidingStore / ProcessorTopologyTest.defineWithStores: a supplier declaring `stores`. */
function defineWithStores<KIn, VIn, KOut = never, VOut = never>(get: () => Processor<KIn, VIn, KOut, VOut>, stores: StoreBuilder[]): ProcessorSupplier<KIn, VIn, KOut, VOut> {
  return { get, stores: () => new Set(stores) };
}
const noop = (): Processor<unknown, unknown> => ({ process() {} });
const kvBuilder = (name: string) => Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), S, S);

describe('TopologyTest: stores of processor suppliers', () => {
  let topology: Topology;
  beforeEach(() => {
    topology = new Topology();
  });

  /** TopologyTest.shouldNotAllowToAddStoreWithSameNameAndDifferentInstance */
  it('a store added twice with different builders of one name is rejected', () => {
    topology.addStateStore(kvBuilder('store'));
    const otherStoreBuilder = kvBuilder('store');
    topologyError(() => topology.addStateStore(otherStoreBuilder));
  });

  /** TopologyTest.shouldAllowToShareStoreUsingSameStoreBuilder */
  it('two suppliers providing the same builder share the store', () => {
    const storeBuilder = kvBuilder('store');
    topology.addSource('source', 'topic-1');
    topology.addProcessor('processor-1', defineWithStores(noop, [storeBuilder]), 'source');
    topology.addProcessor('processor-2', defineWithStores(noop, [storeBuilder]), 'source');
    const [sub] = topology.describe().subtopologies;
    expect(sub?.nodes.filter((n) => 'stores' in n).map((n) => [n.name, n.stores])).toEqual([
      ['processor-1', ['store']],
      ['processor-2', ['store']],
    ]);
  });

  it('two suppliers providing different builders of one store name are rejected with Kafka\'s message', () => {
    topology.addSource('source', 'topic-1');
    topology.addProcessor('processor-1', defineWithStores(noop, [kvBuilder('store')]), 'source');
    const error = topologyError(() => topology.addProcessor('processor-2', defineWithStores(noop, [kvBuilder('store')]), 'source'));
    expect(error.message).toMatch(/^A different StateStore has already been added with the name store/);
  });

  it('a supplier returning something that is not a store builder from stores() fails naming the processor', () => {
    topology.addSource('source', 'topic-1');
    const bad = { get: noop, stores: () => [{ name: 'x' }] as never };
    expect(topologyError(() => topology.addProcessor('p', bad, 'source')).message).toMatch(/supplier of processor 'p' returned from stores\(\) something that is not a StoreBuilder/);
  });

  it("addGlobalStore ignores its state-update supplier's stores(), as Kafka's does", () => {
    const global = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('global'), S, S).withLoggingDisabled();
    topology.addGlobalStore(global, 'gsource', {}, 'gtopic', 'gprocessor', defineWithStores(noop, [kvBuilder('other')]));
    topology.addSource('source', 'topic-1').addProcessor('p', noop, 'source');
    expect(() => topology.validate()).not.toThrow();
    expect(topology.describe().globalStores.map((g) => g.processor.stores)).toEqual([['global']]);
  });
});

describe('InternalTopologyBuilderTest: store names', () => {
  let builder: Topology;
  let storeBuilder: StoreBuilder<KeyValueStore<string, string>>;
  beforeEach(() => {
    builder = new Topology();
    storeBuilder = kvBuilder('testStore');
  });
  const globalBuilder = () => Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('testStore'), S, S).withLoggingDisabled();
  const addGlobal = (store: StoreBuilder, source: string, processor: string) => builder.addGlobalStore(store, source, {}, 'global-topic', processor, noop);

  /** InternalTopologyBuilderTest.shouldNotAllowToAddStoresWithSameName */
  it('shouldNotAllowToAddStoresWithSameName', () => {
    const otherBuilder = kvBuilder('testStore');
    builder.addStateStore(storeBuilder);
    expect(topologyError(() => builder.addStateStore(otherBuilder)).message).toMatch(/^A different StateStore has already been added with the name testStore/);
  });

  /** InternalTopologyBuilderTest.shouldNotAllowToAddStoresWithSameNameWhenFirstStoreIsGlobal */
  it('shouldNotAllowToAddStoresWithSameNameWhenFirstStoreIsGlobal', () => {
    addGlobal(globalBuilder(), 'global-store', 'global-processor');
    expect(topologyError(() => builder.addStateStore(storeBuilder)).message).toMatch(/^A different GlobalStateStore has already been added with the name testStore/);
  });

  /** InternalTopologyBuilderTest.shouldNotAllowToAddStoresWithSameNameWhenSecondStoreIsGlobal */
  it('shouldNotAllowToAddStoresWithSameNameWhenSecondStoreIsGlobal', () => {
    builder.addStateStore(storeBuilder);
    expect(topologyError(() => addGlobal(globalBuilder(), 'global-store', 'global-processor')).message).toMatch(
      /^A different StateStore has already been added with the name testStore/,
    );
  });

  /** InternalTopologyBuilderTest.shouldNotAllowToAddGlobalStoresWithSameName */
  it('shouldNotAllowToAddGlobalStoresWithSameName', () => {
    addGlobal(globalBuilder(), 'global-store', 'global-processor');
    expect(topologyError(() => addGlobal(globalBuilder(), 'global-store-2', 'global-processor-2')).message).toMatch(
      /^A different GlobalStateStore has already been added with the name testStore/,
    );
  });

  /** InternalTopologyBuilderTest.shouldAllowAddingSameStoreBuilderMultipleTimes */
  it('shouldAllowAddingSameStoreBuilderMultipleTimes', () => {
    builder.addSource('source-1', 'topic-1');
    builder.addStateStore(storeBuilder);
    builder.addProcessor('processor-1', noop, 'source-1');
    builder.connectProcessorAndStateStores('processor-1', storeBuilder.name);
    builder.addStateStore(storeBuilder);
    builder.addProcessor('processor-2', noop, 'source-1');
    builder.connectProcessorAndStateStores('processor-2', storeBuilder.name);
    const stores = builder.describe().subtopologies.flatMap((sub) => sub.nodes.flatMap((n) => ('stores' in n ? n.stores : [])));
    expect(new Set(stores).size).toBe(1);
  });
});

/** ProcessorTopologyTest.StatefulProcessor: puts every record into `storeName`, forwards nothing. */
function statefulProcessor(storeName: string): () => Processor<string, string> {
  return () => {
    let store: KeyValueStore<string, string>;
    return {
      init: (context) => void (store = context.getStateStore(storeName)),
      process: (record) => store.put(record.key, record.value),
    };
  };
}

describe('ProcessorTopologyTest: stores provided by suppliers', () => {
  const INPUT_TOPIC_1 = 'input-topic-1';
  const INPUT_TOPIC_2 = 'input-topic-2';
  const OUTPUT_TOPIC_1 = 'output-topic-1';
  const DEFAULT_STORE_NAME = 'prefixScanStore';
  const props = { applicationId: 'processor-topology-test' };

  /** ProcessorTopologyTest.testDrivingConnectedStateStoreInDifferentProcessorsTopology */
  it('testDrivingConnectedStateStoreInDifferentProcessorsTopology', () => {
    const storeName = 'connectedStore';
    const storeBuilder = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(storeName), S, S);
    const topology = new Topology()
      .addSource('source1', INPUT_TOPIC_1, { keySerde: S, valueSerde: S })
      .addSource('source2', INPUT_TOPIC_2, { keySerde: S, valueSerde: S })
      .addProcessor('processor1', defineWithStores(statefulProcessor(storeName), [storeBuilder]), 'source1')
      .addProcessor('processor2', defineWithStores(statefulProcessor(storeName), [storeBuilder]), 'source2')
      .addSink('counts', OUTPUT_TOPIC_1, 'processor1', 'processor2');
    const driver = new TopologyTestDriver(topology, props);
    try {
      const inputTopic = driver.createInputTopic(INPUT_TOPIC_1, S, S);
      const outputTopic1 = driver.createOutputTopic(OUTPUT_TOPIC_1, I, S);
      inputTopic.pipeInput('key1', 'value1');
      inputTopic.pipeInput('key2', 'value2');
      inputTopic.pipeInput('key3', 'value3');
      inputTopic.pipeInput('key1', 'value4');
      expect(outputTopic1.isEmpty()).toBe(true);
      const store = storeOf(driver.getKeyValueStore<string, string>('connectedStore'));
      expect(store.get('key1')).toBe('value4');
      expect(store.get('key2')).toBe('value2');
      expect(store.get('key3')).toBe('value3');
      expect(store.get('key4')).toBeNull();
    } finally {
      driver.close();
    }
  });

  const variants: Array<[string, () => StoreBuilder<KeyValueStore<string, string>>]> = [
    ['testPrefixScanInMemoryStoreNoCachingNoLogging', () => Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(DEFAULT_STORE_NAME), S, S).withCachingDisabled().withLoggingDisabled()],
    ['testPrefixScanInMemoryStoreWithCachingNoLogging', () => Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(DEFAULT_STORE_NAME), S, S).withCachingEnabled().withLoggingDisabled()],
    ['testPrefixScanInMemoryStoreWithCachingWithLogging', () => Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(DEFAULT_STORE_NAME), S, S).withCachingEnabled().withLoggingEnabled({})],
    ['testPrefixScanPersistentStoreNoCachingNoLogging', () => Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(DEFAULT_STORE_NAME), S, S).withCachingDisabled().withLoggingDisabled()],
    ['testPrefixScanPersistentStoreWithCachingNoLogging', () => Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(DEFAULT_STORE_NAME), S, S).withCachingEnabled().withLoggingDisabled()],
    ['testPrefixScanPersistentStoreWithCachingWithLogging', () => Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(DEFAULT_STORE_NAME), S, S).withCachingEnabled().withLoggingEnabled({})],
  ];
  /** ProcessorTopologyTest.testPrefixScan{InMemory,Persistent}Store{No,With}Caching{No,With}Logging */
  it.each(variants)('%s', (_name, storeBuilder) => {
    const topology = new Topology()
      .addSource('source1', INPUT_TOPIC_1, { keySerde: S, valueSerde: S })
      .addProcessor('processor1', defineWithStores(statefulProcessor(DEFAULT_STORE_NAME), [storeBuilder()]), 'source1')
      .addSink('counts', OUTPUT_TOPIC_1, 'processor1');
    const driver = new TopologyTestDriver(topology, props);
    try {
      const inputTopic = driver.createInputTopic(INPUT_TOPIC_1, S, S);
      inputTopic.pipeInput('key1', 'value1');
      inputTopic.pipeInput('key2', 'value2');
      inputTopic.pipeInput('key3', 'value3');
      inputTopic.pipeInput('key1', 'value4');
      expect(driver.createOutputTopic(OUTPUT_TOPIC_1, I, S).isEmpty()).toBe(true);
      const results = storeOf(driver.getKeyValueStore<string, string>(DEFAULT_STORE_NAME)).prefixScan('key', S);
      expect(results.slice(0, 3)).toEqual([
        { key: 'key1', value: 'value4' },
        { key: 'key2', value: 'value2' },
        { key: 'key3', value: 'value3' },
      ]);
    } finally {
      driver.close();
    }
  });
});

describe('KStreamTransformIntegrationTest: transform cases with a connected store provider, with process', () => {
  const stateStoreName = 'myTransformState';
  const topic = 'stream';
  let builder: StreamsBuilder;
  let results: Array<{ key: number; value: number }>;
  beforeEach(() => {
    builder = new StreamsBuilder();
    results = [];
  });
  const storeBuilder = () => Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(stateStoreName), I, I);

  function verifyResult(expected: Array<{ key: number; value: number }>): void {
    const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: I, defaultValueSerde: I });
    try {
      driver.createInputTopic(topic, I, I).pipeKeyValueList([
        { key: 1, value: 1 },
        { key: 2, value: 2 },
        { key: 3, value: 3 },
        { key: 2, value: 1 },
        { key: 2, value: 3 },
        { key: 1, value: 3 },
      ]);
    } finally {
      driver.close();
    }
    expect(results).toEqual(expected);
  }

  /** TestTransformer (times = 1) and TestFlatTransformer (times = 3) as processors: (key + i, value + stored++) for each i. */
  function transformer(times: number, keyOffset: number): () => Processor<number, number, number, number> {
    return () => {
      let state: KeyValueStore<number, number>;
      let context: ProcessorContext<number, number>;
      return {
        init(c) {
          context = c;
          state = c.getStateStore(stateStoreName);
        },
        process(record: StreamRecord<number, number>) {
          state.putIfAbsent(record.key, 0);
          let storedValue = state.get(record.key) as number;
          for (let i = 0; i < times; i++) context.forward(record.withKey(record.key + i + keyOffset).withValue(record.value + storedValue++));
          state.put(record.key, storedValue);
        },
      };
    };
  }
  const run = (get: () => Processor<number, number, number, number>) =>
    builder
      .stream(topic, { keySerde: I, valueSerde: I })
      .process({ get, stores: () => [storeBuilder()] })
      .foreach((key, value) => void results.push({ key, value }));

  /** KStreamTransformIntegrationTest.shouldTransformWithConnectedStoreProvider */
  it('shouldTransformWithConnectedStoreProvider', () => {
    run(transformer(1, 1));
    verifyResult([
      { key: 2, value: 1 },
      { key: 3, value: 2 },
      { key: 4, value: 3 },
      { key: 3, value: 2 },
      { key: 3, value: 5 },
      { key: 2, value: 4 },
    ]);
  });

  /** KStreamTransformIntegrationTest.shouldFlatTransformWithConnectedStoreProvider */
  it('shouldFlatTransformWithConnectedStoreProvider', () => {
    run(transformer(3, 0));
    const pairs = [[1, 1], [2, 2], [3, 3], [2, 2], [3, 3], [4, 4], [3, 3], [4, 4], [5, 5], [2, 4], [3, 5], [4, 6], [2, 9], [3, 10], [4, 11], [1, 6], [2, 7], [3, 8]];
    verifyResult(pairs.map(([key, value]) => ({ key: key as number, value: value as number })));
  });
});
