/**
 * Ported from Kafka's AbstractKeyValueStoreTest (streams/src/test/java/org/
 * apache/kafka/streams/state/internals), run on the in-memory engine and on
 * the lmdb engine. Inputs and expected outputs are Kafka's. Differences:
 * Kafka's NullPointerException is sluice's IllegalArgumentError; ranges are
 * arrays (snapshots), so "iterator" checks read the array; `store.flush()` is
 * the driver's flush (flush + commit, where a persistent store writes).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IllegalArgumentError, Serdes } from '../../../../src/index.js';
import type { MeteredKeyValueStore } from '../../../../src/state/metered-key-value-store.js';
import { INVALID_RANGE_WARNING } from '../../../../src/state/metered-key-value-store.js';
import type { Serde } from '../../../../src/serdes/serde.js';
import { KeyValueStoreTestDriver, type EngineName } from './kv-store-driver.js';

const toMap = (entries: ReadonlyArray<{ key: number; value: string }>): Map<number, string> => new Map(entries.map((e) => [e.key, e.value]));

describe.each<EngineName>(['in-memory', 'lmdb'])('AbstractKeyValueStoreTest on %s', (engine) => {
  let driver: KeyValueStoreTestDriver;
  let store: MeteredKeyValueStore<number, string>;

  beforeEach(() => {
    driver = new KeyValueStoreTestDriver(engine);
    store = driver.createStore();
  });
  afterEach(() => {
    store.close();
    driver.clear();
  });

  // AbstractKeyValueStoreTest.shouldNotIncludeDeletedFromRangeResult
  it('shouldNotIncludeDeletedFromRangeResult', () => {
    store.close();
    let numCalls = 0;
    const string = Serdes.String();
    const serde: Serde<string> = {
      serialize: (topic, data) => {
        if (++numCalls > 3) throw new Error('Value serializer is called; it should never happen');
        return string.serialize(topic, data);
      },
      deserialize: (topic, data) => string.deserialize(topic, data),
    };
    store = driver.createStore('my-store', serde);
    store.put(0, 'zero');
    store.put(1, 'one');
    store.put(2, 'two');
    store.delete(0);
    store.delete(1);
    // should not include deleted records in iterator
    expect(toMap(store.all())).toEqual(new Map([[2, 'two']]));
  });

  // AbstractKeyValueStoreTest.shouldDeleteIfSerializedValueIsNull
  it('shouldDeleteIfSerializedValueIsNull', () => {
    store.close();
    const string = Serdes.String();
    const serde: Serde<string> = {
      serialize: (topic, data) => (data === 'null' ? null : string.serialize(topic, data)),
      deserialize: (topic, data) => string.deserialize(topic, data),
    };
    store = driver.createStore('my-store', serde);
    store.put(0, 'zero');
    store.put(1, 'one');
    store.put(2, 'two');
    store.put(0, 'null');
    store.put(1, 'null');
    expect(toMap(store.all())).toEqual(new Map([[2, 'two']]));
  });

  for (const reverse of [false, true]) {
    // AbstractKeyValueStoreTest.testPutGetRange / testPutGetReverseRange
    it(reverse ? 'testPutGetReverseRange' : 'testPutGetRange', () => {
      store.put(0, 'zero');
      store.put(1, 'one');
      store.put(2, 'two');
      store.put(4, 'four');
      store.put(5, 'five');
      expect(driver.sizeOf(store)).toBe(5);
      expect(store.get(0)).toBe('zero');
      expect(store.get(1)).toBe('one');
      expect(store.get(2)).toBe('two');
      expect(store.get(3)).toBeNull();
      expect(store.get(4)).toBe('four');
      expect(store.get(5)).toBe('five');
      driver.flush(store);
      store.delete(5);
      expect(driver.sizeOf(store)).toBe(4);
      driver.flush(store);
      expect(driver.flushedEntryStored(0)).toBe('zero');
      expect(driver.flushedEntryStored(1)).toBe('one');
      expect(driver.flushedEntryStored(2)).toBe('two');
      expect(driver.flushedEntryStored(4)).toBe('four');
      expect(driver.flushedEntryStored(5)).toBeNull();
      expect(driver.flushedEntryRemoved(0)).toBe(false);
      expect(driver.flushedEntryRemoved(1)).toBe(false);
      expect(driver.flushedEntryRemoved(2)).toBe(false);
      expect(driver.flushedEntryRemoved(4)).toBe(false);
      expect(driver.flushedEntryRemoved(5)).toBe(true);
      const expected = new Map([[2, 'two'], [4, 'four']]);
      const range = reverse ? store.reverseRange.bind(store) : store.range.bind(store);
      expect(toMap(range(2, 4))).toEqual(expected);
      expect(toMap(range(2, 6))).toEqual(expected);
      expected.set(0, 'zero');
      expected.set(1, 'one');
      expect(toMap(reverse ? store.reverseAll() : store.all())).toEqual(expected);
    });
  }

  // AbstractKeyValueStoreTest.testPutGetWithDefaultSerdes
  it('testPutGetWithDefaultSerdes', () => {
    store.put(0, 'zero');
    store.put(1, 'one');
    store.put(2, 'two');
    store.put(4, 'four');
    store.put(5, 'five');
    expect(driver.sizeOf(store)).toBe(5);
    expect([0, 1, 2, 3, 4, 5].map((k) => store.get(k))).toEqual(['zero', 'one', 'two', null, 'four', 'five']);
    driver.flush(store);
    store.delete(5);
    driver.flush(store);
    expect([0, 1, 2, 4, 5].map((k) => driver.flushedEntryStored(k))).toEqual(['zero', 'one', 'two', 'four', null]);
    expect([0, 1, 2, 4, 5].map((k) => driver.flushedEntryRemoved(k))).toEqual([false, false, false, false, true]);
  });

  for (const name of ['testRestore', 'testRestoreWithDefaultSerdes']) {
    // AbstractKeyValueStoreTest.testRestore / testRestoreWithDefaultSerdes
    it(name, () => {
      store.close();
      driver.addEntryToRestoreLog(0, 'zero');
      driver.addEntryToRestoreLog(1, 'one');
      driver.addEntryToRestoreLog(2, 'two');
      driver.addEntryToRestoreLog(3, 'three');
      store = driver.createStore();
      store.restoreBatch(driver.restoredEntries());
      expect(driver.checkForRestoredEntries(store)).toBe(0);
      expect(driver.sizeOf(store)).toBe(4);
    });
  }

  // AbstractKeyValueStoreTest.testPutIfAbsent
  it('testPutIfAbsent', () => {
    expect(store.putIfAbsent(0, 'zero')).toBeNull();
    expect(store.putIfAbsent(1, 'one')).toBeNull();
    expect(store.putIfAbsent(2, 'two')).toBeNull();
    expect(store.putIfAbsent(4, 'four')).toBeNull();
    expect(store.putIfAbsent(4, 'unexpected value')).toBe('four');
    expect(driver.sizeOf(store)).toBe(4);
    expect([0, 1, 2, 3, 4].map((k) => store.get(k))).toEqual(['zero', 'one', 'two', null, 'four']);
    driver.flush(store);
    expect([0, 1, 2, 4].map((k) => driver.flushedEntryStored(k))).toEqual(['zero', 'one', 'two', 'four']);
    expect([0, 1, 2, 4].map((k) => driver.flushedEntryRemoved(k))).toEqual([false, false, false, false]);
  });

  const nullKey = null as unknown as number;
  // AbstractKeyValueStoreTest.shouldThrowNullPointerExceptionOnPutNullKey, ...OnPutIfAbsentNullKey, ...OnPutAllNullKey, ...OnDeleteNullKey, ...OnGetNullKey
  it('shouldThrowNullPointerExceptionOn{Put,PutIfAbsent,PutAll,Delete,Get}NullKey', () => {
    expect(() => store.put(nullKey, 'anyValue')).toThrow(IllegalArgumentError);
    expect(() => store.putIfAbsent(nullKey, 'anyValue')).toThrow(IllegalArgumentError);
    expect(() => store.putAll([{ key: nullKey, value: 'anyValue' }])).toThrow(IllegalArgumentError);
    expect(() => store.delete(nullKey)).toThrow(IllegalArgumentError);
    expect(() => store.get(nullKey)).toThrow(IllegalArgumentError);
  });

  // AbstractKeyValueStoreTest.shouldNotThrowNullPointerExceptionOnPutNullValue, ...OnPutIfAbsentNullValue, ...OnPutAllNullKey
  it('shouldNotThrowNullPointerExceptionOn{Put,PutIfAbsent,PutAll}NullValue', () => {
    store.put(1, null);
    store.putIfAbsent(1, null as unknown as string);
    store.putAll([{ key: 1, value: null }]);
    expect(store.get(1)).toBeNull();
  });

  const threeEntries = (): void => {
    store.put(0, 'zero');
    store.put(1, 'one');
    store.put(2, 'two');
  };
  const zero = { key: 0, value: 'zero' };
  const one = { key: 1, value: 'one' };
  const two = { key: 2, value: 'two' };

  // AbstractKeyValueStoreTest.shouldReturnValueOnRangeNullToKey / KeyToNull / NullToNull
  it('shouldReturnValueOnRange{NullToKey,KeyToNull,NullToNull}', () => {
    threeEntries();
    expect(store.range(null, 1)).toEqual([zero, one]);
    expect(store.range(1, null)).toEqual([one, two]);
    expect(store.range(null, null)).toEqual([zero, one, two]);
  });

  // AbstractKeyValueStoreTest.shouldReturnValueOnReverseRangeNullToKey / KeyToNull / NullToNull
  it('shouldReturnValueOnReverseRange{NullToKey,KeyToNull,NullToNull}', () => {
    threeEntries();
    expect(store.reverseRange(null, 1)).toEqual([one, zero]);
    expect(store.reverseRange(1, null)).toEqual([two, one]);
    expect(store.reverseRange(null, null)).toEqual([two, one, zero]);
  });

  // AbstractKeyValueStoreTest.testSize
  it('testSize', () => {
    expect(store.approximateNumEntries()).toBe(0);
    store.put(0, 'zero');
    store.put(1, 'one');
    store.put(2, 'two');
    store.put(4, 'four');
    store.put(5, 'five');
    driver.flush(store);
    expect(store.approximateNumEntries()).toBe(5);
  });

  // AbstractKeyValueStoreTest.shouldPutAll / shouldPutReverseAll
  it('shouldPutAll / shouldPutReverseAll', () => {
    store.putAll([one, two]);
    expect(store.all()).toEqual([one, two]);
    expect(store.reverseAll()).toEqual([two, one]);
  });

  // AbstractKeyValueStoreTest.shouldDeleteFromStore
  it('shouldDeleteFromStore', () => {
    store.put(1, 'one');
    store.put(2, 'two');
    store.delete(2);
    expect(store.get(2)).toBeNull();
  });

  // AbstractKeyValueStoreTest.shouldReturnSameResultsForGetAndRangeWithEqualKeys / ...ReverseRange...
  it('shouldReturnSameResultsForGetAnd{Range,ReverseRange}WithEqualKeys', () => {
    store.putAll([one, two, { key: 3, value: 'three' }]);
    expect(store.range(2, 2).map((e) => e.value)).toEqual([store.get(2)]);
    expect(store.reverseRange(2, 2).map((e) => e.value)).toEqual([store.get(2)]);
  });

  // AbstractKeyValueStoreTest.shouldNotThrowConcurrentModificationException
  it('shouldNotThrowConcurrentModificationException', () => {
    store.put(0, 'zero');
    const results = store.range(0, 2);
    store.put(1, 'one');
    expect(results[0]).toEqual(zero);
  });

  // AbstractKeyValueStoreTest.shouldNotThrowInvalidRangeExceptionWithNegativeFromKey, ...ReverseRange..., ...WithFromLargerThanTo (both)
  it('shouldNotThrowInvalid{Range,ReverseRange}Exception{WithNegativeFromKey,WithFromLargerThanTo}', () => {
    expect(store.range(-1, 1)).toEqual([]);
    expect(store.reverseRange(-1, 1)).toEqual([]);
    expect(store.range(2, 1)).toEqual([]);
    expect(store.reverseRange(2, 1)).toEqual([]);
    expect(driver.logs.filter((l) => l.msg === INVALID_RANGE_WARNING && l.level === 40)).toHaveLength(4);
  });

  // AbstractKeyValueStoreTest.prefixScanShouldNotThrowConcurrentModificationException
  it('prefixScanShouldNotThrowConcurrentModificationException', () => {
    store.put(0, 'zero');
    store.put(1, 'one');
    store.put(222, 'two-hundred-twenty-two');
    store.put(2, 'two');
    store.put(22, 'twenty-two');
    store.put(3, 'three');
    const iter = store.prefixScan(2, Serdes.Integer());
    store.delete(22);
    expect(iter).toEqual([two]);
  });
});
