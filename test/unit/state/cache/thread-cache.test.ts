/**
 * Ports of Kafka Streams' ThreadCacheTest
 * (streams/src/test/java/org/apache/kafka/streams/state/internals/ThreadCacheTest.java)
 * onto sluice's RecordCache, inputs and expected outputs unchanged. Kafka's
 * iterators become snapshot arrays: `peekNextKey()` is the first element,
 * `hasNext()` false is an empty array. The null-key cases and the JVM memory
 * overhead cases do not apply (keys are typed Buffers; no JVM heap).
 */
import { describe, expect, it } from 'vitest';
import { cacheEntry, nodeSize, RecordCache, type DirtyEntry } from '../../../../src/state/record-cache.js';

const namespace = '0.0-namespace';
const namespace1 = '0.1-namespace';
const namespace2 = '0.2-namespace';
const bytes = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((b) => Buffer.from([b]));
const b = (...xs: number[]): Buffer => Buffer.from(xs);
const dirtyEntry = (value: Buffer): ReturnType<typeof cacheEntry> => cacheEntry(value, true);
const cleanEntry = (value: Buffer): ReturnType<typeof cacheEntry> => cacheEntry(value);

/** ThreadCacheTest.memoryCacheEntrySize. */
function memoryCacheEntrySize(key: Buffer, value: Buffer, topic: string): number {
  return key.length + value.length + 1 + 8 + 8 + 4 + topic.length + key.length + 8 + 8 + 8;
}

function setupThreadCache(first: number, last: number, entrySize: number, reverse: boolean): RecordCache {
  const cache = new RecordCache(entrySize);
  cache.addDirtyEntryFlushListener(namespace, () => {});
  let index = first;
  while ((!reverse && index < last) || (reverse && index >= last)) {
    const key = bytes[index] as Buffer;
    cache.put(namespace, key, dirtyEntry(key));
    index += reverse ? -1 : 1;
  }
  return cache;
}

const toInsert = [
  ['K1', 'V1'],
  ['K2', 'V2'],
  ['K3', 'V3'],
  ['K4', 'V4'],
  ['K5', 'V5'],
] as const;

describe('ThreadCacheTest (ported)', () => {
  // ThreadCacheTest.basicPutGet
  it('basicPutGet', () => {
    const cache = new RecordCache(toInsert.length * memoryCacheEntrySize(Buffer.from('K1'), Buffer.from('V1'), ''));
    for (const [k, v] of toInsert) cache.put(namespace, Buffer.from(k), cacheEntry(Buffer.from(v), true, { timestamp: 1, offset: 1, partition: 1, topic: '', headers: {} }));
    for (const [k, v] of toInsert) {
      const entry = cache.get(namespace, Buffer.from(k));
      expect(entry?.dirty).toBe(true);
      expect(entry?.value?.toString()).toBe(v);
    }
    expect(cache.gets).toBe(5);
    expect(cache.puts).toBe(5);
    expect(cache.evicts).toBe(0);
    expect(cache.flushes).toBe(0);
  });

  // ThreadCacheTest.evict
  it('evict', () => {
    const received: Array<[string, string]> = [];
    const cache = new RecordCache(memoryCacheEntrySize(Buffer.from('K1'), Buffer.from('V1'), ''));
    cache.addDirtyEntryFlushListener(namespace, (dirty) => {
      for (const e of dirty) received.push([e.key.toString(), String(e.newValue)]);
    });
    for (const [k, v] of toInsert) cache.put(namespace, Buffer.from(k), cacheEntry(Buffer.from(v), true, { timestamp: 1, offset: 1, partition: 1, topic: '', headers: {} }));
    expect(received[0]).toEqual(['K1', 'V1']);
    expect(cache.evicts).toBe(4);
  });

  // ThreadCacheTest.shouldDelete
  it('shouldDelete', () => {
    const cache = new RecordCache(10000);
    const key = b(0);
    cache.put(namespace, key, dirtyEntry(key));
    expect(cache.delete(namespace, key)?.value).toEqual(key);
    expect(cache.get(namespace, key)).toBeUndefined();
  });

  // ThreadCacheTest.shouldNotFlushAfterDelete
  it('shouldNotFlushAfterDelete', () => {
    const key = b(0);
    const cache = new RecordCache(10000);
    const received: DirtyEntry[] = [];
    cache.addDirtyEntryFlushListener(namespace, (d) => received.push(...d));
    cache.put(namespace, key, dirtyEntry(key));
    expect(cache.delete(namespace, key)?.value).toEqual(key);
    cache.flush(namespace);
    expect(received).toHaveLength(0);
    expect(cache.flushes).toBe(1);
  });

  // ThreadCacheTest.shouldNotBlowUpOnNonExistentKeyWhenDeleting
  it('shouldNotBlowUpOnNonExistentKeyWhenDeleting', () => {
    const cache = new RecordCache(10000);
    cache.put(namespace, b(0), dirtyEntry(b(0)));
    expect(cache.delete(namespace, b(1))).toBeUndefined();
  });

  // ThreadCacheTest.shouldNotBlowUpOnNonExistentNamespaceWhenDeleting
  it('shouldNotBlowUpOnNonExistentNamespaceWhenDeleting', () => {
    expect(new RecordCache(10000).delete(namespace, b(1))).toBeUndefined();
  });

  // ThreadCacheTest.shouldNotClashWithOverlappingNames
  it('shouldNotClashWithOverlappingNames', () => {
    const cache = new RecordCache(10000);
    cache.put(namespace1, b(0), dirtyEntry(b(0)));
    cache.put(namespace2, b(0), dirtyEntry(b(1)));
    expect(cache.get(namespace1, b(0))?.value).toEqual(b(0));
    expect(cache.get(namespace2, b(0))?.value).toEqual(b(1));
  });

  // ThreadCacheTest.shouldPeekNextKey / shouldGetSameKeyAsPeekNext
  it('shouldPeekNextKey', () => {
    const cache = setupThreadCache(0, 1, 10000, false);
    expect(cache.range(namespace, b(0), b(1))[0]?.key).toEqual(b(0));
  });

  // ThreadCacheTest.shouldPeekNextKeyReverseRange / shouldGetSameKeyAsPeekNextReverseRange
  it('shouldPeekNextKeyReverseRange', () => {
    const cache = setupThreadCache(1, 1, 10000, true);
    expect(cache.reverseRange(namespace, b(0), b(1))[0]?.key).toEqual(b(1));
  });

  // ThreadCacheTest.shouldThrowIfNoPeekNextKeyRange / shouldReturnFalseIfNoNextKey
  it('shouldReturnFalseIfNoNextKey', () => {
    expect(setupThreadCache(0, 0, 10000, false).range(namespace, b(0), b(1))).toEqual([]);
  });

  // ThreadCacheTest.shouldThrowIfNoPeekNextKeyReverseRange / shouldReturnFalseIfNoNextKeyReverseRange
  it('shouldReturnFalseIfNoNextKeyReverseRange', () => {
    expect(setupThreadCache(-1, 0, 10000, true).reverseRange(namespace, b(0), b(1))).toEqual([]);
  });

  // ThreadCacheTest.shouldPeekAndIterateOverRange
  it('shouldPeekAndIterateOverRange', () => {
    const keys = setupThreadCache(0, 10, 10000, false).range(namespace, b(1), b(4)).map((e) => e.key);
    expect(keys).toEqual([b(1), b(2), b(3), b(4)]);
  });

  // ThreadCacheTest.shouldSkipToEntryWhenToInclusiveIsFalseInRange
  it('shouldSkipToEntryWhenToInclusiveIsFalseInRange', () => {
    const keys = setupThreadCache(0, 10, 10000, false).range(namespace, b(1), b(4), false).map((e) => e.key);
    expect(keys).toEqual([b(1), b(2), b(3)]);
  });

  // ThreadCacheTest.shouldPeekAndIterateOverReverseRange
  it('shouldPeekAndIterateOverReverseRange', () => {
    const keys = setupThreadCache(10, 0, 10000, true).reverseRange(namespace, b(1), b(4)).map((e) => e.key);
    expect(keys).toEqual([b(4), b(3), b(2), b(1)]);
  });

  // ThreadCacheTest.shouldSkipEntriesWhereValueHasBeenEvictedFromCache
  it('shouldSkipEntriesWhereValueHasBeenEvictedFromCache', () => {
    const entrySize = memoryCacheEntrySize(Buffer.alloc(1), Buffer.alloc(1), '');
    const cache = setupThreadCache(0, 5, entrySize * 5, false);
    expect(cache.size()).toBe(5);
    cache.put(namespace, b(6), dirtyEntry(b(6)));
    expect(cache.range(namespace, b(0), b(5))[0]?.key).toEqual(b(1));
  });

  // ThreadCacheTest.shouldSkipEntriesWhereValueHasBeenEvictedFromCacheReverseRange
  it('shouldSkipEntriesWhereValueHasBeenEvictedFromCacheReverseRange', () => {
    const entrySize = memoryCacheEntrySize(Buffer.alloc(1), Buffer.alloc(1), '');
    const cache = setupThreadCache(4, 0, entrySize * 5, true);
    expect(cache.size()).toBe(5);
    cache.put(namespace, b(6), dirtyEntry(b(6)));
    expect(cache.reverseRange(namespace, b(0), b(5))[0]?.key).toEqual(b(3));
  });

  // ThreadCacheTest.shouldFetchAllEntriesInCache
  it('shouldFetchAllEntriesInCache', () => {
    expect(setupThreadCache(0, 11, 10000, false).all(namespace).map((e) => e.key)).toEqual(bytes);
  });

  // ThreadCacheTest.shouldFetchAllEntriesInCacheInReverseOrder
  it('shouldFetchAllEntriesInCacheInReverseOrder', () => {
    expect(setupThreadCache(10, 0, 10000, true).reverseAll(namespace).map((e) => e.key)).toEqual([...bytes].reverse());
  });

  // ThreadCacheTest.shouldReturnAllUnevictedValuesFromCache
  it('shouldReturnAllUnevictedValuesFromCache', () => {
    const entrySize = memoryCacheEntrySize(Buffer.alloc(1), Buffer.alloc(1), '');
    const cache = setupThreadCache(0, 5, entrySize * 5, false);
    expect(cache.size()).toBe(5);
    cache.put(namespace, b(6), dirtyEntry(b(6)));
    expect(cache.all(namespace)[0]?.key).toEqual(b(1));
  });

  // ThreadCacheTest.shouldReturnAllUnevictedValuesFromCacheInReverseOrder
  it('shouldReturnAllUnevictedValuesFromCacheInReverseOrder', () => {
    const entrySize = memoryCacheEntrySize(Buffer.alloc(1), Buffer.alloc(1), '');
    const cache = setupThreadCache(4, 0, entrySize * 5, true);
    expect(cache.size()).toBe(5);
    cache.put(namespace, b(6), dirtyEntry(b(6)));
    expect(cache.reverseAll(namespace)[0]?.key).toEqual(b(6));
  });

  // ThreadCacheTest.shouldFlushDirtyEntriesForNamespace
  it('shouldFlushDirtyEntriesForNamespace', () => {
    const cache = new RecordCache(100000);
    const received: Buffer[] = [];
    cache.addDirtyEntryFlushListener(namespace1, (dirty) => received.push(...dirty.map((e) => e.key)));
    const expected = [b(0), b(1), b(2)];
    for (const key of expected) cache.put(namespace1, key, dirtyEntry(key));
    cache.put(namespace2, b(4), dirtyEntry(b(4)));
    cache.flush(namespace1);
    expect(received).toEqual(expected);
  });

  // ThreadCacheTest.shouldNotFlushCleanEntriesForNamespace
  it('shouldNotFlushCleanEntriesForNamespace', () => {
    const cache = new RecordCache(100000);
    const received: Buffer[] = [];
    cache.addDirtyEntryFlushListener(namespace1, (dirty) => received.push(...dirty.map((e) => e.key)));
    for (const key of [b(0), b(1), b(2)]) cache.put(namespace1, key, cleanEntry(key));
    cache.put(namespace2, b(4), cleanEntry(b(4)));
    cache.flush(namespace1);
    expect(received).toEqual([]);
  });

  // ThreadCacheTest.shouldEvictImmediatelyIfCacheSizeIsVerySmall / shouldEvictImmediatelyIfCacheSizeIsZero
  it.each([1, 0])('shouldEvictImmediatelyIfCacheSizeIs %s', (max) => {
    const cache = new RecordCache(max);
    const received: DirtyEntry[] = [];
    cache.addDirtyEntryFlushListener(namespace, (d) => received.push(...d));
    cache.put(namespace, b(0), dirtyEntry(b(0)));
    expect(received).toHaveLength(1);
    cache.flush(namespace);
    expect(received).toHaveLength(1);
  });

  // ThreadCacheTest.shouldEvictAfterPutAll (putAll = a put per entry)
  it('shouldEvictAfterPutAll', () => {
    const received: DirtyEntry[] = [];
    const cache = new RecordCache(1);
    cache.addDirtyEntryFlushListener(namespace, (d) => received.push(...d));
    cache.put(namespace, b(0), dirtyEntry(b(5)));
    cache.put(namespace, b(1), dirtyEntry(b(6)));
    expect(cache.evicts).toBe(2);
    expect(received).toHaveLength(2);
  });

  // ThreadCacheTest.shouldNotForwardCleanEntryOnEviction
  it('shouldNotForwardCleanEntryOnEviction', () => {
    const cache = new RecordCache(0);
    const received: DirtyEntry[] = [];
    cache.addDirtyEntryFlushListener(namespace, (d) => received.push(...d));
    cache.put(namespace, b(1), cleanEntry(b(0)));
    expect(received).toHaveLength(0);
  });

  // ThreadCacheTest.shouldPutIfAbsent
  it('shouldPutIfAbsent', () => {
    const cache = new RecordCache(100000);
    const key = b(10);
    const value = b(30);
    expect(cache.putIfAbsent(namespace, key, dirtyEntry(value))).toBeUndefined();
    expect(cache.putIfAbsent(namespace, key, dirtyEntry(b(8)))?.value).toEqual(value);
    expect(cache.get(namespace, key)?.value).toEqual(value);
  });

  // ThreadCacheTest.shouldEvictAfterPutIfAbsent
  it('shouldEvictAfterPutIfAbsent', () => {
    const received: DirtyEntry[] = [];
    const cache = new RecordCache(1);
    cache.addDirtyEntryFlushListener(namespace, (d) => received.push(...d));
    cache.putIfAbsent(namespace, b(0), dirtyEntry(b(5)));
    cache.putIfAbsent(namespace, b(1), dirtyEntry(b(6)));
    cache.putIfAbsent(namespace, b(1), dirtyEntry(b(6)));
    expect(cache.evicts).toBe(3);
    expect(received).toHaveLength(3);
  });

  // ThreadCacheTest.shouldNotLoopForEverWhenEvictingAndCurrentCacheIsEmpty
  it('shouldNotLoopForEverWhenEvictingAndCurrentCacheIsEmpty', () => {
    const max = 100;
    const cache = new RecordCache(max);
    cache.addDirtyEntryFlushListener(namespace, () => cache.put(namespace1, b(0), dirtyEntry(Buffer.alloc(2))));
    cache.addDirtyEntryFlushListener(namespace1, () => {});
    cache.addDirtyEntryFlushListener(namespace2, () => {});
    cache.put(namespace2, b(1), dirtyEntry(Buffer.alloc(1)));
    cache.put(namespace, b(1), dirtyEntry(Buffer.alloc(1)));
    const remaining = max - cache.sizeBytes;
    cache.put(namespace, b(2), dirtyEntry(Buffer.alloc(remaining + 100)));
    expect(cache.sizeBytes).toBeGreaterThan(0); // it returned
  });

  // ThreadCacheTest.shouldCleanupNamedCacheOnClose
  it('shouldCleanupNamedCacheOnClose', () => {
    const cache = new RecordCache(100000);
    cache.put(namespace1, b(1), cleanEntry(b(1)));
    cache.put(namespace2, b(1), cleanEntry(b(1)));
    expect(cache.size()).toBe(2);
    cache.close(namespace2);
    expect(cache.size()).toBe(1);
    expect(cache.get(namespace2, b(1))).toBeUndefined();
  });

  // ThreadCacheTest.shouldCalculateSizeInBytes
  it('shouldCalculateSizeInBytes', () => {
    const cache = new RecordCache(100000);
    cache.put(namespace1, b(1), cleanEntry(b(0)));
    expect(cache.sizeBytes).toBe(nodeSize(b(1), dirtyEntry(b(0))));
  });

  // ThreadCacheTest.shouldResizeAndShrink
  it('shouldResizeAndShrink', () => {
    const cache = new RecordCache(10000);
    cache.put(namespace, b(1), cleanEntry(b(0)));
    cache.put(namespace, b(2), cleanEntry(b(0)));
    cache.put(namespace, b(3), cleanEntry(b(0)));
    expect(cache.sizeBytes).toBe(141);
    cache.resize(100);
    expect(cache.sizeBytes).toBe(94);
    cache.put(namespace1, b(4), cleanEntry(b(0)));
    expect(cache.sizeBytes).toBe(94);
  });
});

describe('RecordCache', () => {
  it('rejects a negative budget with a message naming the setting', () => {
    expect(() => new RecordCache(-1)).toThrow(/statestoreCacheMaxBytes/);
  });
});
