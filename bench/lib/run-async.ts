/**
 * Runs one contender of the async workload (issue 33) once: the child is
 * bench/async-enrichment.ts with `--only <contender> --json`; it makes its
 * own fresh topics, runs the contender, checks the read_committed output
 * (every input once; sluice's rows per key in input order) and prints one
 * JSON line of rows. Steps:
 * 1. spawn it (tsx), bounded by `timeoutMs`;
 * 2. take its JSON line; a missing line, a non-zero exit or a failed check
 *    is a failed run with the child's last output as the reason;
 * Peak RSS and CPU are not measured for these rows (the figure is the rate).
 */
import { spawnSync } from 'node:child_process';
import type { ContenderSpec, LaunchContext } from './contenders.js';
import type { RunResult } from './result.js';

/** What the child prints with --json. */
interface AsyncJson {
  rows: Array<{ contender: string; records: number; seconds: number; recordsPerSecond: number; verified: string; ok: boolean }>;
}

/** One run of `spec` (see the module comment). */
export function runAsyncWorkload(spec: ContenderSpec, o: { base: Omit<LaunchContext, 'group' | 'input' | 'output'>; round: number; timeoutMs: number; log: (line: string) => void }): RunResult {
  const failed = (reason: string): RunResult => ({ id: spec.id, round: o.round, records: 0, ok: false, reason, recordsPerSec: 0, seconds: 0, maxRssKb: 0, cpuSeconds: 0, usageSource: 'none' });
  // 1.
  const launch = spec.launch({ ...o.base, group: '', input: '', output: '' });
  const started = Date.now();
  const child = spawnSync(launch.command, launch.args, { encoding: 'utf8', timeout: o.timeoutMs, env: { ...process.env, ...launch.env }, maxBuffer: 16 * 1024 * 1024 });
  // 2.
  const line = child.stdout?.split('\n').find((l) => l.startsWith('{"options"'));
  const tail = `${child.stdout ?? ''}${child.stderr ?? ''}`.trim().split('\n').slice(-5).join(' / ');
  if (child.status !== 0 || line === undefined) return failed(`exit ${child.status ?? child.signal}: ${tail}`);
  const row = (JSON.parse(line) as AsyncJson).rows[0];
  if (row === undefined) return failed(`no row: ${tail}`);
  o.log(`  ${spec.id} r${o.round}: ${row.records} records in ${row.seconds.toFixed(2)} s = ${Math.round(row.recordsPerSecond)}/s, ${row.verified}`);
  return {
    id: spec.id, round: o.round, records: row.records, ok: row.ok, ...(row.ok ? {} : { reason: row.verified }),
    recordsPerSec: row.recordsPerSecond, seconds: row.seconds, maxRssKb: 0, cpuSeconds: 0, usageSource: 'none', wallSeconds: (Date.now() - started) / 1000,
  };
}
