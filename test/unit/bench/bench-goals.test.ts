import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTENDERS, WORKLOAD_CONTENDERS } from '../../../bench/lib/contenders.js';
import { topSelfTimes } from '../../../bench/lib/cpuprofile.js';
import { evaluateGoals, type GoalResult } from '../../../bench/lib/goals.js';
import { CommittedOffsetWatch, regressionReason } from '../../../bench/lib/offset-watch.js';
import { aggregate, formatTable, shortReason } from '../../../bench/lib/report.js';
import type { RunResult } from '../../../bench/lib/result.js';
import { rssBySize } from '../../../bench/lib/rss-sizes.js';
import { checkVerdict, incompleteReason, REGRESSION_GRACE_MS } from '../../../bench/lib/run-pipeline.js';
import { primaryResults, summarise } from '../../../bench/lib/summary.js';

/** One run: `rps` records/s, `rss` MiB peak, `cpu` s for `records`, latency p50/p99. */
const run = (id: string, rps: number, o: Partial<RunResult> & { rss?: number } = {}): RunResult => ({
  id, round: 1, records: 1000, ok: true, recordsPerSec: rps, seconds: 1000 / rps, maxRssKb: (o.rss ?? 500) * 1024, cpuSeconds: 0.015,
  usageSource: 'child', latencyP50Ms: 10, latencyP99Ms: 50, ...o,
});
const byGoal = (goals: GoalResult[], prefix: string): GoalResult[] => goals.filter((g) => g.goal.startsWith(prefix));
const one = (goals: GoalResult[], text: string): GoalResult => {
  const found = goals.filter((g) => g.goal.includes(text));
  expect(found, text).toHaveLength(1);
  return found[0]!;
};

describe('bench @kafkats/flow contenders', () => {
  it('run the pipeline in both guarantees, complete like the other exactly-once / at-least-once rows, and are part of every pipeline round', () => {
    expect(WORKLOAD_CONTENDERS.pipeline).toEqual(expect.arrayContaining(['kafkats-eos', 'kafkats-alos']));
    expect(CONTENDERS['kafkats-eos'].completion).toBe('committed');
    expect(CONTENDERS['kafkats-alos'].completion).toBe('output');
    const ctx = { brokers: ['b:1'], group: 'g', input: 'i', output: 'o', benchDir: '/r/bench' };
    expect(CONTENDERS['kafkats-eos'].launch(ctx).args).toEqual(expect.arrayContaining(['/r/bench/contenders/kafkats-flow.ts', '--guarantee', 'exactly_once']));
    expect(CONTENDERS['kafkats-alos'].launch({ ...ctx, compiledDir: '/b' }).args).toEqual(expect.arrayContaining(['/b/bench/contenders/kafkats-flow.js', 'at_least_once']));
    const rows = aggregate([run('kafkats-eos', 100, { ok: false, reason: 'x' }), run('kafkats-alos', 900)]);
    expect(rows.map((r) => [r.id, r.label, r.status])).toEqual([
      ['kafkats-eos', '@kafkats/flow exactly_once', 'FAILED'], ['kafkats-alos', '@kafkats/flow at_least_once', 'OK'],
    ]);
  });
});

describe('the check column', () => {
  it('keeps a FAILED row and shows the gist of why it failed', () => {
    expect(shortReason('committed offsets went backwards 2 time(s) on partition(s) 0, 1 (largest: partition 1 from 20 to 12); stopped 10000 ms after it, incomplete: 5 of 9')).toBe('committed offsets went backwards');
    expect(shortReason('timeout after 560000 ms (stopped): 31000 of 500000 input offsets committed\nlog tail')).toBe('timeout after 560000 ms');
    expect(shortReason('read 10 visible records, expected 9, 1 duplicates')).toBe('read 10 visible records');
    const rows = aggregate([
      run('kafkats-eos', 0, { ok: false, reason: 'committed offsets went backwards 1 time(s) on partition(s) 3 (largest: partition 3 from 9 to 4)' }),
      run('kafkats-alos', 900),
    ]);
    expect(formatTable(rows)).toMatch(/\| @kafkats\/flow exactly_once +\| +FAILED \|.*\| FAILED \(0\/1\) \| committed offsets went backwards \|/);
    expect(formatTable(rows)).toMatch(/\| @kafkats\/flow at_least_once +\| +900 \|.*\| +OK \(1\/1\) \| +\|$/m);
  });
});

describe('committed offsets going backwards (offset-watch)', () => {
  it('records every partition whose committed offset went down between samples, and sums the committed offsets', () => {
    const watch = new CommittedOffsetWatch();
    expect(watch.observe(new Map([[0, -1], [1, 10]]), 1)).toBe(10);
    expect(watch.observe(new Map([[0, 5], [1, 20]]), 2)).toBe(25);
    expect(watch.regressions).toEqual([]);
    expect(watch.observe(new Map([[0, 5], [1, 12]]), 3)).toBe(17);
    expect(watch.observe(new Map([[0, 2], [1, 30]]), 4)).toBe(32);
    expect(watch.regressions).toEqual([{ partition: 1, from: 20, to: 12, atMs: 3 }, { partition: 0, from: 5, to: 2, atMs: 4 }]);
    expect(regressionReason(watch.regressions)).toBe('committed offsets went backwards 2 time(s) on partition(s) 0, 1 (largest: partition 1 from 20 to 12)');
    expect(regressionReason([])).toBeUndefined();
  });

  it('leads the reason of an incomplete run; a run cut short after a regression is not called a timeout', () => {
    const reason = regressionReason([{ partition: 3, from: 900, to: 400, atMs: 0 }]);
    expect(incompleteReason(false, 0, 60_000, reason, true))
      .toBe(`committed offsets went backwards 1 time(s) on partition(s) 3 (largest: partition 3 from 900 to 400); stopped ${REGRESSION_GRACE_MS} ms after it, incomplete`);
    expect(incompleteReason(false, 0, 60_000, reason, false)).toMatch(/^committed offsets went backwards .*; timeout after 60000 ms \(stopped\)$/);
    expect(incompleteReason(false, 0, 560_000)).toBe('timeout after 560000 ms (stopped)');
  });

  it('fails a completed run whose committed offsets went backwards even when its output passed the check', () => {
    expect(checkVerdict(true, undefined, 'committed offsets went backwards 1 time(s)')).toEqual({ ok: false, reason: 'committed offsets went backwards 1 time(s)' });
    expect(checkVerdict(false, '12 duplicates', 'committed offsets went backwards 1 time(s)'))
      .toEqual({ ok: false, reason: 'committed offsets went backwards 1 time(s); 12 duplicates' });
    expect(checkVerdict(true, undefined, undefined)).toEqual({ ok: true });
    expect(checkVerdict(false, '3 missing', undefined)).toEqual({ ok: false, reason: '3 missing' });
  });
});

describe('issue 18 goal lines', () => {
  // Java 100,000 rec/s, 560 MiB, 15 µs/rec; every Node peer beaten by ≥ 1.2× unless a case changes it.
  const base = (): RunResult[] => [
    run('java-eos', 100_000, { rss: 560, cpuSeconds: 0.015 }),
    run('sluice-eos', 130_000, { rss: 400, cpuSeconds: 0.010 }),
    run('sluice-alos', 150_000, { rss: 420, cpuSeconds: 0.009, latencyP50Ms: 8, latencyP99Ms: 90 }),
    run('kafkajs', 100_000), run('kafkats-eos', 1_000, { ok: false, reason: 'committed offsets went backwards' }), run('kafkats-alos', 9_000),
  ];

  it('meets every ratio goal of a run that beats them; a FAILED peer counts as beaten', () => {
    const goals = evaluateGoals(aggregate(base()));
    expect(goals.filter((g) => !g.goal.includes('flat')).map((g) => [g.goal, g.status]).filter(([, s]) => s !== 'met')).toEqual([]);
    expect(one(goals, 'every Node peer').detail).toContain('@kafkats/flow exactly_once FAILED its check in every round (counts as beaten)');
    expect(one(goals, '≥ 1.0× Java').detail).toBe('1.30× (130,000 records/s vs 100,000 records/s)');
    expect(one(goals, 'at_least_once ≥ 1.1×').detail).toMatch(/^1\.15×/);
    // One size only: flatness is not measured.
    expect(byGoal(goals, 'sluice exactly_once peak RSS flat')[0]?.status).toBe('not measured');
  });

  it('computes not met from the ratios, per goal', () => {
    const runs = base().map((r) => {
      if (r.id === 'sluice-eos') return run('sluice-eos', 95_000, { rss: 600, cpuSeconds: 0.02, latencyP50Ms: 21, latencyP99Ms: 90 });
      if (r.id === 'sluice-alos') return run('sluice-alos', 100_000, { latencyP50Ms: 5, latencyP99Ms: 101 });
      if (r.id === 'kafkats-alos') return run('kafkats-alos', 80_000);
      return r;
    });
    const goals = evaluateGoals(aggregate(runs));
    expect(one(goals, '≥ 1.0× Java').status).toBe('not met'); // 0.95×
    expect(one(goals, '1.2× the plain kafkajs loop').status).toBe('not met'); // 0.95×
    expect(one(goals, 'every Node peer').status).toBe('not met'); // 1.19× kafkats-alos
    expect(one(goals, 'at_least_once ≥ 1.1×').status).toBe('not met'); // 1.05×
    expect(one(goals, 'exactly_once latency').status).toBe('not met'); // p50 21
    expect(one(goals, 'at_least_once latency').status).toBe('not met'); // p99 101
    expect(one(goals, 'exactly_once peak RSS ≤').status).toBe('not met'); // 600 > 560
    expect(one(goals, 'at_least_once peak RSS ≤').status).toBe('met'); // 500
    expect(one(goals, 'exactly_once CPU').status).toBe('not met'); // 20 > 15 µs/rec
    expect(one(goals, 'at_least_once CPU').status).toBe('met'); // 15 ≤ 15
  });

  it('a sluice row that failed any round meets nothing; without Java the Java goals are not measured', () => {
    const runs = [...base().filter((r) => r.id !== 'java-eos'), { ...run('sluice-eos', 1, { ok: false, reason: 'missing' }), round: 2 }];
    const goals = evaluateGoals(aggregate(runs));
    expect(one(goals, '≥ 1.0× Java').status).toBe('not met');
    expect(one(goals, '≥ 1.0× Java').detail).toBe('sluice exactly_once failed its check in 1/2 round(s)');
    expect(one(goals, 'at_least_once peak RSS ≤')).toMatchObject({ status: 'not measured', detail: 'java-eos did not run' });
    expect(one(goals, 'at_least_once latency').status).toBe('met');
  });

  it('judges flat RSS from the largest size against the smallest (≤ 10% growth)', () => {
    const sized = (id: string, records: number, rss: number, ok = true): RunResult => ({ ...run(id, 100_000, { rss, ok }), records });
    const results = [
      ...base(),
      sized('sluice-eos', 2000, 440), // +10%: flat
      sized('sluice-alos', 2000, 470), // +11.9%: not flat
      sized('java-eos', 2000, 700),
      sized('kafkats-eos', 2000, 300, false),
    ];
    const rss = rssBySize(results, [1000, 2000]);
    expect(rss.map((r) => r.id)).toEqual(['java-eos', 'sluice-eos', 'sluice-alos', 'kafkajs', 'kafkats-eos', 'kafkats-alos']);
    expect(rss.find((r) => r.id === 'kafkats-eos')?.sizes).toEqual([
      { records: 1000, maxRssMiB: 500, fromFailedRuns: true }, { records: 2000, maxRssMiB: 300, fromFailedRuns: true },
    ]);
    expect(rss.find((r) => r.id === 'kafkajs')?.growth).toBeUndefined();
    const summary = summarise(results, [1000, 2000]);
    // The main table is of the first size: the 2,000-record runs are in the RSS table only.
    expect(primaryResults(results, 1000)).toHaveLength(base().length);
    expect(summary.rows.find((r) => r.id === 'sluice-eos')?.runs).toBe(1);
    expect(one(summary.goals, 'exactly_once peak RSS flat')).toMatchObject({ status: 'met', detail: '400 MiB @ 1000, 440 MiB @ 2000: +10.0%' });
    expect(one(summary.goals, 'at_least_once peak RSS flat').status).toBe('not met');
    expect(summary.text).toMatch(/\| sluice exactly_once +\| +400 \| +440 \| +\+10\.0% \| +yes \|/);
    expect(summary.text).toMatch(/\| @kafkats\/flow exactly_once +\| +500\* \| +300\* \|/);
    expect(summary.text).toContain('- **met**: sluice exactly_once peak RSS flat');
  });
});

describe('bench build folder per checkout', () => {
  it('attributes code of the checkout build (bench/.build) to sluice, not to a package', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 } },
        { id: 2, callFrame: { functionName: 'send', url: 'file:///r/bench/.build/src/eos/c.js', lineNumber: 0 } },
      ],
      samples: [2, 2],
      timeDeltas: [0, 1000, 1000],
    };
    const file = join(mkdtempSync(join(tmpdir(), 'bench-prof-')), 'p.cpuprofile');
    writeFileSync(file, JSON.stringify(profile));
    expect(topSelfTimes(file).areas.map((a) => a.name)).toEqual(['sluice src/eos']);
  });
});
