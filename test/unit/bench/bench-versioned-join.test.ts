/**
 * The versioned-table join benchmark workload (bench/lib/versioned-join-workload.ts):
 * the plan's truth is the version valid at each record's timestamp (computed
 * here again from the table rows), the table is co-partitioned with the input,
 * written out of order, and the records spread over every version; the rows
 * get their own table, compared with Java.
 */
import { describe, expect, it } from 'vitest';
import { aggregate, formatTable } from '../../../bench/lib/report.js';
import type { RunResult } from '../../../bench/lib/result.js';
import { STEP_MS, VERSIONS, versionedJoinPlan } from '../../../bench/lib/versioned-join-workload.js';
import { PARTITIONS } from '../../../bench/lib/workload.js';

describe('bench versioned-table join workload', () => {
  const now = Date.UTC(2026, 11, 5, 10, 0, 30);
  const plan = versionedJoinPlan(20_000, 1_000, now);

  it('writes every key`s versions out of order on the partition of the key`s input records (i mod 8)', () => {
    expect(plan.table).toHaveLength(1_000 * VERSIONS);
    for (const row of plan.table) expect(row.partition).toBe(Number(row.key.slice(1)) % PARTITIONS);
    const k7 = plan.table.filter((r) => r.key === 'k7').map((r) => (r.timestamp - plan.base) / STEP_MS);
    expect(k7).toEqual([2, 0, 3, 1]);
    expect(plan.base % 60_000).toBe(0);
    expect(now - plan.base).toBeLessThanOrEqual(11 * 60_000);
  });

  it('joins each record with the version valid at its timestamp, and the records reach every version', () => {
    const byKey = new Map<string, Array<{ value: string; timestamp: number }>>();
    for (const r of plan.table) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r]);
    for (const versions of byKey.values()) versions.sort((a, b) => b.timestamp - a.timestamp);
    const perVersion = new Array<number>(VERSIONS).fill(0);
    const wrong: string[] = [];
    for (let id = 0; id < plan.records; id++) {
      const ts = plan.timestampOf(id);
      const valid = (byKey.get(`k${id % 1_000}`) ?? []).find((v) => v.timestamp <= ts);
      if (plan.priceOf(id) !== valid?.value) wrong.push(`${id}: ${plan.priceOf(id)} (valid: ${valid?.value})`);
      const v = Number(plan.priceOf(id).split('v')[1]);
      perVersion[v] = (perVersion[v] ?? 0) + 1;
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    for (const n of perVersion) expect(n).toBeGreaterThan(plan.records / VERSIONS / 2);
  });

  it('reports the versioned-join rows in their own table, sluice against Java', () => {
    const run = (id: string, recordsPerSec: number): RunResult => ({
      id, round: 1, records: 500_000, ok: true, recordsPerSec, seconds: 500_000 / recordsPerSec, maxRssKb: 300_000, cpuSeconds: 20, usageSource: 'child', outputCount: 500_000,
    });
    const rows = aggregate([run('java-versioned-join', 10_000), run('sluice-versioned-join', 8_000)]);
    expect(rows.map((r) => [r.id, r.workload, r.vsJava])).toEqual([['java-versioned-join', 'versioned-join', 1], ['sluice-versioned-join', 'versioned-join', 0.8]]);
    expect(formatTable(rows)).toMatch(/sluice exactly_once versioned-table join .*0\.80×/);
  });
});
