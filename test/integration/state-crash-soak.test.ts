/**
 * CRASH SOAK, CI size (real Kafka; Kafka Streams' `StreamsEosTest` /
 * `EosTestDriver.verify`): two worker processes run an app with a stateless
 * branch (input → mapValues → data) and a stateful one (count and sum per key,
 * and a count per re-keyed group through a repartition topic) while at least 10
 * SIGKILLs hit running workers (at random, right after a commit, while
 * restoring, while initializing tasks) and the workers are restarted with the
 * same state directories. The verifier (test/soak/verify.ts) then reads the
 * outputs read_committed. `npm run soak` is the long version (200 000 records,
 * 100+ kills, a broker restart). One soak runs in `beforeAll`; each test
 * asserts one verifier field, so a failure names the broken guarantee.
 */
import { beforeAll, expect, it } from 'vitest';
import { runSoak, type SoakReport } from '../soak/soak.js';
import { describeKafka } from '../helpers/index.js';

const RECORDS = 4000;
const KILLS = 10;

describeKafka('crash soak, CI size: two workers, 10+ SIGKILLs (real Kafka)', (brokers) => {
  let report: SoakReport;
  beforeAll(async () => {
    report = await runSoak({ brokers, records: RECORDS, keys: 50, kills: KILLS, waitMs: 90_000 });
    process.stderr.write(`${report.summary}\n`);
  }, 220_000);

  it('the harness produced every input record and killed running workers at least 10 times, some right after a commit', () => {
    expect(report.inputProblems).toEqual([]);
    expect(report.records).toBe(RECORDS);
    expect(report.kills.total).toBeGreaterThanOrEqual(KILLS);
    expect(report.kills.afterCommit + report.kills.running + report.kills.initializing + report.kills.restoring).toBe(report.kills.total);
    expect(report.kills.afterCommit).toBeGreaterThan(0);
  });

  it('data: every input record exactly once, in input order per partition', () => {
    expect(report.data.examples).toEqual([]);
    expect(report.data).toMatchObject({ ok: true, duplicates: 0, missing: 0, unexpected: 0, outOfOrderPartitions: 0, expected: RECORDS, seen: RECORDS });
  });

  it('no open transaction: LSO == HW on every output, repartition and changelog partition', () => {
    expect(report.transactions.open).toEqual([]);
    expect(report.transactions).toMatchObject({ ok: true, unmarkedRecords: 0 });
  });

  it('the group committed the input to its end and the repartition topic past its last record', () => {
    expect(report.offsets.problems).toEqual([]);
    expect(report.offsets.ok).toBe(true);
  });

  it('counts per key: the last count is the true count, and no count ever went down (0 resets)', () => {
    expect(report.counts.examples).toEqual([]);
    expect(report.counts).toMatchObject({ ok: true, resets: 0, repeats: 0, overshoots: 0, wrongKeys: 0, missingKeys: 0 });
  });

  it('sums per key: the last sum is the true sum, never reset', () => {
    expect(report.sums.examples).toEqual([]);
    expect(report.sums).toMatchObject({ ok: true, resets: 0, repeats: 0, overshoots: 0, wrongKeys: 0, missingKeys: 0 });
  });

  it('counts per re-keyed group (through the repartition topic): the true counts, never reset', () => {
    expect(report.repartitionedCounts.examples).toEqual([]);
    expect(report.repartitionedCounts).toMatchObject({ ok: true, resets: 0, repeats: 0, overshoots: 0, wrongKeys: 0, missingKeys: 0 });
  });

  it('workers used their own state directories, restored state after kills, and were killed while restoring', () => {
    expect(report.stateDir).toBe('used');
    expect(report.restoreEvents).toBeGreaterThan(0);
    expect(report.kills.restoring).toBeGreaterThan(0);
  });
});
