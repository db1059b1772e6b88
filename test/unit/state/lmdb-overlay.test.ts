import { afterEach, describe, expect, it } from 'vitest';
import { open } from 'lmdb';
import { join } from 'node:path';
import { StreamsError } from '../../../src/errors.js';
import { LmdbKeyValueBytesStore } from '../../../src/state/lmdb/lmdb-key-value-bytes-store.js';
import { b, changelogRecord, storeContext, strings, tempStateDir } from './helpers.js';

/** What lmdb itself holds for the store `name` (read by a second, independent handle). */
function committedInLmdb(stateDir: string, name: string): { entries: Array<[string, string]>; checkpoint: number | undefined } {
  const root = open({ path: join(stateDir, name), noSubdir: false, maxDbs: 2 });
  try {
    const data = root.openDB<Buffer, Buffer>({ name: 'data', keyEncoding: 'binary', encoding: 'binary' });
    const meta = root.openDB<Buffer, Buffer>({ name: 'meta', keyEncoding: 'binary', encoding: 'binary' });
    const entries = [...data.getRange({})].map((e): [string, string] => [e.key.subarray(1).toString(), e.value.toString()]);
    const cp = meta.get(Buffer.from('checkpoint'));
    return { entries, checkpoint: cp === undefined ? undefined : Number(cp.readBigInt64BE(0)) };
  } finally {
    void root.close();
  }
}

describe('lmdb bytes store: the uncommitted-write overlay (KIP-892)', () => {
  const dirs: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of dirs.splice(0)) cleanup();
  });
  function openStore(name = 'store'): { store: LmdbKeyValueBytesStore; dir: string } {
    const { dir, cleanup } = tempStateDir();
    dirs.push(cleanup);
    const store = new LmdbKeyValueBytesStore(name);
    store.init(storeContext(dir));
    return { store, dir };
  }

  it('writes are readable by the task at once but are not in lmdb before commit, and are after it (with the checkpoint)', () => {
    const { store, dir } = openStore();
    store.put(b('a'), b('1'));
    store.put(b('b'), b('2'));
    expect(store.get(b('a'))).toEqual(b('1'));
    expect(strings(store.range(null, null))).toEqual([['a', '1'], ['b', '2']]);
    expect(committedInLmdb(dir, 'store')).toEqual({ entries: [], checkpoint: undefined });
    store.commit(7);
    expect(committedInLmdb(dir, 'store')).toEqual({ entries: [['a', '1'], ['b', '2']], checkpoint: 7 });
    expect(store.checkpoint()).toBe(7);
    store.close();
  });

  it('reads merge the overlay over lmdb: overwrites win, tombstones hide committed entries, in both directions', () => {
    const { store } = openStore();
    for (const k of ['a', 'c', 'e', 'g']) store.put(b(k), b(`old-${k}`));
    store.commit(4);
    store.put(b('b'), b('new-b'));
    store.put(b('c'), b('new-c'));
    store.delete(b('e'));
    store.put(b('h'), b('new-h'));
    expect(strings(store.range(null, null))).toEqual([['a', 'old-a'], ['b', 'new-b'], ['c', 'new-c'], ['g', 'old-g'], ['h', 'new-h']]);
    expect(strings(store.reverseRange(b('b'), b('g')))).toEqual([['g', 'old-g'], ['c', 'new-c'], ['b', 'new-b']]);
    expect(store.get(b('e'))).toBeNull();
    expect(store.approximateNumEntries()).toBe(5);
    expect(strings(store.prefixScan(b('c')))).toEqual([['c', 'new-c']]);
    store.close();
  });

  it('close without commit loses the uncommitted writes; the committed state and checkpoint stay', () => {
    const { store, dir } = openStore();
    store.put(b('kept'), b('1'));
    store.commit(1);
    store.put(b('lost'), b('2'));
    store.delete(b('kept'));
    store.close();
    const reopened = new LmdbKeyValueBytesStore('store');
    reopened.init(storeContext(dir));
    expect(reopened.get(b('lost'))).toBeNull();
    expect(reopened.get(b('kept'))).toEqual(b('1'));
    expect(reopened.checkpoint()).toBe(1);
    reopened.close();
  });

  it('commit(undefined) applies the writes and keeps the checkpoint (a store with logging disabled has none)', () => {
    const { store, dir } = openStore();
    store.put(b('a'), b('1'));
    store.commit(undefined);
    expect(committedInLmdb(dir, 'store')).toEqual({ entries: [['a', '1']], checkpoint: undefined });
    store.commit(3);
    store.put(b('a'), b('2'));
    store.commit(undefined);
    expect(committedInLmdb(dir, 'store')).toEqual({ entries: [['a', '2']], checkpoint: 3 });
    store.close();
  });

  it('restoreBatch writes the records and checkpoint = last offset + 1 together, tombstones delete', () => {
    const { store, dir } = openStore();
    store.restoreBatch([changelogRecord('a', '1', 10), changelogRecord('b', '2', 11), changelogRecord('a', null, 12)]);
    expect(committedInLmdb(dir, 'store')).toEqual({ entries: [['b', '2']], checkpoint: 13 });
    expect(store.checkpoint()).toBe(13);
    store.restoreBatch([]);
    expect(store.checkpoint()).toBe(13);
    store.close();
  });

  it('restoreBatch: with a key written many times in one batch (put, delete, put again, keys of every length) only the last write of each key counts', () => {
    const { store, dir } = openStore();
    const records = [];
    const expected = new Map<string, string>();
    for (let i = 0; i < 500; i++) {
      const key = `k${i % 37}`.padEnd(1 + (i % 5), 'x');
      const value = i % 7 === 3 ? null : `v${i}`;
      records.push(changelogRecord(key, value, 100 + i));
      if (value === null) expected.delete(key);
      else expected.set(key, value);
    }
    store.restoreBatch(records);
    const want = [...expected].sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(committedInLmdb(dir, 'store')).toEqual({ entries: want, checkpoint: 600 });
    expect(strings(store.range(null, null))).toEqual(want);
    store.close();
  });

  it('a key longer than lmdb accepts is refused at put with an error naming the store, the size and the limit; nothing is written', () => {
    const { store } = openStore('big-keys');
    let error: unknown;
    try {
      store.put(Buffer.alloc(1978, 7), b('v'));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StreamsError);
    expect((error as StreamsError).code).toBe('STORE_KEY_TOO_LARGE');
    expect((error as StreamsError).message).toMatch(/State store 'big-keys': a key of 1978 bytes is larger than the 1977-byte limit/);
    store.put(Buffer.alloc(1977, 7), b('v'));
    store.commit(1);
    expect(store.approximateNumEntries()).toBe(1);
    expect(store.get(Buffer.alloc(4000, 7))).toBeNull();
    expect(store.range(Buffer.alloc(4000, 6), Buffer.alloc(4000, 7))).toHaveLength(1);
    store.close();
  });

  it('accepts the empty key (Kafka stores do; LMDB alone refuses zero-length keys)', () => {
    const { store } = openStore();
    store.put(Buffer.alloc(0), b('empty'));
    store.put(b('a'), b('1'));
    store.commit(2);
    expect(store.get(Buffer.alloc(0))).toEqual(b('empty'));
    expect(strings(store.range(null, null))).toEqual([['', 'empty'], ['a', '1']]);
    store.close();
  });
});
