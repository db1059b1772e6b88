/**
 * Interleaved A/B runs of the restore contenders (issue 32): two (or more)
 * compiled trees of sluice restore the SAME changelog, one after the other,
 * round after round, so that a shared machine's load hits every build alike.
 *
 * 1. The changelog is written once (run-restore.ts `prepareRestore`).
 * 2. Each round runs every build in turn (the order alternates per round),
 *    each with a fresh state directory (run-restore.ts `runRestore`).
 * 3. Prints per build the median records/s and CPU µs/record.
 *
 * Builds: folders holding a tsc-compiled tree (`bench/.build` after `npm run bench`,
 * or a copy of it made before a change: `cp -r bench/.build bench/.build-A`);
 * they must lie inside the checkout (node_modules is resolved from there).
 * Usage: npx tsx bench/restore-ab.ts --builds bench/.build-A,bench/.build [--store persistent|in-memory]
 *        [--rounds 3] [--records 1000000] [--keys 100000] [--cpu-prof DIR]
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBroker } from './lib/broker.js';
import { CONTENDERS } from './lib/contenders.js';
import { kafkaClient } from './lib/kafka.js';
import { awaitRestoreCleanups, cleanupRestore, prepareRestore, runRestore } from './lib/run-restore.js';
import { median } from './lib/stats.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      builds: { type: 'string' },
      store: { type: 'string', default: 'persistent' },
      rounds: { type: 'string', default: '3' },
      records: { type: 'string', default: '1000000' },
      keys: { type: 'string', default: '100000' },
      'cpu-prof': { type: 'string' },
    },
  });
  const repoRoot = resolve(import.meta.dirname, '..');
  const builds = (values.builds ?? '').split(',').filter(Boolean).map((b) => resolve(b));
  if (builds.length === 0) throw new Error('--builds A,B: compiled trees to compare');
  const id = values.store === 'in-memory' ? 'sluice-restore-memory' : 'sluice-restore-persistent';
  const spec = CONTENDERS[id];
  const log = (line: string): void => console.log(line);
  const broker = await ensureBroker(repoRoot, log);
  const kafka = kafkaClient(broker.brokers);
  const appId = `restore-ab-${Date.now().toString(36)}`;
  // 1.
  const prepared = await prepareRestore(kafka, appId, Number(values.records), Number(values.keys), log);
  const rows = new Map<string, { rps: number[]; cpuUs: number[] }>(builds.map((b) => [b, { rps: [], cpuUs: [] }]));
  try {
    // 2.
    for (let round = 1; round <= Number(values.rounds); round++) {
      const order = round % 2 === 1 ? builds : [...builds].reverse();
      for (const build of order) {
        const profDir = values['cpu-prof'];
        const r = await runRestore({
          ...spec,
          launch: (ctx) => {
            const launch = spec.launch({ ...ctx, compiledDir: build });
            return profDir === undefined ? launch : { ...launch, args: ['--cpu-prof', '--cpu-prof-dir', resolve(profDir), ...launch.args] };
          },
        }, { kafka, base: { brokers: broker.brokers, benchDir: resolve(repoRoot, 'bench') }, prepared, name: `${appId}-r${round}`, round, log: (l) => log(`${build}: ${l}`), timeoutMs: 180_000 });
        const row = rows.get(build);
        if (r.ok && row) {
          row.rps.push(r.recordsPerSec);
          row.cpuUs.push((r.cpuSeconds * 1e6) / prepared.records);
        }
      }
    }
  } finally {
    cleanupRestore(kafka, appId);
    await awaitRestoreCleanups();
  }
  // 3.
  for (const [build, row] of rows) {
    console.log(`${build}: median ${Math.round(median(row.rps))} rec/s (${row.rps.map(Math.round).join(', ')}), CPU ${median(row.cpuUs).toFixed(2)} µs/record (${row.cpuUs.map((c) => c.toFixed(2)).join(', ')})`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
