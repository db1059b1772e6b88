import { describe, expect, it } from 'vitest';
import { Serdes, Stores, Topology, type KeyValueStore } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';

// Kafka's shouldReturnAllStoresNames (a store connected to no processor) is not ported: sluice rejects such a topology when it is built.
function topologyWithStores(): Topology {
  const topology = new Topology().addSource('source', 'input-topic').addSink('sink', 'output-topic', 'source');
  topology.addProcessor('processor', () => ({ process: () => undefined }), 'source');
  const store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('store'), Serdes.Buffer(), Serdes.Buffer());
  topology.addStateStore(store, 'processor');
  topology.addGlobalStore(
    Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('globalStore'), Serdes.Buffer(), Serdes.Buffer()).withLoggingDisabled(),
    'sourceProcessorName',
    {},
    'globalTopicName',
    'globalProcessorName',
    () => ({ process: () => undefined }),
  );
  return topology;
}

describe('TopologyTestDriver.getAllStateStores', () => {
  // Ported from Kafka's TopologyTestDriverTest.shouldReturnAllStores
  it('returns every store, global ones included, by name', () => {
    const driver = new TopologyTestDriver(topologyWithStores());
    try {
      const allStores = driver.getAllStateStores();
      expect(new Set(allStores.keys())).toEqual(new Set(['store', 'globalStore']));
      for (const store of allStores.values()) expect(store).not.toBeNull();
      expect(allStores.get('store')).toBe(driver.getStateStore('store'));
      expect(allStores.get('globalStore')).toBe(driver.getStateStore('globalStore'));
    } finally {
      driver.close();
    }
  });

  // Ported from Kafka's TopologyTestDriverTest.shouldPopulateGlobalStore (the getAllStateStores line)
  it('gives the global store that a piped record populates', () => {
    const topology = new Topology().addGlobalStore(
      Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('source-topic-1-globalStore'), Serdes.String(), Serdes.String()).withLoggingDisabled(),
      'globalSource',
      { keyDeserializer: Serdes.String(), valueDeserializer: Serdes.String() },
      'source-topic-1',
      'globalProcessor',
      () => {
        let store: KeyValueStore<string, string> | undefined;
        return {
          init: (context) => {
            store = context.getStateStore<KeyValueStore<string, string>>('source-topic-1-globalStore');
          },
          process: (record) => store?.put(record.key as string, record.value as string),
        };
      },
    );
    const driver = new TopologyTestDriver(topology);
    try {
      const store = driver.getAllStateStores().get('source-topic-1-globalStore');
      expect(store).not.toBeNull();
      driver.createInputTopic('source-topic-1', Serdes.String(), Serdes.String()).pipeInput('k1', 'v1');
      expect(driver.getKeyValueStore<string, string>('source-topic-1-globalStore')?.get('k1')).toBe('v1');
    } finally {
      driver.close();
    }
  });
});
