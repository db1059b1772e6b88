// Leaders, replicas and ISRs of a (multi-broker) cluster, read with a fresh Metadata
// request each call, and where Kafka keeps a transactional id's state.
import kafkajs from 'kafkajs';
import { sleep } from './process.mjs';

const { Kafka, logLevel } = kafkajs;

async function withAdmin(brokers, fn) {
  const kafka = new Kafka({ clientId: 'sluice-cluster-metadata', brokers, logLevel: logLevel.NOTHING, connectionTimeout: 1000, requestTimeout: 3000, retry: { retries: 2, initialRetryTime: 100, maxRetryTime: 500 } });
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

/** Node ids of the brokers the cluster metadata lists (registered and not fenced). */
export async function clusterBrokerIds(brokers) {
  return withAdmin(brokers, async (admin) => (await admin.describeCluster()).brokers.map((b) => b.nodeId).sort((a, b) => a - b));
}

/**
 * Per partition of each topic (every topic, internal ones included, when `topics` is empty):
 * leader (-1 when none), replicas and ISR.
 * @returns {Promise<{ topic: string, partition: number, leader: number, replicas: number[], isr: number[] }[]>}
 */
export async function partitionStates(brokers, topics = []) {
  return withAdmin(brokers, async (admin) => {
    const { topics: metadata } = await admin.fetchTopicMetadata({ topics });
    return metadata.flatMap((t) => t.partitions.map((p) => ({ topic: t.name, partition: p.partitionId, leader: p.leader, replicas: [...p.replicas].sort(), isr: [...p.isr].sort() })));
  });
}

/** The leader's node id of `topic`-`partition` (-1 when it has none). */
export async function partitionLeader(brokers, topic, partition) {
  const state = (await partitionStates(brokers, [topic])).find((p) => p.partition === partition);
  if (!state) throw new Error(`no partition ${partition} of topic '${topic}'`);
  return state.leader;
}

/**
 * Waits until `topic`-`partition` has a leader other than `previous` (after a kill); resolves
 * with the new leader and the wait in ms.
 */
export async function waitForNewLeader(brokers, topic, partition, previous, { timeoutMs = 60_000, intervalMs = 100 } = {}) {
  const began = Date.now();
  for (;;) {
    const leader = await partitionLeader(brokers, topic, partition).catch(() => -1);
    if (leader >= 0 && leader !== previous) return { leader, waitedMs: Date.now() - began };
    if (Date.now() - began > timeoutMs) throw new Error(`${topic}-${partition}: no new leader (other than ${previous}) within ${timeoutMs} ms`);
    await sleep(intervalMs);
  }
}

/**
 * Waits until every partition (of `topics`, else of every topic) has its whole replica set in
 * sync: after a node comes back, before the next one may die without a partition going offline.
 */
export async function waitForFullIsr(brokers, { topics = [], timeoutMs = 120_000, intervalMs = 250 } = {}) {
  const began = Date.now();
  for (;;) {
    const states = await partitionStates(brokers, topics).catch(() => undefined);
    const lagging = states?.filter((p) => p.isr.length < p.replicas.length || p.leader < 0);
    if (lagging && lagging.length === 0) return { waitedMs: Date.now() - began };
    if (Date.now() - began > timeoutMs) {
      const sample = (lagging ?? []).slice(0, 5).map((p) => `${p.topic}-${p.partition} isr [${p.isr}] of [${p.replicas}]`).join(', ');
      throw new Error(`replicas not all in sync within ${timeoutMs} ms: ${sample || 'metadata unavailable'}`);
    }
    await sleep(intervalMs);
  }
}

/** Java's `String.hashCode()` of `s` (UTF-16 code units, 32-bit overflow). */
export function javaStringHashCode(s) {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * The `__transaction_state` partition of a transactional id: Kafka's
 * `TransactionStateManager.partitionFor` = `Utils.abs(transactionalId.hashCode()) % partitions`
 * (`Utils.abs` maps Integer.MIN_VALUE to 0).
 */
export function transactionStatePartition(transactionalId, partitions = 10) {
  const h = javaStringHashCode(transactionalId);
  return (h === -2147483648 ? 0 : Math.abs(h)) % partitions;
}

/** The `__consumer_offsets` partition of a group id (same rule as {@link transactionStatePartition}). */
export function groupCoordinatorPartition(groupId, partitions = 10) {
  return transactionStatePartition(groupId, partitions);
}
