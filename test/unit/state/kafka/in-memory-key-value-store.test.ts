/**
 * Ported from Kafka's InMemoryKeyValueStoreTest (its own cases; the inherited
 * AbstractKeyValueStoreTest cases run in abstract-key-value-store.test.ts).
 * Not ported: the position cases (no IQv2 positions) and the live-iterator
 * cases (hasNext/peekNextKey after a delete): sluice ranges are snapshots.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Serdes, Stores } from '../../../../src/index.js';
import type { MeteredKeyValueStore } from '../../../../src/state/metered-key-value-store.js';
import { storeContext, tempStateDir } from '../helpers.js';
import { KeyValueStoreTestDriver } from './kv-store-driver.js';
import { prefixScanCases } from './prefix-scan-cases.js';

describe('InMemoryKeyValueStoreTest', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  function byteStore(): MeteredKeyValueStore<Buffer, Buffer> {
    const dir = tempStateDir();
    const store = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('in-memory-byte-store'), Serdes.ByteArray(), Serdes.ByteArray()).build() as MeteredKeyValueStore<Buffer, Buffer>;
    store.init(storeContext(dir.dir));
    cleanups.push(() => {
      store.close();
      dir.cleanup();
    });
    return store;
  }

  // InMemoryKeyValueStoreTest.shouldRemoveKeysWithNullValues
  it('shouldRemoveKeysWithNullValues', () => {
    const driver = new KeyValueStoreTestDriver('in-memory');
    cleanups.push(() => driver.clear());
    driver.addEntryToRestoreLog(0, 'zero');
    driver.addEntryToRestoreLog(1, 'one');
    driver.addEntryToRestoreLog(2, 'two');
    driver.addEntryToRestoreLog(3, 'three');
    driver.addEntryToRestoreLog(0, null);
    const store = driver.createStore();
    store.restoreBatch(driver.restoredEntries());
    expect(driver.sizeOf(store)).toBe(3);
    expect(store.get(0)).toBeNull();
  });

  prefixScanCases('InMemoryKeyValueStoreTest', () => {
    const store = byteStore();
    return { store, flush: () => store.flush() };
  });

  // InMemoryKeyValueStoreTest.iteratorHasNextOnEmptyStoreShouldReturnFalse / iteratorNextOnEmptyStoreShouldThrowException
  it('iteratorHasNextOnEmptyStoreShouldReturnFalse', () => {
    expect(byteStore().all()).toEqual([]);
  });

  // InMemoryKeyValueStoreTest.iteratorNextShouldIterateOverAllElements
  it('iteratorNextShouldIterateOverAllElements', () => {
    const store = byteStore();
    store.put(Buffer.from('key1'), Buffer.from('value1'));
    store.put(Buffer.from('key2'), Buffer.from('value2'));
    expect(store.all().map((e) => [e.key.toString(), e.value.toString()])).toEqual([
      ['key1', 'value1'],
      ['key2', 'value2'],
    ]);
  });
});
