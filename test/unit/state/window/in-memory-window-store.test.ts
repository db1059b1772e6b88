/**
 * Port of Kafka's InMemoryWindowStoreTest (org.apache.kafka.streams.state.internals),
 * run on the in-memory and the persistent window store (both expire exactly).
 * shouldMatchPositionAfterPut is not ported (sluice stores have no IQv2 Position).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Serdes } from '../../../../src/serdes/serdes.js';
import { WindowKeySchema } from '../../../../src/state/window-key-schema.js';
import type { TypedWindowStore } from '../../../../src/state/window-typed-store.js';
import { testContext, type TestContext } from './helpers.js';
import { RETENTION_PERIOD, WINDOW_SIZE, WINDOW_STORE_KINDS, windowedPair } from './window-test-support.js';

describe.each(WINDOW_STORE_KINDS)('InMemoryWindowStoreTest (%s)', (_kind, buildWindowStore) => {
  let windowStore: TypedWindowStore<number, string>;
  let context: TestContext;

  beforeEach(() => {
    windowStore = buildWindowStore(RETENTION_PERIOD, WINDOW_SIZE, false, Serdes.Integer(), Serdes.String());
    context = testContext();
    windowStore.init(context);
  });
  afterEach(() => windowStore.close());

  // InMemoryWindowStoreTest.shouldRestore
  it('shouldRestore', () => {
    expect(windowStore.all()).toEqual([]);
    const raw = (k: number): Buffer => Serdes.Integer().serialize('', k) as Buffer;
    const value = (v: string): Buffer => Buffer.from(v);
    const restorableEntries = [
      { key: WindowKeySchema.toStoreKeyBinary(raw(1), 0, 0), value: value('one') },
      { key: WindowKeySchema.toStoreKeyBinary(raw(2), WINDOW_SIZE, 0), value: value('two') },
      { key: WindowKeySchema.toStoreKeyBinary(raw(3), 2 * WINDOW_SIZE, 0), value: value('three') },
    ];
    windowStore.restoreBatch(restorableEntries.map((e, offset) => ({ ...e, timestamp: 0, offset })));
    expect(windowStore.fetchAll(0, 2 * WINDOW_SIZE)).toEqual([
      windowedPair(1, 'one', 0),
      windowedPair(2, 'two', WINDOW_SIZE),
      windowedPair(3, 'three', 2 * WINDOW_SIZE),
    ]);
  });

  // InMemoryWindowStoreTest.shouldNotExpireFromOpenIterator (results taken before the expiring put keep their entries)
  it('shouldNotExpireFromOpenIterator', () => {
    windowStore.put(1, 'one', 0);
    windowStore.put(1, 'two', 10);
    windowStore.put(2, 'one', 5);
    windowStore.put(2, 'two', 15);
    const iterator1 = windowStore.fetch(1, 0, 50);
    const iterator2 = windowStore.fetch(2, 0, 50);
    // This put expires all four previous records, but they should still be returned from already open iterators
    windowStore.put(1, 'four', 2 * RETENTION_PERIOD);
    expect(iterator1).toEqual([{ key: 0, value: 'one' }, { key: 10, value: 'two' }]);
    expect(iterator2).toEqual([{ key: 5, value: 'one' }, { key: 15, value: 'two' }]);
    expect(windowStore.fetch(1, 0, 50)).toEqual([]);
  });

  // InMemoryWindowStoreTest.testExpiration
  it('testExpiration', () => {
    let currentTime = 0;
    windowStore.put(1, 'one', currentTime);
    currentTime += RETENTION_PERIOD / 4;
    windowStore.put(1, 'two', currentTime);
    currentTime += RETENTION_PERIOD / 4;
    windowStore.put(1, 'three', currentTime);
    currentTime += RETENTION_PERIOD / 4;
    windowStore.put(1, 'four', currentTime);
    // increase current time to the full RETENTION_PERIOD to expire first record
    currentTime = currentTime + RETENTION_PERIOD / 4;
    windowStore.put(1, 'five', currentTime);
    let iterator = windowStore.fetchAll(0, currentTime);
    // effect of this put (expires next oldest record, adds new one) should not be reflected in the already fetched results
    currentTime = currentTime + RETENTION_PERIOD / 4;
    windowStore.put(1, 'six', currentTime);
    expect(iterator).toEqual([
      windowedPair(1, 'two', RETENTION_PERIOD / 4),
      windowedPair(1, 'three', RETENTION_PERIOD / 2),
      windowedPair(1, 'four', 3 * (RETENTION_PERIOD / 4)),
      windowedPair(1, 'five', RETENTION_PERIOD),
    ]);
    iterator = windowStore.fetchAll(0, currentTime);
    expect(iterator).toEqual([
      windowedPair(1, 'three', RETENTION_PERIOD / 2),
      windowedPair(1, 'four', 3 * (RETENTION_PERIOD / 4)),
      windowedPair(1, 'five', RETENTION_PERIOD),
      windowedPair(1, 'six', 5 * (RETENTION_PERIOD / 4)),
    ]);
  });
});
