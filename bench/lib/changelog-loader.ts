/**
 * Writes the restore workload's changelog (./stateful-workload.ts) the way an
 * exactly-once application leaves one: records inside transactions of
 * TXN_RECORDS records each, so the topic holds commit markers between them
 * and a restoring reader must read it read_committed and skip the markers.
 */
import type { Kafka as KafkaClient, Message } from 'kafkajs';
import { withAdmin } from './kafka.js';
import { changelogValue, statefulKeyOf } from './stateful-workload.js';
import { PARTITIONS } from './workload.js';

/** Records per transaction (an EOS app committing every ~100 ms at ~100,000 records/s). */
const TXN_RECORDS = 10_000;
/** Transactional producers writing at once (each its own transactional id, as per-task producers). */
const PRODUCERS = 4;

/**
 * Creates `topic` as a store changelog (8 partitions, `cleanup.policy=compact`;
 * `min.compaction.lag.ms` of a day so that the log cleaner cannot shrink it
 * while the contenders restore it: every contender restores all `records`).
 */
export async function createChangelogTopic(kafka: KafkaClient, topic: string): Promise<void> {
  await withAdmin(kafka, async (admin) => {
    await admin.createTopics({
      topics: [{
        topic, numPartitions: PARTITIONS, replicationFactor: 1,
        configEntries: [{ name: 'cleanup.policy', value: 'compact' }, { name: 'min.compaction.lag.ms', value: String(86_400_000) }],
      }],
      waitForLeaders: true,
    });
    // Wait until every partition has a leader that answers (bounded: 30 s), as createRunTopics does.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const offsets = await admin.fetchTopicOffsets(topic).catch((err: unknown) => {
        if (Date.now() > deadline) throw err;
        return [];
      });
      if (offsets.length === PARTITIONS) return;
      if (Date.now() > deadline) throw new Error(`topic ${topic} has no leaders after 30 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });
}

/**
 * Writes records 0..records-1 (key `k<i mod keys>`, partition i mod 8, the
 * ~100-byte value) into `topic`, committed transactions of TXN_RECORDS records.
 * @returns elapsed milliseconds
 */
export async function loadChangelog(kafka: KafkaClient, topic: string, records: number, keys: number): Promise<number> {
  const started = Date.now();
  let next = 0;
  const worker = async (w: number): Promise<void> => {
    const producer = kafka.producer({ transactionalId: `${topic}-loader-${w}`, idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
    await producer.connect();
    try {
      while (next < records) {
        const from = next;
        const to = Math.min(records, from + TXN_RECORDS);
        next = to;
        const messages: Message[] = [];
        const timestamp = String(Date.now());
        for (let id = from; id < to; id++) messages.push({ key: statefulKeyOf(id, keys), value: changelogValue(id, keys), partition: id % PARTITIONS, timestamp });
        const txn = await producer.transaction();
        try {
          await txn.send({ topic, acks: -1, messages });
          await txn.commit();
        } catch (err) {
          await txn.abort().catch(() => undefined);
          throw err;
        }
      }
    } finally {
      await producer.disconnect().catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: PRODUCERS }, (_, w) => worker(w)));
  return Date.now() - started;
}
