/**
 * The async workload of `npm run bench` (issue 33): its contenders run
 * bench/async-enrichment.ts with `--only <name> --json`; its rows compare
 * with the kafkajs loop and with sluice's sequential process().
 */
import { describe, expect, it } from 'vitest';
import { CONTENDERS, WORKLOAD_CONTENDERS, WORKLOADS } from '../../../bench/lib/contenders.js';
import { aggregate, formatTable, workloadOf } from '../../../bench/lib/report.js';
import type { RunResult } from '../../../bench/lib/result.js';

describe('bench async workload', () => {
  const run = (id: string, rps: number, records = 5000, extra: Partial<RunResult> = {}): RunResult => ({
    id, round: 1, records, ok: true, recordsPerSec: rps, seconds: records / rps, maxRssKb: 0, cpuSeconds: 0, usageSource: 'none', ...extra,
  });

  it('has three contenders, each launching the enrichment bench for its own contender with --json', () => {
    expect(WORKLOADS).toContain('async');
    expect(WORKLOAD_CONTENDERS.async).toEqual(['sluice-async', 'sluice-async-sequential', 'kafkajs-async']);
    const ctx = { brokers: ['b:1'], group: '', input: '', output: '', benchDir: '/r/bench', compiledDir: '/compiled' };
    const only = (id: 'sluice-async' | 'sluice-async-sequential' | 'kafkajs-async') => {
      const args = CONTENDERS[id].launch(ctx).args;
      expect(args).toEqual(expect.arrayContaining(['/r/bench/async-enrichment.ts', '--json', '--brokers', 'b:1']));
      return args[args.indexOf('--only') + 1];
    };
    expect([only('sluice-async'), only('sluice-async-sequential'), only('kafkajs-async')]).toEqual(['sluice-async', 'sluice-sequential', 'kafkajs-promise-all']);
    expect(['sluice-async', 'sluice-async-sequential', 'kafkajs-async'].map(workloadOf)).toEqual(['async', 'async', 'async']);
  });

  it('rates each row against the kafkajs loop and the sequential process(), not the broker', () => {
    const rows = aggregate([
      run('broker-produce', 40_000), run('broker-consume', 80_000),
      run('sluice-async', 4_000), run('sluice-async-sequential', 80, 400), run('kafkajs-async', 20_000),
    ]);
    const async = rows.find((r) => r.id === 'sluice-async')!;
    expect(async.workload).toBe('async');
    expect(async.vsKafkajs).toBeCloseTo(0.2);
    expect(async.vsSequential).toBeCloseTo(50);
    expect(async.vsBroker).toBeUndefined();
    expect(async.outputRecords).toBe(5000);
    const table = formatTable(rows.filter((r) => r.workload === 'async'));
    expect(table).toMatch(/\| sluice mapValuesAsync \(concurrency 64\), exactly_once +\| +4000 \| +±0\.0% \| +0\.20× \| +50\.00× \| +5000 \| +OK \(1\/1\) \|/);
  });
});
