import { mkdtempSync, writeFileSync } from 'node:fs';
import { incompleteReason } from '../../../bench/lib/run-pipeline.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { topSelfTimes } from '../../../bench/lib/cpuprofile.js';
import { aggregate, formatTable } from '../../../bench/lib/report.js';
import type { RunResult } from '../../../bench/lib/result.js';
import { median, quantile, spreadPercent } from '../../../bench/lib/stats.js';
import { expectedOutputs, inputValue, isDropped, transform, VALUE_BYTES } from '../../../bench/lib/workload.js';

describe('bench workload', () => {
  it('writes 100-byte JSON values for every id up to 10 million', () => {
    for (const id of [0, 7, 9, 12_345, 499_999, 9_999_999]) {
      expect(Buffer.byteLength(inputValue(id))).toBe(VALUE_BYTES);
      expect(JSON.parse(inputValue(id)).id).toBe(id);
    }
  });

  it('drops exactly every 10th record and counts the expected outputs', () => {
    for (const n of [1, 9, 10, 11, 20_000, 500_000]) {
      let kept = 0;
      for (let id = 0; id < n; id++) if (!isDropped(id)) kept++;
      expect(expectedOutputs(n)).toBe(kept);
    }
    expect(transform(inputValue(9))).toBeNull();
    const out = JSON.parse(transform(inputValue(12))!);
    expect(out).toMatchObject({ id: 12, cents: Math.round(JSON.parse(inputValue(12)).amount * 100) });
    expect(typeof out.pt).toBe('number');
  });
});

describe('bench stats', () => {
  it('computes median, nearest-rank quantiles and spread', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(quantile([5, 1, 4, 2, 3], 0.5)).toBe(3);
    expect(quantile(Float64Array.from({ length: 100 }, (_, i) => i + 1), 0.99)).toBe(99);
    expect(spreadPercent([90, 100, 110])).toBeCloseTo(10);
    expect(Number.isNaN(median([]))).toBe(true);
  });
});

describe('bench report', () => {
  const run = (id: string, round: number, rps: number, ok = true): RunResult => ({
    id, round, records: 1000, ok, recordsPerSec: rps, seconds: 1000 / rps, maxRssKb: 102_400, cpuSeconds: 1, usageSource: 'child',
    latencyP50Ms: 10, latencyP99Ms: 20, ...(ok ? {} : { reason: 'missing records' }),
  });

  it('takes medians over passing rounds and computes ratios against kafkajs, Java KS and the broker limit', () => {
    const rows = aggregate([
      run('broker-produce', 1, 40_000), run('broker-consume', 1, 80_000),
      run('java-eos', 1, 10_000), run('java-eos', 2, 12_000),
      run('sluice-eos', 1, 5_000), run('sluice-eos', 2, 0, false),
      run('kafkajs', 1, 20_000),
    ]);
    const sluice = rows.find((r) => r.id === 'sluice-eos')!;
    expect(sluice.status).toBe('FAILED 1/2');
    expect(sluice.recordsPerSec).toBe(5_000);
    expect(sluice.vsJava).toBeCloseTo(5_000 / 11_000);
    expect(sluice.vsBroker).toBeCloseTo(5_000 / 40_000);
    expect(sluice.vsKafkajs).toBeCloseTo(0.25);
    expect(formatTable(rows)).toContain('| sluice exactly_once');
  });

  it('marks a contender without any passing round FAILED', () => {
    const rows = aggregate([run('kafkajs', 1, 0, false)]);
    expect(rows[0]?.status).toBe('FAILED');
    expect(formatTable(rows)).toMatch(/plain kafkajs EOS loop \| +FAILED/);
  });
});

describe('bench cpuprofile summary', () => {
  it('attributes self time per function and area, idle excluded from the shares', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 } },
        { id: 2, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } },
        { id: 3, callFrame: { functionName: 'encode', url: 'file:///r/node_modules/kafkajs/src/x.js', lineNumber: 9 } },
        { id: 4, callFrame: { functionName: 'send', url: 'file:///r/bench/.build/src/eos/c.js', lineNumber: 0 } },
      ],
      samples: [2, 3, 3, 4, 3],
      timeDeltas: [0, 1000, 1000, 1000, 1000, 1000],
    };
    const dir = mkdtempSync(join(tmpdir(), 'bench-prof-'));
    const file = join(dir, 'p.cpuprofile');
    writeFileSync(file, JSON.stringify(profile));
    const s = topSelfTimes(file);
    expect(s.idleMs).toBe(1);
    expect(s.busyMs).toBe(4);
    expect(s.top[0]).toMatchObject({ name: 'encode', location: 'kafkajs/src/x.js:10', selfMs: 3, percent: 75 });
    expect(s.areas.map((a) => a.name)).toEqual(['kafkajs (package)', 'sluice src/eos']);
  });
});

describe('incompleteReason (run-pipeline)', () => {
  it('a contender stopped after its time bound is a timeout, not "exited early"; one that exited on its own says so with its code', () => {
    expect(incompleteReason(false, 0, 60_000)).toBe('timeout after 60000 ms (stopped)');
    expect(incompleteReason(true, 1, 60_000)).toBe('child exited early (code 1)');
  });
});
