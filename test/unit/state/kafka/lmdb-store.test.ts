/**
 * The engine-independent cases of Kafka's RocksDBStoreTest, ported to the lmdb
 * engine (sluice's persistent store). Each case runs twice: with Kafka's
 * `flush()` committing (reads come from lmdb) and without committing (reads
 * come from the uncommitted-write overlay), same inputs and expectations.
 * Not ported: RocksDB options/metrics/statistics/bloom filters, positions and
 * consistency vectors, and the live-iterator close cases (ranges are
 * snapshots). Kafka's NullPointerException is sluice's IllegalArgumentError.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { IllegalArgumentError, Serdes } from '../../../../src/index.js';
import { LmdbKeyValueBytesStore } from '../../../../src/state/lmdb/lmdb-key-value-bytes-store.js';
import { MeteredKeyValueStore } from '../../../../src/state/metered-key-value-store.js';
import { changelogRecord, storeContext, tempStateDir } from '../helpers.js';
import { prefixScanCases } from './prefix-scan-cases.js';

const s = (text: string): Buffer => Buffer.from(text, 'utf8');
const str = (bytes: Buffer | null): string | null => (bytes === null ? null : bytes.toString('utf8'));

describe.each(['committed', 'uncommitted'] as const)('RocksDBStoreTest on lmdb (%s)', (mode) => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  function open(): { store: LmdbKeyValueBytesStore; typed: MeteredKeyValueStore<Buffer, Buffer>; flush: () => void; dir: string } {
    const dir = tempStateDir();
    const store = new LmdbKeyValueBytesStore('db-name');
    const typed = new MeteredKeyValueStore(store, Serdes.ByteArray(), Serdes.ByteArray());
    typed.init(storeContext(dir.dir));
    let offset = 0;
    cleanups.push(() => {
      typed.close();
      dir.cleanup();
    });
    const flush = (): void => {
      typed.flush();
      if (mode === 'committed') typed.commit(++offset);
    };
    return { store, typed, flush, dir: dir.dir };
  }

  const keyValueEntries = () => [changelogRecord('1', 'a', 0), changelogRecord('2', 'b', 1), changelogRecord('3', 'c', 2)];

  // RocksDBStoreTest.shouldNotThrowExceptionOnRestoreWhenThereIsPreExistingRocksDbFiles
  it('shouldNotThrowExceptionOnRestoreWhenThereIsPreExistingRocksDbFiles', () => {
    const { store, flush } = open();
    store.put(s('existingKey'), s('existingValue'));
    flush();
    store.restoreBatch([changelogRecord('restoredKey', 'restoredValue', 0)]);
    expect(str(store.get(s('restoredKey')))).toBe('restoredValue');
  });

  // RocksDBStoreTest.shouldPutAll
  it('shouldPutAll', () => {
    const { typed, flush } = open();
    typed.putAll([
      { key: s('1'), value: s('a') },
      { key: s('2'), value: s('b') },
      { key: s('3'), value: s('c') },
    ]);
    flush();
    expect([str(typed.get(s('1'))), str(typed.get(s('2'))), str(typed.get(s('3')))]).toEqual(['a', 'b', 'c']);
  });

  prefixScanCases('RocksDBStoreTest', () => {
    const { typed, flush } = open();
    return { store: typed, flush };
  });

  // RocksDBStoreTest.shouldRestoreAll
  it('shouldRestoreAll', () => {
    const { store } = open();
    store.restoreBatch(keyValueEntries());
    expect([str(store.get(s('1'))), str(store.get(s('2'))), str(store.get(s('3')))]).toEqual(['a', 'b', 'c']);
  });

  // RocksDBStoreTest.shouldPutOnlyIfAbsentValue
  it('shouldPutOnlyIfAbsentValue', () => {
    const { store, flush } = open();
    store.putIfAbsent(s('one'), s('A'));
    flush();
    store.putIfAbsent(s('one'), s('B'));
    expect(str(store.get(s('one')))).toBe('A');
  });

  // RocksDBStoreTest.shouldHandleDeletesOnRestoreAll
  it('shouldHandleDeletesOnRestoreAll', () => {
    const { store } = open();
    store.restoreBatch([...keyValueEntries(), changelogRecord('1', null, 3)]);
    expect(new Set(store.range(null, null).map((e) => e.key.toString()))).toEqual(new Set(['2', '3']));
  });

  // RocksDBStoreTest.shouldHandleDeletesAndPutBackOnRestoreAll
  it('shouldHandleDeletesAndPutBackOnRestoreAll', () => {
    const { store } = open();
    store.restoreBatch([
      changelogRecord('1', 'a', 0),
      changelogRecord('2', 'b', 1),
      // this will be deleted
      changelogRecord('1', null, 2),
      changelogRecord('3', 'c', 3),
      // this will restore key "1" as the batch applies updates in order
      changelogRecord('1', 'restored', 4),
    ]);
    expect(new Set(store.range(null, null).map((e) => e.key.toString()))).toEqual(new Set(['1', '2', '3']));
    expect([str(store.get(s('1'))), str(store.get(s('2'))), str(store.get(s('3')))]).toEqual(['restored', 'b', 'c']);
    expect(store.checkpoint()).toBe(5);
  });

  // RocksDBStoreTest.shouldRestoreThenDeleteOnRestoreAll
  it('shouldRestoreThenDeleteOnRestoreAll', () => {
    const { store } = open();
    store.restoreBatch(keyValueEntries());
    expect([str(store.get(s('1'))), str(store.get(s('2'))), str(store.get(s('3')))]).toEqual(['a', 'b', 'c']);
    store.restoreBatch([changelogRecord('2', 'b', 3), changelogRecord('3', 'c', 4), changelogRecord('1', null, 5)]);
    expect(new Set(store.range(null, null).map((e) => e.key.toString()))).toEqual(new Set(['2', '3']));
  });

  // RocksDBStoreTest.shouldThrowNullPointerExceptionOnNullPut / OnNullPutAll / OnNullGet / OnDelete
  it('shouldThrowNullPointerExceptionOn{NullPut,NullPutAll,NullGet,Delete}', () => {
    const { typed } = open();
    const nullKey = null as unknown as Buffer;
    expect(() => typed.put(nullKey, s('someVal'))).toThrow(IllegalArgumentError);
    expect(() => typed.putAll([{ key: nullKey, value: s('someVal') }])).toThrow(IllegalArgumentError);
    expect(() => typed.get(nullKey)).toThrow(IllegalArgumentError);
    expect(() => typed.delete(nullKey)).toThrow(IllegalArgumentError);
  });

  // RocksDBStoreTest.shouldReturnValueOnRange
  it('shouldReturnValueOnRange', () => {
    const { store, flush } = open();
    store.put(s('0'), s('zero'));
    store.put(s('1'), s('one'));
    flush();
    store.put(s('2'), s('two'));
    expect(store.range(null, s('1')).map((e) => [e.key.toString(), e.value.toString()])).toEqual([
      ['0', 'zero'],
      ['1', 'one'],
    ]);
  });

  // RocksDBStoreTest.shouldPerformRangeQueriesWithCachingDisabled / shouldPerformAllQueriesWithCachingDisabled
  it('shouldPerform{Range,All}QueriesWithCachingDisabled', () => {
    const dir = tempStateDir();
    const typed = new MeteredKeyValueStore(new LmdbKeyValueBytesStore('db-name'), Serdes.Integer(), Serdes.String());
    typed.init(storeContext(dir.dir));
    cleanups.push(() => {
      typed.close();
      dir.cleanup();
    });
    typed.put(1, 'hi');
    if (mode === 'committed') typed.commit(1);
    typed.put(2, 'goodbye');
    expect(typed.range(1, 2).map((e) => e.value)).toEqual(['hi', 'goodbye']);
    expect(typed.all().map((e) => e.value)).toEqual(['hi', 'goodbye']);
  });

  // RocksDBStoreTest.shouldHandleTombstoneRecords (the tombstone part; positions are not ported)
  it('shouldHandleTombstoneRecords', () => {
    const { store } = open();
    store.restoreBatch([changelogRecord('1', 'a', 0), changelogRecord('1', null, 1)]);
    expect(store.get(s('1'))).toBeNull();
  });
});
