/**
 * The per-start cost of the damage check of a persistent store
 * (`src/state/lmdb/lmdb-damage.ts`), not part of
 * `npm run bench`: `npx tsx bench/lmdb-damage-check.ts [keys]` (default 100,000).
 *
 * Builds a store of `keys` entries, then times, over 5 rounds each:
 * 1. a start after a clean close: header check + seal match (no child), and
 *    the whole `init` (open included);
 * 2. a start after a crash (no seal): header check + the child-process scan,
 *    and the whole `init`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { headerDamage, scanInChild, takeSeal } from '../src/state/lmdb/lmdb-damage.js';
import { LmdbKeyValueBytesStore } from '../src/state/lmdb/lmdb-key-value-bytes-store.js';
import type { StoreInitContext } from '../src/state/store-contract.js';

const KEYS = Number(process.argv[2] ?? 100_000);
const stateDir = mkdtempSync(join(tmpdir(), 'sluice-damage-bench-'));
const context: StoreInitContext = {
  applicationId: 'bench',
  taskId: { subtopology: 0, partition: 0 },
  stateDir,
  changelog: undefined,
  cache: undefined,
  recordContext: () => ({ timestamp: 0, headers: {} }),
  logger: pino({ level: 'silent' }),
};
const dir = join(stateDir, 'bench');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const ms = (f: () => void): number => {
  const t = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t) / 1e6;
};

const build = new LmdbKeyValueBytesStore('bench');
build.init(context);
for (let i = 0; i < KEYS; i++) {
  build.put(Buffer.from(`key-${String(i).padStart(9, '0')}`), Buffer.from(`value-${i}-${'x'.repeat(40)}`));
  if (i % 1000 === 999) build.commit(i + 1);
}
build.commit(KEYS);
build.close();

const clean = { check: [] as number[], init: [] as number[] };
const crashed = { check: [] as number[], init: [] as number[] };
for (let round = 0; round < 5; round++) {
  // 1. clean close: the seal matches (takeSeal removes it: reseal by a clean open/close after the timing)
  clean.check.push(ms(() => void (headerDamage(dir), takeSeal(dir))));
  const reseal = new LmdbKeyValueBytesStore('bench');
  reseal.init(context); // no seal now: this init scans
  reseal.close();
  const store = new LmdbKeyValueBytesStore('bench');
  clean.init.push(ms(() => store.init(context)));
  store.close();
  // 2. no seal, as after a crash
  crashed.check.push(ms(() => void (headerDamage(dir), takeSeal(dir), scanInChild(dir))));
  const again = new LmdbKeyValueBytesStore('bench');
  crashed.init.push(ms(() => again.init(context)));
  again.close();
}
const f = (x: number): string => `${x.toFixed(1)} ms`;
console.log(`store of ${KEYS.toLocaleString('en')} entries, median of 5:`);
console.log(`  after a clean close: damage check ${f(median(clean.check))}, whole init ${f(median(clean.init))}`);
console.log(`  after a crash (no seal): damage check with the child scan ${f(median(crashed.check))}, whole init ${f(median(crashed.init))}`);
rmSync(stateDir, { recursive: true, force: true });
