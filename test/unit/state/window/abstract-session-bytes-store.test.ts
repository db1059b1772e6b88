/**
 * Port of Kafka's AbstractSessionBytesStoreTest and InMemorySessionStoreTest
 * (org.apache.kafka.streams.state.internals), run on the in-memory session
 * store and the persistent one (on the KIP-892-style test engine). Both expire
 * exactly, so the `InMemoryStore` branches apply to both; findSessions by time
 * is supported by both. Iterator-protocol cases are adapted to snapshot arrays
 * and say so; shouldMatchPositionAfterPut is not ported (no IQv2 Position).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IllegalArgumentError } from '../../../../src/errors.js';
import type { Serde } from '../../../../src/serdes/serde.js';
import { Serdes } from '../../../../src/serdes/serdes.js';
import type { KeyValue } from '../../../../src/records/key-value.js';
import { Stores } from '../../../../src/state/stores.js';
import { sessionBytesStoreSupplier } from '../../../../src/state/window-stores.js';
import { INVALID_RANGE_WARNING, LONG_MAX_VALUE } from '../../../../src/state/internal/window-bytes.js';
import type { TypedSessionStore } from '../../../../src/state/session-typed-store.js';
import type { Windowed } from '../../../../src/state/window-types.js';
import { OverlayTestEngine, asChangelog, testContext, testDisk, type TestContext } from './helpers.js';
import { valuesToSet } from './window-test-support.js';

const SEGMENT_INTERVAL = 60_000;
const RETENTION_PERIOD = 10_000;

type BuildSessionStore = <K, V>(retentionPeriod: number, keySerde: Serde<K>, valueSerde: Serde<V>) => TypedSessionStore<K, V>;

const KINDS: Array<[string, BuildSessionStore]> = [
  [
    'in-memory',
    (retentionPeriod, keySerde, valueSerde) =>
      Stores.sessionStoreBuilder(Stores.inMemorySessionStore('in-memory session store', retentionPeriod), keySerde, valueSerde).build() as never,
  ],
  [
    'persistent',
    (retentionPeriod, keySerde, valueSerde) => {
      const disk = testDisk();
      const supplier = sessionBytesStoreSupplier('rocksDB session store', retentionPeriod, 'persistent', (n) => new OverlayTestEngine(n, disk));
      return Stores.sessionStoreBuilder(supplier, keySerde, valueSerde).build() as never;
    },
  ],
];

const w = <K>(key: K, start: number, end: number): Windowed<K> => ({ key, window: { start, end } });
const pair = <K, V>(key: Windowed<K>, value: V): KeyValue<Windowed<K>, V> => ({ key, value });

describe.each(KINDS)('AbstractSessionBytesStoreTest (%s)', (_kind, buildSessionStore) => {
  let sessionStore: TypedSessionStore<string, number>;
  let context: TestContext;

  beforeEach(() => {
    sessionStore = buildSessionStore(RETENTION_PERIOD, Serdes.String(), Serdes.Long());
    context = testContext();
    sessionStore.init(context);
  });
  afterEach(() => sessionStore.close());

  // AbstractSessionBytesStoreTest.shouldPutAndFindSessionsInRange
  it('shouldPutAndFindSessionsInRange', () => {
    const key = 'a';
    const a1 = w(key, 10, 10);
    const a2 = w(key, 500, 1000);
    sessionStore.put(a1, 1);
    sessionStore.put(a2, 2);
    sessionStore.put(w(key, 1500, 2000), 1);
    sessionStore.put(w(key, 2500, 3000), 2);
    expect(sessionStore.findSessions(key, 0, 1000)).toEqual([pair(a1, 1), pair(a2, 2)]);
    expect(sessionStore.findSessions(key, 400, 600)).toEqual([pair(a2, 2)]);
  });

  // AbstractSessionBytesStoreTest.shouldPutAndBackwardFindSessionsInRange
  it('shouldPutAndBackwardFindSessionsInRange', () => {
    const key = 'a';
    const a1 = w(key, 10, 10);
    const a2 = w(key, 500, 1000);
    sessionStore.put(a1, 1);
    sessionStore.put(a2, 2);
    sessionStore.put(w(key, 1500, 2000), 1);
    sessionStore.put(w(key, 2500, 3000), 2);
    expect(sessionStore.backwardFindSessions(key, 0, 1000)).toEqual([pair(a2, 2), pair(a1, 1)]);
    expect(sessionStore.backwardFindSessions(key, 400, 600)).toEqual([pair(a2, 2)]);
  });

  const sameKey = (): Array<KeyValue<Windowed<string>, number>> => [
    pair(w('a', 0, 0), 1),
    pair(w('a', 10, 10), 2),
    pair(w('a', 100, 100), 3),
    pair(w('a', 1000, 1000), 4),
  ];

  // AbstractSessionBytesStoreTest.shouldFetchAllSessionsWithSameRecordKey
  it('shouldFetchAllSessionsWithSameRecordKey', () => {
    const expected = sameKey();
    for (const kv of expected) sessionStore.put(kv.key, kv.value);
    sessionStore.put(w('aa', 0, 0), 5);
    expect(sessionStore.fetch('a')).toEqual(expected);
  });

  // AbstractSessionBytesStoreTest.shouldFindSessionsForTimeRange
  it('shouldFindSessionsForTimeRange', () => {
    sessionStore.put(w('a', 0, 0), 5);
    expect(sessionStore.findSessions(0, 0)).toEqual([pair(w('a', 0, 0), 5)]);
    sessionStore.put(w('b', 10, 20), 10);
    sessionStore.put(w('c', 30, 40), 20);
    expect(sessionStore.findSessions(0, 20)).toEqual([pair(w('a', 0, 0), 5), pair(w('b', 10, 20), 10)]);
    expect(sessionStore.findSessions(0, 19)).toEqual([pair(w('a', 0, 0), 5)]);
    expect(sessionStore.findSessions(1, 20)).toEqual([pair(w('b', 10, 20), 10)]);
    expect(sessionStore.findSessions(19, 41)).toEqual([pair(w('b', 10, 20), 10), pair(w('c', 30, 40), 20)]);
    expect(sessionStore.findSessions(0, 40)).toEqual([pair(w('a', 0, 0), 5), pair(w('b', 10, 20), 10), pair(w('c', 30, 40), 20)]);
  });

  // AbstractSessionBytesStoreTest.shouldBackwardFetchAllSessionsWithSameRecordKey
  it('shouldBackwardFetchAllSessionsWithSameRecordKey', () => {
    const expected = sameKey();
    for (const kv of expected) sessionStore.put(kv.key, kv.value);
    sessionStore.put(w('aa', 0, 0), 5);
    expect(sessionStore.backwardFetch('a')).toEqual([...expected].reverse());
  });

  const keyRangeSetup = (): Array<KeyValue<Windowed<string>, number>> => {
    const expected = [
      pair(w('aa', 10, 10), 2),
      pair(w('aaa', 100, 100), 3),
      pair(w('aaaa', 100, 100), 6),
      pair(w('b', 1000, 1000), 4),
      pair(w('bb', 1500, 2000), 5),
    ];
    for (const kv of expected) sessionStore.put(kv.key, kv.value);
    sessionStore.put(w('a', 0, 0), 1);
    sessionStore.put(w('bbb', 2500, 3000), 6);
    return expected;
  };

  // AbstractSessionBytesStoreTest.shouldFetchAllSessionsWithinKeyRange
  it('shouldFetchAllSessionsWithinKeyRange', () => {
    const expected = keyRangeSetup();
    expect(sessionStore.fetch('aa', 'bb')).toEqual(expected);
    expect(sessionStore.findSessions('aa', 'bb', 0, LONG_MAX_VALUE)).toEqual(expected);
    expected.unshift(pair(w('a', 0, 0), 1));
    expect(sessionStore.fetch(null, 'bb')).toEqual(expected);
    expected.shift();
    expected.push(pair(w('bbb', 2500, 3000), 6));
    expect(sessionStore.fetch('aa', null)).toEqual(expected);
    expected.unshift(pair(w('a', 0, 0), 1));
    expect(sessionStore.fetch(null, null)).toEqual(expected);
  });

  // AbstractSessionBytesStoreTest.shouldBackwardFetchAllSessionsWithinKeyRange
  it('shouldBackwardFetchAllSessionsWithinKeyRange', () => {
    const expected = keyRangeSetup();
    expect(sessionStore.backwardFetch('aa', 'bb')).toEqual([...expected].reverse());
    expect(sessionStore.backwardFindSessions('aa', 'bb', 0, LONG_MAX_VALUE)).toEqual([...expected].reverse());
    expected.unshift(pair(w('a', 0, 0), 1));
    expect(sessionStore.backwardFetch(null, 'bb')).toEqual([...expected].reverse());
    expected.shift();
    expected.push(pair(w('bbb', 2500, 3000), 6));
    expect(sessionStore.backwardFetch('aa', null)).toEqual([...expected].reverse());
    expected.unshift(pair(w('a', 0, 0), 1));
    expect(sessionStore.backwardFetch(null, null)).toEqual([...expected].reverse());
  });

  // AbstractSessionBytesStoreTest.shouldFetchExactSession
  it('shouldFetchExactSession', () => {
    sessionStore.put(w('a', 0, 4), 1);
    sessionStore.put(w('aa', 0, 3), 2);
    sessionStore.put(w('aa', 0, 4), 3);
    sessionStore.put(w('aa', 1, 4), 4);
    sessionStore.put(w('aaa', 0, 4), 5);
    expect(sessionStore.fetchSession('aa', 0, 4)).toBe(3);
  });

  // AbstractSessionBytesStoreTest.shouldReturnNullOnSessionNotFound
  it('shouldReturnNullOnSessionNotFound', () => {
    expect(sessionStore.fetchSession('any key', 0, 5)).toBeNull();
  });

  // AbstractSessionBytesStoreTest.shouldFindValuesWithinMergingSessionWindowRange
  it('shouldFindValuesWithinMergingSessionWindowRange', () => {
    const key = 'a';
    sessionStore.put(w(key, 0, 0), 1);
    sessionStore.put(w(key, 1000, 1000), 2);
    expect(sessionStore.findSessions(key, -1, 1000)).toEqual([pair(w(key, 0, 0), 1), pair(w(key, 1000, 1000), 2)]);
  });

  // AbstractSessionBytesStoreTest.shouldBackwardFindValuesWithinMergingSessionWindowRange
  it('shouldBackwardFindValuesWithinMergingSessionWindowRange', () => {
    const key = 'a';
    sessionStore.put(w(key, 0, 0), 1);
    sessionStore.put(w(key, 1000, 1000), 2);
    expect(sessionStore.backwardFindSessions(key, -1, 1000)).toEqual([pair(w(key, 1000, 1000), 2), pair(w(key, 0, 0), 1)]);
  });

  // AbstractSessionBytesStoreTest.shouldRemove
  it('shouldRemove', () => {
    sessionStore.put(w('a', 0, 1000), 1);
    sessionStore.put(w('a', 1500, 2500), 2);
    sessionStore.remove(w('a', 0, 1000));
    expect(sessionStore.findSessions('a', 0, 1000)).toEqual([]);
    expect(sessionStore.findSessions('a', 1500, 2500).length).toBeGreaterThan(0);
  });

  // AbstractSessionBytesStoreTest.shouldRemoveOnNullAggValue
  it('shouldRemoveOnNullAggValue', () => {
    sessionStore.put(w('a', 0, 1000), 1);
    sessionStore.put(w('a', 1500, 2500), 2);
    sessionStore.put(w('a', 0, 1000), null);
    expect(sessionStore.findSessions('a', 0, 1000)).toEqual([]);
    expect(sessionStore.findSessions('a', 1500, 2500).length).toBeGreaterThan(0);
  });

  const fiveSessions = (): [Windowed<string>, Windowed<string>, Windowed<string>, Windowed<string>, Windowed<string>] => {
    const sessions: [Windowed<string>, Windowed<string>, Windowed<string>, Windowed<string>, Windowed<string>] = [w('a', 0, 100), w('a', 101, 200), w('a', 201, 300), w('a', 301, 400), w('a', 401, 500)];
    sessions.forEach((s, i) => sessionStore.put(s, i + 1));
    return sessions;
  };

  // AbstractSessionBytesStoreTest.shouldFindSessionsToMerge
  it('shouldFindSessionsToMerge', () => {
    const [, session2, session3] = fiveSessions();
    expect(sessionStore.findSessions('a', 150, 300)).toEqual([pair(session2, 2), pair(session3, 3)]);
  });

  // AbstractSessionBytesStoreTest.shouldBackwardFindSessionsToMerge
  it('shouldBackwardFindSessionsToMerge', () => {
    const [, session2, session3] = fiveSessions();
    expect(sessionStore.backwardFindSessions('a', 150, 300)).toEqual([pair(session3, 3), pair(session2, 2)]);
  });

  // (0x7a00000000000000L - 1 and - 2 are not JavaScript numbers: the nearest doubles below are used)
  const exactKeysSetup = (): void => {
    sessionStore.close();
    sessionStore = buildSessionStore(0x7a00000000000000, Serdes.String(), Serdes.Long());
    sessionStore.init(context);
    sessionStore.put(w('a', 0, 0), 1);
    sessionStore.put(w('aa', 0, 10), 2);
    sessionStore.put(w('a', 10, 20), 3);
    sessionStore.put(w('aa', 10, 20), 4);
    sessionStore.put(w('a', 0x7a00000000000000 - 2048, 0x7a00000000000000 - 1024), 5);
  };

  // AbstractSessionBytesStoreTest.shouldFetchExactKeys
  it('shouldFetchExactKeys', () => {
    exactKeysSetup();
    expect(valuesToSet(sessionStore.findSessions('a', 0, LONG_MAX_VALUE))).toEqual(new Set([1, 3, 5]));
    expect(valuesToSet(sessionStore.findSessions('aa', 0, LONG_MAX_VALUE))).toEqual(new Set([2, 4]));
    expect(valuesToSet(sessionStore.findSessions('a', 'aa', 0, LONG_MAX_VALUE))).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(valuesToSet(sessionStore.findSessions('a', 'aa', 10, 0))).toEqual(new Set([2]));
    expect(valuesToSet(sessionStore.findSessions(null, 'aa', 0, LONG_MAX_VALUE))).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(valuesToSet(sessionStore.findSessions('a', null, 0, LONG_MAX_VALUE))).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(valuesToSet(sessionStore.findSessions(null, null, 0, LONG_MAX_VALUE))).toEqual(new Set([1, 2, 3, 4, 5]));
  });

  // AbstractSessionBytesStoreTest.shouldBackwardFetchExactKeys
  it('shouldBackwardFetchExactKeys', () => {
    exactKeysSetup();
    expect(valuesToSet(sessionStore.backwardFindSessions('a', 0, LONG_MAX_VALUE))).toEqual(new Set([1, 3, 5]));
    expect(valuesToSet(sessionStore.backwardFindSessions('aa', 0, LONG_MAX_VALUE))).toEqual(new Set([2, 4]));
    expect(valuesToSet(sessionStore.backwardFindSessions('a', 'aa', 0, LONG_MAX_VALUE))).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(valuesToSet(sessionStore.backwardFindSessions('a', 'aa', 10, 0))).toEqual(new Set([2]));
    expect(valuesToSet(sessionStore.backwardFindSessions(null, 'aa', 0, LONG_MAX_VALUE))).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(valuesToSet(sessionStore.backwardFindSessions('a', null, 0, LONG_MAX_VALUE))).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(valuesToSet(sessionStore.backwardFindSessions(null, null, 0, LONG_MAX_VALUE))).toEqual(new Set([1, 2, 3, 4, 5]));
  });

  const binaryKeysStore = (): [TypedSessionStore<Buffer, string>, Buffer[]] => {
    const store = buildSessionStore(RETENTION_PERIOD, Serdes.ByteArray(), Serdes.String());
    store.init(context);
    const keys = [Buffer.from([0]), Buffer.from([0, 0]), Buffer.from([0, 0, 0])];
    for (let i = 1; i <= 9; i++) store.put(w(keys[(i - 1) % 3] as Buffer, i, 100), String(i));
    return [store, keys];
  };

  // AbstractSessionBytesStoreTest.shouldFetchAndIterateOverExactBinaryKeys
  it('shouldFetchAndIterateOverExactBinaryKeys', () => {
    const [store, [key1, key2, key3]] = binaryKeysStore();
    expect(valuesToSet(store.findSessions(key1 as Buffer, 0, LONG_MAX_VALUE))).toEqual(new Set(['1', '4', '7']));
    expect(valuesToSet(store.findSessions(key2 as Buffer, 0, LONG_MAX_VALUE))).toEqual(new Set(['2', '5', '8']));
    expect(valuesToSet(store.findSessions(key3 as Buffer, 0, LONG_MAX_VALUE))).toEqual(new Set(['3', '6', '9']));
    store.close();
  });

  // AbstractSessionBytesStoreTest.shouldBackwardFetchAndIterateOverExactBinaryKeys
  it('shouldBackwardFetchAndIterateOverExactBinaryKeys', () => {
    const [store, [key1, key2, key3]] = binaryKeysStore();
    expect(valuesToSet(store.backwardFindSessions(key1 as Buffer, 0, LONG_MAX_VALUE))).toEqual(new Set(['7', '4', '1']));
    expect(valuesToSet(store.backwardFindSessions(key2 as Buffer, 0, LONG_MAX_VALUE))).toEqual(new Set(['8', '5', '2']));
    expect(valuesToSet(store.backwardFindSessions(key3 as Buffer, 0, LONG_MAX_VALUE))).toEqual(new Set(['9', '6', '3']));
    store.close();
  });

  const peekSetup = (): void => {
    sessionStore.put(w('a', 0, 0), 1);
    sessionStore.put(w('aa', 0, 10), 2);
    sessionStore.put(w('a', 10, 20), 3);
    sessionStore.put(w('aa', 10, 20), 4);
  };

  // AbstractSessionBytesStoreTest.testIteratorPeek (adapted: the snapshot's keys in order)
  it('testIteratorPeek', () => {
    peekSetup();
    expect(sessionStore.findSessions('a', 0, 20).map((e) => e.key)).toEqual([w('a', 0, 0), w('a', 10, 20)]);
  });

  // AbstractSessionBytesStoreTest.testIteratorPeekBackward (adapted: the snapshot's keys in order)
  it('testIteratorPeekBackward', () => {
    peekSetup();
    expect(sessionStore.backwardFindSessions('a', 0, 20).map((e) => e.key)).toEqual([w('a', 10, 20), w('a', 0, 0)]);
  });

  // AbstractSessionBytesStoreTest.shouldRestore (adapted: a closed store is not reused; a new one from the same builder restores the changelog)
  it('shouldRestore', () => {
    const expected = sameKey();
    for (const kv of expected) sessionStore.put(kv.key, kv.value);
    expect(sessionStore.fetch('a')).toEqual(expected);
    sessionStore.close();
    sessionStore = buildSessionStore(RETENTION_PERIOD, Serdes.String(), Serdes.Long());
    sessionStore.init(testContext());
    expect(sessionStore.fetch('a')).toEqual([]);
    sessionStore.restoreBatch(asChangelog(context.collected));
    expect(sessionStore.fetch('a')).toEqual(expected);
  });

  // AbstractSessionBytesStoreTest.shouldCloseOpenIteratorsWhenStoreIsClosedAndNotThrowInvalidStateStoreExceptionOnHasNext
  // (adapted: a snapshot stays readable after close)
  it('shouldCloseOpenIteratorsWhenStoreIsClosedAndNotThrowInvalidStateStoreExceptionOnHasNext', () => {
    sessionStore.put(w('a', 0, 0), 1);
    sessionStore.put(w('b', 10, 50), 2);
    sessionStore.put(w('c', 100, 500), 3);
    const snapshot = sessionStore.fetch('a');
    sessionStore.close();
    expect(snapshot).toEqual([pair(w('a', 0, 0), 1)]);
  });

  // AbstractSessionBytesStoreTest.shouldReturnSameResultsForSingleKeyFindSessionsAndEqualKeyRangeFindSessions
  it('shouldReturnSameResultsForSingleKeyFindSessionsAndEqualKeyRangeFindSessions', () => {
    sessionStore.put(w('a', 0, 1), 0);
    sessionStore.put(w('aa', 2, 3), 1);
    sessionStore.put(w('aa', 4, 5), 2);
    sessionStore.put(w('aaa', 6, 7), 3);
    const single = sessionStore.findSessions('aa', 0, 10);
    expect(single.length).toBe(2);
    expect(single).toEqual(sessionStore.findSessions('aa', 'aa', 0, 10));
  });

  // AbstractSessionBytesStoreTest.shouldMeasureExpiredRecords (the count sits on the store: droppedRecords)
  it('shouldMeasureExpiredRecords', () => {
    const store = buildSessionStore(RETENTION_PERIOD, Serdes.String(), Serdes.Long());
    store.init(testContext());
    store.put(w('initial record', 0, 2 * SEGMENT_INTERVAL), 0);
    store.put(w('late record', 0, 0), 0);
    store.put(w('another on-time record', 0, 2 * SEGMENT_INTERVAL), 0);
    expect(store.droppedRecords).toBe(1);
    store.close();
  });

  // AbstractSessionBytesStoreTest.shouldNotThrowExceptionRemovingNonexistentKey
  it('shouldNotThrowExceptionRemovingNonexistentKey', () => {
    expect(() => sessionStore.remove(w('a', 0, 1))).not.toThrow();
  });

  // AbstractSessionBytesStoreTest.shouldThrowNullPointerExceptionOnFindSessionsNullKey
  it('shouldThrowNullPointerExceptionOnFindSessionsNullKey', () => {
    expect(() => sessionStore.findSessions(null as unknown as string, 1, 2)).toThrow(IllegalArgumentError);
  });

  // AbstractSessionBytesStoreTest.shouldThrowNullPointerExceptionOnFetchNullKey
  it('shouldThrowNullPointerExceptionOnFetchNullKey', () => {
    expect(() => sessionStore.fetch(null as unknown as string)).toThrow(IllegalArgumentError);
  });

  // AbstractSessionBytesStoreTest.shouldThrowNullPointerExceptionOnRemoveNullKey
  it('shouldThrowNullPointerExceptionOnRemoveNullKey', () => {
    expect(() => sessionStore.remove(null as unknown as Windowed<string>)).toThrow(IllegalArgumentError);
  });

  // AbstractSessionBytesStoreTest.shouldThrowNullPointerExceptionOnPutNullKey
  it('shouldThrowNullPointerExceptionOnPutNullKey', () => {
    expect(() => sessionStore.put(null as unknown as Windowed<string>, 1)).toThrow(IllegalArgumentError);
  });

  // AbstractSessionBytesStoreTest.shouldNotThrowInvalidRangeExceptionWithNegativeFromKey
  it('shouldNotThrowInvalidRangeExceptionWithNegativeFromKey', () => {
    const keyFrom = Serdes.String().deserialize('', Serdes.Integer().serialize('', -1));
    const keyTo = Serdes.String().deserialize('', Serdes.Integer().serialize('', 1));
    expect(sessionStore.findSessions(keyFrom, keyTo, 0, 10)).toEqual([]);
    expect(context.messages).toContain(INVALID_RANGE_WARNING);
  });

  // AbstractSessionBytesStoreTest.shouldRemoveExpired (both branches: both stores expire exactly)
  it('shouldRemoveExpired (InMemoryStore branch)', () => {
    sessionStore.put(w('a', 0, 0), 1);
    sessionStore.put(w('aa', 0, 10), 2);
    sessionStore.put(w('a', 10, 20), 3);
    sessionStore.put(w('aa', 10, RETENTION_PERIOD), 4);
    expect(valuesToSet(sessionStore.findSessions('a', 'b', 0, LONG_MAX_VALUE))).toEqual(new Set([2, 3, 4]));
  });
  it('shouldRemoveExpired (segmented-store branch)', () => {
    sessionStore.put(w('a', 0, 0), 1);
    sessionStore.put(w('aa', 0, SEGMENT_INTERVAL), 2);
    sessionStore.put(w('a', 10, SEGMENT_INTERVAL), 3);
    sessionStore.put(w('aa', 10, 2 * SEGMENT_INTERVAL), 4);
    expect(valuesToSet(sessionStore.findSessions('a', 'b', 0, LONG_MAX_VALUE))).toEqual(new Set([4]));
  });

  // AbstractSessionBytesStoreTest.shouldNotFetchExpiredSessions
  it('shouldNotFetchExpiredSessions', () => {
    const systemTime = Date.now();
    const R = RETENTION_PERIOD;
    sessionStore.put(w('p', systemTime - 3 * R, systemTime - 2 * R), 1);
    sessionStore.put(w('q', systemTime - 2 * R, systemTime - R), 4);
    sessionStore.put(w('r', systemTime - R, systemTime - R / 2), 3);
    sessionStore.put(w('p', systemTime - R, systemTime - R / 2), 2);
    expect(valuesToSet(sessionStore.findSessions('p', systemTime - 2 * R, systemTime - R))).toEqual(new Set([2]));
    expect(sessionStore.backwardFindSessions('p', systemTime - 5 * R, systemTime - 4 * R)).toEqual([]);
    expect(sessionStore.findSessions('p', 'r', systemTime - 5 * R, systemTime - 4 * R)).toEqual([]);
    expect(valuesToSet(sessionStore.findSessions('p', 'r', systemTime - R, systemTime - R / 2))).toEqual(new Set([2, 3, 4]));
    expect(valuesToSet(sessionStore.findSessions('p', 'r', systemTime - 2 * R, systemTime - R))).toEqual(new Set([2, 3, 4]));
    expect(valuesToSet(sessionStore.backwardFindSessions('p', 'r', systemTime - 2 * R, systemTime - R))).toEqual(new Set([2, 3, 4]));
  });

  // InMemorySessionStoreTest.shouldNotExpireFromOpenIterator
  // (adapted: a snapshot keeps what it held, 1, 2, 3, and does not see the later put of 4)
  it('InMemorySessionStoreTest.shouldNotExpireFromOpenIterator', () => {
    sessionStore.put(w('a', 0, 0), 1);
    sessionStore.put(w('aa', 0, 10), 2);
    sessionStore.put(w('a', 10, 20), 3);
    const iterator = sessionStore.findSessions('a', 'b', 0, RETENTION_PERIOD);
    sessionStore.put(w('aa', 100, 2 * RETENTION_PERIOD), 4);
    expect(valuesToSet(iterator)).toEqual(new Set([1, 2, 3]));
    expect(sessionStore.findSessions('a', 'b', 0, 20)).toEqual([]);
  });
});
