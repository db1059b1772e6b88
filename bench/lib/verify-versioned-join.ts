/**
 * Output check of the versioned-table join workload
 * (./versioned-join-workload.ts): the read_committed output holds every input
 * record exactly once, each joined with the price version valid at its event
 * time (`<price>|<input value>`).
 */
import type { Kafka as KafkaClient } from 'kafkajs';
import { readCommitted } from './read-committed.js';
import type { VersionedJoinPlan } from './versioned-join-workload.js';

/** Result of reading back one join output topic. */
export interface VersionedJoinCheck {
  ok: boolean;
  /** Visible output records. */
  count: number;
  /** Input records seen exactly once with the right price. */
  correct: number;
  /** Records of aborted transactions (not visible). */
  aborted: number;
  reason?: string;
}

/** Checks the join output in `topic` against `plan`. */
export async function verifyVersionedJoin(kafka: KafkaClient, topic: string, plan: VersionedJoinPlan, { timeoutMs = 60_000 + plan.records / 10 } = {}): Promise<VersionedJoinCheck> {
  const seen = new Uint8Array(plan.records);
  let [count, badRecords, wrongPrice, duplicates] = [0, 0, 0, 0];
  let firstWrong = '';
  const summary = await readCommitted(kafka, topic, (m) => m.value?.toString('utf8') ?? '', (value) => {
    count++;
    const bar = value.indexOf('|');
    const id = Number(/"id":(\d+)/.exec(value.slice(bar + 1))?.[1] ?? Number.NaN);
    if (bar < 0 || !(id >= 0 && id < plan.records)) return void badRecords++;
    if ((seen[id] ?? 0) > 0) duplicates++;
    seen[id] = (seen[id] ?? 0) + 1;
    if (value.slice(0, bar) !== plan.priceOf(id)) {
      wrongPrice++;
      if (firstWrong === '') firstWrong = `record ${id} joined ${value.slice(0, bar)}, expected ${plan.priceOf(id)}`;
    }
  }, timeoutMs);
  let missing = 0;
  for (const n of seen) if (n === 0) missing++;
  const correct = plan.records - missing - wrongPrice - duplicates;
  const problems = [
    summary.complete ? '' : 'the read did not reach the end offsets',
    missing > 0 ? `${missing} input records missing` : '',
    duplicates > 0 ? `${duplicates} duplicates` : '',
    wrongPrice > 0 ? `${wrongPrice} joined the wrong price version (${firstWrong})` : '',
    badRecords > 0 ? `${badRecords} unreadable output records` : '',
  ].filter((p) => p !== '');
  return { ok: problems.length === 0, count, correct, aborted: summary.aborted, ...(problems.length > 0 ? { reason: problems.join('; ') } : {}) };
}
