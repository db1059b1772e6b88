import { afterEach, describe, expect, it } from 'vitest';
import { Serdes, Stores, ValueAndTimestamp } from '../../../src/index.js';
import type { MeteredTimestampedKeyValueStore } from '../../../src/state/timestamped-key-value-store.js';
import { storeContext, tempStateDir } from './helpers.js';

describe('timestamped key-value store', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  it('ValueAndTimestamp.make returns null for a null value, as Kafka', () => {
    expect(ValueAndTimestamp.make(null, 5)).toBeNull();
    expect(ValueAndTimestamp.make('v', 5)).toEqual({ value: 'v', timestamp: 5 });
    expect(ValueAndTimestamp.getValueOrNull(null)).toBeNull();
    expect(ValueAndTimestamp.getValueOrNull({ value: 3, timestamp: 1 })).toBe(3);
  });

  for (const supplier of [() => Stores.inMemoryKeyValueStore('ts'), () => Stores.persistentTimestampedKeyValueStore('ts')]) {
    it(`stores 8-byte big-endian timestamp + value bytes (${supplier().kind})`, () => {
      const dir = tempStateDir();
      const store = Stores.timestampedKeyValueStoreBuilder(supplier(), Serdes.String(), Serdes.String()).withLoggingDisabled().build() as MeteredTimestampedKeyValueStore<string, string>;
      store.init(storeContext(dir.dir));
      cleanups.push(() => {
        store.close();
        dir.cleanup();
      });
      store.put('k', ValueAndTimestamp.make('hello', 0x0102030405));
      store.put('gone', ValueAndTimestamp.make('x', 1));
      store.put('gone', ValueAndTimestamp.make<string>(null, 2));
      const bytes = store.inner.get(Buffer.from('k'));
      expect(bytes?.toString('hex')).toBe('0000000102030405' + Buffer.from('hello').toString('hex'));
      expect(store.get('k')).toEqual({ value: 'hello', timestamp: 0x0102030405 });
      expect(store.get('gone')).toBeNull();
      store.commit(1);
      expect(store.all()).toEqual([{ key: 'k', value: { value: 'hello', timestamp: 0x0102030405 } }]);
    });
  }
});
