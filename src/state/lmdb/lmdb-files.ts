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
import { open, type Database, type RootDatabase } from 'lmdb';
import type { Logger } from 'pino';
import { StreamsError } from '../../errors.js';
import { headerDamage, scanInChild, takeSeal, writeSeal } from './lmdb-damage.js';

/** The tag byte in front of every stored key. */
export const KEY_TAG_BYTE = 0x01;
/** The tag in front of every stored key. */
const KEY_TAG = Buffer.from([KEY_TAG_BYTE]);
const CHECKPOINT_KEY = Buffer.from('checkpoint');

/** The opened files of one store. */
export interface LmdbFiles {
  readonly root: RootDatabase<Buffer, Buffer>;
  readonly data: Database<Buffer, Buffer>;
  readonly meta: Database<Buffer, Buffer>;
  /** The largest user key (bytes) the store accepts. */
  readonly maxKeyBytes: number;
  /** The folder. */
  readonly dir: string;
}

/** The stored form of a user key. */
export function storedKey(key: Buffer): Buffer {
  return Buffer.concat([KEY_TAG, key]);
}

/** The user key of a stored key (a view, no copy). */
export function userKey(stored: Buffer): Buffer {
  return stored.subarray(KEY_TAG.length);
}

function openEnvironment(dir: string): LmdbFiles {
  const root = open<Buffer, Buffer>({ path: dir, noSubdir: false, maxDbs: 2, cache: false, compression: false });
  try {
    const data = root.openDB<Buffer, Buffer>({ name: 'data', keyEncoding: 'binary', encoding: 'binary' });
    const meta = root.openDB<Buffer, Buffer>({ name: 'meta', keyEncoding: 'binary', encoding: 'binary' });
    // lmdb-js sets maxKeySize on the environment at run time; its type declarations do not list it
    const maxKeySize = (root as unknown as { maxKeySize?: number }).maxKeySize ?? 1978;
    return { root, data, meta, maxKeyBytes: maxKeySize - KEY_TAG.length, dir };
  } catch (error) {
    void root.close().catch(() => undefined);
    throw error;
  }
}

function wipe(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
}

/** Who opens the files, for the log lines: the store and its task. */
export interface LmdbOwner {
  readonly store: string;
  /** The task id (`0_1`, `global`). */
  readonly task: string;
}

/**
 * Opens (or creates) the store's files in `dir` (the damage checks are
 * `lmdb-damage.ts`'s steps):
 * 1. create the folder;
 * 2. the header check (in-process, always): a truncated or foreign file →
 *    WARN, wipe the folder;
 * 3. no matching seal of a clean close → the scan in a child process: a
 *    damaged file → WARN, wipe the folder (this process never maps it);
 * 4. open the environment and its two databases; a failure → WARN, wipe the
 *    folder and open once more; a second failure is a StreamsError
 *    STORE_OPEN_FAILED;
 * 5. a stored checkpoint that cannot be right (negative, not 8 bytes) →
 *    WARN, wipe, open empty.
 * A wiped store has no checkpoint: it restores in full from its changelog.
 */
export function openLmdbFiles(owner: LmdbOwner, dir: string, logger: Logger): LmdbFiles {
  const damaged = (reason: string): void => {
    logger.warn(
      { store: owner.store, taskId: owner.task, dir, reason },
      `Persistent store '${owner.store}' of task ${owner.task} is damaged (${reason}): wiping ${dir}; it restores from its changelog`,
    );
    wipe(dir);
  };
  // 1. the folder
  fs.mkdirSync(dir, { recursive: true });
  // 2. the header check
  const header = headerDamage(dir);
  if (header !== undefined) damaged(header);
  // 3. the seal, else the child scan
  if (header === undefined && !takeSeal(dir)) {
    const began = Date.now();
    const scan = scanInChild(dir);
    logger.debug({ store: owner.store, taskId: owner.task, ms: Date.now() - began }, `store '${owner.store}' was not closed cleanly: checked data.mdb in a child process`);
    if (scan !== undefined) damaged(scan);
  }
  // 4. open, once more after a wipe
  const files = openOrWipe(owner, dir, logger);
  // 5. the checkpoint
  const bad = checkpointDamage(files);
  if (bad === undefined) return files;
  closeLmdbFiles(files);
  damaged(bad);
  return openOrWipe(owner, dir, logger);
}

function openOrWipe(owner: LmdbOwner, dir: string, logger: Logger): LmdbFiles {
  try {
    return openEnvironment(dir);
  } catch (first) {
    logger.warn({ store: owner.store, taskId: owner.task, dir, err: first }, `Persistent store '${owner.store}' of task ${owner.task} cannot be opened: wiping ${dir}; it restores from its changelog`);
    try {
      wipe(dir);
      return openEnvironment(dir);
    } catch (second) {
      throw new StreamsError(`Persistent store '${owner.store}' of task ${owner.task} cannot be opened in ${dir}, even after wiping it: ${String(second)}. Check the permissions and free space of the state directory (stateDir)`, {
        code: 'STORE_OPEN_FAILED',
        cause: second,
      });
    }
  }
}

/** Why the stored checkpoint cannot be right, or undefined (none is fine). */
function checkpointDamage(files: LmdbFiles): string | undefined {
  const bytes = files.meta.get(CHECKPOINT_KEY);
  if (bytes === undefined) return undefined;
  if (bytes.length !== 8) return `its checkpoint is ${bytes.length} bytes, not an 8-byte offset`;
  const offset = bytes.readBigInt64BE(0);
  if (offset < 0n || offset > BigInt(Number.MAX_SAFE_INTEGER)) return `its checkpoint is offset ${offset}, which no changelog has`;
  return undefined;
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

/**
 * Closes the environment (synchronous when no asynchronous write is pending,
 * which sluice never starts) and seals the file: the next start then skips
 * the child-process scan.
 */
export function closeLmdbFiles(files: LmdbFiles): void {
  void files.root.close().catch(() => undefined);
  // lmdb-js keeps the environment's state in `status` at run time; its type declarations do not list it
  if ((files.root as unknown as { status?: string }).status === 'closed') writeSeal(files.dir);
}
