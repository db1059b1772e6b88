/** Topic helpers on a real Kafka through kafkajs: create, end offsets, read everything. */
import type { IHeaders, ITopicConfig, KafkaConfig } from 'kafkajs';
import { quietKafka } from './clients.js';
import { uniqueGroup } from './names.js';
import { waitFor } from './wait-for.js';

/** Options of {@link createTopic}. */
export interface CreateTopicOptions {
  /** Number of partitions (default 1). */
  partitions?: number;
  /** Topic configs, e.g. `{ 'cleanup.policy': 'compact', 'max.message.bytes': '2048' }`. */
  config?: Record<string, string>;
  /** Replication factor (default 1). */
  replicationFactor?: number;
  /** Extra kafkajs options (ssl, sasl) for a secure broker. */
  client?: Partial<KafkaConfig>;
}

/**
 * Creates `name` and waits until the broker's metadata shows a leader for every
 * partition (tolerating KRaft's metadata propagation lag). Resolves with the name.
 * Throws when the topic exists already (names should come from `uniqueTopic`).
 */
export async function createTopic(brokers: string[], name: string, options: CreateTopicOptions = {}): Promise<string> {
  const admin = quietKafka(brokers, options.client).admin();
  await admin.connect();
  try {
    const topic: ITopicConfig = {
      topic: name,
      numPartitions: options.partitions ?? 1,
      replicationFactor: options.replicationFactor ?? 1,
      configEntries: Object.entries(options.config ?? {}).map(([n, value]) => ({ name: n, value })),
    };
    let created: boolean;
    try {
      created = await admin.createTopics({ topics: [topic], waitForLeaders: true, timeout: 15_000 });
    } catch (err) {
      // KRaft: CreateTopics can answer before this broker's metadata cache knows the topic, and
      // kafkajs' waitForLeaders retries LEADER_NOT_AVAILABLE only. The topic exists: wait for it.
      if ((err as { type?: string }).type !== 'UNKNOWN_TOPIC_OR_PARTITION') throw err;
      created = true;
    }
    if (!created) throw new Error(`topic ${name} exists already`);
    await waitFor(async () => {
      const [meta] = (await admin.fetchTopicMetadata({ topics: [name] })).topics;
      return meta !== undefined && meta.partitions.length === topic.numPartitions && meta.partitions.every((p) => p.leader >= 0);
    }, { timeoutMs: 15_000, message: `leaders of the ${topic.numPartitions} partition(s) of ${name}` });
    return name;
  } finally {
    await admin.disconnect();
  }
}

/** Read isolation: `read_committed` hides aborted and open transactions. */
export type Isolation = 'read_committed' | 'read_uncommitted';

/** Start and end offset of one partition. */
export interface PartitionRange {
  partition: number;
  /** Log start offset. */
  low: number;
  /** Last stable offset (read_committed) or high watermark (read_uncommitted). */
  high: number;
}

const CREATE_CLUSTER = 'private:Kafka:createCluster';

/**
 * Offsets of every partition of `topic` as seen by a reader with `isolation`:
 * `high` is the last stable offset for read_committed, the high watermark for
 * read_uncommitted (kafkajs' admin only asks for the former, so this uses a
 * kafkajs cluster created with the wanted isolation level).
 */
export async function endOffsets(brokers: string[], topic: string, isolation: Isolation = 'read_committed', client?: Partial<KafkaConfig>): Promise<PartitionRange[]> {
  const kafka = quietKafka(brokers, client) as unknown as Record<symbol, unknown>;
  const symbol = Object.getOwnPropertySymbols(kafka).find((s) => s.description === CREATE_CLUSTER);
  if (!symbol) throw new Error('kafkajs internals changed: cannot create a cluster with an isolation level');
  const isolationLevel = isolation === 'read_committed' ? 1 : 0; // kafkajs ISOLATION_LEVEL values
  const cluster = (kafka[symbol] as (o: object) => any)({ isolationLevel, allowAutoTopicCreation: false });
  await cluster.connect();
  try {
    await cluster.addTargetTopic(topic);
    await cluster.refreshMetadata();
    const partitions = cluster.findTopicPartitionMetadata(topic).map((p: { partitionId: number }) => ({ partition: p.partitionId }));
    const fetch = async (fromBeginning: boolean) => {
      const [result] = await cluster.fetchTopicsOffset([{ topic, fromBeginning, partitions }]);
      return new Map<number, number>(result.partitions.map((p: { partition: number; offset: string }) => [p.partition, Number(p.offset)]));
    };
    const low = await fetch(true);
    const high = await fetch(false);
    return [...high.keys()].sort((a, b) => a - b).map((p) => ({ partition: p, low: low.get(p) ?? 0, high: high.get(p) ?? 0 }));
  } finally {
    await cluster.disconnect();
  }
}

/** A record read back from Kafka. */
export interface ReadRecord {
  topic: string;
  partition: number;
  offset: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: IHeaders;
  timestamp: number;
}

/** Options of {@link readAll}. */
export interface ReadAllOptions {
  /** Default `read_committed`. */
  isolation?: Isolation;
  /** Give up after this long (default 20 000 ms). */
  timeoutMs?: number;
  /** Extra kafkajs options (ssl, sasl) for a secure broker. */
  client?: Partial<KafkaConfig>;
}

/**
 * Every record of `topic` a reader with `isolation` sees, up to the end offsets
 * captured when the call starts (records produced later may or may not be
 * included), sorted by partition then offset. Uses a kafkajs consumer with a
 * unique group; stops once its position reached every end offset (control
 * records and aborted records count toward the position but are not returned).
 *
 * Transaction markers are written after `commit()`/`abort()` resolve, so the
 * last stable offset lags a commit by a few milliseconds: right after a commit,
 * wrap the read in {@link waitFor} until the expected records are there.
 */
export async function readAll(brokers: string[], topic: string, options: ReadAllOptions = {}): Promise<ReadRecord[]> {
  const isolation = options.isolation ?? 'read_committed';
  const timeoutMs = options.timeoutMs ?? 20_000;
  const ranges = await endOffsets(brokers, topic, isolation, options.client);
  const pending = new Map(ranges.filter((r) => r.high > r.low).map((r) => [r.partition, r.high]));
  if (pending.size === 0) return [];

  const consumer = quietKafka(brokers, options.client).consumer({
    groupId: uniqueGroup('read-all'),
    readUncommitted: isolation === 'read_uncommitted',
    maxWaitTimeInMs: 100,
    allowAutoTopicCreation: false,
  });
  const records: ReadRecord[] = [];
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const advance = (partition: number, nextOffset: number) => {
    const end = pending.get(partition);
    if (end !== undefined && nextOffset >= end) {
      pending.delete(partition);
      if (pending.size === 0) done();
    }
  };
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
    if (payload.topic === topic) advance(payload.partition, Number(payload.lastOffset) + 1);
  });
  await consumer.connect();
  let timer: NodeJS.Timeout | undefined;
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ partition, message }) => {
        const offset = Number(message.offset);
        const end = ranges.find((r) => r.partition === partition)?.high ?? 0;
        if (offset < end) {
          records.push({ topic, partition, offset, key: message.key, value: message.value, headers: message.headers ?? {}, timestamp: Number(message.timestamp) });
        }
      },
    });
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const left = [...pending].map(([p, end]) => `partition ${p} (end ${end})`).join(', ');
        reject(new Error(`readAll(${topic}, ${isolation}) timed out after ${timeoutMs} ms; not reached: ${left}`));
      }, timeoutMs);
    });
    await Promise.race([finished, timeout]);
  } finally {
    clearTimeout(timer);
    await consumer.disconnect();
  }
  return records.sort((a, b) => a.partition - b.partition || a.offset - b.offset);
}
