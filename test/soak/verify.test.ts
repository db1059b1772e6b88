/**
 * The soak verifier's checks on hand-made reads: each check passes on a
 * correct run and names the fault it was written for (a reset count, a
 * duplicate, a lost or reordered record, an open transaction, an offset short
 * of the end).
 */
import { describe, expect, it } from 'vitest';
import type { CommittedRead, SoakRecord } from './kafka-io.js';
import { summaryLine } from './report.js';
import { checkAggregate, checkData, checkOffsets, checkTransactions, truthOf } from './verify.js';

const rec = (partition: number, offset: number, key: string, value: number): SoakRecord => ({ partition, offset, key, value });
/** Input: p0 has a1, a2, a3; p1 has b1, b2. */
const input: SoakRecord[][] = [
  [rec(0, 0, 'a', 1), rec(0, 1, 'a', 2), rec(0, 2, 'a', 3)],
  [rec(1, 0, 'b', 1), rec(1, 1, 'b', 2)],
];
const renumber = (partitions: [string, number][][]): SoakRecord[][] =>
  partitions.map((records, p) => records.map(([key, value], offset) => rec(p, offset * 2, key, value)));

describe('soak verifier', () => {
  it('truth: count, sum and re-keyed count per key', () => {
    const truth = truthOf(input, 2);
    expect([...truth.count]).toEqual([['a', 3], ['b', 2]]);
    expect([...truth.sum]).toEqual([['a', 6], ['b', 3]]);
    expect([...truth.repartitionedCount].sort()).toEqual([['r0', 2], ['r1', 3]]);
    expect(truth.inputProblems).toEqual([]);
    expect(truthOf([[rec(0, 0, 'a', 1), rec(0, 1, 'a', 1)]], 2).inputProblems).toEqual(['input a at p0@1: value 1, expected 2']);
  });

  it('data: exactly once in order passes; a duplicate, a loss, a stranger and a reordering are each named', () => {
    expect(checkData(input, renumber([[['a', 1], ['a', 2], ['a', 3]], [['b', 1], ['b', 2]]])).ok).toBe(true);
    const dup = checkData(input, renumber([[['a', 1], ['a', 2], ['a', 2], ['a', 3]], [['b', 1], ['b', 2]]]));
    expect(dup).toMatchObject({ ok: false, duplicates: 1, missing: 0, outOfOrderPartitions: 1 });
    expect(dup.examples[0]).toBe('duplicate a=2 (2 times)');
    expect(checkData(input, renumber([[['a', 1], ['a', 3]], [['b', 1], ['b', 2]]]))).toMatchObject({ ok: false, missing: 1, duplicates: 0 });
    expect(checkData(input, renumber([[['a', 1], ['a', 2], ['a', 3]], [['b', 1], ['b', 2], ['c', 1]]]))).toMatchObject({ ok: false, unexpected: 1 });
    const swapped = checkData(input, renumber([[['a', 2], ['a', 1], ['a', 3]], [['b', 1], ['b', 2]]]));
    expect(swapped).toMatchObject({ ok: false, duplicates: 0, missing: 0, outOfOrderPartitions: 1 });
    expect(swapped.examples[0]).toBe('data p0: record #0 is a=2, input p0 has a=1 there');
  });

  it("data in per-key order (an async step, --async-step): keys may interleave differently; a key's own reordering still fails", () => {
    const mixed = [[rec(0, 0, 'a', 1), rec(0, 1, 'c', 1), rec(0, 2, 'a', 2)]];
    const interleaved = [[rec(0, 0, 'c', 1), rec(0, 1, 'a', 1), rec(0, 2, 'a', 2)]];
    expect(checkData(mixed, interleaved, 'key').ok).toBe(true);
    expect(checkData(mixed, interleaved).ok).toBe(false);
    const swapped = checkData(mixed, [[rec(0, 0, 'a', 2), rec(0, 1, 'c', 1), rec(0, 2, 'a', 1)]], 'key');
    expect(swapped).toMatchObject({ ok: false, outOfOrderPartitions: 1 });
    expect(swapped.examples[0]).toMatch(/^data p0: key a is \[a=2 a=1 \.\.\.\]/);
  });

  it('aggregates: increasing to the truth passes (also with cached, skipped updates); a reset, a repeat, an overshoot fail', () => {
    const truth = new Map([['a', 3], ['b', 2]]);
    expect(checkAggregate(truth, renumber([[['a', 1], ['a', 2], ['a', 3]], [['b', 1], ['b', 2]]])).ok).toBe(true);
    expect(checkAggregate(truth, renumber([[['a', 3]], [['b', 2]]])).ok).toBe(true);
    // the state forgot after a restart: a counts 1, 2, then 1 again; its last update is 1, not 3
    const reset = checkAggregate(truth, renumber([[['a', 1], ['a', 2], ['a', 1]], [['b', 1], ['b', 2]]]));
    expect(reset).toMatchObject({ ok: false, resets: 1, wrongKeys: 1, repeats: 0 });
    expect(reset.examples).toEqual(['a: 1 (expected 3, 1 resets)']);
    // a reset that a later catch-up hides in the last value is still a failure
    expect(checkAggregate(truth, renumber([[['a', 2], ['a', 1], ['a', 3]], [['b', 2]]]))).toMatchObject({ ok: false, resets: 1, wrongKeys: 0 });
    expect(checkAggregate(truth, renumber([[['a', 1], ['a', 1], ['a', 3]], [['b', 2]]]))).toMatchObject({ ok: false, repeats: 1 });
    expect(checkAggregate(truth, renumber([[['a', 4], ['a', 3]], [['b', 2]]]))).toMatchObject({ ok: false, overshoots: 1 });
    expect(checkAggregate(truth, renumber([[['a', 3]], []]))).toMatchObject({ ok: false, missingKeys: 1, wrongKeys: 1 });
    expect(checkAggregate(truth, renumber([[['a', 3]], [['b', 1], ['a', 3]]]))).toMatchObject({ ok: false, mispartitionedKeys: 1 });
  });

  it('transactions: LSO below HW or a record without its marker is an open transaction', () => {
    const closed: CommittedRead = { partitions: [[], []], open: [0, 0], aborted: 3 };
    expect(checkTransactions([{ topic: 't', lso: [5, 7], hw: [5, 7] }], [closed]).ok).toBe(true);
    const open = checkTransactions([{ topic: 't', lso: [5, 6], hw: [5, 7] }], [{ ...closed, open: [0, 2] }]);
    expect(open).toMatchObject({ ok: false, open: [{ topic: 't', partition: 1, lso: 6, hw: 7 }], unmarkedRecords: 2 });
  });

  it('offsets: the input must be committed to its end; the repartition topic past its last record', () => {
    const input = { topic: 'in', committed: [10, 4], end: [10, 4] };
    const repartition = { topic: 'rp', committed: [6, -1], afterLastRecord: [6, 0], hw: [8, 0] };
    expect(checkOffsets(input, repartition).ok).toBe(true);
    expect(checkOffsets({ ...input, committed: [10, 3] }, repartition).problems).toEqual([{ topic: 'in', partition: 1, committed: 3, expected: 4 }]);
    expect(checkOffsets(input, { ...repartition, committed: [5, -1] }).problems).toEqual([{ topic: 'rp', partition: 0, committed: 5, expected: 6 }]);
  });

  it('the summary line names every field, and each failure with its numbers', () => {
    const truth = truthOf(input, 2);
    const good = renumber([[['a', 1], ['a', 2], ['a', 3]], [['b', 1], ['b', 2]]]);
    const kills = { total: 104, running: 37, afterCommit: 37, restoring: 21, initializing: 9, restoreMisses: 2 };
    const body = {
      records: 5, keys: 2, seed: 1, applicationId: 'app', threads: 1, kills, restoreEvents: 40, brokerRestarts: 1, unexpectedExits: [], stateDir: 'used' as const,
      inputProblems: [], data: checkData(input, good), counts: checkAggregate(truth.count, good),
      sums: checkAggregate(truth.sum, renumber([[['a', 1], ['a', 3], ['a', 6]], [['b', 1], ['b', 3]]])),
      repartitionedCounts: checkAggregate(new Map([['r1', 1]]), renumber([[['r1', 1]]])),
      transactions: checkTransactions([], []), offsets: checkOffsets({ topic: 'in', committed: [1], end: [1] }), drain: { ok: true, waitedMs: 1, detail: '' }, durationMs: 312_000,
    };
    expect(summaryLine(body)).toBe(
      'soak: 5 records, 104 kills (37 right after a commit, 21 while restoring, 9 while initializing tasks, 37 at random), 1 broker restart, ' +
        'data exactly-once OK, counts OK (0 resets), sums OK, repartitioned counts OK (0 resets), no open transaction, offsets OK, 312 s',
    );
    const reset = renumber([[['a', 1], ['a', 2], ['a', 1]], [['b', 1], ['b', 2]]]);
    expect(summaryLine({ ...body, restoreEvents: 0, counts: checkAggregate(truth.count, reset) })).toContain(
      '21 while restoring (no restoration seen)',
    );
    expect(summaryLine({ ...body, counts: checkAggregate(truth.count, reset) })).toContain('counts FAIL (1 resets, 1/2 keys wrong; e.g. a: 1 (expected 3, 1 resets))');
    // --threads 2: the line names the stream threads of each worker (1 thread: nothing, as above)
    expect(summaryLine({ ...body, threads: 2 })).toMatch(/^soak: 5 records, 2 stream threads per worker, 104 kills /);
  });
});
