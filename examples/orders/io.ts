/**
 * Cluster I/O of the example through the cluster port, so the same code runs
 * on the embedded cluster and on real Kafka: producing the input, waiting for
 * the app to consume it, and reading committed outputs back.
 */
import type { ClusterPort, ConsumedRecord, WireRecord } from '../../src/cluster/port.js';
import { EmbeddedKafkaCluster } from '../../src/testing.js';
import type { GeneratedRecord } from './generator.js';

/** Produces the records (idempotent, non-transactional), one request per partition chunk. */
export async function produceRecords(cluster: ClusterPort, topic: string, records: GeneratedRecord[], chunk = 500): Promise<void> {
  const producer = cluster.producer({ clientId: 'orders-generator' });
  await producer.connect();
  try {
    const byPartition = new Map<number, WireRecord[]>();
    const now = Date.now();
    for (const r of records) {
      const list = byPartition.get(r.partition) ?? [];
      list.push({ key: r.key === null ? null : Buffer.from(r.key), value: Buffer.from(r.value), headers: {}, timestamp: now });
      byPartition.set(r.partition, list);
    }
    for (const [partition, list] of byPartition) {
      for (let i = 0; i < list.length; i += chunk) {
        await producer.produce({ topic, partition, records: list.slice(i, i + chunk) });
      }
    }
  } finally {
    await producer.close();
  }
}

/**
 * Resolves once the group's committed offsets reach the end offsets of `topic`
 * (the input is consumed and committed). Rejects after `timeoutMs` or as soon
 * as `failed()` returns an error.
 */
export async function waitUntilConsumed(
  cluster: ClusterPort,
  groupId: string,
  topic: string,
  options: { timeoutMs?: number; failed?: () => Error | undefined; pollMs?: number } = {},
): Promise<void> {
  const admin = cluster.admin();
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  try {
    for (;;) {
      const failure = options.failed?.();
      if (failure) throw failure;
      const [end, committed] = await Promise.all([admin.endOffsets(topic), admin.committedOffsets(groupId, topic)]);
      if (end.every((e, p) => (committed[p] ?? -1) >= e || (e === 0 && (committed[p] ?? -1) <= 0))) return;
      if (Date.now() > deadline) {
        throw new Error(`input ${topic} not consumed in time: committed ${JSON.stringify(committed)}, end ${JSON.stringify(end)}`);
      }
      await new Promise((r) => setTimeout(r, options.pollMs ?? 100));
    }
  } finally {
    await admin.close();
  }
}

/**
 * Every record of `topics` visible to a read_committed reader. On the embedded
 * cluster this reads the logs directly; on Kafka it consumes with a fresh group
 * until nothing new arrived for `idleMs`.
 */
export async function readCommitted(cluster: ClusterPort, topics: string[], idleMs = 3000): Promise<Map<string, ConsumedRecord[]>> {
  const out = new Map<string, ConsumedRecord[]>(topics.map((t) => [t, []]));
  if (cluster instanceof EmbeddedKafkaCluster) {
    for (const t of topics) out.set(t, await cluster.readCommitted(t));
    return out;
  }
  const consumer = cluster.consumer({
    groupId: `orders-reader-${process.pid}-${Date.now()}`,
    isolationLevel: 'read_committed',
    autoOffsetReset: 'earliest',
  });
  const start = Date.now();
  let last = start;
  let sawAny = false;
  await consumer.subscribe(topics);
  await consumer.run({
    onAssignment: async () => undefined,
    eachBatch: async (batch) => {
      out.get(batch.topic)?.push(...batch.records);
      if (batch.records.length > 0) {
        last = Date.now();
        sawAny = true;
      }
    },
  });
  try {
    while (sawAny ? Date.now() - last < idleMs : Date.now() - start < Math.max(15_000, idleMs)) await new Promise((r) => setTimeout(r, 200));
  } finally {
    await consumer.close();
  }
  return out;
}
