import { describe, expect, it } from 'vitest';
import { Serdes, Stores, Topology } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';

// Ported in spirit from Kafka's TopologyTestDriverTest.shouldReturnCorrectPersistentStoreTypeOnly /
// shouldReturnCorrectInMemoryStoreTypeOnly: a getter asked for a store the topology does not have returns null.
describe('TopologyTestDriver store getters for an unknown store', () => {
  it('return null (as Kafka) instead of throwing', () => {
    const topology = new Topology()
      .addSource('src', 'in')
      .addProcessor('p', () => ({ process: () => undefined }), 'src')
      .addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('kv'), Serdes.String(), Serdes.String()), 'p');
    const driver = new TopologyTestDriver(topology);
    try {
      expect(driver.getStateStore('unknown')).toBeNull();
      expect(driver.getKeyValueStore('unknown')).toBeNull();
      expect(driver.getTimestampedKeyValueStore('unknown')).toBeNull();
      expect(driver.getWindowStore('unknown')).toBeNull();
      expect(driver.getTimestampedWindowStore('unknown')).toBeNull();
      expect(driver.getSessionStore('unknown')).toBeNull();
      expect(driver.getKeyValueStore('kv')).not.toBeNull();
      // a store of another kind still throws (kept; see the migration guide)
      expect(() => driver.getWindowStore('kv')).toThrow(/not a window store/);
    } finally {
      driver.close();
    }
  });
});
