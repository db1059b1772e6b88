/**
 * A versioned store in a Processor API topology under the TopologyTestDriver
 * (Kafka's `getVersionedKeyValueStore`): a processor puts every record with its
 * own timestamp, out of order; the store answers the latest version and the
 * version valid at a time; a record older than the history retention is not
 * put; the key-value getter refuses the versioned store, naming the right one.
 */
import { describe, expect, it } from 'vitest';
import { Serdes, Stores, Topology, VersionedKeyValueStore } from '../../../../src/index.js';
import { TopologyTestDriver } from '../../../../src/testing.js';

describe.each(['persistent', 'in-memory'] as const)('a %s versioned store under the TopologyTestDriver', (kind) => {
  it('keeps versions by record timestamp; out-of-order updates land in history, expired ones are refused', () => {
    const supplier = kind === 'persistent' ? Stores.persistentVersionedKeyValueStore('prices', 1000) : Stores.inMemoryVersionedKeyValueStore('prices', 1000);
    const results: number[] = [];
    const topology = new Topology()
      .addSource('src', 'prices', { keySerde: Serdes.String(), valueSerde: Serdes.String() })
      .addProcessor('put', () => {
        let store: VersionedKeyValueStore<string, string>;
        return {
          init: (context) => void (store = context.getStateStore('prices')),
          process: (record) => void results.push(store.put(record.key as string, record.value as string, record.timestamp)),
        };
      }, 'src')
      .addStateStore(Stores.versionedKeyValueStoreBuilder(supplier, Serdes.String(), Serdes.String()), 'put');
    const driver = new TopologyTestDriver(topology);
    try {
      const input = driver.createInputTopic('prices', Serdes.String(), Serdes.String());
      input.pipeInput('apple', '1.00', 100);
      input.pipeInput('apple', '1.20', 300);
      input.pipeInput('apple', '1.10', 200); // out of order: history, valid until 300
      input.pipeInput('pear', '2.00', 1500); // stream time 1500: versions before 500 are beyond retention
      input.pipeInput('apple', '0.90', 400); // too old: not put
      expect(results).toEqual([-1, -1, 300, -1, VersionedKeyValueStore.PUT_RETURN_CODE_NOT_PUT]);
      const store = driver.getVersionedKeyValueStore<string, string>('prices')!;
      expect(store.get('apple')).toEqual({ value: '1.20', timestamp: 300 });
      expect(store.get('apple', 1000)).toEqual({ value: '1.20', timestamp: 300 });
      expect(store.get('pear', 1499)).toBeNull();
      expect(store.get('apple', 250)).toBeNull(); // 250 < 1500 - 1000 and not the latest version: beyond retention
      expect(() => driver.getKeyValueStore('prices')).toThrow(/versioned key-value store; read it with getVersionedKeyValueStore\('prices'\)/);
    } finally {
      driver.close();
    }
  });
});
