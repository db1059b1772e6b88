/**
 * The files of one persistent store: an lmdb environment in
 * `<task state dir>/<storeName>/` (`data.mdb`, `lock.mdb`) with two named
 * databases, `data` (the store's entries) and `meta` (the checkpoint).
 *
 * Keys are stored with a 1-byte tag in front (LMDB refuses a zero-length key,
 * Kafka's stores accept an empty key): the order of tagged keys is the order
 * of the keys, and the largest key a store takes is lmdb's limit less one.
 *
 * Sync mode: lmdb-js's default on Linux, `overlappingSync`. Measured with
 * bench/lmdb-store.ts, one commit of 1000 writes on an idle machine:
 * overlappingSync 5.5 ms, full sync 5.8 ms, `noSync` 3.3 ms. noSync's 2 ms
 * are not worth a file that a power loss may leave corrupt, so the cheapest
 * mode that keeps the file consistent was chosen (commits happen once per
 * commit interval per store). A committed lmdb transaction is written to the file (the OS
 * page cache) before `transactionSync` returns, and the disk flush runs in the
 * background, so:
 * - a SIGKILL of the process never loses a committed transaction (the page
 *   cache survives the process; test/unit/state/lmdb-kill.test.ts kills a
 *   writer mid-run and checks it);
 * - a power loss or OS crash may roll the store back to an older, consistent
 *   state (data and checkpoint always together, lmdb only points its meta page
 *   at flushed pages); restoration then replays the changelog from that older
 *   checkpoint. `noSync` was not chosen: after a power loss it may leave a
 *   corrupt file rather than an older one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { Logger } from 'pino';
import { StreamsError } from '../../../errors.js';

/** The tag in front of every stored key. */
const KEY_TAG = Buffer.from([0x01]);
const CHECKPOINT_KEY = Buffer.from('checkpoint');
const LMDB_MAGIC = 0xbeefc0de;
/** Where lmdb-js's meta pages carry the magic number (page header of 24 bytes), for the page sizes in use. */
const MAGIC_OFFSETS = [24, 4096 + 24, 8192 + 24, 16384 + 24, 65536 + 24];

/** The opened files of one store. */
export interface LmdbFiles {
  readonly root: RootDatabase<Buffer, Buffer>;
  readonly data: Database<Buffer, Buffer>;
  readonly meta: Database<Buffer, Buffer>;
  /** The largest user key (bytes) the store accepts. */
  readonly maxKeyBytes: number;
}

/** The stored form of a user key. */
export function storedKey(key: Buffer): Buffer {
  return Buffer.concat([KEY_TAG, key]);
}

/** The user key of a stored key (a view, no copy). */
export function userKey(stored: Buffer): Buffer {
  return stored.subarray(KEY_TAG.length);
}

/** Why `dir` does not hold a readable lmdb file, or `undefined` (absent and empty files are fine: lmdb creates them). */
function corruption(dir: string): string | undefined {
  const file = path.join(dir, 'data.mdb');
  if (!fs.existsSync(file)) return undefined;
  const size = fs.statSync(file).size;
  if (size === 0) return undefined;
  const head = Buffer.alloc(Math.min(size, 65536 + 32));
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  const valid = MAGIC_OFFSETS.some((at) => at + 4 <= head.length && head.readUInt32LE(at) === LMDB_MAGIC);
  return valid ? undefined : `data.mdb (${size} bytes) has no lmdb meta page`;
}

function openEnvironment(dir: string): LmdbFiles {
  const root = open<Buffer, Buffer>({ path: dir, noSubdir: false, maxDbs: 2, cache: false, compression: false });
  try {
    const data = root.openDB<Buffer, Buffer>({ name: 'data', keyEncoding: 'binary', encoding: 'binary' });
    const meta = root.openDB<Buffer, Buffer>({ name: 'meta', keyEncoding: 'binary', encoding: 'binary' });
    const maxKeySize = (root as unknown as { maxKeySize?: number }).maxKeySize ?? 1978;
    return { root, data, meta, maxKeyBytes: maxKeySize - KEY_TAG.length };
  } catch (error) {
    void root.close().catch(() => undefined);
    throw error;
  }
}

function wipe(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
}

/**
 * Opens (or creates) the store's files in `dir`:
 * 1. create the folder;
 * 2. check the data file's header (a garbage file would crash lmdb's native
 *    code rather than fail): not an lmdb file → WARN, wipe the folder;
 * 3. open the environment and its two databases; a failure → WARN, wipe the
 *    folder and open once more (the store then restores from scratch, its
 *    checkpoint gone); a second failure is a StreamsError STORE_OPEN_FAILED.
 */
export function openLmdbFiles(storeName: string, dir: string, logger: Logger): LmdbFiles {
  // 1. the folder
  fs.mkdirSync(dir, { recursive: true });
  // 2. the header check
  const reason = corruption(dir);
  if (reason !== undefined) {
    logger.warn({ store: storeName, dir, reason }, `Persistent store '${storeName}' is corrupt (${reason}): wiping ${dir}; it restores from its changelog`);
    wipe(dir);
  }
  // 3. open, once more after a wipe
  try {
    return openEnvironment(dir);
  } catch (first) {
    logger.warn({ store: storeName, dir, err: first }, `Persistent store '${storeName}' cannot be opened: wiping ${dir}; it restores from its changelog`);
    try {
      wipe(dir);
      return openEnvironment(dir);
    } catch (second) {
      throw new StreamsError(`Persistent store '${storeName}' cannot be opened in ${dir}, even after wiping it: ${String(second)}. Check the permissions and free space of the state directory (stateDir)`, {
        code: 'STORE_OPEN_FAILED',
        cause: second,
      });
    }
  }
}

/** The checkpoint stored in `files` (the next changelog offset to restore from), or `undefined`. */
export function readCheckpoint(files: LmdbFiles): number | undefined {
  const bytes = files.meta.get(CHECKPOINT_KEY);
  return bytes === undefined || bytes.length !== 8 ? undefined : Number(bytes.readBigInt64BE(0));
}

/** Writes the checkpoint; call inside the transaction that writes the data it describes. */
export function writeCheckpoint(files: LmdbFiles, nextOffset: number): void {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(BigInt(nextOffset), 0);
  void files.meta.put(CHECKPOINT_KEY, bytes);
}

/** Closes the environment (synchronous when no asynchronous write is pending, which sluice never starts). */
export function closeLmdbFiles(files: LmdbFiles): void {
  void files.root.close().catch(() => undefined);
}
