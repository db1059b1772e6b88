/**
 * The persistent bytes engine, on lmdb, KIP-892 style: lmdb only ever holds
 * committed state.
 *
 * - Writes since the last commit live in a sorted in-memory overlay
 *   (tombstones included) and never reach lmdb before the Kafka transaction
 *   that carries them committed.
 * - Reads (`get`, ranges, prefix scans, `approximateNumEntries`) merge the
 *   overlay over lmdb, so the task reads its own writes.
 * - `commit(next)` applies the overlay and the checkpoint (the next changelog
 *   offset) in ONE lmdb transaction: a SIGKILL leaves either both or neither,
 *   so the checkpoint always describes the data and restoration from it never
 *   misses or re-applies a committed write out of order.
 * - `close()` (or a crash) discards the overlay: after an abort the task is
 *   rebuilt and the store reopens at its last committed state.
 * - A store with logging disabled has no changelog and so no checkpoint: its
 *   writes are applied at each `commit(undefined)` and `checkpoint()` stays
 *   `undefined` (restoring it is a no-op, its data is what the last commit
 *   left; a crash between the Kafka commit and the lmdb commit loses that
 *   commit's writes, as Kafka's unlogged stores may).
 *
 * Files: `<context.stateDir>/<storeName>/` (see `internal/lmdb-files.ts` for
 * the layout, the sync mode and what survives a crash).
 */
import fs from 'node:fs';
import path from 'node:path';
import { StreamsError } from '../../errors.js';
import { componentLogger } from '../../internal/logger.js';
import type { BytesEntry, KeyValueBytesStore } from '../bytes-store-contract.js';
import type { ChangelogRecord, StoreInitContext } from '../store-contract.js';
import {
  closeLmdbFiles,
  KEY_TAG_BYTE,
  openLmdbFiles,
  readCheckpoint,
  storedKey,
  userKey,
  writeCheckpoint,
  type LmdbFiles,
} from './lmdb-files.js';
import { mergeOverlay } from '../internal/overlay-merge.js';
import { SortedBytesMap, startsWith, type SortedEntry } from '../internal/sorted-bytes-map.js';
import { StoreLifecycle } from '../internal/store-lifecycle.js';
import { defined } from '../../internal/defined.js';
import { formatTaskId } from '../../records/task-id.js';

/** A persistent {@link KeyValueBytesStore} on lmdb; uncommitted writes are buffered until `commit`. */
export class LmdbKeyValueBytesStore implements KeyValueBytesStore {
  readonly persistent = true;
  /** Writes since the last commit; `null` = a delete. */
  private readonly overlay = new SortedBytesMap<Buffer | null>();
  private readonly lifecycle: StoreLifecycle;
  private files: LmdbFiles | undefined;

  constructor(readonly name: string) {
    this.lifecycle = new StoreLifecycle(name);
  }

  /** Opens (or creates) `<context.stateDir>/<name>/`; a damaged folder is wiped (WARN naming store and task) and the store restores from scratch. */
  init(context: StoreInitContext): void {
    this.lifecycle.ensureNotStarted();
    const logger = componentLogger('lmdb-store', context.logger, { store: this.name });
    this.files = openLmdbFiles({ store: this.name, task: formatTaskId(context.taskId) }, path.join(context.stateDir, this.name), logger);
    this.lifecycle.open();
  }

  private get db(): LmdbFiles {
    return defined(this.files, `lmdb files of store ${this.name}`);
  }

  /** The stored checkpoint: the next changelog offset to restore from (`undefined`: none yet, or logging disabled). */
  checkpoint(): number | undefined {
    this.lifecycle.ensureOpen('checkpoint');
    return readCheckpoint(this.db);
  }

  /**
   * Writes the batch and checkpoint = last offset + 1 in one lmdb transaction
   * (restoration bypasses the overlay):
   * 1. every key is checked first (a key too large fails the batch before anything is written);
   * 2. only the last write of each key in the batch is applied (the earlier ones
   *    would be overwritten in the same transaction: the result is the same, an
   *    lmdb write less per repeat; issue 32);
   * 3. the writes and the checkpoint go in one transaction; keys are tagged in
   *    one scratch buffer (lmdb copies a key as it writes it).
   */
  restoreBatch(records: readonly ChangelogRecord[]): void {
    this.lifecycle.ensureOpen('restoreBatch');
    const last = records[records.length - 1];
    if (last === undefined) return;
    // 1.
    for (const record of records) this.checkKey(record.key);
    // 2.
    const latest = lastWritePerKey(records);
    // 3.
    const db = this.db;
    const scratch = Buffer.allocUnsafe(db.maxKeyBytes + 1);
    this.transact('restore', () => {
      for (const record of latest) {
        const key = tagInto(scratch, record.key);
        if (record.value === null) void db.data.remove(key);
        else void db.data.put(key, record.value);
      }
      writeCheckpoint(db, last.offset + 1);
    });
  }

  flush(): void {
    this.lifecycle.ensureOpen('flush');
  }

  /**
   * The Kafka transaction holding the overlay's writes committed:
   * 1. nothing written and no new checkpoint → nothing to do;
   * 2. one lmdb transaction writes the overlay and, when given, the checkpoint;
   * 3. the overlay is committed state now: empty it.
   */
  commit(changelogNextOffset: number | undefined): void {
    this.lifecycle.ensureOpen('commit');
    // 1. nothing to do
    if (this.overlay.size === 0 && changelogNextOffset === undefined) return;
    // 2. data and checkpoint together
    const db = this.db;
    const writes = this.overlay.range(null, null);
    const scratch = Buffer.allocUnsafe(db.maxKeyBytes + 1);
    this.transact('commit', () => {
      for (const { key, value } of writes) {
        const stored = tagInto(scratch, key);
        if (value === null) void db.data.remove(stored);
        else void db.data.put(stored, value);
      }
      if (changelogNextOffset !== undefined) writeCheckpoint(db, changelogNextOffset);
    });
    // 3. the overlay is applied
    this.overlay.clear();
  }

  /** Discards the uncommitted writes and closes lmdb. Idempotent. */
  close(): void {
    if (!this.lifecycle.close()) return;
    this.overlay.clear();
    if (this.files !== undefined) closeLmdbFiles(this.files);
    this.files = undefined;
  }

  isOpen(): boolean {
    return this.lifecycle.isOpen;
  }

  get(key: Buffer): Buffer | null {
    this.lifecycle.ensureOpen('get');
    const pending = this.overlay.size === 0 ? undefined : this.overlay.get(key);
    if (pending !== undefined) return pending;
    if (key.length > this.db.maxKeyBytes) return null;
    return this.db.data.get(storedKey(key)) ?? null;
  }

  put(key: Buffer, value: Buffer | null): void {
    this.lifecycle.ensureOpen('put');
    this.checkKey(key);
    this.overlay.set(Buffer.from(key), value === null ? null : Buffer.from(value));
  }

  putIfAbsent(key: Buffer, value: Buffer): Buffer | null {
    const previous = this.get(key);
    if (previous === null) this.put(key, value);
    return previous;
  }

  delete(key: Buffer): Buffer | null {
    const previous = this.get(key);
    this.put(key, null);
    return previous;
  }

  range(from: Buffer | null, to: Buffer | null): BytesEntry[] {
    this.lifecycle.ensureOpen('range');
    if (from !== null && to !== null && Buffer.compare(from, to) > 0) return [];
    return this.merged(this.committed(from, to, false), this.overlay.range(from, to), false);
  }

  reverseRange(from: Buffer | null, to: Buffer | null): BytesEntry[] {
    this.lifecycle.ensureOpen('reverseRange');
    if (from !== null && to !== null && Buffer.compare(from, to) > 0) return [];
    return this.merged(this.committed(from, to, true), this.overlay.reverseRange(from, to), true);
  }

  prefixScan(prefix: Buffer): BytesEntry[] {
    this.lifecycle.ensureOpen('prefixScan');
    return this.merged(this.committed(prefix, null, false, prefix), this.overlay.prefixScan(prefix), false);
  }

  /** The committed count, corrected by the overlay (one lmdb lookup per uncommitted write). */
  approximateNumEntries(): number {
    this.lifecycle.ensureOpen('approximateNumEntries');
    const db = this.db;
    let count = (db.data.getStats() as { entryCount?: number }).entryCount ?? 0;
    for (const { key, value } of this.overlay.range(null, null)) {
      const committed = key.length <= db.maxKeyBytes && db.data.doesExist(storedKey(key));
      if (value === null && committed) count--;
      else if (value !== null && !committed) count++;
    }
    return count;
  }

  /** A key lmdb cannot store is refused at `put`, before anything is written. */
  private checkKey(key: Buffer): void {
    const limit = this.db.maxKeyBytes;
    if (key.length <= limit) return;
    throw new StreamsError(
      `State store '${this.name}': a key of ${key.length} bytes is larger than the ${limit}-byte limit of the persistent (lmdb) store engine. ` +
        `Fix: use shorter keys (e.g. hash long ones), or an in-memory store (Stores.inMemoryKeyValueStore('${this.name}'))`,
      { code: 'STORE_KEY_TOO_LARGE' },
    );
  }

  private transact(what: 'commit' | 'restore', write: () => void): void {
    try {
      this.db.root.transactionSync(write);
    } catch (error) {
      // Issue 28 item 13: say what failed (a full disk shows as "Input/output error") and what it means for the data.
      const meaning =
        what === 'commit'
          ? 'the Kafka transaction holding these writes had already committed: they are safe in the changelog; the local store did not record them and catches up from its changelog when the task restarts'
          : 'nothing of this batch was written; the task restarts and restores again from its checkpoint';
      throw new StreamsError(`Persistent store '${this.name}' failed to ${what} its local lmdb transaction (${String(error)}${diskFull(this.db.dir)}): ${meaning}`, {
        code: 'STORE_WRITE_FAILED',
        cause: error,
      });
    }
  }

  /** A start key lmdb accepts: keys longer than the limit cannot be stored, a truncated bound finds the same entries. */
  private startKey(key: Buffer): Buffer {
    const stored = storedKey(key);
    return stored.length > this.db.maxKeyBytes + 1 ? stored.subarray(0, this.db.maxKeyBytes + 1) : stored;
  }

  /** Committed entries with `from <= key <= to` (and starting with `prefix` when given), in the asked order. */
  private committed(from: Buffer | null, to: Buffer | null, descending: boolean, prefix?: Buffer): BytesEntry[] {
    const out: BytesEntry[] = [];
    const data = this.db.data;
    const range = descending
      ? data.getRange(to === null ? { reverse: true } : { start: this.startKey(to), reverse: true })
      : data.getRange({ start: from === null ? storedKey(Buffer.alloc(0)) : this.startKey(from) });
    for (const entry of range) {
      const key = userKey(entry.key);
      if (descending) {
        if (to !== null && Buffer.compare(key, to) > 0) continue;
        if (from !== null && Buffer.compare(key, from) < 0) break;
      } else {
        if (from !== null && Buffer.compare(key, from) < 0) continue;
        if (to !== null && Buffer.compare(key, to) > 0) break;
        if (prefix !== undefined && !startsWith(key, prefix)) break;
      }
      out.push({ key, value: entry.value });
    }
    return out;
  }

  /** The committed entries with the overlay's entries merged over them. */
  private merged(committed: BytesEntry[], overlay: SortedEntry<Buffer | null>[], descending: boolean): BytesEntry[] {
    return overlay.length === 0 ? committed : mergeOverlay(committed, overlay, descending);
  }
}

/** The records of `records` that are the last write of their key in it (in reverse order: the keys are distinct, so order does not matter). */
function lastWritePerKey(records: readonly ChangelogRecord[]): ChangelogRecord[] {
  const seen = new Set<string>();
  const out: ChangelogRecord[] = [];
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i] as ChangelogRecord;
    const id = record.key.toString('latin1');
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(record);
  }
  return out;
}

/** The stored form of `key` (see `storedKey`) written into `scratch`: a view of it, valid until the next call. */
function tagInto(scratch: Buffer, key: Buffer): Buffer {
  scratch[0] = KEY_TAG_BYTE;
  key.copy(scratch, 1);
  return scratch.subarray(0, key.length + 1);
}

/** `; the disk holding <dir> is full (ENOSPC, N bytes free)` when it has less than 1 MiB free, else ''. */
function diskFull(dir: string): string {
  try {
    const stats = fs.statfsSync(dir);
    const free = stats.bavail * stats.bsize;
    return free < 1024 * 1024 ? `; the disk holding ${dir} is full (ENOSPC, ${free} bytes free): free space there or move stateDir` : '';
  } catch {
    return '';
  }
}
