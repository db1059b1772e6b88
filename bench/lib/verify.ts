/**
 * Output check of the stateless pipeline: what a read_committed reader sees
 * of a contender's output topic (./read-committed.ts), complete and
 * duplicate-free, before the run's figure counts. Also the latency of every
 * visible output record: its timestamp (LogAppendTime of the output topic)
 * minus the processing time `pt` the pipeline stamped into it.
 */
import type { Kafka as KafkaClient } from 'kafkajs';
import { readCommitted } from './read-committed.js';
import { isDropped } from './workload.js';

/** Result of reading back one output topic. */
export interface VerifyResult {
  ok: boolean;
  /** Visible records read. */
  count: number;
  expected: number;
  duplicates: number;
  /** Expected ids never read. */
  missing: number;
  /** Ids that are not expected at all (filtered or out of range). */
  unexpected: number;
  /** Records of aborted transactions (not visible, not counted). */
  aborted: number;
  /** Why the check failed, when it did. */
  reason?: string;
  /** Latencies in ms (output append time - processing time), one per visible record. */
  latenciesMs: Float64Array;
}

/** Reads `topic` (everything below its current end offsets) and checks ids 0..records-1 minus the filtered ones. */
export async function verifyOutput(
  kafka: KafkaClient, topic: string, records: number, expected: number, { timeoutMs = 60_000 + records / 10 } = {},
): Promise<VerifyResult> {
  const seen = new Uint8Array(records);
  const latencies = new Float64Array(expected * 2);
  let count = 0;
  let duplicates = 0;
  let unexpected = 0;
  const visible = ([id, latency]: [number, number]): void => {
    if (id < 0 || id >= records || isDropped(id)) unexpected++;
    else if (seen[id] === 1) duplicates++;
    else seen[id] = 1;
    if (count < latencies.length) latencies[count] = latency;
    count++;
  };
  const summary = await readCommitted(kafka, topic, (m): [number, number] => {
    const value = m.value ? (JSON.parse(m.value.toString('utf8')) as { id: number; pt: number }) : undefined;
    return [value?.id ?? -1, value ? m.timestamp - value.pt : Number.NaN];
  }, visible, timeoutMs);
  const reasons: string[] = [];
  const missing = expected - (count - duplicates - unexpected);
  if (!summary.complete) reasons.push(`read stopped after ${timeoutMs} ms before the end of the topic`);
  if (count !== expected) reasons.push(`read ${count} visible records, expected ${expected}`);
  if (missing > 0) reasons.push(`${missing} missing`);
  if (duplicates > 0) reasons.push(`${duplicates} duplicates`);
  if (unexpected > 0) reasons.push(`${unexpected} unexpected ids`);
  if (summary.undecided > 0) reasons.push(`${summary.undecided} records in transactions without a marker`);
  const ok = reasons.length === 0;
  return {
    ok, count, expected, duplicates, missing, unexpected, aborted: summary.aborted,
    ...(ok ? {} : { reason: reasons.join(', ') }),
    latenciesMs: latencies.subarray(0, Math.min(count, latencies.length)),
  };
}
