import { describe, expect, it } from 'vitest';
import { Serdes, Stores, Topology } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import type { WindowStore } from '../../../src/state/window-store.js';
import { storeOf } from '../../helpers/store-of.js';

describe('TopologyTestDriver window and session store getters', () => {
  it('getWindowStore returns the window store a processor wrote; getSessionStore and getWindowStore refuse other kinds', () => {
    const topology = new Topology()
      .addSource('src', 'in')
      .addProcessor('win', () => {
        let store: WindowStore<string, string>;
        return {
          init(c) {
            store = c.getStateStore<WindowStore<string, string>>('w');
          },
          process(r) {
            store.put(String(r.key), String(r.value), Math.floor(r.timestamp / 1000) * 1000);
          },
        };
      }, 'src')
      .addStateStore(Stores.windowStoreBuilder(Stores.inMemoryWindowStore('w', 60_000, 1000, false), Serdes.String(), Serdes.String()), 'win')
      .addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('kv'), Serdes.String(), Serdes.String()), 'win');
    const driver = new TopologyTestDriver(topology);
    try {
      const input = driver.createInputTopic('in', Serdes.String(), Serdes.String());
      input.pipeInput('a', 'x', 1500);
      input.pipeInput('a', 'y', 2500);
      const w = storeOf(driver.getWindowStore<string, string>('w'));
      expect(w.fetch('a', 1000)).toBe('x');
      expect(w.fetch('a', 2000)).toBe('y');
      expect(() => storeOf(driver.getSessionStore('w'))).toThrow(/not a session store/);
      expect(() => storeOf(driver.getWindowStore('kv'))).toThrow(/not a window store/);
    } finally {
      driver.close();
    }
  });
});
