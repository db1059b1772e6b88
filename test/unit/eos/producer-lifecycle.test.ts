import { describe, expect, it, vi } from 'vitest';
import { KafkaProtocolError, ProducerFencedError, TransactionAbortableError } from '../../../src/errors.js';
import { TransactionalProducer } from '../../../src/runtime/transactional-producer.js';
import { TxnSendOption } from '../../../src/eos/txn-send-option.js';
import { FakeCluster } from './fake-cluster.js';

const IGNORE = TxnSendOption.IGNORE_SEND_ERRORS;

function cluster(): FakeCluster {
  const c = new FakeCluster();
  c.createTopic('out', 2, {});
  return c;
}

describe('TransactionalProducer lifecycle', () => {
  it('abort does not wait for a topic that does not exist: the waiting record fails with TransactionAbortableError', async () => {
    const c = cluster();
    const p = new TransactionalProducer({ transactionalId: 'tx', cluster: c, retryBackoffMs: 10, deliveryTimeoutMs: 60_000 });
    await p.initTransactions();
    p.beginTransaction();
    const waiting = p.send({ topic: 'missing', key: 'k', value: 'v' }, undefined, IGNORE);
    await new Promise((r) => setTimeout(r, 30));
    const started = Date.now();
    await p.abortTransaction();
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(waiting).rejects.toBeInstanceOf(TransactionAbortableError);
    expect(p.state).toBe('READY');
    await p.close();
  });

  it('close() in a transaction aborts it; unsent records fail; close is idempotent', async () => {
    const c = cluster();
    const p = new TransactionalProducer({ transactionalId: 'tx', cluster: c, lingerMs: 10_000 });
    await p.initTransactions();
    p.beginTransaction();
    await p.flush(); // nothing pending
    const lingering = p.send({ topic: 'out', key: 'b', value: '2' });
    const started = Date.now();
    await Promise.all([p.close(), p.close()]);
    expect(Date.now() - started).toBeLessThan(2_000); // did not wait for the 10 s linger
    await expect(lingering).rejects.toBeInstanceOf(TransactionAbortableError);
    expect(p.state).toBe('CLOSED');
    expect(c.readCommitted('out')).toHaveLength(0);
  });

  it('a callback that throws makes the transaction abortable (it must not commit silently)', async () => {
    const c = cluster();
    const p = new TransactionalProducer({ transactionalId: 'tx', cluster: c, lingerMs: 1 });
    await p.initTransactions();
    p.beginTransaction();
    await p.send({ topic: 'out', key: 'a', value: '1' }, () => {
      throw new Error('boom');
    }, IGNORE);
    expect(p.state).toBe('ABORTABLE_ERROR');
    await expect(p.commitTransaction()).rejects.toMatchObject({ cause: { message: 'boom' } });
    await p.abortTransaction();
    await p.close();
  });

  it('a retriable InitProducerId failure returns to UNINITIALIZED; a fencing one is fatal', async () => {
    const c = cluster();
    const connect = vi.fn().mockRejectedValueOnce(new KafkaProtocolError(15)).mockResolvedValue(undefined);
    const original = c.producer.bind(c);
    c.producer = (o) => ({ ...original(o), connect });
    const p = new TransactionalProducer({ transactionalId: 'tx', cluster: c });
    await expect(p.initTransactions()).rejects.toMatchObject({ kafkaCode: 15 });
    expect(p.state).toBe('UNINITIALIZED');
    await p.initTransactions();
    expect(p.state).toBe('READY');
    await p.close();

    const c2 = cluster();
    const original2 = c2.producer.bind(c2);
    c2.producer = (o) => ({ ...original2(o), connect: () => Promise.reject(new KafkaProtocolError(47)) });
    const p2 = new TransactionalProducer({ transactionalId: 'tx', cluster: c2 });
    await expect(p2.initTransactions()).rejects.toBeInstanceOf(ProducerFencedError);
    expect(p2.state).toBe('FATAL_ERROR');
    await p2.close();
  });

  it('per partition, batches are sent one at a time in send order, also across retries', async () => {
    const c = cluster();
    c.produceDelayMs = 2;
    const p = new TransactionalProducer({ transactionalId: 'tx', cluster: c, lingerMs: 1, batchBytes: 300, retryBackoffMs: 1 });
    await p.initTransactions();
    p.beginTransaction();
    c.injectProduceError(6, 4);
    const metas = await Promise.all(Array.from({ length: 100 }, (_, i) => p.send({ topic: 'out', value: `${i}`, key: `k${i % 7}` })));
    await p.commitTransaction();
    for (const part of [0, 1]) {
      const inPart = metas.map((m, i) => ({ ...m, i })).filter((m) => m.partition === part);
      const byOffset = [...inPart].sort((a, b) => a.offset - b.offset).map((m) => m.i);
      expect(byOffset).toEqual(inPart.map((m) => m.i));
    }
    expect(c.produceCalls.filter((x) => x.ok).length).toBeGreaterThan(2);
    await p.close();
  });
});
