/**
 * Reads a topic from the beginning up to its current end offsets and hands
 * every record a `read_committed` reader would see to a callback, in offset
 * order per partition.
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

/** One record as the reader hands it to `decode`. */
export interface RawRecord {
  partition: number;
  offset: number;
  key: Buffer | null;
  value: Buffer | null;
  /** Record timestamp (ms; LogAppendTime on the benchmark's output topics). */
  timestamp: number;
}

/** What the read saw besides the visible records. */
export interface ReadSummary {
  /** False when the read stopped at `timeoutMs` before the end offsets. */
  complete: boolean;
  /** Records of aborted transactions (not visible). */
  aborted: number;
  /** Transactional records without a marker up to the end offsets (not visible). */
  undecided: number;
}

interface RawMessage {
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  timestamp: string;
  isControlRecord?: boolean;
  batchContext?: { producerId?: string; inTransaction?: boolean };
}

/**
 * Reads `topic` (everything below its end offsets at the time of the call):
 * every record is `decode`d as read, and handed to `visible` once it is known
 * to be visible (at once for a non-transactional record, at its COMMIT marker
 * for a transactional one), in offset order per partition.
 */
export async function readCommitted<T>(
  kafka: KafkaClient, topic: string, decode: (r: RawRecord) => T, visible: (item: T) => void, timeoutMs: number,
): Promise<ReadSummary> {
  const ends = await withAdmin(kafka, (admin) => admin.fetchTopicOffsets(topic));
  const high = new Map(ends.map((e) => [e.partition, Number(e.high)]));
  const next = new Map(ends.map((e) => [e.partition, 0]));
  const open = new Map<string, T[]>(); // `${partition}/${producerId}` -> decoded records of its open transaction
  let aborted = 0;
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
              if (m.key !== null && m.key.length >= 4 && m.key.readInt16BE(2) === 1) for (const item of pending) visible(item);
              else aborted += pending.length;
              continue;
            }
            const item = decode({ partition: batch.partition, offset, key: m.key, value: m.value, timestamp: Number(m.timestamp) });
            if (m.batchContext?.inTransaction) (open.get(key) ?? open.set(key, []).get(key)!).push(item);
            else visible(item);
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
  return { complete: done(), aborted, undecided };
}
