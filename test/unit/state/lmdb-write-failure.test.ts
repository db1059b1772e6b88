/**
 * Issue 28 item 13: an lmdb write that fails (a full disk shows as
 * "Input/output error") is reported truthfully: a failed commit says the
 * Kafka transaction had already committed and where the writes are safe.
 */
import { describe, expect, it } from 'vitest';
import { LmdbKeyValueBytesStore } from '../../../src/state/lmdb/lmdb-key-value-bytes-store.js';
import { b, changelogRecord, storeContext, tempStateDir } from './helpers.js';

function failingStore(dir: string): LmdbKeyValueBytesStore {
  const store = new LmdbKeyValueBytesStore('s');
  store.init(storeContext(dir));
  const files = (store as unknown as { files: { root: { transactionSync: () => void } } }).files;
  files.root.transactionSync = () => {
    throw new Error('Input/output error');
  };
  return store;
}

describe('lmdb write failures', () => {
  it('a failed commit names the lmdb error and says the Kafka transaction had committed, its writes safe in the changelog (was: "transaction rolled back")', () => {
    const { dir, cleanup } = tempStateDir();
    try {
      const store = failingStore(dir);
      store.put(b('a'), b('1'));
      expect(() => store.commit(5)).toThrow(
        /^Persistent store 's' failed to commit its local lmdb transaction \(Error: Input\/output error\): the Kafka transaction holding these writes had already committed: they are safe in the changelog; the local store did not record them and catches up from its changelog when the task restarts$/,
      );
      store.close();
    } finally {
      cleanup();
    }
  });

  it('a failed restore batch says nothing of it was written and the restore starts again from the checkpoint', () => {
    const { dir, cleanup } = tempStateDir();
    try {
      const store = failingStore(dir);
      expect(() => store.restoreBatch([changelogRecord('a', '1', 0)])).toThrow(/failed to restore its local lmdb transaction \(Error: Input\/output error\): nothing of this batch was written/);
      store.close();
    } finally {
      cleanup();
    }
  });
});
