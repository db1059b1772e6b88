import { describe, expect, it } from 'vitest';
import type { BenchEvent } from '../../../bench/lib/child.js';
import { aggregate, formatTable } from '../../../bench/lib/report.js';
import type { RunResult } from '../../../bench/lib/result.js';
import { evaluateRestore } from '../../../bench/lib/run-restore.js';
import {
  changelogValue, checkKeys, keysPresent, lastWriteOf, RESTORE_VALUE_BYTES, sampleKeys, statefulKeyOf, trueCount,
} from '../../../bench/lib/stateful-workload.js';
import { decodeLong } from '../../../bench/lib/verify-count.js';
import { PARTITIONS } from '../../../bench/lib/workload.js';

describe('bench stateful workloads', () => {
  it('counts every key exactly as often as the loader writes it', () => {
    for (const [records, keys] of [[500_000, 10_000], [100_003, 10_000], [50, 80], [200_003, 20_000]] as const) {
      const counts = new Map<string, number>();
      for (let id = 0; id < records; id++) counts.set(statefulKeyOf(id, keys), (counts.get(statefulKeyOf(id, keys)) ?? 0) + 1);
      let total = 0;
      let wrong = 0;
      for (let j = 0; j < keys; j++) {
        if (trueCount(j, records, keys) !== (counts.get(`k${j}`) ?? 0)) wrong++;
        total += trueCount(j, records, keys);
      }
      expect(wrong).toBe(0);
      expect(total).toBe(records);
      expect(counts.size).toBe(keysPresent(records, keys));
    }
  });

  it('puts every key on one partition (keys a multiple of the partition count), else refuses the key count', () => {
    const partitionOf = new Map<string, number>();
    let moved = 0;
    for (let id = 0; id < 50_000; id++) {
      const key = statefulKeyOf(id, 10_000);
      if ((partitionOf.get(key) ?? id % PARTITIONS) !== id % PARTITIONS) moved++;
      partitionOf.set(key, id % PARTITIONS);
    }
    expect(moved).toBe(0);
    expect(partitionOf.size).toBe(10_000);
    expect(() => checkKeys(10_000)).not.toThrow();
    expect(() => checkKeys(10_001)).toThrow(/multiple of 8/);
  });

  it('writes ~100-byte changelog values and knows the last write of each key', () => {
    for (const id of [0, 99_999, 999_999, 9_999_999]) expect(Buffer.byteLength(changelogValue(id, 100_000))).toBe(RESTORE_VALUE_BYTES);
    expect(lastWriteOf(0, 1_000_000, 100_000)).toBe(900_000);
    expect(lastWriteOf(99_999, 1_000_000, 100_000)).toBe(999_999);
    expect(lastWriteOf(7, 5, 16)).toBe(-1);
    expect(sampleKeys(1_000_000, 100_000)).toEqual([0, 50_000, 99_999]);
  });

  it('decodes 8-byte big-endian longs (Java LongSerializer, Serdes.Long) and nothing else', () => {
    const b = Buffer.alloc(8);
    b.writeBigInt64BE(50n);
    expect(decodeLong(b)).toBe(50);
    expect(Number.isNaN(decodeLong(Buffer.from('50')))).toBe(true);
    expect(Number.isNaN(decodeLong(null))).toBe(true);
  });
});

describe('bench restore evaluation', () => {
  const records = 1_000;
  const keys = 80;
  const samples = Object.fromEntries(sampleKeys(records, keys).map((j) => [`k${j}`, changelogValue(lastWriteOf(j, records, keys), keys)]));
  const events = (perPartition: number, store: Partial<BenchEvent> = { entries: keys, samples }): BenchEvent[] => [
    ...Array.from({ length: PARTITIONS }, (_, p): BenchEvent => ({ event: 'restore-start', t: 1_000 + p, partition: p, start: 0, end: 130 })),
    ...Array.from({ length: PARTITIONS }, (_, p): BenchEvent => ({ event: 'restore-end', t: 2_000 + p * 10, partition: p, totalRestored: perPartition })),
    { event: 'running', t: 2_500 },
    { event: 'store', t: 2_600, ...store },
  ];

  it('measures records restored over first start to last end', () => {
    const r = evaluateRestore(events(125), 500, records, keys);
    expect(r.ok).toBe(true);
    expect(r.restoredRecords).toBe(1_000);
    expect(r.seconds).toBeCloseTo(1.07);
    expect(r.recordsPerSec).toBeCloseTo(1_000 / 1.07);
    expect(r.startupMs).toBe(500);
    expect(r.toRunningMs).toBe(2_000);
  });

  it('fails a restore that missed records, a partition, a key or a last value, saying which', () => {
    expect(evaluateRestore(events(124), 0, records, keys).reason).toMatch(/restored 992 records, the changelog holds 1000/);
    expect(evaluateRestore(events(125).filter((e) => !(e.event === 'restore-end' && e['partition'] === 3)), 0, records, keys).reason).toMatch(/onRestoreEnd for 7 of 8/);
    expect(evaluateRestore(events(125, { entries: keys - 1, samples }), 0, records, keys).reason).toMatch(/holds 79 entries, expected 80/);
    expect(evaluateRestore(events(125, { entries: keys, samples: { ...samples, k0: changelogValue(0, keys) } }), 0, records, keys).reason).toMatch(/k0 holds .*expected its last write/);
    expect(evaluateRestore(events(125).filter((e) => e.event !== 'store'), 0, records, keys).reason).toMatch(/not read back/);
  });
});

describe('bench report of the stateful rows', () => {
  const run = (id: string, rps: number, extra: Partial<RunResult> = {}): RunResult => ({
    id, round: 1, records: 1000, ok: true, recordsPerSec: rps, seconds: 1000 / rps, maxRssKb: 102_400, cpuSeconds: 1, usageSource: 'child', ...extra,
  });

  it('compares each workload with its own Java row, the pipeline alone with kafkajs', () => {
    const rows = aggregate([
      run('broker-produce', 40_000), run('broker-consume', 80_000), run('java-eos', 10_000), run('kafkajs', 20_000),
      run('java-count', 8_000, { outputCount: 400 }), run('sluice-count', 4_000, { outputCount: 1000 }),
      run('java-restore', 50_000, { toRunningMs: 9_000 }), run('sluice-restore-memory', 100_000, { toRunningMs: 3_000 }),
      run('sluice-restore-persistent', 0, { ok: false, reason: 'sluice has no Stores.persistentKeyValueStore yet' }),
    ]);
    const count = rows.find((r) => r.id === 'sluice-count')!;
    expect(count.vsJava).toBeCloseTo(0.5);
    expect(count.vsKafkajs).toBeUndefined();
    expect(count.vsBroker).toBeCloseTo(0.1);
    expect(count.outputRecords).toBe(1000);
    const memory = rows.find((r) => r.id === 'sluice-restore-memory')!;
    expect(memory.vsJava).toBeCloseTo(2);
    expect(memory.vsBroker).toBeUndefined();
    expect(memory.toRunningSeconds).toBe(3);
    const table = formatTable(rows);
    expect(table).toMatch(/\| sluice exactly_once count +\| +4000 \| +±0\.0% \| +0\.50× \|/);
    expect(table).toMatch(/\| restore sluice in-memory +\| +100000 \| +±0\.0% \| +2\.00× \|/);
    expect(table).toMatch(/\| restore sluice persistent +\| +FAILED \|.*FAILED \(0\/1\) \|/);
    expect(table).toContain('**Count per key');
  });
});
