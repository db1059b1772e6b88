/**
 * Finding a damaged lmdb data file before this process maps it. lmdb has no
 * checksums and trusts its file: a truncated `data.mdb` kills the process
 * that maps it with SIGBUS, garbage in a tree page with SIGSEGV (or returns
 * garbage). Neither can be caught in-process, so a file that may be damaged is
 * checked before `open`:
 *
 * 1. the header, in-process, always (a read of the first pages, well under
 *    1 ms): both meta pages must carry lmdb's magic number and the meta flag;
 *    the newest (highest txnid) names the last page in use, `mm_last_pg`, and
 *    the file must hold it: `size >= (mm_last_pg + 1) * pageSize` (a
 *    truncated or partly copied file fails here);
 * 2. the seal: a clean close writes `sluice-clean-close.json` next to the
 *    file with the file's size, inode, mtime and ctime; a start that finds the
 *    seal matching the file trusts the file and skips step 3. No seal (a
 *    crash, a kill, a copy taken while the store was open) or a seal that does
 *    not match (the file was written, copied or replaced since: its ctime
 *    moved) sends the file to step 3. The seal is removed as the store opens;
 * 3. a scan in a child process: `node -e` opens the environment read-only and
 *    reads every entry of both databases, checking that keys come in strictly
 *    ascending order, that every data key carries the store's key tag, and
 *    that the count matches what the tree's root says. A child that dies by a
 *    signal, exits non-zero or reports a mismatch means the file is damaged;
 *    the worker process never maps it.
 *
 * What this does not find: bytes changed inside a value while the seal still
 * matches (bit rot on a disk that keeps mtime and ctime), which lmdb itself
 * cannot see either.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const LMDB_MAGIC = 0xbeefc0de;
/** lmdb's page header (pgno, txnid, pad, flags, lower, upper) in the bundled lmdb-js build. */
const PAGE_HEADER_BYTES = 24;
const P_META = 0x08;
/** Offsets inside a meta page (after the page header): magic, psize (mm_dbs[0].md_pad), mm_last_pg, mm_txnid. */
const META = { magic: 0, psize: 24, lastPage: 120, txnid: 128, end: 136 } as const;
/** The seal of a clean close. */
export const SEAL_FILE = 'sluice-clean-close.json';
const DATA_FILE = 'data.mdb';

/** One meta page as read from the file. */
interface MetaPage {
  pageSize: number;
  lastPage: number;
  txnid: bigint;
}

function readMeta(head: Buffer, at: number): MetaPage | string {
  if (head.length < at + PAGE_HEADER_BYTES + META.end) return `meta page at byte ${at} is missing`;
  const flags = head.readUInt16LE(at + 18);
  const base = at + PAGE_HEADER_BYTES;
  if ((flags & P_META) === 0 || head.readUInt32LE(base + META.magic) !== LMDB_MAGIC) return `no lmdb meta page at byte ${at}`;
  const pageSize = head.readUInt32LE(base + META.psize);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return `the meta page at byte ${at} names an impossible page size ${pageSize}`;
  return { pageSize, lastPage: Number(head.readBigUInt64LE(base + META.lastPage)), txnid: head.readBigUInt64LE(base + META.txnid) };
}

/** Step 1: why `<dir>/data.mdb` cannot be a whole lmdb file, or `undefined` (absent and empty files are fine: lmdb creates them). */
export function headerDamage(dir: string): string | undefined {
  const file = path.join(dir, DATA_FILE);
  const size = fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  if (size === 0) return undefined;
  const head = Buffer.alloc(Math.min(size, 2 * 65536));
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  const first = readMeta(head, 0);
  if (typeof first === 'string') return `data.mdb (${size} bytes): ${first}`;
  const second = readMeta(head, first.pageSize);
  if (typeof second === 'string') return `data.mdb (${size} bytes): ${second}`;
  if (second.pageSize !== first.pageSize) return `data.mdb (${size} bytes): its two meta pages disagree on the page size (${first.pageSize}, ${second.pageSize})`;
  const newest = second.txnid > first.txnid ? second : first;
  const needed = (newest.lastPage + 1) * newest.pageSize;
  if (!Number.isSafeInteger(needed) || size < needed) {
    return `data.mdb is ${size} bytes but its newest meta page (txn ${newest.txnid}) uses pages up to ${newest.lastPage}, so it must be at least ${needed} bytes: the file was truncated`;
  }
  return undefined;
}

interface Seal {
  size: string;
  ino: string;
  mtimeNs: string;
  ctimeNs: string;
}

function currentSeal(dir: string): Seal | undefined {
  const stat = fs.statSync(path.join(dir, DATA_FILE), { bigint: true, throwIfNoEntry: false });
  if (stat === undefined) return undefined;
  return { size: String(stat.size), ino: String(stat.ino), mtimeNs: String(stat.mtimeNs), ctimeNs: String(stat.ctimeNs) };
}

/** Step 2, at a clean close (the environment is closed): seals the file as it is now. A failure leaves no seal (the next start scans). */
export function writeSeal(dir: string): void {
  try {
    const seal = currentSeal(dir);
    if (seal !== undefined) fs.writeFileSync(path.join(dir, SEAL_FILE), JSON.stringify(seal));
  } catch {
    fs.rmSync(path.join(dir, SEAL_FILE), { force: true });
  }
}

/** Step 2, at open: true when the seal of the last clean close matches the file. The seal is removed either way. */
export function takeSeal(dir: string): boolean {
  const file = path.join(dir, SEAL_FILE);
  let stored: Partial<Seal> | undefined;
  try {
    stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Seal>;
  } catch {
    stored = undefined;
  }
  fs.rmSync(file, { force: true });
  const now = currentSeal(dir);
  return stored !== undefined && now !== undefined && stored.size === now.size && stored.ino === now.ino && stored.mtimeNs === now.mtimeNs && stored.ctimeNs === now.ctimeNs;
}

/** The child's program (CommonJS, `node -e`): argv = [dir, lmdb module path]; prints `ok <entries>` or exits 2 with the reason. */
const SCAN_PROGRAM = `
const [dir, lmdbPath] = process.argv.slice(1);
const fail = (why) => { process.stderr.write(why + '\\n'); process.exit(2); };
try {
const { open } = require(lmdbPath);
const root = open({ path: dir, readOnly: true, maxDbs: 2, cache: false, compression: false });
let total = 0;
for (const name of ['data', 'meta']) {
  let db;
  try { db = root.openDB({ name, keyEncoding: 'binary', encoding: 'binary' }); } catch { continue; }
  let previous, count = 0;
  for (const { key, value } of db.getRange({})) {
    if (!Buffer.isBuffer(key) || !Buffer.isBuffer(value)) fail('database ' + name + ': an entry that is not bytes');
    if (previous !== undefined && Buffer.compare(previous, key) >= 0) fail('database ' + name + ': keys out of order after entry ' + count);
    if (name === 'data' && key[0] !== 1) fail('database data: entry ' + count + ' has no key tag');
    previous = Buffer.from(key);
    count++;
  }
  const expected = db.getStats().entryCount;
  if (expected !== count) fail('database ' + name + ': its tree says ' + expected + ' entries, a full read found ' + count);
  total += count;
}
process.stdout.write('ok ' + total + '\\n');
} catch (error) { fail(error && error.message ? error.message.split('\\n')[0] : String(error)); }
`;

/** Step 3: why the child's read-only scan of `dir` failed, or `undefined` when it read every entry. Blocks until the child exits. */
export function scanInChild(dir: string): string | undefined {
  const size = fs.statSync(path.join(dir, DATA_FILE), { throwIfNoEntry: false })?.size ?? 0;
  if (size === 0) return undefined;
  const lmdbPath = createRequire(import.meta.url).resolve('lmdb');
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  // A damaged tree may loop: a generous bound (a minute plus a second per 10 MB), then the file counts as damaged.
  const timeout = 60_000 + Math.ceil(size / 10_000_000) * 1000;
  const child = spawnSync(process.execPath, ['-e', SCAN_PROGRAM, dir, lmdbPath], { env, timeout, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.error !== undefined && child.signal === null) return `the read-only scan of data.mdb in a child process could not run: ${child.error.message}`;
  if (child.signal !== null) return `a read-only scan of data.mdb (${size} bytes) in a child process died by ${child.signal}${child.error ? ` (${child.error.message})` : ''}`;
  if (child.status !== 0 || !child.stdout.startsWith('ok ')) {
    const why = child.stderr.trim().split('\n').pop() ?? `exit code ${child.status}`;
    return `a read-only scan of data.mdb (${size} bytes) in a child process failed: ${why}`;
  }
  return undefined;
}
