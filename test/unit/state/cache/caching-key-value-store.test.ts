/**
 * Ports of Kafka Streams' CachingInMemoryKeyValueStoreTest
 * (streams/src/test/java/org/apache/kafka/streams/state/internals/CachingInMemoryKeyValueStoreTest.java),
 * inputs and expected outputs unchanged: a CachingKeyValueStore over an
 * in-memory bytes engine, a cache of 150 bytes, the record context
 * (timestamp 10, offset 0, partition 0, topic 'topic'). Not ported: the
 * cases inherited from AbstractKeyValueStoreTest (typed stores, the
 * kvstores suite), the close-order cases built on Mockito mocks, the IQ
 * position cases and the null-key cases (keys are typed Buffers). Kafka's
 * InvalidStateStoreException is sluice's IllegalStateError.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { IllegalStateError } from '../../../../src/errors.js';
import { CachingKeyValueStore } from '../../../../src/state/caching-key-value-store.js';
import { RecordCache } from '../../../../src/state/record-cache.js';
import type { StoreRecordContext } from '../../../../src/state/store-contract.js';
import { TestBytesStore, testContext } from './test-bytes-store.js';

const TOPIC = 'topic';
const maxCacheSizeBytes = 150;
const bytesKey = (k: string): Buffer => Buffer.from(k);
const bytesValue = (v: string): Buffer => Buffer.from(v);

/** Kafka's CacheFlushListenerStub: the last (newValue, oldValue) per key, as strings. */
class CacheFlushListenerStub {
  readonly forwarded = new Map<string, { newValue: string | null; oldValue: string | null }>();
  readonly listener = (key: Buffer, newValue: Buffer | null, oldValue: Buffer | null): void => {
    this.forwarded.set(key.toString(), { newValue: newValue?.toString() ?? null, oldValue: oldValue?.toString() ?? null });
  };
}

/** ThreadCacheTest.memoryCacheEntrySize. */
function memoryCacheEntrySize(key: Buffer, value: Buffer, topic: string): number {
  return key.length + value.length + 1 + 8 + 8 + 4 + topic.length + key.length + 8 + 8 + 8;
}

describe('CachingInMemoryKeyValueStoreTest (ported)', () => {
  let underlyingStore: TestBytesStore;
  let store: CachingKeyValueStore;
  let cache: RecordCache;
  let cacheFlushListener: CacheFlushListenerStub;
  let current: { value: StoreRecordContext };

  beforeEach(() => {
    underlyingStore = new TestBytesStore('store');
    cacheFlushListener = new CacheFlushListenerStub();
    store = new CachingKeyValueStore(underlyingStore, { timestamped: false });
    store.setFlushListener(cacheFlushListener.listener, false);
    cache = new RecordCache(maxCacheSizeBytes);
    const t = testContext({ cache });
    current = t.current;
    current.value = { timestamp: 10, offset: 0, partition: 0, topic: TOPIC, headers: {} };
    store.init(t.context);
  });

  function addItemsToCache(): number {
    let cachedSize = 0;
    let i = 0;
    while (cachedSize < maxCacheSizeBytes) {
      const kv = String(i++);
      store.put(bytesKey(kv), bytesValue(kv));
      cachedSize += memoryCacheEntrySize(Buffer.from(kv), Buffer.from(kv), TOPIC);
    }
    return i;
  }

  // CachingInMemoryKeyValueStoreTest.shouldDelegateInit
  it('shouldDelegateInit', () => {
    const inner = new TestBytesStore('store');
    new CachingKeyValueStore(inner).init(testContext({ cache }).context);
    expect(inner.isOpen()).toBe(true);
  });

  // CachingInMemoryKeyValueStoreTest.shouldSetFlushListener
  it('shouldSetFlushListener', () => {
    expect(store.setFlushListener(() => {}, true)).toBe(true);
    expect(store.setFlushListener(() => {}, false)).toBe(true);
  });

  // CachingInMemoryKeyValueStoreTest.shouldAvoidFlushingDeletionsWithoutDirtyKeys
  it('shouldAvoidFlushingDeletionsWithoutDirtyKeys', () => {
    const added = addItemsToCache();
    // all dirty entries should have been flushed
    expect(underlyingStore.approximateNumEntries()).toBe(added);
    expect(cacheFlushListener.forwarded.size).toBe(added);
    store.put(bytesKey('key'), bytesValue('value'));
    expect(underlyingStore.approximateNumEntries()).toBe(added);
    expect(cacheFlushListener.forwarded.size).toBe(added);
    store.put(bytesKey('key'), null);
    store.flush();
    expect(underlyingStore.approximateNumEntries()).toBe(added);
    expect(cacheFlushListener.forwarded.size).toBe(added);
  });

  // CachingInMemoryKeyValueStoreTest.shouldPutGetToFromCache
  it('shouldPutGetToFromCache', () => {
    store.put(bytesKey('key'), bytesValue('value'));
    store.put(bytesKey('key2'), bytesValue('value2'));
    expect(store.get(bytesKey('key'))).toEqual(bytesValue('value'));
    expect(store.get(bytesKey('key2'))).toEqual(bytesValue('value2'));
    // nothing evicted so underlying store should be empty
    expect(cache.size()).toBe(2);
    expect(underlyingStore.approximateNumEntries()).toBe(0);
  });

  // CachingInMemoryKeyValueStoreTest.shouldFlushEvictedItemsIntoUnderlyingStore
  it('shouldFlushEvictedItemsIntoUnderlyingStore', () => {
    const added = addItemsToCache();
    expect(underlyingStore.approximateNumEntries()).toBe(added);
    expect(store.approximateNumEntries()).toBe(added);
    expect(underlyingStore.get(Buffer.from('0'))).not.toBeNull();
  });

  // CachingInMemoryKeyValueStoreTest.shouldForwardDirtyItemToListenerWhenEvicted
  it('shouldForwardDirtyItemToListenerWhenEvicted', () => {
    const numRecords = addItemsToCache();
    expect(cacheFlushListener.forwarded.size).toBe(numRecords);
  });

  // CachingInMemoryKeyValueStoreTest.shouldForwardDirtyItemsWhenFlushCalled
  it('shouldForwardDirtyItemsWhenFlushCalled', () => {
    store.put(bytesKey('1'), bytesValue('a'));
    store.flush();
    expect(cacheFlushListener.forwarded.get('1')?.newValue).toBe('a');
    expect(cacheFlushListener.forwarded.get('1')?.oldValue).toBeNull();
  });

  // CachingInMemoryKeyValueStoreTest.shouldForwardOldValuesWhenEnabled
  it('shouldForwardOldValuesWhenEnabled', () => {
    store.setFlushListener(cacheFlushListener.listener, true);
    const fwd = cacheFlushListener.forwarded;
    store.put(bytesKey('1'), bytesValue('a'));
    store.flush();
    expect(fwd.get('1')).toEqual({ newValue: 'a', oldValue: null });
    store.put(bytesKey('1'), bytesValue('b'));
    store.put(bytesKey('1'), bytesValue('c'));
    store.flush();
    expect(fwd.get('1')).toEqual({ newValue: 'c', oldValue: 'a' });
    store.put(bytesKey('1'), null);
    store.flush();
    expect(fwd.get('1')).toEqual({ newValue: null, oldValue: 'c' });
    fwd.clear();
    store.put(bytesKey('1'), bytesValue('a'));
    store.put(bytesKey('1'), bytesValue('b'));
    store.put(bytesKey('1'), null);
    store.flush();
    expect(fwd.get('1')).toBeUndefined();
  });

  // CachingInMemoryKeyValueStoreTest.shouldNotForwardOldValuesWhenDisabled
  it('shouldNotForwardOldValuesWhenDisabled', () => {
    const fwd = cacheFlushListener.forwarded;
    store.put(bytesKey('1'), bytesValue('a'));
    store.flush();
    expect(fwd.get('1')).toEqual({ newValue: 'a', oldValue: null });
    store.put(bytesKey('1'), bytesValue('b'));
    store.flush();
    expect(fwd.get('1')).toEqual({ newValue: 'b', oldValue: null });
    store.put(bytesKey('1'), null);
    store.flush();
    expect(fwd.get('1')).toEqual({ newValue: null, oldValue: null });
    fwd.clear();
    store.put(bytesKey('1'), bytesValue('a'));
    store.put(bytesKey('1'), bytesValue('b'));
    store.put(bytesKey('1'), null);
    store.flush();
    expect(fwd.get('1')).toBeUndefined();
  });

  // CachingInMemoryKeyValueStoreTest.shouldIterateAllStoredItems
  it('shouldIterateAllStoredItems', () => {
    const items = addItemsToCache();
    const results = store.range(null, null).map((e) => e.key);
    expect(results).toHaveLength(items);
    expect(results).toEqual([Buffer.from('0'), Buffer.from('1'), Buffer.from('2')]);
  });

  // CachingInMemoryKeyValueStoreTest.shouldReverseIterateAllStoredItems
  it('shouldReverseIterateAllStoredItems', () => {
    const items = addItemsToCache();
    const results = store.reverseRange(null, null).map((e) => e.key);
    expect(results).toHaveLength(items);
    expect(results).toEqual([Buffer.from('2'), Buffer.from('1'), Buffer.from('0')]);
  });

  // CachingInMemoryKeyValueStoreTest.shouldIterateOverRange
  it('shouldIterateOverRange', () => {
    const items = addItemsToCache();
    const results = store.range(bytesKey('0'), bytesKey(String(items))).map((e) => e.key);
    expect(results).toEqual([Buffer.from('0'), Buffer.from('1'), Buffer.from('2')]);
  });

  // CachingInMemoryKeyValueStoreTest.shouldReverseIterateOverRange
  it('shouldReverseIterateOverRange', () => {
    const items = addItemsToCache();
    const results = store.reverseRange(bytesKey('0'), bytesKey(String(items))).map((e) => e.key);
    expect(results).toEqual([Buffer.from('2'), Buffer.from('1'), Buffer.from('0')]);
  });

  // CachingInMemoryKeyValueStoreTest.shouldGetRecordsWithPrefixKey
  it('shouldGetRecordsWithPrefixKey', () => {
    for (const [k, v] of [['p11', '2'], ['k1', '1'], ['k2', '2'], ['p2', '2'], ['p1', '2'], ['p0', '2']] as const) store.put(bytesKey(k), bytesValue(v));
    const found = store.prefixScan(Buffer.from('p1'));
    expect(found.map((e) => e.key.toString())).toEqual(['p1', 'p11']);
    expect(found.map((e) => e.value.toString())).toEqual(['2', '2']);
  });

  // CachingInMemoryKeyValueStoreTest.shouldGetRecordsWithPrefixKeyExcludingNextLargestKey
  it('shouldGetRecordsWithPrefixKeyExcludingNextLargestKey', () => {
    for (const [k, v] of [['abcd', '2'], ['abcdd', '1'], ['abce', '2'], ['abc', '2']] as const) store.put(bytesKey(k), bytesValue(v));
    const found = store.prefixScan(Buffer.from('abcd'));
    expect(found.map((e) => e.key.toString())).toEqual(['abcd', 'abcdd']);
    expect(found.map((e) => e.value.toString())).toEqual(['2', '1']);
  });

  // CachingInMemoryKeyValueStoreTest.shouldDeleteItemsFromCache
  it('shouldDeleteItemsFromCache', () => {
    store.put(bytesKey('a'), bytesValue('a'));
    store.delete(bytesKey('a'));
    expect(store.get(bytesKey('a'))).toBeNull();
    expect(store.range(bytesKey('a'), bytesKey('b'))).toEqual([]);
    expect(store.reverseRange(bytesKey('a'), bytesKey('b'))).toEqual([]);
    expect(store.range(null, null)).toEqual([]);
    expect(store.reverseRange(null, null)).toEqual([]);
  });

  // CachingInMemoryKeyValueStoreTest.shouldNotShowItemsDeletedFromCacheButFlushedToStoreBeforeDelete
  it('shouldNotShowItemsDeletedFromCacheButFlushedToStoreBeforeDelete', () => {
    store.put(bytesKey('a'), bytesValue('a'));
    store.flush();
    store.delete(bytesKey('a'));
    expect(store.get(bytesKey('a'))).toBeNull();
    expect(store.range(bytesKey('a'), bytesKey('b'))).toEqual([]);
    expect(store.reverseRange(bytesKey('a'), bytesKey('b'))).toEqual([]);
    expect(store.range(null, null)).toEqual([]);
    expect(store.reverseRange(null, null)).toEqual([]);
  });

  // CachingInMemoryKeyValueStoreTest.shouldClearNamespaceCacheOnClose
  it('shouldClearNamespaceCacheOnClose', () => {
    store.put(bytesKey('a'), bytesValue('a'));
    expect(cache.size()).toBe(1);
    store.close();
    expect(cache.size()).toBe(0);
  });

  // CachingInMemoryKeyValueStoreTest.shouldThrowIfTryingTo{Get,Write,DoRangeQuery,DoReverseRangeQuery,DoAllQuery,
  // DoReverseAllQuery,DoGetApproxSize,DoPutAll,DoPutIfAbsent,Delete}...ClosedCachingStore
  it.each([
    ['get', (s: CachingKeyValueStore) => s.get(bytesKey('a'))],
    ['put', (s: CachingKeyValueStore) => s.put(bytesKey('a'), bytesValue('a'))],
    ['range', (s: CachingKeyValueStore) => s.range(bytesKey('a'), bytesKey('b'))],
    ['reverseRange', (s: CachingKeyValueStore) => s.reverseRange(bytesKey('a'), bytesKey('b'))],
    ['all', (s: CachingKeyValueStore) => s.range(null, null)],
    ['reverseAll', (s: CachingKeyValueStore) => s.reverseRange(null, null)],
    ['approximateNumEntries', (s: CachingKeyValueStore) => s.approximateNumEntries()],
    ['putIfAbsent', (s: CachingKeyValueStore) => s.putIfAbsent(bytesKey('b'), bytesValue('c'))],
    ['delete', (s: CachingKeyValueStore) => s.delete(bytesKey('key'))],
  ])('shouldThrowIfTryingTo %s on a closed caching store', (_op, call) => {
    store.close();
    store.close();
    expect(() => call(store)).toThrow(IllegalStateError);
  });

  // CachingInMemoryKeyValueStoreTest.shouldPutIfAbsent
  it('shouldPutIfAbsent', () => {
    store.putIfAbsent(bytesKey('b'), bytesValue('2'));
    expect(store.get(bytesKey('b'))).toEqual(bytesValue('2'));
    store.putIfAbsent(bytesKey('b'), bytesValue('3'));
    expect(store.get(bytesKey('b'))).toEqual(bytesValue('2'));
  });

  // CachingInMemoryKeyValueStoreTest.shouldPutAll
  it('shouldPutAll', () => {
    store.put(bytesKey('a'), bytesValue('1'));
    store.put(bytesKey('b'), bytesValue('2'));
    expect(store.get(bytesKey('a'))).toEqual(bytesValue('1'));
    expect(store.get(bytesKey('b'))).toEqual(bytesValue('2'));
  });

  // CachingInMemoryKeyValueStoreTest.shouldReturnUnderlying
  it('shouldReturnUnderlying', () => {
    expect(store.wrapped).toBe(underlyingStore);
  });

  it('hands the flush listener the record context of the write, and the store below sees it as current', () => {
    const seen: unknown[] = [];
    const below: number[] = [];
    store.setFlushListener((key, value, _old, context) => seen.push([key.toString(), value?.toString(), context.timestamp, context.offset]), false);
    const initContext = underlyingStore.initContext;
    underlyingStore.put = (key, value) => {
      below.push(initContext?.recordContext().timestamp ?? -1);
      TestBytesStore.prototype.put.call(underlyingStore, key, value);
    };
    current.value = { timestamp: 5, offset: 3, partition: 0, topic: TOPIC, headers: {} };
    store.put(bytesKey('k'), bytesValue('v1'));
    current.value = { timestamp: 7, offset: 4, partition: 0, topic: TOPIC, headers: {} };
    store.put(bytesKey('k'), bytesValue('v2'));
    current.value = { timestamp: 99, offset: 9, partition: 0, topic: TOPIC, headers: {} };
    store.flush();
    expect(seen).toEqual([['k', 'v2', 7, 4]]);
    expect(below).toEqual([7]);
  });

  it('without a cache (or maxBytes 0) writes go straight down and the listener is called at once', () => {
    for (const context of [testContext(), testContext({ cache: new RecordCache(0) })]) {
      const inner = new TestBytesStore('store');
      const uncached = new CachingKeyValueStore(inner);
      const stub = new CacheFlushListenerStub();
      uncached.init(context.context);
      expect(uncached.setFlushListener(stub.listener, false)).toBe(true);
      uncached.put(bytesKey('a'), bytesValue('1'));
      expect(inner.get(bytesKey('a'))).toEqual(bytesValue('1'));
      expect(stub.forwarded.get('a')).toEqual({ newValue: '1', oldValue: null });
      expect(uncached.caching).toBe(false);
    }
  });
});
