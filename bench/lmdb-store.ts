/**
 * Throughput of the key-value bytes engines on this machine (not part of
 * `npm run bench`): `npx tsx bench/lmdb-store.ts [keys]`.
 *
 * 1. lmdb sync modes: the cost of one commit of 1000 writes with lmdb-js's
 *    default `overlappingSync`, with `noSync`, and with a full sync per commit;
 * 2. the engines (lmdb, in-memory): writes with a commit every 1000 writes,
 *    random gets, a full range scan, and a reopen of the lmdb store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { pino } from 'pino';
import type { KeyValueBytesStore } from '../src/state/bytes-store-contract.js';
import { InMemoryKeyValueBytesStore } from '../src/state/in-memory/in-memory-key-value-bytes-store.js';
import { LmdbKeyValueBytesStore } from '../src/state/lmdb/lmdb-key-value-bytes-store.js';
import type { StoreInitContext } from '../src/state/store-contract.js';

const KEYS = Number(process.argv[2] ?? 200_000);
const BATCH = 1000;
const key = (i: number): Buffer => Buffer.from(`key-${String(i).padStart(9, '0')}`);
const value = (i: number): Buffer => Buffer.from(`value-${i}-${'x'.repeat(40)}`);
const rate = (n: number, ms: number): string => `${Math.round((n / ms) * 1000).toLocaleString('en')}/s`;

function context(stateDir: string): StoreInitContext {
  return {
    applicationId: 'bench',
    taskId: { subtopology: 0, partition: 0 },
    stateDir,
    changelog: undefined,
    cache: undefined,
    recordContext: () => ({ timestamp: 0, headers: {} }),
    logger: pino({ level: 'silent' }),
  };
}

// 1. sync modes, on raw lmdb transactions of BATCH writes
function syncModes(): void {
  const commits = 200;
  for (const [label, options] of [
    ['overlappingSync (default, chosen)', {}],
    ['noSync', { noSync: true }],
    ['full sync per commit', { overlappingSync: false }],
  ] as const) {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-bench-sync-'));
    const root = open<Buffer, Buffer>({ path: dir, noSubdir: false, maxDbs: 2, ...options });
    const db = root.openDB<Buffer, Buffer>({ name: 'data', keyEncoding: 'binary', encoding: 'binary' });
    const started = performance.now();
    for (let c = 0; c < commits; c++) {
      root.transactionSync(() => {
        for (let i = 0; i < BATCH; i++) void db.put(key(c * BATCH + i), value(i));
      });
    }
    const ms = performance.now() - started;
    console.log(`sync mode ${label}: ${(ms / commits).toFixed(2)} ms per commit of ${BATCH} writes (${rate(commits * BATCH, ms)} writes)`);
    void root.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// 2. the engines
function engine(label: string, make: () => KeyValueBytesStore, stateDir: string): void {
  const store = make();
  store.init(context(stateDir));
  let started = performance.now();
  for (let i = 0; i < KEYS; i++) {
    store.put(key(i), value(i));
    if ((i + 1) % BATCH === 0) store.commit(i + 1);
  }
  store.commit(KEYS);
  const writeMs = performance.now() - started;
  const gets = Math.min(KEYS, 100_000);
  started = performance.now();
  let found = 0;
  for (let n = 0; n < gets; n++) if (store.get(key((n * 7919) % KEYS)) !== null) found++;
  const getMs = performance.now() - started;
  started = performance.now();
  const scanned = store.range(null, null).length;
  const scanMs = performance.now() - started;
  if (found !== gets || scanned !== KEYS) throw new Error(`${label}: found ${found}/${gets}, scanned ${scanned}/${KEYS}`);
  let raw = '';
  if (store instanceof LmdbKeyValueBytesStore) {
    const root = open<Buffer, Buffer>({ path: join(stateDir, 'bench'), noSubdir: false, maxDbs: 2 });
    const db = root.openDB<Buffer, Buffer>({ name: 'data', keyEncoding: 'binary', encoding: 'binary' });
    started = performance.now();
    let n = 0;
    for (const entry of db.getRange({})) n += entry.value.length > 0 ? 1 : 0;
    raw = ` (lmdb-js getRange alone ${rate(n, performance.now() - started)})`;
    void root.close();
  }
  store.close();
  let reopen = '';
  if (store.persistent) {
    started = performance.now();
    const again = make();
    again.init(context(stateDir));
    const checkpoint = again.checkpoint();
    again.close();
    reopen = `, reopen ${(performance.now() - started).toFixed(1)} ms (checkpoint ${String(checkpoint)})`;
  }
  console.log(`${label}, ${KEYS.toLocaleString('en')} keys: writes ${rate(KEYS, writeMs)} (commit every ${BATCH}), get ${rate(gets, getMs)}, range scan ${rate(scanned, scanMs)}${raw}${reopen}`);
}

syncModes();
const dir = mkdtempSync(join(tmpdir(), 'sluice-bench-engines-'));
try {
  engine('lmdb', () => new LmdbKeyValueBytesStore('bench'), dir);
  engine('in-memory', () => new InMemoryKeyValueBytesStore('bench'), dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
