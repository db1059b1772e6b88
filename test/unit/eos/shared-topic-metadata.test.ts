import { afterEach, describe, expect, it, vi } from 'vitest';
import { EmbeddedKafkaCluster } from '../../../src/cluster/embedded/embedded-cluster.js';
import type { AdminPort } from '../../../src/cluster/port.js';
import { StreamsProducer } from '../../../src/eos/streams-producer.js';
import { TopicMetadataCache } from '../../../src/eos/topic-metadata.js';
import { TxnSendOption } from '../../../src/eos/txn-send-option.js';
import { TransactionAbortableError, UnknownTopicError } from '../../../src/errors.js';
import { TransactionalProducer } from '../../../src/runtime/transactional-producer.js';
import { spyOnAdmins } from '../../helpers/admin-spy.js';

const IGNORE = TxnSendOption.IGNORE_SEND_ERRORS;
const clusters: EmbeddedKafkaCluster[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(clusters.splice(0).map((c) => c.close()));
});

/** A cluster whose admin clients are counted, with their describeTopic and close calls. */
async function countingCluster(): Promise<{ cluster: EmbeddedKafkaCluster; admins: AdminPort[]; describes: string[]; closes: () => number }> {
  const cluster = new EmbeddedKafkaCluster();
  clusters.push(cluster);
  await cluster.createTopic('out', { partitions: 2 });
  return { cluster, ...spyOnAdmins(cluster) };
}

async function sendOne(p: StreamsProducer, value: string): Promise<void> {
  await p.initTransactions();
  p.beginTransaction();
  await p.send({ topic: 'out', key: 'k', value }, undefined, IGNORE);
  await p.commitTransaction();
}

describe('topic metadata shared by producers (issue 13)', () => {
  it('producers with a shared cache create no admin client, describe a topic once between them and leave the shared admin open', async () => {
    const { cluster, admins, describes, closes } = await countingCluster();
    const shared = cluster.admin();
    const metadata = new TopicMetadataCache(() => shared);
    const producers = ['tx-a', 'tx-b', 'tx-c'].map((transactionalId) => new StreamsProducer({ transactionalId, cluster, topicMetadata: metadata }));
    for (const [i, p] of producers.entries()) await sendOne(p, `v${i}`);
    await Promise.all(producers.map((p) => p.close()));
    expect(admins).toEqual([shared]); // no producer created one of its own
    expect(describes).toEqual(['out']);
    expect(closes()).toBe(0); // the shared admin stays open for the app
    expect(metadata.peek('out')?.partitions).toBe(2);
    expect((await cluster.readCommitted('out')).map((r) => r.value?.toString()).sort()).toEqual(['v0', 'v1', 'v2']);
  });

  it('each producer keeps its own maxBlockMs and stop error on a shared cache', async () => {
    const { cluster } = await countingCluster();
    const shared = cluster.admin();
    const metadata = new TopicMetadataCache(() => shared);
    const quick = new StreamsProducer({ transactionalId: 'tx-quick', cluster, topicMetadata: metadata, maxBlockMs: 200, retryBackoffMs: 10 });
    const slow = new StreamsProducer({ transactionalId: 'tx-slow', cluster, topicMetadata: metadata, maxBlockMs: 60_000, retryBackoffMs: 10 });
    const aborted = new StreamsProducer({ transactionalId: 'tx-abort', cluster, topicMetadata: metadata, maxBlockMs: 60_000, retryBackoffMs: 10 });
    for (const p of [quick, slow, aborted]) {
      await p.initTransactions();
      p.beginTransaction();
    }
    const started = Date.now();
    let slowSettled = false;
    const slowSend = slow.send({ topic: 'missing', key: 'k', value: 'v' }, undefined, IGNORE);
    slowSend.then(() => (slowSettled = true), () => (slowSettled = true));
    const abortedSend = aborted.send({ topic: 'missing', key: 'k', value: 'v' }, undefined, IGNORE);
    // the quick producer's own bound (200 ms) ends its lookup, not the others' 60 s
    await expect(quick.send({ topic: 'missing', key: 'k', value: 'v' }, undefined, IGNORE)).rejects.toBeInstanceOf(UnknownTopicError);
    expect(Date.now() - started).toBeLessThan(5_000);
    // one producer's abort stops its own lookup only
    await aborted.abortTransaction();
    await expect(abortedSend).rejects.toBeInstanceOf(TransactionAbortableError);
    await new Promise((r) => setTimeout(r, 50));
    expect(slowSettled).toBe(false);
    // the topic appears: the waiting producer's lookup finds it
    await cluster.createTopic('missing', { partitions: 1 });
    await expect(slowSend).resolves.toMatchObject({ topic: 'missing', partition: 0 });
    await Promise.all([quick.close(), slow.close(), aborted.close()]);
  });

  it('a standalone TransactionalProducer builds its own cache on its own admin client and closes it', async () => {
    const { cluster, admins, describes, closes } = await countingCluster();
    const p = new TransactionalProducer({ transactionalId: 'tx-alone', cluster });
    await sendOne(p, 'alone');
    await p.close();
    expect(admins).toHaveLength(1);
    expect(describes).toEqual(['out']);
    expect(closes()).toBe(1);
    expect((await cluster.readCommitted('out')).map((r) => r.value?.toString())).toEqual(['alone']);
  });
});
