import { describe, expect, it } from 'vitest';
import { combinedMetricsEvent } from '../../../bench/lib/child-fleet.js';
import { CONTENDERS, isJava, WORKLOAD_CONTENDERS, WORKLOADS } from '../../../bench/lib/contenders.js';
import { aggregate, formatTable, workloadOf } from '../../../bench/lib/report.js';
import type { RunResult } from '../../../bench/lib/result.js';
import { baseFamily, combineUsage, instancesText, parseScalingId, SCALING_IDS, scalingLabel, speedUps } from '../../../bench/lib/scaling.js';

/** One passing run of 200,000 records at `rps` records/s, `cpu` CPU seconds, `rssMiB` peak RSS. */
const run = (id: string, rps: number, cpu = 10, rssMiB = 400, round = 1): RunResult => ({
  id, round, records: 200_000, ok: true, recordsPerSec: rps, seconds: 200_000 / rps, maxRssKb: rssMiB * 1024, cpuSeconds: cpu,
  usageSource: 'child', latencyP50Ms: 100, latencyP99Ms: 300,
});

describe('bench scaling workload (issue 32)', () => {
  it('parses the row ids: family and instances; other ids are not scaling rows', () => {
    expect(parseScalingId('sluice-eos-x4')).toEqual({ family: 'sluice', instances: 4 });
    expect(parseScalingId('java-eos-t2')).toEqual({ family: 'java', instances: 2 });
    expect(parseScalingId('sluice-eos-t4')).toEqual({ family: 'sluice-threads', instances: 4 });
    for (const id of ['sluice-eos', 'java-eos', 'sluice-eos-x', 'sluice-eos-x0', 'java-eos-t1x', 'sluice-eos-t', 'sluice-eos-t0', 'sluice-count']) expect(parseScalingId(id)).toBeUndefined();
    expect(instancesText('sluice-eos-x1')).toBe('1 process');
    expect(instancesText('sluice-eos-x4')).toBe('4 processes');
    expect(instancesText('java-eos-t2')).toBe('2 threads');
    expect(instancesText('sluice-eos-t2')).toBe('1 process, 2 threads');
    expect(scalingLabel('sluice-eos-t4')).toBe('sluice exactly_once, 1 process, 4 threads');
    expect(scalingLabel('sluice-eos-x2')).toBe('sluice exactly_once, 2 processes');
    expect(instancesText('kafkajs')).toBe('–');
  });

  it('is a workload of its own that --compare runs: Java 1, 2, 4 stream threads, sluice 1, 2, 4 processes, then sluice 2, 4 stream threads', () => {
    expect(WORKLOADS).toContain('scaling');
    expect(WORKLOAD_CONTENDERS.scaling).toEqual(['java-eos-t1', 'java-eos-t2', 'java-eos-t4', 'sluice-eos-x1', 'sluice-eos-x2', 'sluice-eos-x4', 'sluice-eos-t2', 'sluice-eos-t4']);
    expect(SCALING_IDS.map(workloadOf)).toEqual(SCALING_IDS.map(() => 'scaling'));
    expect(workloadOf('sluice-eos')).toBe('pipeline');
    const ctx = { brokers: ['b:1'], group: 'g', input: 'i', output: 'o', benchDir: '/r/bench', javaClasspath: 'cp' };
    // sluice: N processes of the exactly-once pipeline contender, all with the run's group.
    expect(CONTENDERS['sluice-eos-x4'].instances).toBe(4);
    expect(CONTENDERS['sluice-eos-x4'].completion).toBe('committed');
    expect(CONTENDERS['sluice-eos-x4'].launch(ctx).args).toEqual(expect.arrayContaining(['/r/bench/contenders/sluice-app.ts', '--group', 'g', '--guarantee', 'exactly_once']));
    expect(CONTENDERS['sluice-eos-x4'].launch(ctx).args).not.toContain('--threads');
    // sluice threads: one process of the same contender with --threads N (numStreamThreads: N, worker threads).
    expect(CONTENDERS['sluice-eos-t4'].instances).toBeUndefined();
    expect(CONTENDERS['sluice-eos-t4'].completion).toBe('committed');
    expect(CONTENDERS['sluice-eos-t4'].launch(ctx).args.slice(-8)).toEqual(['--input', 'i', '--output', 'o', '--guarantee', 'exactly_once', '--threads', '4']);
    expect(CONTENDERS['sluice-eos-t2'].launch(ctx).args).toEqual(expect.arrayContaining(['/r/bench/contenders/sluice-app.ts', '--group', 'g']));
    expect(CONTENDERS['sluice-eos-t2'].launch(ctx).args.slice(-2)).toEqual(['--threads', '2']);
    expect(isJava('sluice-eos-t2')).toBe(false);
    // Java: one JVM, num.stream.threads as KafkaStreamsBench's fifth argument; java-eos keeps its four.
    expect(CONTENDERS['java-eos-t2'].instances).toBeUndefined();
    expect(isJava('java-eos-t2')).toBe(true);
    expect(CONTENDERS['java-eos-t2'].launch(ctx).args.slice(-5)).toEqual(['b:1', 'g', 'i', 'o', '2']);
    expect(CONTENDERS['java-eos'].launch(ctx).args.slice(-4)).toEqual(['b:1', 'g', 'i', 'o']);
  });

  it('sums the usage and the metrics of a run made of several processes', () => {
    expect(combineUsage([{ maxRssKb: 100, cpuSeconds: 1.5 }, { maxRssKb: 200, cpuSeconds: 2 }])).toEqual({ maxRssKb: 300, cpuSeconds: 3.5 });
    expect(combineUsage([])).toEqual({ maxRssKb: 0, cpuSeconds: 0 });
    const metrics = (m: Record<string, unknown>, t: number) => ({ event: 'metrics', t, metrics: m });
    expect(combinedMetricsEvent([
      [{ event: 'first', t: 1 }, metrics({ commits: 5, rebalances: 2, recordsProcessed: 120, aborts: 1 }, 10)],
      [metrics({ commits: 3, rebalances: 1, recordsProcessed: 90 }, 12)],
      [{ event: 'first', t: 2 }],
    ])).toEqual(metrics({ commits: 8, rebalances: 3, recordsProcessed: 210, aborts: 1, processes: 2 }, 12));
    expect(combinedMetricsEvent([[{ event: 'first', t: 1 }]])).toBeUndefined();
  });

  it('gives each row its speed-up against the 1-instance row of its own family, none without a passing 1-instance row', () => {
    const rows = [
      { id: 'sluice-eos-x1', recordsPerSec: 50_000, okRuns: 1 }, { id: 'sluice-eos-x2', recordsPerSec: 60_000, okRuns: 1 },
      { id: 'sluice-eos-x4', recordsPerSec: 45_000, okRuns: 1 }, { id: 'java-eos-t1', recordsPerSec: 0, okRuns: 0 },
      { id: 'java-eos-t2', recordsPerSec: 70_000, okRuns: 1 }, { id: 'sluice-eos', recordsPerSec: 1, okRuns: 1 },
    ];
    expect(Object.fromEntries(speedUps(rows))).toEqual({ 'sluice-eos-x1': 1, 'sluice-eos-x2': 1.2, 'sluice-eos-x4': 0.9 });
    // One process with N threads: against one sluice process (its single thread), not against a threads row.
    expect(baseFamily('sluice-threads')).toBe('sluice');
    expect(baseFamily('java')).toBe('java');
    const threads = [{ id: 'sluice-eos-t2', recordsPerSec: 75_000, okRuns: 1 }, { id: 'sluice-eos-t4', recordsPerSec: 70_000, okRuns: 2 }];
    expect(Object.fromEntries(speedUps([...rows, ...threads]))).toMatchObject({ 'sluice-eos-t2': 1.5, 'sluice-eos-t4': 1.4 });
    expect(speedUps([...threads, { id: 'sluice-eos-x1', recordsPerSec: 50_000, okRuns: 0 }]).size).toBe(0);
  });

  it('prints the scaling table: instances, records/s, speed-up vs 1, CPU s, CPU µs/rec, summed peak RSS, vs Java', () => {
    const rows = aggregate([
      run('java-eos-t1', 40_000, 20, 600), run('java-eos-t2', 44_000, 22, 620),
      run('sluice-eos-x1', 50_000, 12, 300), { ...run('sluice-eos-x2', 60_000, 16, 560), brokerCpuSeconds: 2.5 }, run('sluice-eos-x4', 40_000, 24, 1000),
      { ...run('sluice-eos-x4', 0), round: 2, ok: false, reason: 'timeout after 260000 ms (stopped): 1 of 2 input offsets committed' },
    ]);
    const x2 = rows.find((r) => r.id === 'sluice-eos-x2');
    expect(x2).toMatchObject({ workload: 'scaling', speedUp: 1.2, vsJava: 1.5, cpuMicrosPerRecord: 80, maxRssMiB: 560 });
    expect(rows.find((r) => r.id === 'sluice-eos-x4')).toMatchObject({ speedUp: 0.8, status: 'FAILED 1/2', failures: ['timeout after 260000 ms'] });
    const table = formatTable(rows);
    expect(table.split('\n')[0]).toMatch(/^\| contender +\| +instances \| records\/s \(median\) \| spread \| speed-up vs 1 \| vs Java KS \| CPU s \| CPU µs\/rec \| peak RSS MiB \(sum\) \|/);
    expect(table).toMatch(/\| sluice exactly_once, 2 processes +\| +2 processes \| +60000 \| +±0\.0% \| +1\.20× \| +1\.50× \| +16\.00 \| +80\.0 \| +560 \| +2\.50 \|/);
    // The broker's CPU in the window: a column of its own, "–" for runs without it.
    expect(table).toMatch(/\| peak RSS MiB \(sum\) \| broker CPU s \(window\) \|/);
    expect(table).toMatch(/\| sluice exactly_once, 1 process +\|.*\| +300 \| +– \|/);
    expect(table).toMatch(/\| Java Kafka Streams EOS v2, 2 threads +\| +2 threads \| +44000 \| +±0\.0% \| +1\.10× \| +1\.10× \|/);
  });

  it('prints the threads rows after the processes rows: one process, summed nothing, speed-up against 1 sluice process', () => {
    const rows = aggregate([
      run('java-eos-t1', 40_000, 20, 600), run('sluice-eos-t4', 55_000, 30, 700), run('sluice-eos-x1', 50_000, 12, 300),
      run('sluice-eos-t2', 70_000, 18, 450), run('sluice-eos-x2', 60_000, 16, 560),
    ]);
    expect(rows.map((r) => r.id)).toEqual(['java-eos-t1', 'sluice-eos-x1', 'sluice-eos-x2', 'sluice-eos-t2', 'sluice-eos-t4']);
    expect(rows.find((r) => r.id === 'sluice-eos-t2')).toMatchObject({ workload: 'scaling', speedUp: 1.4, vsJava: 1.75, cpuMicrosPerRecord: 90, maxRssMiB: 450 });
    const table = formatTable(rows);
    expect(table).toMatch(/\| sluice exactly_once, 1 process, 2 threads +\| +1 process, 2 threads \| +70000 \| +±0\.0% \| +1\.40× \| +1\.75× \| +18\.00 \| +90\.0 \| +450 \|/);
    expect(table).toMatch(/\| sluice exactly_once, 1 process, 4 threads +\| +1 process, 4 threads \| +55000 \| +±0\.0% \| +1\.10× \| +1\.38× \|/);
  });
});
