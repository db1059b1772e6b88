/**
 * Port of Kafka's AbstractWindowBytesStoreTest (org.apache.kafka.streams.state.internals),
 * run against the in-memory window store and the persistent one (on the
 * KIP-892-style test engine). Inputs and expected outputs are Kafka's; where a
 * case reads Kafka's iterator protocol (peekNextKey, hasNext after close, an
 * iterator seeing later puts) it is adapted to sluice's snapshot arrays and
 * says so. `Long.MAX_VALUE` is LONG_MAX_VALUE.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IllegalArgumentError, IllegalStateError } from '../../../../src/errors.js';
import { Serdes } from '../../../../src/serdes/serdes.js';
import { LONG_MAX_VALUE } from '../../../../src/state/internal/window-bytes.js';
import { INVALID_RANGE_WARNING } from '../../../../src/state/internal/window-bytes.js';
import type { TypedWindowStore } from '../../../../src/state/window-typed-store.js';
import { testContext, type TestContext } from './helpers.js';
import { RETENTION_PERIOD, WINDOW_SIZE, WINDOW_STORE_KINDS, entriesByKey, valuesToSet, windowedPair } from './window-test-support.js';

const SEGMENT_INTERVAL = 60_000;
const defaultStartTime = SEGMENT_INTERVAL - 4;

describe.each(WINDOW_STORE_KINDS)('AbstractWindowBytesStoreTest (%s)', (_kind, buildWindowStore) => {
  const zero = windowedPair(0, 'zero', defaultStartTime);
  const one = windowedPair(1, 'one', defaultStartTime + 1);
  const two = windowedPair(2, 'two', defaultStartTime + 2);
  const three = windowedPair(3, 'three', defaultStartTime + 2);
  const four = windowedPair(4, 'four', defaultStartTime + 4);
  const five = windowedPair(5, 'five', defaultStartTime + 5);

  let windowStore: TypedWindowStore<number, string>;
  let context: TestContext;

  beforeEach(() => {
    windowStore = buildWindowStore(RETENTION_PERIOD, WINDOW_SIZE, false, Serdes.Integer(), Serdes.String());
    context = testContext();
    context.record = { timestamp: 1, headers: {} };
    windowStore.init(context);
  });
  afterEach(() => windowStore.close());

  const putFirstBatch = (store: TypedWindowStore<number, string>, startTime: number): void => {
    context.record = { timestamp: startTime, headers: {} };
    store.put(0, 'zero', startTime);
    store.put(1, 'one', startTime + 1);
    store.put(2, 'two', startTime + 2);
    store.put(3, 'three', startTime + 2);
    store.put(4, 'four', startTime + 4);
    store.put(5, 'five', startTime + 5);
  };
  const putSecondBatch = (store: TypedWindowStore<number, string>, startTime: number): void => {
    store.put(2, 'two+1', startTime + 3);
    store.put(2, 'two+2', startTime + 4);
    store.put(2, 'two+3', startTime + 5);
    store.put(2, 'two+4', startTime + 6);
    store.put(2, 'two+5', startTime + 7);
    store.put(2, 'two+6', startTime + 8);
  };
  const fetch2 = (from: number, to: number): Set<string> => valuesToSet(windowStore.fetch(2, from, to));
  const expectFullChangelog = (): void => {
    const byKey = entriesByKey(context.collected, defaultStartTime);
    expect(byKey.get(0)).toEqual(new Set(['zero@0']));
    expect(byKey.get(1)).toEqual(new Set(['one@1']));
    expect(byKey.get(2)).toEqual(new Set(['two@2', 'two+1@3', 'two+2@4', 'two+3@5', 'two+4@6', 'two+5@7', 'two+6@8']));
    expect(byKey.get(3)).toEqual(new Set(['three@2']));
    expect(byKey.get(4)).toEqual(new Set(['four@4']));
    expect(byKey.get(5)).toEqual(new Set(['five@5']));
    expect(byKey.get(6)).toBeUndefined();
  };

  // AbstractWindowBytesStoreTest.testRangeAndSinglePointFetch
  it('testRangeAndSinglePointFetch', () => {
    putFirstBatch(windowStore, defaultStartTime);
    expect(valuesToSet(windowStore.fetch(0, defaultStartTime + 0 - WINDOW_SIZE, defaultStartTime + 0 + WINDOW_SIZE))).toEqual(new Set(['zero']));
    putSecondBatch(windowStore, defaultStartTime);
    expect(windowStore.fetch(2, defaultStartTime + 3)).toBe('two+1');
    expect(windowStore.fetch(2, defaultStartTime + 4)).toBe('two+2');
    expect(windowStore.fetch(2, defaultStartTime + 5)).toBe('two+3');
    expect(windowStore.fetch(2, defaultStartTime + 6)).toBe('two+4');
    expect(windowStore.fetch(2, defaultStartTime + 7)).toBe('two+5');
    expect(windowStore.fetch(2, defaultStartTime + 8)).toBe('two+6');
    const around = (d: number): Set<string> => fetch2(defaultStartTime + d - WINDOW_SIZE, defaultStartTime + d + WINDOW_SIZE);
    expect(around(-2)).toEqual(new Set([]));
    expect(around(-1)).toEqual(new Set(['two']));
    expect(around(0)).toEqual(new Set(['two', 'two+1']));
    expect(around(1)).toEqual(new Set(['two', 'two+1', 'two+2']));
    expect(around(2)).toEqual(new Set(['two', 'two+1', 'two+2', 'two+3']));
    expect(around(3)).toEqual(new Set(['two', 'two+1', 'two+2', 'two+3', 'two+4']));
    expect(around(4)).toEqual(new Set(['two', 'two+1', 'two+2', 'two+3', 'two+4', 'two+5']));
    expect(around(5)).toEqual(new Set(['two', 'two+1', 'two+2', 'two+3', 'two+4', 'two+5', 'two+6']));
    expect(around(6)).toEqual(new Set(['two+1', 'two+2', 'two+3', 'two+4', 'two+5', 'two+6']));
    expect(around(7)).toEqual(new Set(['two+2', 'two+3', 'two+4', 'two+5', 'two+6']));
    expect(around(8)).toEqual(new Set(['two+3', 'two+4', 'two+5', 'two+6']));
    expect(around(9)).toEqual(new Set(['two+4', 'two+5', 'two+6']));
    expect(around(10)).toEqual(new Set(['two+5', 'two+6']));
    expect(around(11)).toEqual(new Set(['two+6']));
    expect(around(12)).toEqual(new Set([]));
    windowStore.flush();
    expectFullChangelog();
  });

  // AbstractWindowBytesStoreTest.shouldGetAll
  it('shouldGetAll', () => {
    putFirstBatch(windowStore, defaultStartTime);
    expect(windowStore.all()).toEqual([zero, one, two, three, four, five]);
  });

  // AbstractWindowBytesStoreTest.shouldGetAllNonDeletedRecords
  it('shouldGetAllNonDeletedRecords', () => {
    windowStore.put(0, 'zero', defaultStartTime + 0);
    windowStore.put(1, 'one', defaultStartTime + 1);
    windowStore.put(2, 'two', defaultStartTime + 2);
    windowStore.put(3, 'three', defaultStartTime + 3);
    windowStore.put(4, 'four', defaultStartTime + 4);
    windowStore.put(1, null, defaultStartTime + 1);
    windowStore.put(3, null, defaultStartTime + 3);
    expect(windowStore.all()).toEqual([zero, two, four]);
  });

  // AbstractWindowBytesStoreTest.shouldGetAllReturnTimestampOrderedRecords
  it('shouldGetAllReturnTimestampOrderedRecords', () => {
    windowStore.put(4, 'four', defaultStartTime + 4);
    windowStore.put(0, 'zero', defaultStartTime + 0);
    windowStore.put(2, 'two', defaultStartTime + 2);
    windowStore.put(3, 'three', defaultStartTime + 3);
    windowStore.put(1, 'one', defaultStartTime + 1);
    const threeAt3 = windowedPair(3, 'three', defaultStartTime + 3);
    expect(windowStore.all()).toEqual([zero, one, two, threeAt3, four]);
  });

  // AbstractWindowBytesStoreTest.shouldEarlyClosedIteratorStillGetAllRecords (a snapshot needs no close: reading one entry then all() again)
  it('shouldEarlyClosedIteratorStillGetAllRecords', () => {
    windowStore.put(0, 'zero', defaultStartTime + 0);
    windowStore.put(1, 'one', defaultStartTime + 1);
    expect(windowStore.all()[0]).toEqual(zero);
    expect(windowStore.all()).toEqual([zero, one]);
  });

  // AbstractWindowBytesStoreTest.shouldGetBackwardAll
  it('shouldGetBackwardAll', () => {
    putFirstBatch(windowStore, defaultStartTime);
    expect(windowStore.backwardAll()).toEqual([five, four, three, two, one, zero]);
  });

  // AbstractWindowBytesStoreTest.shouldFetchAllInTimeRange
  it('shouldFetchAllInTimeRange', () => {
    putFirstBatch(windowStore, defaultStartTime);
    expect(windowStore.fetchAll(defaultStartTime + 1, defaultStartTime + 4)).toEqual([one, two, three, four]);
    expect(windowStore.fetchAll(defaultStartTime, defaultStartTime + 3)).toEqual([zero, one, two, three]);
    expect(windowStore.fetchAll(defaultStartTime + 1, defaultStartTime + 5)).toEqual([one, two, three, four, five]);
  });

  // AbstractWindowBytesStoreTest.shouldBackwardFetchAllInTimeRange
  it('shouldBackwardFetchAllInTimeRange', () => {
    putFirstBatch(windowStore, defaultStartTime);
    expect(windowStore.backwardFetchAll(defaultStartTime + 1, defaultStartTime + 4)).toEqual([four, three, two, one]);
    expect(windowStore.backwardFetchAll(defaultStartTime, defaultStartTime + 3)).toEqual([three, two, one, zero]);
    expect(windowStore.backwardFetchAll(defaultStartTime + 1, defaultStartTime + 5)).toEqual([five, four, three, two, one]);
  });

  // AbstractWindowBytesStoreTest.testFetchRange
  it('testFetchRange', () => {
    putFirstBatch(windowStore, defaultStartTime);
    const s = defaultStartTime;
    expect(windowStore.fetch(0, 1, s + 0 - WINDOW_SIZE, s + 0 + WINDOW_SIZE)).toEqual([zero, one]);
    expect(windowStore.fetch(1, 1, s + 0 - WINDOW_SIZE, s + 0 + WINDOW_SIZE)).toEqual([one]);
    expect(windowStore.fetch(1, 3, s + 0 - WINDOW_SIZE, s + 0 + WINDOW_SIZE)).toEqual([one, two, three]);
    expect(windowStore.fetch(0, 5, s + 0 - WINDOW_SIZE, s + 0 + WINDOW_SIZE)).toEqual([zero, one, two, three]);
    expect(windowStore.fetch(0, 5, s + 0 - WINDOW_SIZE, s + 0 + WINDOW_SIZE + 5)).toEqual([zero, one, two, three, four, five]);
    expect(windowStore.fetch(0, 5, s + 2, s + 0 + WINDOW_SIZE + 5)).toEqual([two, three, four, five]);
    expect(windowStore.fetch(4, 5, s + 2, s + WINDOW_SIZE)).toEqual([]);
    expect(windowStore.fetch(0, 3, s + 3, s + WINDOW_SIZE + 5)).toEqual([]);
    expect(windowStore.fetch(null, 2, s + 0 - WINDOW_SIZE, s + WINDOW_SIZE + 2)).toEqual([zero, one, two]);
    expect(windowStore.fetch(2, null, s + 0 - WINDOW_SIZE, s + WINDOW_SIZE + 5)).toEqual([two, three, four, five]);
    expect(windowStore.fetch(null, null, s + 0 - WINDOW_SIZE, s + WINDOW_SIZE + 5)).toEqual([zero, one, two, three, four, five]);
  });

  // AbstractWindowBytesStoreTest.testBackwardFetchRange
  it('testBackwardFetchRange', () => {
    putFirstBatch(windowStore, defaultStartTime);
    const s = defaultStartTime;
    expect(windowStore.backwardFetch(0, 1, s + 0 - WINDOW_SIZE, s + 0 + WINDOW_SIZE)).toEqual([one, zero]);
    expect(windowStore.backwardFetch(1, 1, s + 0 - WINDOW_SIZE, s + 0 + WINDOW_SIZE)).toEqual([one]);
    expect(windowStore.backwardFetch(1, 3, s + 0 - WINDOW_SIZE, s + 0 + WINDOW_SIZE)).toEqual([three, two, one]);
    expect(windowStore.backwardFetch(0, 5, s + 0 - WINDOW_SIZE, s + 0 + WINDOW_SIZE)).toEqual([three, two, one, zero]);
    expect(windowStore.backwardFetch(0, 5, s + 0 - WINDOW_SIZE, s + 0 + WINDOW_SIZE + 5)).toEqual([five, four, three, two, one, zero]);
    expect(windowStore.backwardFetch(0, 5, s + 2, s + 0 + WINDOW_SIZE + 5)).toEqual([five, four, three, two]);
    expect(windowStore.backwardFetch(4, 5, s + 2, s + WINDOW_SIZE)).toEqual([]);
    expect(windowStore.backwardFetch(0, 3, s + 3, s + WINDOW_SIZE + 5)).toEqual([]);
    expect(windowStore.backwardFetch(null, 2, s + 0 - WINDOW_SIZE, s + WINDOW_SIZE + 2)).toEqual([two, one, zero]);
    expect(windowStore.backwardFetch(2, null, s + 0 - WINDOW_SIZE, s + WINDOW_SIZE + 5)).toEqual([five, four, three, two]);
    expect(windowStore.backwardFetch(null, null, s + 0 - WINDOW_SIZE, s + WINDOW_SIZE + 5)).toEqual([five, four, three, two, one, zero]);
  });

  // AbstractWindowBytesStoreTest.testPutAndFetchBefore
  it('testPutAndFetchBefore', () => {
    putFirstBatch(windowStore, defaultStartTime);
    const s = defaultStartTime;
    const before = (k: number, d: number): Set<string> => valuesToSet(windowStore.fetch(k, s + d - WINDOW_SIZE, s + d));
    expect(before(0, 0)).toEqual(new Set(['zero']));
    expect(before(1, 1)).toEqual(new Set(['one']));
    expect(before(2, 2)).toEqual(new Set(['two']));
    expect(before(3, 3)).toEqual(new Set(['three']));
    expect(before(4, 4)).toEqual(new Set(['four']));
    expect(before(5, 5)).toEqual(new Set(['five']));
    putSecondBatch(windowStore, defaultStartTime);
    expect(before(2, -1)).toEqual(new Set([]));
    expect(before(2, 0)).toEqual(new Set([]));
    expect(before(2, 1)).toEqual(new Set([]));
    expect(before(2, 2)).toEqual(new Set(['two']));
    expect(before(2, 3)).toEqual(new Set(['two', 'two+1']));
    expect(before(2, 4)).toEqual(new Set(['two', 'two+1', 'two+2']));
    expect(before(2, 5)).toEqual(new Set(['two', 'two+1', 'two+2', 'two+3']));
    expect(before(2, 6)).toEqual(new Set(['two+1', 'two+2', 'two+3', 'two+4']));
    expect(before(2, 7)).toEqual(new Set(['two+2', 'two+3', 'two+4', 'two+5']));
    expect(before(2, 8)).toEqual(new Set(['two+3', 'two+4', 'two+5', 'two+6']));
    expect(before(2, 9)).toEqual(new Set(['two+4', 'two+5', 'two+6']));
    expect(before(2, 10)).toEqual(new Set(['two+5', 'two+6']));
    expect(before(2, 11)).toEqual(new Set(['two+6']));
    expect(before(2, 12)).toEqual(new Set([]));
    expect(before(2, 13)).toEqual(new Set([]));
    windowStore.flush();
    expectFullChangelog();
  });

  // AbstractWindowBytesStoreTest.testPutAndFetchAfter
  it('testPutAndFetchAfter', () => {
    putFirstBatch(windowStore, defaultStartTime);
    const s = defaultStartTime;
    const after = (k: number, d: number): Set<string> => valuesToSet(windowStore.fetch(k, s + d, s + d + WINDOW_SIZE));
    expect(after(0, 0)).toEqual(new Set(['zero']));
    expect(after(1, 1)).toEqual(new Set(['one']));
    expect(after(2, 2)).toEqual(new Set(['two']));
    expect(after(3, 3)).toEqual(new Set([]));
    expect(after(4, 4)).toEqual(new Set(['four']));
    expect(after(5, 5)).toEqual(new Set(['five']));
    putSecondBatch(windowStore, defaultStartTime);
    expect(after(2, -2)).toEqual(new Set([]));
    expect(after(2, -1)).toEqual(new Set(['two']));
    expect(after(2, 0)).toEqual(new Set(['two', 'two+1']));
    expect(after(2, 1)).toEqual(new Set(['two', 'two+1', 'two+2']));
    expect(after(2, 2)).toEqual(new Set(['two', 'two+1', 'two+2', 'two+3']));
    expect(after(2, 3)).toEqual(new Set(['two+1', 'two+2', 'two+3', 'two+4']));
    expect(after(2, 4)).toEqual(new Set(['two+2', 'two+3', 'two+4', 'two+5']));
    expect(after(2, 5)).toEqual(new Set(['two+3', 'two+4', 'two+5', 'two+6']));
    expect(after(2, 6)).toEqual(new Set(['two+4', 'two+5', 'two+6']));
    expect(after(2, 7)).toEqual(new Set(['two+5', 'two+6']));
    expect(after(2, 8)).toEqual(new Set(['two+6']));
    expect(after(2, 9)).toEqual(new Set([]));
    expect(after(2, 10)).toEqual(new Set([]));
    expect(after(2, 11)).toEqual(new Set([]));
    expect(after(2, 12)).toEqual(new Set([]));
    windowStore.flush();
    expectFullChangelog();
  });

  // AbstractWindowBytesStoreTest.testPutSameKeyTimestamp
  it('testPutSameKeyTimestamp', () => {
    windowStore.close();
    windowStore = buildWindowStore(RETENTION_PERIOD, WINDOW_SIZE, true, Serdes.Integer(), Serdes.String());
    windowStore.init(context);
    const s = defaultStartTime;
    windowStore.put(0, 'zero', s);
    expect(valuesToSet(windowStore.fetch(0, s - WINDOW_SIZE, s + WINDOW_SIZE))).toEqual(new Set(['zero']));
    windowStore.put(0, 'zero', s);
    windowStore.put(0, 'zero+', s);
    windowStore.put(0, 'zero++', s);
    const all = new Set(['zero', 'zero', 'zero+', 'zero++']);
    expect(valuesToSet(windowStore.fetch(0, s - WINDOW_SIZE, s + WINDOW_SIZE))).toEqual(all);
    expect(valuesToSet(windowStore.fetch(0, s + 1 - WINDOW_SIZE, s + 1 + WINDOW_SIZE))).toEqual(all);
    expect(valuesToSet(windowStore.fetch(0, s + 2 - WINDOW_SIZE, s + 2 + WINDOW_SIZE))).toEqual(all);
    expect(valuesToSet(windowStore.fetch(0, s + 3 - WINDOW_SIZE, s + 3 + WINDOW_SIZE))).toEqual(all);
    expect(valuesToSet(windowStore.fetch(0, s + 4 - WINDOW_SIZE, s + 4 + WINDOW_SIZE))).toEqual(new Set([]));
    windowStore.flush();
    expect(entriesByKey(context.collected, s).get(0)).toEqual(new Set(['zero@0', 'zero@0', 'zero+@0', 'zero++@0']));
  });

  // AbstractWindowBytesStoreTest.shouldCloseOpenIteratorsWhenStoreIsClosedAndNotThrowInvalidStateStoreExceptionOnHasNext
  // (adapted: a result is a snapshot, still readable after close; the closed store refuses new reads)
  it('shouldCloseOpenIteratorsWhenStoreIsClosedAndNotThrowInvalidStateStoreExceptionOnHasNext', () => {
    windowStore.put(1, 'one', 1);
    windowStore.put(1, 'two', 2);
    windowStore.put(1, 'three', 3);
    const snapshot = windowStore.fetch(1, 1, 3);
    expect(snapshot.length).toBeGreaterThan(0);
    windowStore.close();
    expect(snapshot.map((e) => e.value)).toEqual(['one', 'two', 'three']);
    expect(() => windowStore.fetch(1, 1, 3)).toThrow(IllegalStateError);
  });

  // AbstractWindowBytesStoreTest.shouldFetchAndIterateOverExactKeys
  // (0x7a00000000000000L - 1 is not a JavaScript number: the nearest double below 0x7a00000000000000 is used)
  it('shouldFetchAndIterateOverExactKeys', () => {
    const windowSize = 0x7a00000000000000;
    const retentionPeriod = 0x7a00000000000000;
    const last = 0x7a00000000000000 - 1024;
    const store = buildWindowStore(retentionPeriod, windowSize, false, Serdes.String(), Serdes.String());
    store.init(context);
    store.put('a', '0001', 0);
    store.put('aa', '0002', 0);
    store.put('a', '0003', 1);
    store.put('aa', '0004', 1);
    store.put('a', '0005', last);
    expect(valuesToSet(store.fetch('a', 0, LONG_MAX_VALUE))).toEqual(new Set(['0001', '0003', '0005']));
    expect(new Set(store.fetch('a', 'a', 0, LONG_MAX_VALUE).map((e) => JSON.stringify(e)))).toEqual(
      new Set([windowedPair('a', '0001', 0, windowSize), windowedPair('a', '0003', 1, windowSize), windowedPair('a', '0005', last, windowSize)].map((e) => JSON.stringify(e))),
    );
    expect(new Set(store.fetch('aa', 'aa', 0, LONG_MAX_VALUE).map((e) => JSON.stringify(e)))).toEqual(
      new Set([windowedPair('aa', '0002', 0, windowSize), windowedPair('aa', '0004', 1, windowSize)].map((e) => JSON.stringify(e))),
    );
    store.close();
  });

  // AbstractWindowBytesStoreTest.testDeleteAndUpdate
  it('testDeleteAndUpdate', () => {
    const currentTime = 0;
    windowStore.put(1, 'one', currentTime);
    windowStore.put(1, 'one v2', currentTime);
    expect(windowStore.fetch(1, 0, currentTime)[0]).toEqual({ key: currentTime, value: 'one v2' });
    windowStore.put(1, null, currentTime);
    expect(windowStore.fetch(1, 0, currentTime)).toEqual([]);
  });

  // AbstractWindowBytesStoreTest.shouldReturnNullOnWindowNotFound
  it('shouldReturnNullOnWindowNotFound', () => {
    expect(windowStore.fetch(1, 0)).toBeNull();
  });

  // AbstractWindowBytesStoreTest.shouldThrowNullPointerExceptionOnPutNullKey
  it('shouldThrowNullPointerExceptionOnPutNullKey', () => {
    expect(() => windowStore.put(null as unknown as number, 'anyValue', 0)).toThrow(IllegalArgumentError);
  });

  // AbstractWindowBytesStoreTest.shouldThrowNullPointerExceptionOnGetNullKey
  it('shouldThrowNullPointerExceptionOnGetNullKey', () => {
    expect(() => windowStore.fetch(null as unknown as number, 1, 2)).toThrow(IllegalArgumentError);
  });

  // AbstractWindowBytesStoreTest.shouldFetchAndIterateOverExactBinaryKeys
  it('shouldFetchAndIterateOverExactBinaryKeys', () => {
    const store = buildWindowStore(RETENTION_PERIOD, WINDOW_SIZE, true, Serdes.ByteArray(), Serdes.String());
    store.init(context);
    const key1 = Buffer.from([0]);
    const key2 = Buffer.from([0, 0]);
    const key3 = Buffer.from([0, 0, 0]);
    store.put(key1, '1', 0);
    store.put(key2, '2', 0);
    store.put(key3, '3', 0);
    store.put(key1, '4', 1);
    store.put(key2, '5', 1);
    store.put(key3, '6', 59999);
    store.put(key1, '7', 59999);
    store.put(key2, '8', 59999);
    store.put(key3, '9', 59999);
    expect(valuesToSet(store.fetch(key1, 0, LONG_MAX_VALUE))).toEqual(new Set(['1', '4', '7']));
    expect(valuesToSet(store.fetch(key2, 0, LONG_MAX_VALUE))).toEqual(new Set(['2', '5', '8']));
    expect(valuesToSet(store.fetch(key3, 0, LONG_MAX_VALUE))).toEqual(new Set(['3', '6', '9']));
    store.close();
  });

  // AbstractWindowBytesStoreTest.shouldReturnSameResultsForSingleKeyFetchAndEqualKeyRangeFetch
  it('shouldReturnSameResultsForSingleKeyFetchAndEqualKeyRangeFetch', () => {
    windowStore.put(1, 'one', 0);
    windowStore.put(2, 'two', 1);
    windowStore.put(2, 'two', 2);
    windowStore.put(3, 'three', 3);
    const single = windowStore.fetch(2, 0, 5);
    const range = windowStore.fetch(2, 2, 0, 5);
    expect(single.length).toBe(2);
    expect(range.length).toBe(2);
    expect(single.map((e) => e.value)).toEqual(range.map((e) => e.value));
  });

  // AbstractWindowBytesStoreTest.shouldNotThrowInvalidRangeExceptionWithNegativeFromKey
  it('shouldNotThrowInvalidRangeExceptionWithNegativeFromKey', () => {
    expect(windowStore.fetch(-1, 1, 0, 10)).toEqual([]);
    expect(context.messages).toContain(INVALID_RANGE_WARNING);
  });

  // AbstractWindowBytesStoreTest.shouldMeasureExpiredRecords (the count sits on the store: droppedRecords)
  it('shouldMeasureExpiredRecords', () => {
    const store = buildWindowStore(RETENTION_PERIOD, WINDOW_SIZE, false, Serdes.Integer(), Serdes.String());
    store.init(testContext());
    store.put(1, 'initial record', 2 * RETENTION_PERIOD);
    store.put(1, 'late record', 0);
    store.put(1, 'another on-time record', RETENTION_PERIOD + 1);
    expect(store.droppedRecords).toBe(1);
    store.close();
  });

  // AbstractWindowBytesStoreTest.shouldNotThrowExceptionWhenFetchRangeIsExpired
  it('shouldNotThrowExceptionWhenFetchRangeIsExpired', () => {
    windowStore.put(1, 'one', 0);
    windowStore.put(1, 'two', 4 * RETENTION_PERIOD);
    expect(windowStore.fetch(1, 0, 10)).toEqual([]);
  });

  // AbstractWindowBytesStoreTest.testWindowIteratorPeek (adapted: the first entry of the snapshot)
  it('testWindowIteratorPeek', () => {
    const currentTime = 0;
    windowStore.put(1, 'one', currentTime);
    const result = windowStore.fetchAll(0, currentTime);
    expect(result.length).toBe(1);
    expect(result[0]?.key).toEqual({ key: 1, window: { start: 0, end: WINDOW_SIZE } });
  });

  // AbstractWindowBytesStoreTest.testValueIteratorPeek (adapted: the first entry of the snapshot)
  it('testValueIteratorPeek', () => {
    windowStore.put(1, 'one', 0);
    const result = windowStore.fetch(1, 0, 10);
    expect(result.length).toBe(1);
    expect(result[0]?.key).toBe(0);
  });

  // AbstractWindowBytesStoreTest.shouldNotThrowConcurrentModificationException
  // (adapted: a snapshot holds what was there when taken; puts after it are in the next read)
  it('shouldNotThrowConcurrentModificationException', () => {
    let currentTime = 0;
    windowStore.put(1, 'one', currentTime);
    currentTime += WINDOW_SIZE * 10;
    windowStore.put(1, 'two', currentTime);
    const snapshot = windowStore.all();
    currentTime += WINDOW_SIZE * 10;
    windowStore.put(1, 'three', currentTime);
    currentTime += WINDOW_SIZE * 10;
    windowStore.put(2, 'four', currentTime);
    expect(snapshot).toEqual([windowedPair(1, 'one', 0), windowedPair(1, 'two', WINDOW_SIZE * 10)]);
    expect(windowStore.all()).toEqual([
      windowedPair(1, 'one', 0),
      windowedPair(1, 'two', WINDOW_SIZE * 10),
      windowedPair(1, 'three', WINDOW_SIZE * 20),
      windowedPair(2, 'four', WINDOW_SIZE * 30),
    ]);
  });

  // AbstractWindowBytesStoreTest.testFetchDuplicates
  it('testFetchDuplicates', () => {
    windowStore.close();
    windowStore = buildWindowStore(RETENTION_PERIOD, WINDOW_SIZE, true, Serdes.Integer(), Serdes.String());
    windowStore.init(context);
    let currentTime = 0;
    windowStore.put(1, 'one', currentTime);
    windowStore.put(1, 'one-2', currentTime);
    currentTime += WINDOW_SIZE * 10;
    windowStore.put(1, 'two', currentTime);
    windowStore.put(1, 'two-2', currentTime);
    currentTime += WINDOW_SIZE * 10;
    windowStore.put(1, 'three', currentTime);
    windowStore.put(1, 'three-2', currentTime);
    expect(windowStore.fetch(1, 0, WINDOW_SIZE * 10)).toEqual([
      { key: 0, value: 'one' },
      { key: 0, value: 'one-2' },
      { key: WINDOW_SIZE * 10, value: 'two' },
      { key: WINDOW_SIZE * 10, value: 'two-2' },
    ]);
  });
});
