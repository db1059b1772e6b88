import { describe, expect, it } from 'vitest';
import { Serdes, Stores, Topology } from '../../../src/index.js';
import type { KeyValueStore } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';

// After Kafka's TopologyTestDriverTest.shouldCaptureInternalTopicNamesIfWrittenInto: the changelog topic of a
// logged store is among producedTopicNames() once the store was written.
describe('TopologyTestDriver.producedTopicNames', () => {
  it('includes the changelog topics written to', () => {
    const topology = new Topology()
      .addSource('src', 'in')
      .addProcessor('p', () => {
        let store: KeyValueStore<string, string>;
        return {
          init(c) {
            store = c.getStateStore<KeyValueStore<string, string>>('kv');
          },
          process(r) {
            store.put(String(r.key), String(r.value));
          },
        };
      }, 'src')
      .addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('kv'), Serdes.String(), Serdes.String()), 'p');
    const driver = new TopologyTestDriver(topology, { applicationId: 'app' });
    try {
      expect(driver.producedTopicNames()).toEqual([]);
      driver.createInputTopic('in', Serdes.String(), Serdes.String()).pipeInput('a', 'x');
      expect(new Set(driver.producedTopicNames())).toEqual(new Set(['app-kv-changelog']));
    } finally {
      driver.close();
    }
  });
});
