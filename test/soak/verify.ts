/**
 * The soak verifier (Kafka Streams' `EosTestDriver.verify`), as pure functions
 * over what a read_committed reader saw, so each check can be tested on its own:
 *
 * 1. `data` holds every input record exactly once, and partition p holds
 *    input partition p's records in input order (`verifyReceivedAllRecords`);
 * 2. per key, the updates of `count` / `sum` / `repartitioned-count` strictly
 *    increase (a drop is a *reset*: the state was lost; an equal value is a
 *    *repeat*) and the last one equals the truth computed from the input
 *    (`verifySum`, `verifyCnt`, but against the final value: with a record
 *    cache not every intermediate update is written);
 * 3. no open transaction: on every output partition LSO == HW and no
 *    transactional record lacks its marker (`verifyAllTransactionFinished`);
 * 4. the group's committed offsets reach the end of the input and of the
 *    repartition topic.
 */
import type { CommittedRead, SoakRecord } from './kafka-io.js';
import { rekey } from './topology.js';

/** Result of the `data` check. */
export interface DataCheck {
  ok: boolean;
  expected: number;
  seen: number;
  duplicates: number;
  missing: number;
  /** Records in `data` that are not in the input. */
  unexpected: number;
  /** Partitions whose records are not the input partition's records in input order. */
  outOfOrderPartitions: number;
  examples: string[];
}

/** Result of one aggregation check (count, sum or repartitioned count). */
export interface AggregateCheck {
  ok: boolean;
  keys: number;
  /** Keys whose last update is not the true value (missing keys included). */
  wrongKeys: number;
  /** Keys with no update at all. */
  missingKeys: number;
  /** Keys that are not in the truth. */
  unexpectedKeys: number;
  /** Updates lower than the key's previous update: the state was lost and rebuilt from scratch (or less). */
  resets: number;
  /** Updates equal to the key's previous one (a double-applied or re-emitted update). */
  repeats: number;
  /** Updates above the true final value (input counted twice). */
  overshoots: number;
  /** Keys whose updates are on more than one partition. */
  mispartitionedKeys: number;
  examples: string[];
}

/** The true aggregates of an input. */
export interface Truth {
  count: Map<string, number>;
  sum: Map<string, number>;
  repartitionedCount: Map<string, number>;
  /** Problems of the input itself (a key's values not 1, 2, 3, ...): the truth is still what the input holds. */
  inputProblems: string[];
}

const id = (r: Pick<SoakRecord, 'key' | 'value'>): string => `${r.key}=${r.value}`;

/** Count, sum and re-keyed count per key of the input records; also checks the input's per-key sequences. */
export function truthOf(input: SoakRecord[][], groups: number): Truth {
  const truth: Truth = { count: new Map(), sum: new Map(), repartitionedCount: new Map(), inputProblems: [] };
  for (const partition of input) {
    for (const r of partition) {
      const value = r.value ?? 0;
      const n = (truth.count.get(r.key) ?? 0) + 1;
      if (value !== n && truth.inputProblems.length < 5) truth.inputProblems.push(`input ${r.key} at p${r.partition}@${r.offset}: value ${r.value}, expected ${n}`);
      truth.count.set(r.key, n);
      truth.sum.set(r.key, (truth.sum.get(r.key) ?? 0) + value);
      const group = rekey(value, groups);
      truth.repartitionedCount.set(group, (truth.repartitionedCount.get(group) ?? 0) + 1);
    }
  }
  return truth;
}

/** Check 1 (see the module comment). */
export function checkData(input: SoakRecord[][], data: SoakRecord[][], order: 'partition' | 'key' = 'partition'): DataCheck {
  const expected = new Map<string, number>();
  for (const partition of input) for (const r of partition) expected.set(id(r), (expected.get(id(r)) ?? 0) + 1);
  const seen = new Map<string, number>();
  for (const partition of data) for (const r of partition) seen.set(id(r), (seen.get(id(r)) ?? 0) + 1);
  const check: DataCheck = { ok: false, expected: 0, seen: 0, duplicates: 0, missing: 0, unexpected: 0, outOfOrderPartitions: 0, examples: [] };
  const example = (text: string) => void (check.examples.length < 5 && check.examples.push(text));
  for (const [key, n] of expected) {
    check.expected += n;
    const got = seen.get(key) ?? 0;
    if (got > n) {
      check.duplicates += got - n;
      example(`duplicate ${key} (${got} times)`);
    } else if (got < n) {
      check.missing += n - got;
      example(`missing ${key}`);
    }
  }
  for (const [key, n] of seen) {
    check.seen += n;
    if (!expected.has(key)) {
      check.unexpected += n;
      example(`unexpected ${key}`);
    }
  }
  const partitions = Math.max(input.length, data.length);
  for (let p = 0; p < partitions; p++) {
    const want = input[p] ?? [];
    const got = data[p] ?? [];
    if (order === 'key') {
      // an async step keeps input order per key only: compare each key's sequence in this partition
      const keys = new Set([...want, ...got].map((r) => r.key));
      const ofKey = (rs: SoakRecord[], k: string) => rs.filter((r) => r.key === k).map(id);
      const wrong = [...keys].find((k) => firstDifference(ofKey(want, k), ofKey(got, k)) !== undefined);
      if (wrong === undefined) continue;
      check.outOfOrderPartitions += 1;
      example(`data p${p}: key ${wrong} is [${ofKey(got, wrong).slice(0, 5).join(' ')} ...], input has [${ofKey(want, wrong).slice(0, 5).join(' ')} ...]`);
      continue;
    }
    const at = firstDifference(want.map(id), got.map(id));
    if (at === undefined) continue;
    check.outOfOrderPartitions += 1;
    example(`data p${p}: record #${at} is ${got[at] ? id(got[at]) : 'absent'}, input p${p} has ${want[at] ? id(want[at]) : 'nothing'} there`);
  }
  check.ok = check.duplicates === 0 && check.missing === 0 && check.unexpected === 0 && check.outOfOrderPartitions === 0;
  return check;
}

function firstDifference(a: string[], b: string[]): number | undefined {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return undefined;
}

/** Check 2 for one aggregation output (see the module comment). */
export function checkAggregate(truth: Map<string, number>, output: SoakRecord[][]): AggregateCheck {
  const updates = new Map<string, number[]>();
  const partitionsOf = new Map<string, Set<number>>();
  for (const partition of output) {
    for (const r of partition) {
      (updates.get(r.key) ?? updates.set(r.key, []).get(r.key)!).push(r.value ?? Number.NaN);
      (partitionsOf.get(r.key) ?? partitionsOf.set(r.key, new Set()).get(r.key)!).add(r.partition);
    }
  }
  const check: AggregateCheck = { ok: false, keys: truth.size, wrongKeys: 0, missingKeys: 0, unexpectedKeys: 0, resets: 0, repeats: 0, overshoots: 0, mispartitionedKeys: 0, examples: [] };
  const example = (text: string) => void (check.examples.length < 5 && check.examples.push(text));
  for (const [key, want] of truth) {
    const values = updates.get(key);
    if (!values || values.length === 0) {
      check.missingKeys += 1;
      check.wrongKeys += 1;
      example(`${key}: no update (expected ${want})`);
      continue;
    }
    let resets = 0;
    for (let i = 1; i < values.length; i++) {
      if (values[i]! < values[i - 1]!) resets += 1;
      else if (values[i] === values[i - 1]) check.repeats += 1;
    }
    check.resets += resets;
    check.overshoots += values.filter((v) => v > want).length;
    const last = values[values.length - 1]!;
    if (last !== want) {
      check.wrongKeys += 1;
      example(`${key}: ${last} (expected ${want}${resets > 0 ? `, ${resets} resets` : ''})`);
    }
    if ((partitionsOf.get(key)?.size ?? 0) > 1) check.mispartitionedKeys += 1;
  }
  for (const key of updates.keys()) {
    if (truth.has(key)) continue;
    check.unexpectedKeys += 1;
    example(`${key}: not an input key`);
  }
  check.ok = check.wrongKeys === 0 && check.unexpectedKeys === 0 && check.resets === 0 && check.repeats === 0 && check.overshoots === 0 && check.mispartitionedKeys === 0;
  return check;
}

/** One output partition with a transaction still open. */
export interface OpenTransaction {
  topic: string;
  partition: number;
  lso: number;
  hw: number;
}

/** Result of check 3. */
export interface TransactionCheck {
  ok: boolean;
  topics: number;
  open: OpenTransaction[];
  /** Transactional records without a marker, from the reads of the outputs. */
  unmarkedRecords: number;
}

/** Check 3 from LSO / HW per partition of each topic and the reads' unmarked records. */
export function checkTransactions(ends: { topic: string; lso: number[]; hw: number[] }[], reads: CommittedRead[]): TransactionCheck {
  const open: OpenTransaction[] = [];
  for (const { topic, lso, hw } of ends) {
    hw.forEach((h, partition) => {
      if (lso[partition] !== h) open.push({ topic, partition, lso: lso[partition] ?? -1, hw: h });
    });
  }
  const unmarkedRecords = reads.reduce((n, r) => n + r.open.reduce((a, b) => a + b, 0), 0);
  return { ok: open.length === 0 && unmarkedRecords === 0, topics: ends.length, open, unmarkedRecords };
}

/** One input partition whose committed offset is not where it should be. */
export interface OffsetProblem {
  topic: string;
  partition: number;
  committed: number;
  /** The end offset (input) or the offset after the last record (repartition topic). */
  expected: number;
}

/** Result of check 4. */
export interface OffsetCheck {
  ok: boolean;
  problems: OffsetProblem[];
}

/**
 * Check 4: the committed offset of every input partition equals its end
 * offset; on the repartition topic (transactional: a commit marker may follow
 * the last record) it lies between the offset after the last record and the HW.
 */
export function checkOffsets(input: { topic: string; committed: number[]; end: number[] }, repartition?: { topic: string; committed: number[]; afterLastRecord: number[]; hw: number[] }): OffsetCheck {
  const problems: OffsetProblem[] = [];
  input.end.forEach((end, partition) => {
    const committed = input.committed[partition] ?? -1;
    if (committed !== end) problems.push({ topic: input.topic, partition, committed, expected: end });
  });
  repartition?.hw.forEach((hw, partition) => {
    const low = repartition.afterLastRecord[partition] ?? 0;
    const given = repartition.committed[partition] ?? -1;
    const committed = given < 0 && low === 0 ? 0 : given; // an empty partition needs no commit
    if (committed < low || committed > hw) problems.push({ topic: repartition.topic, partition, committed, expected: low });
  });
  return { ok: problems.length === 0, problems };
}
