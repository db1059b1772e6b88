/**
 * Ports of Kafka Streams' NamedCacheTest
 * (streams/src/test/java/org/apache/kafka/streams/state/internals/NamedCacheTest.java),
 * inputs and expected outputs unchanged. `head()`/`tail()` are the most and
 * least recently used entries (sluice keeps the LRU order in a Map, so the
 * linked-list pointer checks become order checks). The null-key case does not
 * apply (keys are typed Buffers).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { IllegalStateError } from '../../../../src/errors.js';
import { cacheEntry, NamedCache, nodeSize, type DirtyEntry } from '../../../../src/state/record-cache.js';

const headers = { key: Buffer.from('value') };
const b = (...xs: number[]): Buffer => Buffer.from(xs);
const ctx = (extra: Partial<{ timestamp: number; offset: number; partition: number }> = {}) => ({ timestamp: 0, offset: 0, partition: 0, topic: '', headers, ...extra });

describe('NamedCacheTest (ported)', () => {
  let cache: NamedCache;
  beforeEach(() => {
    cache = new NamedCache('dummy-name');
  });

  // NamedCacheTest.shouldKeepTrackOfMostRecentlyAndLeastRecentlyUsed
  it('shouldKeepTrackOfMostRecentlyAndLeastRecentlyUsed', () => {
    const toInsert = [['K1', 'V1'], ['K2', 'V2'], ['K3', 'V3'], ['K4', 'V4'], ['K5', 'V5']] as const;
    for (const [k, v] of toInsert) {
      cache.put(Buffer.from(k), cacheEntry(Buffer.from(v), true, { timestamp: 1, offset: 1, partition: 1, topic: '', headers: {} }));
      expect(cache.first()?.value?.toString()).toBe(v);
      expect(cache.last()?.value?.toString()).toBe('V1');
      expect([cache.flushes, cache.hits, cache.misses, cache.overwrites]).toEqual([0, 0, 0, 0]);
    }
  });

  // NamedCacheTest.shouldKeepTrackOfSize
  it('shouldKeepTrackOfSize', () => {
    const value = cacheEntry(b(0));
    cache.put(b(0), value);
    cache.put(b(1), value);
    cache.put(b(2), value);
    // 1 byte key + 24 bytes overhead
    expect(cache.sizeInBytes).toBe((value.sizeBytes + 25) * 3);
  });

  // NamedCacheTest.shouldPutGet
  it('shouldPutGet', () => {
    cache.put(b(0), cacheEntry(b(10)));
    cache.put(b(1), cacheEntry(b(11)));
    cache.put(b(2), cacheEntry(b(12)));
    expect(cache.get(b(0))?.value).toEqual(b(10));
    expect(cache.get(b(1))?.value).toEqual(b(11));
    expect(cache.get(b(2))?.value).toEqual(b(12));
    expect(cache.hits).toBe(3);
  });

  // NamedCacheTest.shouldPutIfAbsent
  it('shouldPutIfAbsent', () => {
    cache.put(b(0), cacheEntry(b(10)));
    cache.putIfAbsent(b(0), cacheEntry(b(20)));
    cache.putIfAbsent(b(1), cacheEntry(b(30)));
    expect(cache.get(b(0))?.value).toEqual(b(10));
    expect(cache.get(b(1))?.value).toEqual(b(30));
  });

  // NamedCacheTest.shouldDeleteAndUpdateSize
  it('shouldDeleteAndUpdateSize', () => {
    cache.put(b(0), cacheEntry(b(10)));
    expect(cache.delete(b(0))?.value).toEqual(b(10));
    expect(cache.sizeInBytes).toBe(0);
  });

  // NamedCacheTest.shouldPutAll (putAll = a put per entry)
  it('shouldPutAll', () => {
    for (const x of [0, 1, 2]) cache.put(b(x), cacheEntry(b(x)));
    for (const x of [0, 1, 2]) expect(cache.get(b(x))?.value).toEqual(b(x));
  });

  // NamedCacheTest.shouldOverwriteAll
  it('shouldOverwriteAll', () => {
    for (const x of [0, 1, 2]) cache.put(b(0), cacheEntry(b(x)));
    expect(cache.get(b(0))?.value).toEqual(b(2));
    expect(cache.overwrites).toBe(2);
  });

  // NamedCacheTest.shouldEvictEldestEntry
  it('shouldEvictEldestEntry', () => {
    cache.put(b(0), cacheEntry(b(10)));
    cache.put(b(1), cacheEntry(b(20)));
    cache.put(b(2), cacheEntry(b(30)));
    cache.evict();
    expect(cache.get(b(0))).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  // NamedCacheTest.shouldFlushDirtEntriesOnEviction
  it('shouldFlushDirtEntriesOnEviction', () => {
    const flushed: DirtyEntry[] = [];
    cache.put(b(0), cacheEntry(b(10), true, ctx()));
    cache.put(b(1), cacheEntry(b(20)));
    cache.put(b(2), cacheEntry(b(30), true, ctx()));
    cache.setListener((d) => flushed.push(...d));
    cache.evict();
    expect(flushed).toHaveLength(2);
    expect(flushed[0]?.key).toEqual(b(0));
    expect(flushed[0]?.entry.context.headers).toEqual(headers);
    expect(flushed[0]?.newValue).toEqual(b(10));
    expect(flushed[1]?.key).toEqual(b(2));
    expect(flushed[1]?.newValue).toEqual(b(30));
    expect(cache.flushes).toBe(1);
  });

  // NamedCacheTest.shouldNotThrowNullPointerWhenCacheIsEmptyAndEvictionCalled
  it('shouldNotThrowNullPointerWhenCacheIsEmptyAndEvictionCalled', () => {
    expect(() => cache.evict()).not.toThrow();
  });

  // NamedCacheTest.shouldThrowIllegalStateExceptionWhenTryingToOverwriteDirtyEntryWithCleanEntry
  it('shouldThrowIllegalStateExceptionWhenTryingToOverwriteDirtyEntryWithCleanEntry', () => {
    cache.put(b(0), cacheEntry(b(10), true, ctx()));
    expect(() => cache.put(b(0), cacheEntry(b(10), false, { ...ctx(), headers: {} }))).toThrow(IllegalStateError);
  });

  // NamedCacheTest.shouldRemoveDeletedValuesOnFlush
  it('shouldRemoveDeletedValuesOnFlush', () => {
    cache.setListener(() => {});
    cache.put(b(0), cacheEntry(null, true, ctx()));
    cache.put(b(1), cacheEntry(b(20), true, { ...ctx(), headers: {} }));
    cache.flush();
    expect(cache.size).toBe(1);
    expect(cache.get(b(1))).toBeDefined();
  });

  // NamedCacheTest.shouldBeReentrantAndNotBreakLRU
  it('shouldBeReentrantAndNotBreakLRU', () => {
    const dirty = cacheEntry(b(3), true, { ...ctx(), headers: {} });
    const clean = cacheEntry(b(3));
    cache.put(b(0), dirty);
    cache.put(b(1), clean);
    cache.put(b(2), clean);
    const head = () => cache.head() as { key: Buffer; entry: ReturnType<typeof cacheEntry> };
    expect(cache.sizeInBytes).toBe(3 * nodeSize(head().key, head().entry));
    cache.setListener(() => {
      cache.put(b(3), clean);
      cache.evict(); // evict key 1
      cache.evict(); // evict key 2
    });
    expect(cache.sizeInBytes).toBe(3 * nodeSize(head().key, head().entry));
    cache.evict(); // Evict key 0
    const entryFour = b(4);
    cache.put(entryFour, dirty);
    expect(cache.size).toBe(2);
    expect(cache.sizeInBytes).toBe(2 * nodeSize(head().key, head().entry));
    expect(head().key).toEqual(entryFour);
    expect(cache.tail()?.key).toEqual(b(3));
    cache.evict(); // evict key 3
    expect(cache.head()).toBe(cache.tail());
    expect(head().key).toEqual(entryFour);
  });

  // NamedCacheTest.shouldNotThrowIllegalArgumentAfterEvictingDirtyRecordAndThenPuttingNewRecordWithSameKey
  it('shouldNotThrowIllegalArgumentAfterEvictingDirtyRecordAndThenPuttingNewRecordWithSameKey', () => {
    const dirty = cacheEntry(b(3), true, { ...ctx(), headers: {} });
    const clean = cacheEntry(b(3));
    const key = b(3);
    cache.setListener(() => cache.put(key, clean));
    cache.put(key, dirty);
    expect(() => cache.evict()).not.toThrow();
  });
});
