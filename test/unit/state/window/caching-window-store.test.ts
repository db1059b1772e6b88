/**
 * Ported from Kafka Streams' `CachingPersistentWindowStoreTest` /
 * `CachingInMemoryWindowStoreTest` (inputs and expected outputs unchanged
 * unless said), on the typed store over the caching layer over an in-memory
 * window engine (retention 100, window size 10, as Kafka's setup), logging
 * disabled, the record context at timestamp 10.
 *
 * Differences: the cache holds 10 000 bytes (Kafka's 150 count on its entry
 * sizes; the eviction cases fill the cache until it evicts instead); a key
 * range fetch is ordered by serialized key then window start (Kafka's
 * segmented store orders segment first: its `shouldFetchAndIterateOverKeyRange`
 * expects `a@0, a@1, aa@0, aa@1, a@100`). Not ported: position, segment,
 * Mockito and error-on-close cases, `shouldNotReturnDuplicatesInRanges`
 * (a persistent store in the driver: covered by the DSL windowed tests).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IllegalArgumentError, IllegalStateError } from '../../../../src/errors.js';
import { Serdes } from '../../../../src/serdes/serdes.js';
import { CachingWindowStore } from '../../../../src/state/caching-window-store.js';
import { RecordCache } from '../../../../src/state/record-cache.js';
import { Stores } from '../../../../src/state/stores.js';
import type { WindowBytesStore } from '../../../../src/state/window-store.js';
import type { TypedWindowStore } from '../../../../src/state/window-typed-store.js';
import type { Windowed } from '../../../../src/state/window-types.js';
import { testContext, type TestContext } from './helpers.js';

const DEFAULT_TIMESTAMP = 10;
const WINDOW_SIZE = 10;
const SEGMENT_INTERVAL = 100;
const LONG_MAX = Number.MAX_SAFE_INTEGER;
const w = (key: string, start: number): Windowed<string> => ({ key, window: { start, end: start + WINDOW_SIZE } });
const windowedPair = (key: string, value: string, start: number) => ({ key: w(key, start), value });

/** Kafka's `CacheFlushListenerStub`: the last forward of each windowed key. */
function flushListenerStub() {
  const forwarded = new Map<string, { newValue: string | null; oldValue: string | null; timestamp: number }>();
  const order: string[] = [];
  const listener = (key: Windowed<string>, newValue: string | null, oldValue: string | null, context: { timestamp: number }) => {
    const id = `${key.key}@${key.window.start}`;
    order.push(id);
    forwarded.set(id, { newValue, oldValue, timestamp: context.timestamp });
  };
  return { forwarded, order, listener };
}

describe('CachingInMemoryWindowStoreTest / CachingPersistentWindowStoreTest', () => {
  let cache: RecordCache;
  let context: TestContext;
  let cachingStore: TypedWindowStore<string, string>;
  let cacheListener: ReturnType<typeof flushListenerStub>;

  function open(options: { logging?: boolean; cacheBytes?: number; withCache?: boolean } = {}): void {
    cache = new RecordCache(options.cacheBytes ?? 10_000);
    context = testContext({ changelog: options.logging ?? false });
    context.record = { timestamp: DEFAULT_TIMESTAMP, headers: {}, topic: 'topic', partition: 0, offset: 0 };
    const builder = Stores.windowStoreBuilder(Stores.inMemoryWindowStore('store-name', 100, WINDOW_SIZE, false), Serdes.String(), Serdes.String()).withCachingEnabled();
    if (options.logging !== true) builder.withLoggingDisabled();
    cachingStore = builder.build();
    cacheListener = flushListenerStub();
    cachingStore.setFlushListener(cacheListener.listener, false);
    cachingStore.init({ ...context, cache: options.withCache === false ? undefined : cache, recordContext: () => context.record });
  }

  /** The store under the caching layer (the engine store: logging is off). */
  const underlying = (): WindowBytesStore => (cachingStore.inner as CachingWindowStore).wrapped;

  beforeEach(() => open());
  afterEach(() => {
    if (cachingStore.isOpen()) cachingStore.close();
  });

  // shouldPutFetchFromCache
  it('shouldPutFetchFromCache', () => {
    cachingStore.put('a', 'a', DEFAULT_TIMESTAMP);
    cachingStore.put('b', 'b', DEFAULT_TIMESTAMP);
    expect(cachingStore.fetch('a', 10)).toBe('a');
    expect(cachingStore.fetch('b', 10)).toBe('b');
    expect(cachingStore.fetch('c', 10)).toBeNull();
    expect(cachingStore.fetch('a', 0)).toBeNull();
    expect(cachingStore.fetch('a', 10, 10)).toEqual([{ key: DEFAULT_TIMESTAMP, value: 'a' }]);
    expect(cachingStore.fetch('b', 10, 10)).toEqual([{ key: DEFAULT_TIMESTAMP, value: 'b' }]);
    expect(cache.size()).toBe(2);
    expect(underlying().fetchAt(Buffer.from('a'), DEFAULT_TIMESTAMP)).toBeNull();
  });

  // shouldPutFetchRangeFromCache
  it('shouldPutFetchRangeFromCache', () => {
    cachingStore.put('a', 'a', DEFAULT_TIMESTAMP);
    cachingStore.put('b', 'b', DEFAULT_TIMESTAMP);
    expect(cachingStore.fetch('a', 'b', DEFAULT_TIMESTAMP, DEFAULT_TIMESTAMP)).toEqual([windowedPair('a', 'a', DEFAULT_TIMESTAMP), windowedPair('b', 'b', DEFAULT_TIMESTAMP)]);
    expect(cache.size()).toBe(2);
  });

  function putFive(): void {
    cachingStore.put('a', 'a', DEFAULT_TIMESTAMP);
    cachingStore.put('b', 'b', DEFAULT_TIMESTAMP);
    cachingStore.put('c', 'c', DEFAULT_TIMESTAMP + 10);
    cachingStore.put('d', 'd', DEFAULT_TIMESTAMP + 20);
    cachingStore.put('e', 'e', DEFAULT_TIMESTAMP + 20);
  }

  // shouldPutFetchRangeFromCacheForNullKeyFrom / shouldPutBackwardFetchRangeFromCacheForNullKeyFrom
  it('shouldPutFetchRangeFromCacheForNullKeyFrom', () => {
    putFive();
    const expected = [windowedPair('a', 'a', 10), windowedPair('b', 'b', 10), windowedPair('c', 'c', 20), windowedPair('d', 'd', 30)];
    expect(cachingStore.fetch(null, 'd', DEFAULT_TIMESTAMP, DEFAULT_TIMESTAMP + 20)).toEqual(expected);
    expect(cachingStore.backwardFetch(null, 'd', DEFAULT_TIMESTAMP, DEFAULT_TIMESTAMP + 20)).toEqual([...expected].reverse());
  });

  // shouldPutFetchRangeFromCacheForNullKeyTo / shouldPutBackwardFetchRangeFromCacheForNullKeyTo
  it('shouldPutFetchRangeFromCacheForNullKeyTo', () => {
    putFive();
    const expected = [windowedPair('b', 'b', 10), windowedPair('c', 'c', 20), windowedPair('d', 'd', 30), windowedPair('e', 'e', 30)];
    expect(cachingStore.fetch('b', null, DEFAULT_TIMESTAMP, DEFAULT_TIMESTAMP + 20)).toEqual(expected);
    expect(cachingStore.backwardFetch('b', null, DEFAULT_TIMESTAMP, DEFAULT_TIMESTAMP + 20)).toEqual([...expected].reverse());
  });

  // shouldPutFetchRangeFromCacheForNullKeyFromKeyTo / shouldPutBackwardFetchRangeFromCacheForNullKeyFromKeyTo
  it('shouldPutFetchRangeFromCacheForNullKeyFromKeyTo', () => {
    putFive();
    const expected = [windowedPair('a', 'a', 10), windowedPair('b', 'b', 10), windowedPair('c', 'c', 20), windowedPair('d', 'd', 30), windowedPair('e', 'e', 30)];
    expect(cachingStore.fetch(null, null, DEFAULT_TIMESTAMP, DEFAULT_TIMESTAMP + 20)).toEqual(expected);
    expect(cachingStore.backwardFetch(null, null, DEFAULT_TIMESTAMP, DEFAULT_TIMESTAMP + 20)).toEqual([...expected].reverse());
  });

  // shouldGetAllFromCache / shouldGetAllBackwardFromCache
  it('shouldGetAllFromCache', () => {
    const array = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    for (const s of array) cachingStore.put(s, s, DEFAULT_TIMESTAMP);
    expect(cachingStore.all()).toEqual(array.map((s) => windowedPair(s, s, DEFAULT_TIMESTAMP)));
    expect(cachingStore.backwardAll()).toEqual([...array].reverse().map((s) => windowedPair(s, s, DEFAULT_TIMESTAMP)));
  });

  // shouldFetchAllWithinTimestampRange / shouldFetchAllBackwardWithinTimestampRange
  it('shouldFetchAllWithinTimestampRange', () => {
    const array = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    array.forEach((s, i) => cachingStore.put(s, s, i));
    const within = (from: number, to: number) => array.map((s, i) => windowedPair(s, s, i)).filter((_, i) => i >= from && i <= to);
    expect(cachingStore.fetchAll(0, 7)).toEqual(within(0, 7));
    expect(cachingStore.fetchAll(2, 4)).toEqual(within(2, 4));
    expect(cachingStore.fetchAll(5, 7)).toEqual(within(5, 7));
    expect(cachingStore.backwardFetchAll(0, 7)).toEqual(within(0, 7).reverse());
    expect(cachingStore.backwardFetchAll(2, 4)).toEqual(within(2, 4).reverse());
  });

  // shouldFlushEvictedItemsIntoUnderlyingStore / shouldForwardDirtyItemToListenerWhenEvicted (filled until the cache evicts)
  it('shouldFlushEvictedItemsIntoUnderlyingStore', () => {
    cachingStore.close();
    open({ cacheBytes: 150 });
    let added = 0;
    while (cacheListener.order.length === 0 && added < 1000) {
      const kv = String(added++);
      cachingStore.put(kv, kv, DEFAULT_TIMESTAMP);
    }
    expect(cacheListener.order[0]).toBe(`0@${DEFAULT_TIMESTAMP}`);
    expect(underlying().fetchAt(Buffer.from('0'), DEFAULT_TIMESTAMP)?.toString()).toBe('0');
    // an eviction of a dirty entry writes down every dirty entry of the store first (Kafka's NamedCache.evict)
    expect(cacheListener.order).toHaveLength(added);
    expect(cache.size()).toBeLessThan(added);
  });

  // shouldForwardDirtyItemsWhenFlushCalled
  it('shouldForwardDirtyItemsWhenFlushCalled', () => {
    cachingStore.put('1', 'a', DEFAULT_TIMESTAMP);
    cachingStore.flush();
    expect(cacheListener.forwarded.get('1@10')).toEqual({ newValue: 'a', oldValue: null, timestamp: DEFAULT_TIMESTAMP });
  });

  // shouldSetFlushListener
  it('shouldSetFlushListener', () => {
    expect(cachingStore.setFlushListener(() => undefined, true)).toBe(true);
    expect(cachingStore.setFlushListener(() => undefined, false)).toBe(true);
  });

  // shouldForwardOldValuesWhenEnabled
  it('shouldForwardOldValuesWhenEnabled', () => {
    cachingStore.setFlushListener(cacheListener.listener, true);
    const key = '1@10';
    cachingStore.put('1', 'a', DEFAULT_TIMESTAMP);
    cachingStore.put('1', 'b', DEFAULT_TIMESTAMP);
    cachingStore.flush();
    expect(cacheListener.forwarded.get(key)).toMatchObject({ newValue: 'b', oldValue: null });
    cacheListener.forwarded.clear();
    cachingStore.put('1', 'c', DEFAULT_TIMESTAMP);
    cachingStore.flush();
    expect(cacheListener.forwarded.get(key)).toMatchObject({ newValue: 'c', oldValue: 'b' });
    cachingStore.put('1', null, DEFAULT_TIMESTAMP);
    cachingStore.flush();
    expect(cacheListener.forwarded.get(key)).toMatchObject({ newValue: null, oldValue: 'c' });
    cacheListener.forwarded.clear();
    cachingStore.put('1', 'a', DEFAULT_TIMESTAMP);
    cachingStore.put('1', 'b', DEFAULT_TIMESTAMP);
    cachingStore.put('1', null, DEFAULT_TIMESTAMP);
    cachingStore.flush();
    expect(cacheListener.forwarded.get(key)).toBeUndefined();
  });

  // shouldForwardOldValuesWhenDisabled
  it('shouldForwardOldValuesWhenDisabled', () => {
    const key = '1@10';
    cachingStore.put('1', 'a', DEFAULT_TIMESTAMP);
    cachingStore.put('1', 'b', DEFAULT_TIMESTAMP);
    cachingStore.flush();
    expect(cacheListener.forwarded.get(key)).toMatchObject({ newValue: 'b', oldValue: null });
    cachingStore.put('1', 'c', DEFAULT_TIMESTAMP);
    cachingStore.flush();
    expect(cacheListener.forwarded.get(key)).toMatchObject({ newValue: 'c', oldValue: null });
    cachingStore.put('1', null, DEFAULT_TIMESTAMP);
    cachingStore.flush();
    expect(cacheListener.forwarded.get(key)).toMatchObject({ newValue: null, oldValue: null });
    cacheListener.forwarded.clear();
    cachingStore.put('1', 'a', DEFAULT_TIMESTAMP);
    cachingStore.put('1', 'b', DEFAULT_TIMESTAMP);
    cachingStore.put('1', null, DEFAULT_TIMESTAMP);
    cachingStore.flush();
    expect(cacheListener.forwarded.get(key)).toBeUndefined();
  });

  // shouldTakeValueFromCacheIfSameTimestampFlushedToRocks
  it('shouldTakeValueFromCacheIfSameTimestampFlushedToRocks', () => {
    cachingStore.put('1', 'a', DEFAULT_TIMESTAMP);
    cachingStore.flush();
    cachingStore.put('1', 'b', DEFAULT_TIMESTAMP);
    expect(cachingStore.fetch('1', DEFAULT_TIMESTAMP, DEFAULT_TIMESTAMP)).toEqual([{ key: DEFAULT_TIMESTAMP, value: 'b' }]);
  });

  // shouldIterateAcrossWindows / shouldIterateBackwardAcrossWindows
  it('shouldIterateAcrossWindows', () => {
    cachingStore.put('1', 'a', DEFAULT_TIMESTAMP);
    cachingStore.put('1', 'b', DEFAULT_TIMESTAMP + WINDOW_SIZE);
    const expected = [
      { key: DEFAULT_TIMESTAMP, value: 'a' },
      { key: DEFAULT_TIMESTAMP + WINDOW_SIZE, value: 'b' },
    ];
    expect(cachingStore.fetch('1', DEFAULT_TIMESTAMP, DEFAULT_TIMESTAMP + WINDOW_SIZE)).toEqual(expected);
    expect(cachingStore.backwardFetch('1', DEFAULT_TIMESTAMP, DEFAULT_TIMESTAMP + WINDOW_SIZE)).toEqual([...expected].reverse());
  });

  // shouldIterateCacheAndStore / shouldIterateBackwardCacheAndStore
  it('shouldIterateCacheAndStore', () => {
    underlying().put(Buffer.from('1'), Buffer.from('a'), DEFAULT_TIMESTAMP);
    cachingStore.put('1', 'b', DEFAULT_TIMESTAMP + WINDOW_SIZE);
    const expected = [
      { key: DEFAULT_TIMESTAMP, value: 'a' },
      { key: DEFAULT_TIMESTAMP + WINDOW_SIZE, value: 'b' },
    ];
    expect(cachingStore.fetch('1', DEFAULT_TIMESTAMP, DEFAULT_TIMESTAMP + WINDOW_SIZE)).toEqual(expected);
    expect(cachingStore.backwardFetch('1', DEFAULT_TIMESTAMP, DEFAULT_TIMESTAMP + WINDOW_SIZE)).toEqual([...expected].reverse());
  });

  // shouldIterateCacheAndStoreKeyRange / shouldIterateBackwardCacheAndStoreKeyRange
  it('shouldIterateCacheAndStoreKeyRange', () => {
    underlying().put(Buffer.from('1'), Buffer.from('a'), DEFAULT_TIMESTAMP);
    cachingStore.put('1', 'b', DEFAULT_TIMESTAMP + WINDOW_SIZE);
    const expected = [windowedPair('1', 'a', DEFAULT_TIMESTAMP), windowedPair('1', 'b', DEFAULT_TIMESTAMP + WINDOW_SIZE)];
    expect(cachingStore.fetch('1', '2', DEFAULT_TIMESTAMP, DEFAULT_TIMESTAMP + WINDOW_SIZE)).toEqual(expected);
    expect(cachingStore.backwardFetch('1', '2', DEFAULT_TIMESTAMP, DEFAULT_TIMESTAMP + WINDOW_SIZE)).toEqual([...expected].reverse());
  });

  // sluice: a cached tombstone hides the window stored below, in every read
  it('hides a stored window behind a cached delete', () => {
    underlying().put(Buffer.from('1'), Buffer.from('a'), DEFAULT_TIMESTAMP);
    cachingStore.put('1', null, DEFAULT_TIMESTAMP);
    expect(cachingStore.fetch('1', DEFAULT_TIMESTAMP)).toBeNull();
    expect(cachingStore.fetch('1', 0, 100)).toEqual([]);
    expect(cachingStore.fetch('0', '9', 0, 100)).toEqual([]);
    expect(cachingStore.all()).toEqual([]);
    cachingStore.flush();
    expect(underlying().fetchAt(Buffer.from('1'), DEFAULT_TIMESTAMP)).toBeNull();
  });

  // shouldClearNamespaceCacheOnClose
  it('shouldClearNamespaceCacheOnClose', () => {
    cachingStore.put('a', 'a', 0);
    expect(cache.size()).toBe(1);
    cachingStore.close();
    expect(cache.size()).toBe(0);
  });

  // shouldThrowIfTryingToFetchFromClosedCachingStore / ...FetchRange... / shouldThrowIfTryingToWriteToClosedCachingStore
  it('shouldThrowIfTryingToFetchOrWriteOnClosedCachingStore', () => {
    cachingStore.close();
    expect(() => cachingStore.fetch('a', 0, 10)).toThrow(IllegalStateError);
    expect(() => cachingStore.fetch('a', 'b', 0, 10)).toThrow(IllegalStateError);
    expect(() => cachingStore.put('a', 'a', 0)).toThrow(IllegalStateError);
  });

  function putExactKeys(): void {
    cachingStore.put('a', '0001', 0);
    cachingStore.put('aa', '0002', 0);
    cachingStore.put('a', '0003', 1);
    cachingStore.put('aa', '0004', 1);
    cachingStore.put('a', '0005', SEGMENT_INTERVAL);
  }

  // shouldFetchAndIterateOverExactKeys / shouldBackwardFetchAndIterateOverExactKeys
  it('shouldFetchAndIterateOverExactKeys', () => {
    putExactKeys();
    const expected = [
      { key: 0, value: '0001' },
      { key: 1, value: '0003' },
      { key: SEGMENT_INTERVAL, value: '0005' },
    ];
    expect(cachingStore.fetch('a', 0, LONG_MAX)).toEqual(expected);
    expect(cachingStore.backwardFetch('a', 0, LONG_MAX)).toEqual([...expected].reverse());
  });

  // shouldFetchAndIterateOverKeyRange / shouldFetchAndIterateOverKeyBackwardRange (the a..aa order: see the module comment)
  it('shouldFetchAndIterateOverKeyRange', () => {
    putExactKeys();
    const a = [windowedPair('a', '0001', 0), windowedPair('a', '0003', 1), windowedPair('a', '0005', SEGMENT_INTERVAL)];
    const aa = [windowedPair('aa', '0002', 0), windowedPair('aa', '0004', 1)];
    expect(cachingStore.fetch('a', 'a', 0, LONG_MAX)).toEqual(a);
    expect(cachingStore.fetch('aa', 'aa', 0, LONG_MAX)).toEqual(aa);
    expect(cachingStore.fetch('a', 'aa', 0, LONG_MAX)).toEqual([...a, ...aa]);
    expect(cachingStore.backwardFetch('a', 'a', 0, LONG_MAX)).toEqual([...a].reverse());
    expect(cachingStore.backwardFetch('aa', 'aa', 0, LONG_MAX)).toEqual([...aa].reverse());
    expect(cachingStore.backwardFetch('a', 'aa', 0, LONG_MAX)).toEqual([...a, ...aa].reverse());
  });

  // shouldReturnSameResultsForSingleKeyFetchAndEqualKeyRangeFetch / ...BackwardFetch
  it('shouldReturnSameResultsForSingleKeyFetchAndEqualKeyRangeFetch', () => {
    cachingStore.put('a', '0001', 0);
    cachingStore.put('aa', '0002', 1);
    cachingStore.put('aa', '0003', 2);
    cachingStore.put('aaa', '0004', 3);
    const single = cachingStore.fetch('aa', 0, 5).map((e) => e.value);
    expect(single).toEqual(['0002', '0003']);
    expect(cachingStore.fetch('aa', 'aa', 0, 5).map((e) => e.value)).toEqual(single);
    expect(cachingStore.backwardFetch('aa', 0, 5).map((e) => e.value)).toEqual(['0003', '0002']);
    expect(cachingStore.backwardFetch('aa', 'aa', 0, 5).map((e) => e.value)).toEqual(['0003', '0002']);
  });

  // shouldThrowNullPointerExceptionOnPutNullKey / shouldNotThrowNullPointerExceptionOnPutNullValue / shouldThrowNullPointerExceptionOnFetchNullKey
  it('rejects null keys, accepts null values', () => {
    expect(() => cachingStore.put(null as never, 'anyValue', 0)).toThrow(IllegalArgumentError);
    expect(() => cachingStore.put('a', null, 0)).not.toThrow();
    expect(() => cachingStore.fetch(null as never, 1, 2)).toThrow(IllegalArgumentError);
  });

  // shouldNotThrowInvalidRangeExceptionWithNegativeFromKey: an inverted range is empty (the store below warns)
  it('shouldNotThrowInvalidRangeExceptionWithNegativeFromKey', () => {
    cachingStore.put('b', 'b', 0);
    expect(cachingStore.fetch('b', 'a', 0, 10)).toEqual([]);
    expect(cachingStore.backwardFetch('b', 'a', 0, 10)).toEqual([]);
  });

  // sluice: the changelog gets the last write of a window only at the flush, stamped with its record's timestamp
  it('logs at the flush only the last write of each window', () => {
    cachingStore.close();
    open({ logging: true });
    cachingStore.put('a', '1', 0);
    context.record = { ...context.record, timestamp: 20 };
    cachingStore.put('a', '2', 0);
    expect(context.collected).toEqual([]);
    cachingStore.flush();
    expect(context.collected.map((l) => [l.value?.toString() ?? null, l.timestamp])).toEqual([['2', 20]]);
    expect(cachingStore.fetch('a', 0)).toBe('2');
  });

  // sluice: without a cache the layer writes through and calls the listener for every write
  it('passes through without a cache', () => {
    cachingStore.close();
    open({ withCache: false });
    cachingStore.put('a', '1', 0);
    cachingStore.put('a', '2', 0);
    expect(cacheListener.order).toEqual(['a@0', 'a@0']);
    expect((cachingStore.inner as CachingWindowStore).caching).toBe(false);
    expect(underlying().fetchAt(Buffer.from('a'), 0)?.toString()).toBe('2');
  });
});
