/** kafkajs helpers of the benchmark runner: client, topics, committed offsets. */
import kafkajs from 'kafkajs';
import type { Admin, Kafka as KafkaClient } from 'kafkajs';
import { PARTITIONS } from './workload.js';

const { Kafka, logLevel } = kafkajs;

/** A quiet kafkajs client for `brokers`. */
export function kafkaClient(brokers: string[], clientId = 'sluice-bench'): KafkaClient {
  return new Kafka({
    clientId,
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 5000,
    requestTimeout: 30_000,
    retry: { retries: 8, initialRetryTime: 100 },
  });
}

/** Runs `fn` with a connected admin client and disconnects afterwards. */
export async function withAdmin<T>(kafka: KafkaClient, fn: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/**
 * Creates the input and output topics of one contender run (8 partitions each).
 * The output topic uses LogAppendTime so that an output record's timestamp is
 * the broker's append time (the latency measure, docs/benchmarks.md).
 */
export async function createRunTopics(kafka: KafkaClient, input: string, output: string | undefined): Promise<void> {
  await withAdmin(kafka, async (admin) => {
    const topics = [{ topic: input, numPartitions: PARTITIONS, replicationFactor: 1 }];
    if (output) {
      topics.push({
        topic: output,
        numPartitions: PARTITIONS,
        replicationFactor: 1,
        configEntries: [{ name: 'message.timestamp.type', value: 'LogAppendTime' }],
      } as (typeof topics)[number]);
    }
    await admin.createTopics({ topics, waitForLeaders: false });
    // Wait until every partition has a leader that answers (bounded: 30 s).
    const deadline = Date.now() + 30_000;
    for (const { topic } of topics) {
      for (;;) {
        try {
          const offsets = await admin.fetchTopicOffsets(topic);
          if (offsets.length === PARTITIONS) break;
        } catch (err) {
          if (Date.now() > deadline) throw err;
        }
        if (Date.now() > deadline) throw new Error(`topic ${topic} has no leaders after 30 s`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  });
}

/** Deletes topics, ignoring failures (best effort cleanup). */
export async function deleteTopics(kafka: KafkaClient, topics: string[]): Promise<void> {
  await withAdmin(kafka, (admin) => admin.deleteTopics({ topics, timeout: 10_000 })).catch(() => undefined);
}

/** Deletes every topic whose name starts with `prefix` (e.g. an application's changelogs), ignoring failures. */
export async function deleteTopicsWithPrefix(kafka: KafkaClient, prefix: string): Promise<void> {
  await withAdmin(kafka, async (admin) => {
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 10_000 });
  }).catch(() => undefined);
}

/** Deletes consumer groups, ignoring failures (best effort cleanup). */
export async function deleteGroups(kafka: KafkaClient, groups: string[]): Promise<void> {
  await withAdmin(kafka, (admin) => admin.deleteGroups(groups)).catch(() => undefined);
}

/**
 * Deletes every topic and consumer group whose name starts with `prefix` (this
 * run's leftovers: a group whose member left without leaving the group can only
 * be deleted after its session timed out). Retries until `timeoutMs`.
 */
export async function deleteAllWithPrefix(kafka: KafkaClient, prefix: string, timeoutMs = 40_000): Promise<{ topics: number; groups: number }> {
  const deadline = Date.now() + timeoutMs;
  let left = { topics: 0, groups: 0 };
  await withAdmin(kafka, async (admin) => {
    for (;;) {
      const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
      const groups = (await admin.listGroups()).groups.map((g) => g.groupId).filter((g) => g.startsWith(prefix));
      left = { topics: topics.length, groups: groups.length };
      if (topics.length === 0 && groups.length === 0) return;
      if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 10_000 }).catch(() => undefined);
      if (groups.length > 0) await admin.deleteGroups(groups).catch(() => undefined);
      if (Date.now() > deadline) return;
      await new Promise((r) => setTimeout(r, 2000));
    }
  }).catch(() => undefined);
  return left;
}

/** Sum of the committed offsets of `groupId` on `topic` (partitions without a commit count 0). */
export async function committedTotal(admin: Admin, groupId: string, topic: string): Promise<number> {
  const res = await admin.fetchOffsets({ groupId, topics: [topic] });
  let total = 0;
  for (const t of res) for (const p of t.partitions) total += Math.max(0, Number(p.offset));
  return total;
}

/** Committed offsets of `groupId` on `topic`, partition → offset (-1: no commit yet). */
export async function committedOffsets(admin: Admin, groupId: string, topic: string): Promise<Map<number, number>> {
  const res = await admin.fetchOffsets({ groupId, topics: [topic] });
  const offsets = new Map<number, number>();
  for (const t of res) for (const p of t.partitions) offsets.set(p.partition, Number(p.offset));
  return offsets;
}

/** Sum of the high watermarks of `topic` (records appended, transaction markers included). */
export async function endOffsetTotal(admin: Admin, topic: string): Promise<number> {
  const res = await admin.fetchTopicOffsets(topic);
  return res.reduce((sum, p) => sum + Number(p.high), 0);
}

/** True when a cluster at `brokers` answers a metadata request within `timeoutMs`. */
export async function clusterAnswers(brokers: string[], timeoutMs = 3000): Promise<boolean> {
  const kafka = new Kafka({
    clientId: 'sluice-bench-probe',
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: timeoutMs,
    requestTimeout: timeoutMs,
    retry: { retries: 0 },
  });
  try {
    await withAdmin(kafka, (admin) => admin.listTopics());
    return true;
  } catch {
    return false;
  }
}
