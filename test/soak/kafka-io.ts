/**
 * Kafka I/O of the soak driver and verifier, on plain kafkajs (not sluice's
 * patched copy: the verifier reads with its own code, independent of the code
 * under test). No vitest import: the soak also runs as a CLI.
 */
import kafkajs, { type Admin, type Kafka } from 'kafkajs';
import { randomBytes } from 'node:crypto';

const { logLevel } = kafkajs;

/** A quiet kafkajs client with patient retries (the broker may be restarting). */
export function soakKafka(brokers: string[]): Kafka {
  return new kafkajs.Kafka({
    clientId: `soak-${process.pid}-${randomBytes(3).toString('hex')}`,
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 3000,
    retry: { retries: 10, initialRetryTime: 200, maxRetryTime: 3000 },
  });
}

/** Runs `fn` with a connected admin client. */
export async function withAdmin<T>(brokers: string[], fn: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = soakKafka(brokers).admin();
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** Creates `topics` with `partitions` partitions each and waits for their leaders. */
export async function createTopics(brokers: string[], topics: string[], partitions: number): Promise<void> {
  await withAdmin(brokers, async (admin) => {
    await admin.createTopics({ topics: topics.map((topic) => ({ topic, numPartitions: partitions, replicationFactor: 1 })), waitForLeaders: true, timeout: 15_000 }).catch((error: { type?: string }) => {
      if (error.type !== 'UNKNOWN_TOPIC_OR_PARTITION' && error.type !== 'TOPIC_ALREADY_EXISTS') throw error;
    });
    await poll(async () => {
      const { topics: meta } = await admin.fetchTopicMetadata({ topics });
      return meta.length === topics.length && meta.every((t) => t.partitions.length === partitions && t.partitions.every((p) => p.leader >= 0));
    }, 30_000, `leaders of ${topics.join(', ')}`);
  });
}

/** Topic names on the cluster starting with `prefix`. */
export async function topicsWithPrefix(brokers: string[], prefix: string): Promise<string[]> {
  return withAdmin(brokers, async (admin) => (await admin.listTopics()).filter((t) => t.startsWith(prefix)).sort());
}

const CREATE_CLUSTER = 'private:Kafka:createCluster';

/**
 * End offset per partition of `topic` for a reader with `isolation`: the last
 * stable offset (read_committed) or the high watermark (read_uncommitted).
 * kafkajs' admin only asks for one of them, so this uses a kafkajs cluster
 * created with the wanted isolation level.
 */
export async function endOffsets(brokers: string[], topic: string, isolation: 'read_committed' | 'read_uncommitted'): Promise<number[]> {
  const kafka = soakKafka(brokers) as unknown as Record<symbol, unknown>;
  const symbol = Object.getOwnPropertySymbols(kafka).find((s) => s.description === CREATE_CLUSTER);
  if (!symbol) throw new Error('kafkajs internals changed: cannot create a cluster with an isolation level');
  type Cluster = {
    connect(): Promise<void>; disconnect(): Promise<void>; addTargetTopic(t: string): Promise<void>; refreshMetadata(): Promise<void>;
    findTopicPartitionMetadata(t: string): { partitionId: number }[];
    fetchTopicsOffset(q: object[]): Promise<{ partitions: { partition: number; offset: string }[] }[]>;
  };
  const cluster = (kafka[symbol] as (o: object) => Cluster)({ isolationLevel: isolation === 'read_committed' ? 1 : 0, allowAutoTopicCreation: false });
  await cluster.connect();
  try {
    await cluster.addTargetTopic(topic);
    await cluster.refreshMetadata();
    const partitions = cluster.findTopicPartitionMetadata(topic).map((p) => ({ partition: p.partitionId }));
    const [result] = await cluster.fetchTopicsOffset([{ topic, fromBeginning: false, partitions }]);
    const ends: number[] = [];
    for (const p of result?.partitions ?? []) ends[p.partition] = Number(p.offset);
    return ends;
  } finally {
    await cluster.disconnect().catch(() => undefined);
  }
}

/** The group's committed offset per partition of `topic` (-1: none). */
export async function committedOffsets(brokers: string[], groupId: string, topic: string): Promise<number[]> {
  return withAdmin(brokers, async (admin) => {
    const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
    const offsets: number[] = [];
    for (const p of entry?.partitions ?? []) offsets[p.partition] = Number(p.offset);
    return offsets;
  });
}

/** Members of the consumer group `groupId` (0 once every worker left). */
export async function groupMemberCount(brokers: string[], groupId: string): Promise<number> {
  return withAdmin(brokers, async (admin) => (await admin.describeGroups([groupId])).groups[0]?.members.length ?? 0);
}

/** A data record as a read_committed reader sees it. */
export interface SoakRecord {
  partition: number;
  offset: number;
  key: string;
  /** The 8-byte big-endian long value (`Serdes.Long()`), or `null` for a tombstone / other width. */
  value: number | null;
}

/** What {@link readCommitted} found on a topic. */
export interface CommittedRead {
  /** Visible records per partition, in offset order. */
  partitions: SoakRecord[][];
  /** Transactional records with no marker yet (an open transaction), per partition. */
  open: number[];
  /** Records of aborted transactions (hidden from read_committed readers). */
  aborted: number;
}

interface RawMessage {
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  isControlRecord?: boolean;
  batchContext?: { producerId: string; inTransaction: boolean };
}

function decodeLong(value: Buffer | null): number | null {
  return value !== null && value.length === 8 ? Number(value.readBigInt64BE(0)) : null;
}

/**
 * Everything up to the high watermark of every partition of `topic`, and what a
 * read_committed reader sees of it, decided from the transaction markers (a
 * transactional record is visible iff its producer's next marker on that
 * partition is a COMMIT), as the broker's read_committed semantics define it.
 * Reads read_uncommitted; fails after `timeoutMs` naming the partitions not read to the end.
 */
export async function readCommitted(brokers: string[], topic: string, timeoutMs: number): Promise<CommittedRead> {
  const high = await endOffsets(brokers, topic, 'read_uncommitted');
  const raw = high.map(() => new Map<number, RawMessage>());
  const reached: number[] = high.map((h) => (h === 0 ? 0 : -1));
  const done = () => high.every((h, p) => h === 0 || reached[p]! >= h - 1);
  if (!done()) {
    const consumer = soakKafka(brokers).consumer({
      groupId: `soak-reader-${process.pid}-${randomBytes(4).toString('hex')}`,
      readUncommitted: true,
      maxBytesPerPartition: 4 * 1024 * 1024,
      maxWaitTimeInMs: 200,
    });
    await consumer.connect();
    try {
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachBatch: async ({ batch }) => {
          const messages = (batch as unknown as { rawMessages?: RawMessage[] }).rawMessages ?? [];
          const map = raw[batch.partition]!;
          for (const m of messages) {
            const offset = Number(m.offset);
            map.set(offset, m);
            if (offset > reached[batch.partition]!) reached[batch.partition] = offset;
          }
          const last = Number(batch.lastOffset());
          if (last > reached[batch.partition]!) reached[batch.partition] = last;
        },
      });
      await poll(async () => done(), timeoutMs, () => `reading ${topic} to its end (${high.map((h, p) => `p${p} ${reached[p]! + 1}/${h}`).join(', ')})`);
    } finally {
      await consumer.disconnect().catch(() => undefined);
    }
  }
  const result: CommittedRead = { partitions: [], open: [], aborted: 0 };
  for (let p = 0; p < high.length; p++) {
    const visible: SoakRecord[] = [];
    const pending = new Map<string, RawMessage[]>();
    for (const [offset, m] of [...raw[p]!.entries()].sort((a, b) => a[0] - b[0])) {
      if (offset >= high[p]!) continue;
      const producer = m.batchContext?.producerId ?? '';
      if (m.isControlRecord) {
        const commit = m.key !== null && m.key.length >= 4 && m.key.readInt16BE(2) === 1;
        const records = pending.get(producer) ?? [];
        if (commit) for (const r of records) visible.push({ partition: p, offset: Number(r.offset), key: r.key?.toString() ?? '', value: decodeLong(r.value) });
        else result.aborted += records.length;
        pending.delete(producer);
      } else if (m.batchContext?.inTransaction) {
        (pending.get(producer) ?? pending.set(producer, []).get(producer)!).push(m);
      } else {
        visible.push({ partition: p, offset, key: m.key?.toString() ?? '', value: decodeLong(m.value) });
      }
    }
    visible.sort((a, b) => a.offset - b.offset);
    result.partitions.push(visible);
    result.open.push([...pending.values()].reduce((n, r) => n + r.length, 0));
  }
  return result;
}

/** Polls `predicate` every 250 ms until true; throws `waiting for <what>` after `timeoutMs`. */
export async function poll(predicate: () => Promise<boolean> | boolean, timeoutMs: number, what: string | (() => string)): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      if (await predicate()) return;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const described = typeof what === 'function' ? what() : what;
      throw new Error(`soak: timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${described}${last instanceof Error ? ` (last error: ${last.message})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
