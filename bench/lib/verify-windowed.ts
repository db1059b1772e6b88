/**
 * Output check of the windowed count workload (./windowed-workload.ts): what a
 * read_committed reader sees of the output (./read-committed.ts) is exactly
 * one record per (key, window) of the input, whose value is the window's true
 * count (the suppression emits a window's final result once, when it closes).
 * Keys are read with Kafka's time-windowed layout (`TimeWindowedSerializer`:
 * inner key | window start, 8 bytes big-endian), values as Java's LongSerializer.
 */
import type { Kafka as KafkaClient } from 'kafkajs';
import { readCommitted } from './read-committed.js';
import { decodeLong } from './verify-count.js';
import { slotOf, WINDOW_MS, WINDOWED_WINDOWS, windowedTruth, type WindowedPlan } from './windowed-workload.js';

/** Result of reading back one windowed count output topic. */
export interface WindowedCheck {
  ok: boolean;
  /** Visible output records (closed windows emitted). */
  count: number;
  /** (key, window) pairs emitted once with their true count. */
  correctWindows: number;
  /** (key, window) pairs of the input (the expected output count). */
  windows: number;
  /** Records of aborted transactions (not visible). */
  aborted: number;
  reason?: string;
}

/** A windowed key `k<j>` | start as (key index, window index); -1 where it does not fit the plan. */
export function decodeWindowedKey(key: Buffer | null, plan: WindowedPlan): { j: number; w: number } {
  if (key === null || key.length < 9) return { j: -1, w: -1 };
  const inner = key.subarray(0, key.length - 8).toString('utf8');
  const start = Number(key.readBigInt64BE(key.length - 8));
  const offset = start - plan.base;
  const w = offset % WINDOW_MS === 0 ? offset / WINDOW_MS : -1;
  const j = /^k\d+$/.test(inner) ? Number(inner.slice(1)) : -1;
  return { j: j < plan.keys ? j : -1, w: w >= 0 && w < WINDOWED_WINDOWS ? w : -1 };
}

/** Checks the windowed counts in `topic` against the truth of `plan`. */
export async function verifyWindowedCounts(
  kafka: KafkaClient, topic: string, plan: WindowedPlan, { timeoutMs = 60_000 + plan.records / 10 } = {},
): Promise<WindowedCheck> {
  const truth = windowedTruth(plan);
  const emitted = new Int32Array(truth.counts.length);
  const got = new Float64Array(truth.counts.length).fill(-1);
  let count = 0;
  let badKeys = 0;
  let firstBadKey = '';
  let badValues = 0;
  const visible = ([slot, n, raw]: [number, number, string]): void => {
    count++;
    if (slot < 0) {
      badKeys++;
      if (firstBadKey === '') firstBadKey = raw;
      return;
    }
    if (!Number.isFinite(n)) return void badValues++;
    emitted[slot] = (emitted[slot] ?? 0) + 1;
    got[slot] = n;
  };
  const summary = await readCommitted(kafka, topic, (m): [number, number, string] => {
    const { j, w } = decodeWindowedKey(m.key, plan);
    return [j < 0 || w < 0 ? -1 : slotOf(j, w), decodeLong(m.value), m.key?.toString('hex') ?? 'null'];
  }, visible, timeoutMs);
  let correct = 0;
  let missing = 0;
  let duplicated = 0;
  let wrong = 0;
  let extra = 0;
  let firstWrong = '';
  for (let slot = 0; slot < truth.counts.length; slot++) {
    const want = truth.counts[slot] ?? 0;
    const times = emitted[slot] ?? 0;
    const where = `k${Math.floor(slot / WINDOWED_WINDOWS)}@${plan.base + (slot % WINDOWED_WINDOWS) * WINDOW_MS}`;
    if (want === 0) {
      if (times > 0) extra++;
      continue;
    }
    if (times === 0) missing++;
    else if (times > 1) duplicated++;
    if (times > 0 && got[slot] !== want) {
      wrong++;
      if (firstWrong === '') firstWrong = `${where}: count ${got[slot]}, true count ${want}`;
    }
    if (times === 1 && got[slot] === want) correct++;
  }
  const reasons: string[] = [];
  if (!summary.complete) reasons.push(`read stopped after ${timeoutMs} ms before the end of the topic`);
  if (missing > 0) reasons.push(`${missing} of ${truth.windows} windows not emitted`);
  if (duplicated > 0) reasons.push(`${duplicated} windows emitted more than once`);
  if (wrong > 0) reasons.push(`${wrong} windows with a wrong count (last seen; e.g. ${firstWrong})`);
  if (extra > 0) reasons.push(`${extra} windows emitted that have no input`);
  if (badKeys > 0) reasons.push(`${badKeys} records whose key is no windowed k<j> of the run (e.g. ${firstBadKey})`);
  if (badValues > 0) reasons.push(`${badValues} values that are not 8-byte longs`);
  if (summary.undecided > 0) reasons.push(`${summary.undecided} records in transactions without a marker`);
  const ok = reasons.length === 0;
  return { ok, count, correctWindows: correct, windows: truth.windows, aborted: summary.aborted, ...(ok ? {} : { reason: reasons.join(', ') }) };
}
