/**
 * Output check: a read_committed read of a contender's output topic. The run
 * counts only when the output is complete and duplicate-free. Also computes the
 * latency of every output record: its timestamp (LogAppendTime of the output
 * topic) minus the processing time `pt` the pipeline stamped into the value.
 */
import type { Kafka as KafkaClient } from 'kafkajs';
import { deleteGroups } from './kafka.js';
import { isDropped } from './workload.js';

/** Result of reading back one output topic. */
export interface VerifyResult {
  ok: boolean;
  /** Records read. */
  count: number;
  expected: number;
  duplicates: number;
  /** Expected ids never read. */
  missing: number;
  /** Ids that are not expected at all (filtered or out of range). */
  unexpected: number;
  /** Why the check failed, when it did. */
  reason?: string;
  /** Latencies in ms (output append time - processing time), one per record read. */
  latenciesMs: Float64Array;
}

/**
 * Reads `topic` from the beginning with isolation read_committed until `expected`
 * records arrived and nothing more came for `quietMs`, or nothing came for
 * `idleMs`, or `timeoutMs` passed.
 */
export async function verifyOutput(
  kafka: KafkaClient,
  topic: string,
  records: number,
  expected: number,
  { quietMs = 500, idleMs = 8000, timeoutMs = 60_000 + records / 10 } = {},
): Promise<VerifyResult> {
  const seen = new Uint8Array(records);
  const latencies = new Float64Array(expected * 2);
  let count = 0;
  let duplicates = 0;
  let unexpected = 0;
  let lastArrival = Date.now();
  const groupId = `${topic}-verify-${process.pid}-${Date.now()}`;
  const consumer = kafka.consumer({
    groupId,
    readUncommitted: false,
    maxBytesPerPartition: 8 * 1024 * 1024,
    maxBytes: 64 * 1024 * 1024,
    maxWaitTimeInMs: 200,
  });
  await consumer.connect();
  const started = Date.now();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        for (const m of batch.messages) {
          const value = m.value ? (JSON.parse(m.value.toString('utf8')) as { id: number; pt: number }) : undefined;
          const id = value?.id ?? -1;
          if (id < 0 || id >= records || isDropped(id)) unexpected++;
          else if (seen[id] === 1) duplicates++;
          else seen[id] = 1;
          if (value && count < latencies.length) latencies[count] = Number(m.timestamp) - value.pt;
          count++;
        }
        if (batch.messages.length > 0) lastArrival = Date.now();
      },
    });
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      const now = Date.now();
      if (count >= expected && now - lastArrival >= quietMs) break;
      if (now - lastArrival >= idleMs && now - started >= idleMs) break;
      if (now - started >= timeoutMs) break;
    }
  } finally {
    await consumer.disconnect().catch(() => undefined);
    await deleteGroups(kafka, [groupId]);
  }
  const reasons: string[] = [];
  const missing = expected - (count - duplicates - unexpected);
  if (count !== expected) reasons.push(`read ${count} records, expected ${expected}`);
  if (missing > 0) reasons.push(`${missing} missing`);
  if (duplicates > 0) reasons.push(`${duplicates} duplicates`);
  if (unexpected > 0) reasons.push(`${unexpected} unexpected ids`);
  const ok = reasons.length === 0;
  return {
    ok,
    count,
    expected,
    duplicates,
    missing,
    unexpected,
    ...(ok ? {} : { reason: reasons.join(', ') }),
    latenciesMs: latencies.subarray(0, Math.min(count, latencies.length)),
  };
}
