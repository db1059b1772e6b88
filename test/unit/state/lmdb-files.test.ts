import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LmdbKeyValueBytesStore } from '../../../src/state/lmdb/lmdb-key-value-bytes-store.js';
import { b, storeContext, tempStateDir, type CapturedLog } from './helpers.js';

describe('lmdb bytes store: files', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  it('keeps its files in <stateDir>/<storeName>/ and reopens committed data', () => {
    const { dir, cleanup } = tempStateDir();
    cleanups.push(cleanup);
    const store = new LmdbKeyValueBytesStore('my.store');
    store.init(storeContext(dir));
    store.put(b('a'), b('1'));
    store.commit(1);
    store.close();
    // a clean close seals the file (sluice-clean-close.json): the next start trusts it without a scan
    expect(readdirSync(join(dir, 'my.store')).sort()).toEqual(['data.mdb', 'lock.mdb', 'sluice-clean-close.json']);
    const again = new LmdbKeyValueBytesStore('my.store');
    again.init(storeContext(dir));
    expect(again.get(b('a'))).toEqual(b('1'));
    again.close();
  });

  it('a corrupt store folder is wiped (WARN) and the store starts empty, with no checkpoint, so it restores from scratch', () => {
    const { dir, cleanup } = tempStateDir();
    cleanups.push(cleanup);
    mkdirSync(join(dir, 'broken'));
    writeFileSync(join(dir, 'broken', 'data.mdb'), Buffer.alloc(20_000, 7));
    const logs: CapturedLog[] = [];
    const store = new LmdbKeyValueBytesStore('broken');
    store.init(storeContext(dir, logs));
    expect(store.checkpoint()).toBeUndefined();
    expect(store.approximateNumEntries()).toBe(0);
    expect(logs.filter((l) => l.level === 40).map((l) => l.msg)).toEqual([expect.stringMatching(/Persistent store 'broken' of task 0_0 is damaged \(data.mdb \(20000 bytes\): no lmdb meta page at byte 0\): wiping/)]);
    store.put(b('a'), b('1'));
    store.commit(1);
    expect(store.checkpoint()).toBe(1);
    store.close();
  });

  it('data methods before init and after close throw IllegalStateError naming the step', () => {
    const store = new LmdbKeyValueBytesStore('s');
    expect(() => store.get(b('a'))).toThrow(/cannot get before init\(context\)/);
    const { dir, cleanup } = tempStateDir();
    cleanups.push(cleanup);
    store.init(storeContext(dir));
    expect(() => store.init(storeContext(dir))).toThrow(/cannot init in state OPEN/);
    store.close();
    store.close();
    expect(store.isOpen()).toBe(false);
    expect(() => store.put(b('a'), b('1'))).toThrow(/cannot put in state CLOSED; allowed in: OPEN/);
  });
});
