import { describe, expect, it } from 'vitest';
import { DeliveryTimeoutError, InvalidRecordError, RecordTooLargeError } from '../../../src/errors.js';
import { TransactionalProducer } from '../../../src/runtime/transactional-producer.js';
import { TxnSendOption } from '../../../src/eos/txn-send-option.js';
import { FakeCluster } from './fake-cluster.js';

const IGNORE = TxnSendOption.IGNORE_SEND_ERRORS;

async function started(cluster: FakeCluster, extra: Partial<ConstructorParameters<typeof TransactionalProducer>[0]> = {}) {
  const p = new TransactionalProducer({ transactionalId: 'tx-iso', cluster, lingerMs: 20, retryBackoffMs: 1, ...extra });
  await p.initTransactions();
  p.beginTransaction();
  return p;
}

/** Sends keyed records plus keyless culprits to `topic`; returns the settled outcomes. */
async function sendMix(p: TransactionalProducer, topic: string, n: number, culpritEvery: number, option: TxnSendOption = IGNORE) {
  const sends = Array.from({ length: n }, (_, i) =>
    p.send(
      i % culpritEvery === culpritEvery - 1 ? { topic, value: `bad-${i}`, partition: i % 3 } : { topic, key: `k${i}`, value: `v${i}`, partition: i % 3 },
      undefined,
      option,
    ),
  );
  return Promise.allSettled(sends);
}

describe('culprit isolation (DESIGN.md §4)', () => {
  it('broker record_errors: only the named records fail, the rest is re-sent and committed', async () => {
    const cluster = new FakeCluster();
    cluster.createTopic('t', 3, {});
    const p = await started(cluster);
    await p.send({ topic: 't', key: 'warm', value: 'up', partition: 0 }, undefined, IGNORE); // caches: not compacted
    cluster.topics.get('t')!.config['cleanup.policy'] = 'compact'; // switched after caching
    const describesBefore = cluster.describeCalls;
    const results = await sendMix(p, 't', 30, 10);
    const failed = results.filter((r) => r.status === 'rejected');
    expect(failed).toHaveLength(3);
    for (const f of failed) {
      expect((f as PromiseRejectedResult).reason).toBeInstanceOf(InvalidRecordError);
      expect(((f as PromiseRejectedResult).reason as Error).message).toMatch(/Compacted topic cannot accept message without key/);
    }
    await p.commitTransaction();
    const values = cluster.readCommitted('t').map((r) => r.value!.toString());
    expect(values).toHaveLength(1 + 27);
    expect(values.some((v) => v.startsWith('bad'))).toBe(false);
    expect(cluster.describeCalls).toBeGreaterThan(describesBefore); // the cached config was refreshed
    // after the refresh, a keyless record fails before the network
    const calls = cluster.produceCalls.length;
    p.beginTransaction();
    await expect(p.send({ topic: 't', value: 'x' })).rejects.toThrow(/compacted topic needs a key/);
    expect(cluster.produceCalls.length).toBe(calls);
    await p.abortTransaction();
    await p.close();
  });

  it('without record_errors (old broker): halves the batch down to the culprits', async () => {
    const cluster = new FakeCluster();
    cluster.recordErrors = false;
    cluster.createTopic('t', 3, {});
    const p = await started(cluster);
    await p.send({ topic: 't', key: 'warm', value: 'up', partition: 0 }, undefined, IGNORE);
    cluster.topics.get('t')!.config['cleanup.policy'] = 'compact';
    const results = await sendMix(p, 't', 60, 20);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(3);
    await p.commitTransaction();
    expect(cluster.readCommitted('t')).toHaveLength(1 + 57);
    // every produce call carried exactly one partition and successful ones kept per-partition order
    for (let part = 0; part < 3; part++) {
      const vals = cluster.readCommitted('t').filter((r) => r.partition === part && r.key?.toString() !== 'warm').map((r) => Number(r.key!.toString().slice(1)));
      expect(vals).toEqual([...vals].sort((a, b) => a - b));
    }
    await p.close();
  });

  it('MESSAGE_TOO_LARGE for a batch: split until the one record that is too large alone', async () => {
    const cluster = new FakeCluster();
    cluster.createTopic('t', 1, {});
    const p = await started(cluster);
    await p.send({ topic: 't', key: 'warm', value: 'up' }, undefined, IGNORE);
    cluster.topics.get('t')!.config['max.message.bytes'] = '1000'; // shrunk after caching
    const sends = [
      ...Array.from({ length: 8 }, (_, i) => p.send({ topic: 't', key: `k${i}`, value: 'x'.repeat(50) }, undefined, IGNORE)),
      p.send({ topic: 't', key: 'big', value: 'y'.repeat(2000) }, undefined, IGNORE),
    ];
    const results = await Promise.allSettled(sends);
    expect(results.slice(0, 8).every((r) => r.status === 'fulfilled')).toBe(true);
    expect((results[8] as PromiseRejectedResult).reason).toBeInstanceOf(RecordTooLargeError);
    await p.commitTransaction();
    expect(cluster.readCommitted('t')).toHaveLength(9);
    await p.close();
  });

  it('retriable errors are retried with back-off and then succeed', async () => {
    const cluster = new FakeCluster();
    cluster.createTopic('t', 2, {});
    const p = await started(cluster);
    cluster.injectProduceError(6, 3); // NOT_LEADER_OR_FOLLOWER x3
    const metas = await Promise.all(Array.from({ length: 10 }, (_, i) => p.send({ topic: 't', key: `k${i}`, value: 'v' })));
    expect(metas).toHaveLength(10);
    expect(cluster.produceCalls.filter((c) => !c.ok)).toHaveLength(3);
    expect(p.state).toBe('IN_TRANSACTION');
    await p.commitTransaction();
    expect(cluster.readCommitted('t')).toHaveLength(10);
    await p.close();
  });

  it('retriable errors past the delivery timeout fail record-level with DeliveryTimeoutError (cause: last error)', async () => {
    const cluster = new FakeCluster();
    cluster.createTopic('t', 1, {});
    const p = await started(cluster, { deliveryTimeoutMs: 100, retryBackoffMs: 10 });
    cluster.injectProduceError(6, 1000); // NOT_LEADER_OR_FOLLOWER forever (definitely not written)
    const err = await p.send({ topic: 't', key: 'k', value: 'v' }, undefined, IGNORE).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeliveryTimeoutError);
    expect((err as Error).cause).toMatchObject({ kafkaCode: 6 });
    expect(p.state).toBe('IN_TRANSACTION');
    cluster.faults.length = 0;
    await p.send({ topic: 't', key: 'k2', value: 'v2' }, undefined, IGNORE);
    await p.commitTransaction();
    expect(cluster.readCommitted('t').map((r) => r.key!.toString())).toEqual(['k2']);
    await p.close();
  });

  it('a delivery timeout after REQUEST_TIMED_OUT (maybe written) makes the transaction abortable even with IGNORE_SEND_ERRORS', async () => {
    const cluster = new FakeCluster();
    cluster.createTopic('t', 1, {});
    const p = await started(cluster, { deliveryTimeoutMs: 100, retryBackoffMs: 10 });
    cluster.injectProduceError(7, 1000);
    await expect(p.send({ topic: 't', key: 'k', value: 'v' }, undefined, IGNORE)).rejects.toBeInstanceOf(DeliveryTimeoutError);
    expect(p.state).toBe('ABORTABLE_ERROR');
    await expect(p.commitTransaction()).rejects.toMatchObject({ cause: { cause: { kafkaCode: 7 } } });
    await p.abortTransaction();
    await p.close();
  });

  it('batches respect the byte limit and one partition per produce call; partitions are keyed by murmur2', async () => {
    const cluster = new FakeCluster();
    cluster.createTopic('t', 4, {});
    const p = await started(cluster, { batchBytes: 2000, lingerMs: 50 });
    const metas = await Promise.all(Array.from({ length: 200 }, (_, i) => p.send({ topic: 't', key: `key-${i % 20}`, value: 'x'.repeat(40) })));
    await p.commitTransaction();
    // same key, same partition
    const byKey = new Map<string, Set<number>>();
    metas.forEach((m, i) => byKey.set(`key-${i % 20}`, (byKey.get(`key-${i % 20}`) ?? new Set()).add(m.partition)));
    expect([...byKey.values()].every((s) => s.size === 1)).toBe(true);
    expect(new Set(metas.map((m) => m.partition)).size).toBeGreaterThan(1);
    expect(Math.max(...cluster.produceCalls.map((c) => c.count))).toBeLessThanOrEqual(2000 / 40);
    expect(cluster.produceCalls.length).toBeLessThan(200);
    await p.close();
  });
});
