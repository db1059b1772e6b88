/**
 * Output check: what a read_committed reader sees of a contender's output
 * topic, complete and duplicate-free, before the run's figure counts. Also the
 * latency of every visible output record: its timestamp (LogAppendTime of the
 * output topic) minus the processing time `pt` the pipeline stamped into it.
 *
 * Read_committed is computed from the transaction markers of a
 * read_uncommitted read (a transactional record is visible iff the next
 * control record of its producer on that partition is a COMMIT), not with
 * kafkajs' own read_committed: kafkajs 2.2.4 `filterAbortedMessages` leaks
 * records of aborted transactions when transactions of several producers
 * interleave on a partition (sluice has one producer per task). Records whose
 * transaction marker is never seen count as not visible (a conservative check:
 * it can fail a good run, never pass a bad one).
 */
import type { Kafka as KafkaClient } from 'kafkajs';
import { deleteGroups, withAdmin } from './kafka.js';
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

interface RawMessage {
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  timestamp: string;
  isControlRecord?: boolean;
  batchContext?: { producerId?: string; inTransaction?: boolean };
}

/** Reads `topic` (everything below its current end offsets) and checks ids 0..records-1 minus the filtered ones. */
export async function verifyOutput(
  kafka: KafkaClient, topic: string, records: number, expected: number, { timeoutMs = 60_000 + records / 10 } = {},
): Promise<VerifyResult> {
  const ends = await withAdmin(kafka, (admin) => admin.fetchTopicOffsets(topic));
  const high = new Map(ends.map((e) => [e.partition, Number(e.high)]));
  const next = new Map(ends.map((e) => [e.partition, 0]));
  const open = new Map<string, Array<[number, number]>>(); // `${partition}/${producerId}` -> [id, latency]
  const seen = new Uint8Array(records);
  const latencies = new Float64Array(expected * 2);
  let count = 0;
  let duplicates = 0;
  let unexpected = 0;
  let aborted = 0;
  const visible = (id: number, latency: number): void => {
    if (id < 0 || id >= records || isDropped(id)) unexpected++;
    else if (seen[id] === 1) duplicates++;
    else seen[id] = 1;
    if (count < latencies.length) latencies[count] = latency;
    count++;
  };
  const done = (): boolean => [...high].every(([p, h]) => (next.get(p) ?? 0) >= h);
  const groupId = `${topic}-verify-${process.pid}-${Date.now()}`;
  const consumer = kafka.consumer({ groupId, readUncommitted: true, maxBytesPerPartition: 64 * 1024 * 1024, maxBytes: 256 * 1024 * 1024, maxWaitTimeInMs: 200 });
  await consumer.connect();
  // Batches holding only control records never reach eachBatch; their end offset does reach this event.
  consumer.on(consumer.events.END_BATCH_PROCESS, (e) => {
    const { partition, lastOffset } = e.payload as { partition: number; lastOffset: string };
    const last = Number(lastOffset);
    if (last + 1 > (next.get(partition) ?? 0)) next.set(partition, last + 1);
  });
  const started = Date.now();
  try {
    if (!done()) {
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        eachBatch: async ({ batch }) => {
          const raw = (batch as unknown as { rawMessages?: RawMessage[] }).rawMessages ?? [];
          for (const m of raw) {
            const offset = Number(m.offset);
            if (offset < (next.get(batch.partition) ?? 0) || offset >= (high.get(batch.partition) ?? 0)) continue;
            next.set(batch.partition, offset + 1);
            const key = `${batch.partition}/${m.batchContext?.producerId ?? ''}`;
            if (m.isControlRecord) {
              const pending = open.get(key) ?? [];
              open.delete(key);
              if (m.key !== null && m.key.length >= 4 && m.key.readInt16BE(2) === 1) for (const [id, lat] of pending) visible(id, lat);
              else aborted += pending.length;
              continue;
            }
            const value = m.value ? (JSON.parse(m.value.toString('utf8')) as { id: number; pt: number }) : undefined;
            const entry: [number, number] = [value?.id ?? -1, value ? Number(m.timestamp) - value.pt : Number.NaN];
            if (m.batchContext?.inTransaction) (open.get(key) ?? open.set(key, []).get(key)!).push(entry);
            else visible(entry[0], entry[1]);
          }
        },
      });
      while (!done() && Date.now() - started < timeoutMs) await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await consumer.disconnect().catch(() => undefined);
    await deleteGroups(kafka, [groupId]);
  }
  const undecided = [...open.values()].reduce((n, list) => n + list.length, 0);
  const reasons: string[] = [];
  const missing = expected - (count - duplicates - unexpected);
  if (!done()) reasons.push(`read stopped after ${timeoutMs} ms before the end of the topic`);
  if (count !== expected) reasons.push(`read ${count} visible records, expected ${expected}`);
  if (missing > 0) reasons.push(`${missing} missing`);
  if (duplicates > 0) reasons.push(`${duplicates} duplicates`);
  if (unexpected > 0) reasons.push(`${unexpected} unexpected ids`);
  if (undecided > 0) reasons.push(`${undecided} records in transactions without a marker`);
  const ok = reasons.length === 0;
  return {
    ok, count, expected, duplicates, missing, unexpected, aborted,
    ...(ok ? {} : { reason: reasons.join(', ') }),
    latenciesMs: latencies.subarray(0, Math.min(count, latencies.length)),
  };
}
