import { describe, expect, it } from 'vitest';
import { aggregate, formatTable } from '../../../bench/lib/report.js';
import type { RunResult } from '../../../bench/lib/result.js';
import { decodeWindowedKey } from '../../../bench/lib/verify-windowed.js';
import { slotOf, SPAN_MS, WINDOW_MS, WINDOWED_WINDOWS, windowedPlan, windowedTruth } from '../../../bench/lib/windowed-workload.js';
import { PARTITIONS } from '../../../bench/lib/workload.js';
import { Serdes, WindowedSerdes, Windowed, TimeWindow } from '../../../src/index.js';

describe('bench windowed count workload', () => {
  const now = Date.UTC(2026, 11, 1, 18, 0, 30);

  it('spreads event times in order over ten one-minute windows that start at a minute boundary before now', () => {
    const plan = windowedPlan(500_000, 10_000, now);
    expect(plan.base % WINDOW_MS).toBe(0);
    expect(plan.base + SPAN_MS).toBeLessThanOrEqual(now);
    expect(now - plan.base).toBeLessThan(12 * WINDOW_MS);
    let previous = -Infinity;
    let outOfOrder = 0;
    for (let id = 0; id < plan.records; id++) {
      const ts = plan.timestampOf(id);
      if (!(ts >= previous && ts >= plan.base && ts < plan.base + SPAN_MS)) outOfOrder++;
      previous = ts;
    }
    expect(outOfOrder).toBe(0);
    // one flush record per partition, at the end of the last window (it closes every window)
    expect(plan.flush.map((f) => f.partition)).toEqual(Array.from({ length: PARTITIONS }, (_, p) => p));
    expect(new Set(plan.flush.map((f) => f.timestamp))).toEqual(new Set([plan.base + SPAN_MS]));
  });

  it('computes the true count of every (key, window): all records counted, window w holding about (2w + 1)%', () => {
    const plan = windowedPlan(500_000, 10_000, now);
    const truth = windowedTruth(plan);
    expect(truth.counts.reduce((a, b) => a + b, 0)).toBe(500_000);
    // window 0 holds 5,000 records (half the keys), every later window all 10,000 keys
    expect(truth.windows).toBe(95_000);
    for (let w = 0; w < WINDOWED_WINDOWS; w++) {
      let inWindow = 0;
      for (let j = 0; j < 10_000; j++) inWindow += truth.counts[slotOf(j, w)] ?? 0;
      expect(Math.abs(inWindow - 5_000 * (2 * w + 1))).toBeLessThanOrEqual(1);
    }
    // the counts differ per window (not one count everywhere)
    expect(truth.counts[slotOf(0, 0)]).not.toBe(truth.counts[slotOf(0, 9)]);
  });

  it("decodes Kafka's time-windowed key layout as sluice's WindowedSerdes writes it; refuses keys outside the plan", () => {
    const plan = windowedPlan(20_000, 10_000, now);
    const serde = WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), WINDOW_MS);
    const start = plan.base + 3 * WINDOW_MS;
    const bytes = serde.serialize('t', Windowed.of('k42', TimeWindow.of(start, start + WINDOW_MS)));
    expect(decodeWindowedKey(bytes, plan)).toEqual({ j: 42, w: 3 });
    expect(decodeWindowedKey(serde.serialize('t', Windowed.of('flush', TimeWindow.of(start, start + WINDOW_MS))), plan).j).toBe(-1);
    expect(decodeWindowedKey(serde.serialize('t', Windowed.of('k1', TimeWindow.of(start + 1, start + 1 + WINDOW_MS))), plan).w).toBe(-1);
    expect(decodeWindowedKey(serde.serialize('t', Windowed.of('k1', TimeWindow.of(plan.base + SPAN_MS, plan.base + SPAN_MS + WINDOW_MS))), plan).w).toBe(-1);
    expect(decodeWindowedKey(Buffer.from('k1'), plan)).toEqual({ j: -1, w: -1 });
  });

  it('reports the windowed rows in their own table, sluice against Java', () => {
    const run = (id: string, recordsPerSec: number): RunResult => ({
      id, round: 1, records: 500_000, ok: true, recordsPerSec, seconds: 500_000 / recordsPerSec, maxRssKb: 300_000, cpuSeconds: 20, usageSource: 'child', outputCount: 100_000,
    });
    const rows = aggregate([run('java-windowed-count', 10_000), run('sluice-windowed-count', 15_000)]);
    expect(rows.map((r) => [r.id, r.workload, r.vsJava])).toEqual([['java-windowed-count', 'windowed', 1], ['sluice-windowed-count', 'windowed', 1.5]]);
    expect(formatTable(rows)).toMatch(/windows out/);
    expect(formatTable(rows)).toMatch(/sluice exactly_once windowed count .*1\.50×/);
  });
});
