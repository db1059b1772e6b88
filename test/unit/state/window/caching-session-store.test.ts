/**
 * Ported from Kafka Streams' `CachingPersistentSessionStoreTest` (inputs and
 * expected outputs unchanged), on the typed store over the caching layer
 * over an in-memory session engine, logging disabled, as Kafka's setup
 * (`CachingSessionStore` over a session store of infinite retention, the
 * record context at timestamp 10).
 *
 * Not ported: the eviction cases (`shouldFlushItemsToStoreOnEviction`,
 * `shouldQueryItemsInCacheAndStore`: they count on Kafka's entry sizes to
 * overflow a 600-byte cache), the position, segment and error-on-close cases
 * (no Position nor segments here), the Mockito ones. sluice: plus a changelog
 * written only at the flush, and the layer passing through without a cache.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Serdes } from '../../../../src/serdes/serdes.js';
import { CachingSessionStore } from '../../../../src/state/caching-session-store.js';
import { RecordCache } from '../../../../src/state/record-cache.js';
import type { TypedSessionStore } from '../../../../src/state/session-typed-store.js';
import { Stores } from '../../../../src/state/stores.js';
import type { Windowed } from '../../../../src/state/window-types.js';
import { testContext, type TestContext } from './helpers.js';

const DEFAULT_TIMESTAMP = 10;
const MAX_CACHE_SIZE_BYTES = 600;
const w = (key: string, start: number, end: number): Windowed<string> => ({ key, window: { start, end } });
const pair = (key: Windowed<string>, value: string) => ({ key, value });

/** Kafka's `CacheFlushListenerStub`: what the listener was given, as `KeyValueTimestamp<Windowed<String>, Change<String>>`. */
function flushListenerStub() {
  const forwarded: Array<{ key: Windowed<string>; value: { newValue: string | null; oldValue: string | null }; timestamp: number }> = [];
  const listener = (key: Windowed<string>, newValue: string | null, oldValue: string | null, context: { timestamp: number }) =>
    void forwarded.push({ key, value: { newValue, oldValue }, timestamp: context.timestamp });
  return { forwarded, listener };
}

describe('CachingPersistentSessionStoreTest', () => {
  let cache: RecordCache;
  let context: TestContext;
  let cachingStore: TypedSessionStore<string, string>;

  function open(logging: boolean, withCache = true): void {
    cache = new RecordCache(MAX_CACHE_SIZE_BYTES);
    context = testContext({ changelog: logging });
    context.record = { timestamp: DEFAULT_TIMESTAMP, headers: {}, topic: 'topic', partition: 0, offset: 0 };
    const builder = Stores.sessionStoreBuilder(Stores.inMemorySessionStore('store-name', Number.MAX_SAFE_INTEGER), Serdes.String(), Serdes.String()).withCachingEnabled();
    if (!logging) builder.withLoggingDisabled();
    cachingStore = builder.build();
    cachingStore.init({ ...context, cache: withCache ? cache : undefined, recordContext: () => context.record });
  }

  beforeEach(() => open(false));
  afterEach(() => {
    if (cachingStore.isOpen()) cachingStore.close();
  });

  // CachingPersistentSessionStoreTest.shouldPutFetchFromCache
  it('shouldPutFetchFromCache', () => {
    cachingStore.put(w('a', 0, 0), '1');
    cachingStore.put(w('aa', 0, 0), '1');
    cachingStore.put(w('b', 0, 0), '1');
    expect(cache.size()).toBe(3);
    expect(cachingStore.findSessions('a', 0, 0)).toEqual([pair(w('a', 0, 0), '1')]);
    expect(cachingStore.findSessions('b', 0, 0)).toEqual([pair(w('b', 0, 0), '1')]);
  });

  // CachingPersistentSessionStoreTest.shouldFetchAllSessionsWithSameRecordKey / shouldBackwardFetchAllSessionsWithSameRecordKey
  it('shouldFetchAllSessionsWithSameRecordKey', () => {
    const expected = [pair(w('a', 0, 0), '1'), pair(w('a', 10, 10), '2'), pair(w('a', 100, 100), '3'), pair(w('a', 1000, 1000), '4')];
    for (const kv of expected) cachingStore.put(kv.key, kv.value);
    // add one that shouldn't appear in the results
    cachingStore.put(w('aa', 0, 0), '5');
    expect(cachingStore.fetch('a')).toEqual(expected);
    expect(cachingStore.backwardFetch('a').reverse()).toEqual(expected);
  });

  // CachingPersistentSessionStoreTest.shouldRemove
  it('shouldRemove', () => {
    cachingStore.put(w('a', 0, 0), '2');
    cachingStore.put(w('b', 0, 0), '2');
    cachingStore.remove(w('a', 0, 0));
    expect(cachingStore.findSessions('a', 0, 0)).toEqual([]);
    expect(cachingStore.fetchSession('a', 0, 0)).toBeNull();
    expect(cachingStore.fetchSession('b', 0, 0)).toBe('2');
  });

  // CachingPersistentSessionStoreTest.shouldSetFlushListener
  it('shouldSetFlushListener', () => {
    expect(cachingStore.setFlushListener(() => undefined, true)).toBe(true);
    expect(cachingStore.setFlushListener(() => undefined, false)).toBe(true);
  });

  // CachingPersistentSessionStoreTest.shouldForwardChangedValuesDuringFlush
  it('shouldForwardChangedValuesDuringFlush', () => {
    const a = w('a', 2, 4);
    const b = w('a', 1, 2);
    const flushListener = flushListenerStub();
    cachingStore.setFlushListener(flushListener.listener, true);
    const step = (write: () => void, expected: unknown[]) => {
      write();
      cachingStore.flush();
      expect(flushListener.forwarded).toEqual(expected);
      flushListener.forwarded.length = 0;
    };
    step(() => cachingStore.put(b, '1'), [{ key: b, value: { newValue: '1', oldValue: null }, timestamp: DEFAULT_TIMESTAMP }]);
    step(() => cachingStore.put(a, '1'), [{ key: a, value: { newValue: '1', oldValue: null }, timestamp: DEFAULT_TIMESTAMP }]);
    step(() => cachingStore.put(a, '2'), [{ key: a, value: { newValue: '2', oldValue: '1' }, timestamp: DEFAULT_TIMESTAMP }]);
    step(() => cachingStore.remove(a), [{ key: a, value: { newValue: null, oldValue: '2' }, timestamp: DEFAULT_TIMESTAMP }]);
    step(() => {
      cachingStore.put(a, '1');
      cachingStore.put(a, '2');
      cachingStore.remove(a);
    }, []);
  });

  // CachingPersistentSessionStoreTest.shouldNotForwardChangedValuesDuringFlushWhenSendOldValuesDisabled
  it('shouldNotForwardChangedValuesDuringFlushWhenSendOldValuesDisabled', () => {
    const a = w('a', 0, 0);
    const flushListener = flushListenerStub();
    cachingStore.setFlushListener(flushListener.listener, false);
    cachingStore.put(a, '1');
    cachingStore.flush();
    cachingStore.put(a, '2');
    cachingStore.flush();
    cachingStore.remove(a);
    cachingStore.flush();
    expect(flushListener.forwarded).toEqual([
      { key: a, value: { newValue: '1', oldValue: null }, timestamp: DEFAULT_TIMESTAMP },
      { key: a, value: { newValue: '2', oldValue: null }, timestamp: DEFAULT_TIMESTAMP },
      { key: a, value: { newValue: null, oldValue: null }, timestamp: DEFAULT_TIMESTAMP },
    ]);
    flushListener.forwarded.length = 0;
    cachingStore.put(a, '1');
    cachingStore.put(a, '2');
    cachingStore.remove(a);
    cachingStore.flush();
    expect(flushListener.forwarded).toEqual([]);
  });

  // CachingPersistentSessionStoreTest.shouldReturnSameResultsForSingleKeyFindSessionsAndEqualKeyRangeFindSessions (and Backwards)
  it('shouldReturnSameResultsForSingleKeyFindSessionsAndEqualKeyRangeFindSessions', () => {
    cachingStore.put(w('a', 0, 1), '1');
    cachingStore.put(w('aa', 2, 3), '2');
    cachingStore.put(w('aa', 4, 5), '3');
    cachingStore.put(w('b', 6, 7), '4');
    const single = cachingStore.findSessions('aa', 0, 10);
    expect(single).toHaveLength(2);
    expect(cachingStore.findSessions('aa', 'aa', 0, 10)).toEqual(single);
    const backward = cachingStore.backwardFindSessions('aa', 0, 10);
    expect(backward).toEqual([...single].reverse());
    expect(cachingStore.backwardFindSessions('aa', 'aa', 0, 10)).toEqual(backward);
  });

  // CachingPersistentSessionStoreTest.shouldClearNamespaceCacheOnClose
  it('shouldClearNamespaceCacheOnClose', () => {
    cachingStore.put(w('a', 0, 0), '1');
    expect(cache.size()).toBe(1);
    cachingStore.close();
    expect(cache.size()).toBe(0);
  });

  // sluice: the changelog gets the last write of a session only at the flush, stamped with its record's timestamp
  it('logs at the flush only the last write of each session', () => {
    cachingStore.close();
    open(true);
    cachingStore.put(w('a', 0, 0), '1');
    context.record = { ...context.record, timestamp: 20 };
    cachingStore.put(w('a', 0, 0), '2');
    cachingStore.put(w('b', 0, 0), 'x');
    cachingStore.remove(w('b', 0, 0));
    expect(context.collected).toEqual([]);
    cachingStore.flush();
    expect(context.collected.map((l) => [l.value?.toString() ?? null, l.timestamp])).toEqual([
      ['2', 20],
      [null, 20],
    ]);
    expect(cachingStore.findSessions(null, null, 0, 100)).toEqual([pair(w('a', 0, 0), '2')]);
  });

  // sluice: without a cache the layer writes through and calls the listener for every write
  it('passes through without a cache', () => {
    cachingStore.close();
    open(false, false);
    const flushListener = flushListenerStub();
    cachingStore.setFlushListener(flushListener.listener, false);
    cachingStore.put(w('a', 0, 0), '1');
    cachingStore.remove(w('z', 0, 0));
    expect(flushListener.forwarded.map((f) => f.value.newValue)).toEqual(['1', null]);
    expect((cachingStore.inner as CachingSessionStore).caching).toBe(false);
    expect(cachingStore.findSessions(0, 10)).toEqual([pair(w('a', 0, 0), '1')]);
  });
});
