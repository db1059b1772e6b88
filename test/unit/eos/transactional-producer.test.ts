import { describe, expect, it, vi } from 'vitest';
import {
  DeliveryTimeoutError,
  IllegalStateError,
  InvalidRecordError,
  InvalidTimestampError,
  ProducerFencedError,
  RecordTooLargeError,
  SerializationError,
  TransactionAbortableError,
} from '../../../src/errors.js';
import { TransactionalProducer } from '../../../src/runtime/transactional-producer.js';
import { TxnSendOption } from '../../../src/eos/txn-send-option.js';
import type { ProducerRecord } from '../../../src/eos/producer-types.js';
import { FakeCluster } from './fake-cluster.js';

function setup(opts: { partitions?: number; config?: Record<string, string> } = {}) {
  const cluster = new FakeCluster();
  cluster.createTopic('out', opts.partitions ?? 3, opts.config ?? {});
  cluster.createTopic('compact', 3, { 'cleanup.policy': 'compact' });
  cluster.createTopic('small', 3, { 'max.message.bytes': '200' });
  cluster.createTopic('recent', 3, { 'message.timestamp.before.max.ms': '60000' });
  cluster.createTopic('in', 1); // the input topic whose offsets are committed (sendOffsetsToTransaction checks it exists)
  return cluster;
}

async function started(cluster: FakeCluster, extra: Partial<ConstructorParameters<typeof TransactionalProducer>[0]> = {}) {
  const p = new TransactionalProducer({ transactionalId: 'tx-1', cluster, lingerMs: 1, retryBackoffMs: 1, ...extra });
  await p.initTransactions();
  p.beginTransaction();
  return p;
}

const bad: Record<string, { record: ProducerRecord; error: new (...a: never[]) => Error }> = {
  tooLarge: { record: { topic: 'small', key: 'k', value: 'x'.repeat(500) }, error: RecordTooLargeError },
  keyless: { record: { topic: 'compact', value: 'v' }, error: InvalidRecordError },
  timestamp: { record: { topic: 'recent', key: 'k', value: 'v', timestamp: Date.now() - 3_600_000 }, error: InvalidTimestampError },
  serialization: { record: { topic: 'out', key: 'k', value: { not: 'bytes' } as unknown as string }, error: SerializationError },
};

describe('TransactionalProducer: send options', () => {
  it('IGNORE_SEND_ERRORS outside a transaction throws IllegalStateError synchronously, before any I/O', async () => {
    const cluster = setup();
    const p = new TransactionalProducer({ transactionalId: 'tx-1', cluster });
    expect(() => p.send({ topic: 'out', key: 'k', value: 'v' }, undefined, TxnSendOption.IGNORE_SEND_ERRORS)).toThrow(IllegalStateError);
    await p.initTransactions();
    expect(() => p.send({ topic: 'out', key: 'k', value: 'v' }, undefined, TxnSendOption.IGNORE_SEND_ERRORS)).toThrow(/IN_TRANSACTION/);
    const idem = new TransactionalProducer({ cluster });
    expect(() => idem.send({ topic: 'out', key: 'k', value: 'v' }, undefined, TxnSendOption.IGNORE_SEND_ERRORS)).toThrow(/not transactional/);
    expect(() => idem.beginTransaction()).toThrow(IllegalStateError);
    expect(cluster.produceCalls).toHaveLength(0);
    expect(cluster.describeCalls).toBe(0);
    await p.close();
    await idem.close();
  });

  it.each(Object.entries(bad))('%s with IGNORE_SEND_ERRORS: only that record fails, the transaction commits', async (_name, c) => {
    const cluster = setup();
    const p = await started(cluster);
    const cb = vi.fn();
    const good1 = p.send({ topic: 'out', key: 'a', value: '1' }, undefined, TxnSendOption.IGNORE_SEND_ERRORS);
    const failed = p.send(c.record, cb, TxnSendOption.IGNORE_SEND_ERRORS);
    const good2 = p.send({ topic: 'out', key: 'b', value: '2' }, undefined, TxnSendOption.IGNORE_SEND_ERRORS);
    await expect(failed).rejects.toBeInstanceOf(c.error);
    expect(cb).toHaveBeenCalledTimes(1);
    expect(cb.mock.calls[0]![0]).toBeInstanceOf(c.error);
    expect(cb.mock.calls[0]![1]).toBeNull();
    expect(p.state).toBe('IN_TRANSACTION');
    await p.commitTransaction();
    expect((await good1).offset).toBeGreaterThanOrEqual(0);
    expect((await good2).topic).toBe('out');
    expect(cluster.readCommitted('out').map((r) => r.value?.toString()).sort()).toEqual(['1', '2']);
    expect(p.state).toBe('READY');
    await p.close();
  });

  it.each(Object.entries(bad))('%s with NONE: the transaction becomes abortable, commit rejects with the cause', async (_name, c) => {
    const cluster = setup();
    const p = await started(cluster);
    const cb = vi.fn();
    const good = p.send({ topic: 'out', key: 'a', value: '1' });
    const failed = p.send(c.record, cb);
    await expect(failed).rejects.toBeInstanceOf(c.error);
    expect(cb.mock.calls[0]![0]).toBeInstanceOf(c.error);
    expect(p.state).toBe('ABORTABLE_ERROR');
    const commit = p.commitTransaction();
    await expect(commit).rejects.toBeInstanceOf(TransactionAbortableError);
    await expect(commit).rejects.toHaveProperty('cause', cb.mock.calls[0]![0]);
    expect(p.state).toBe('ABORTABLE_ERROR');
    await expect(p.send({ topic: 'out', key: 'c', value: '3' })).rejects.toBeInstanceOf(TransactionAbortableError);
    await expect(p.sendOffsetsToTransaction([{ topic: 'in', partition: 0, offset: 1 }], 'g')).rejects.toBeInstanceOf(TransactionAbortableError);
    await good.catch(() => undefined);
    await p.abortTransaction();
    expect(p.state).toBe('READY');
    expect(cluster.readCommitted('out')).toHaveLength(0);
    // the same producer goes on
    p.beginTransaction();
    await p.send({ topic: 'out', key: 'd', value: '4' });
    await p.commitTransaction();
    expect(cluster.readCommitted('out').map((r) => r.value?.toString())).toEqual(['4']);
    await p.close();
  });

  it('markAbortable moves the transaction to ABORTABLE_ERROR like a failed NONE send', async () => {
    const cluster = setup();
    const p = await started(cluster);
    await p.send({ topic: 'out', key: 'a', value: '1' }, undefined, TxnSendOption.IGNORE_SEND_ERRORS);
    const cause = new Error('handler said FAIL');
    p.markAbortable(cause);
    expect(p.state).toBe('ABORTABLE_ERROR');
    await expect(p.commitTransaction()).rejects.toHaveProperty('cause', cause);
    await p.abortTransaction();
    expect(() => p.markAbortable(cause)).toThrow(/state READY/);
    await p.close();
  });

  it('a callback that marks abortable or sends dead-letter records is seen by the commit', async () => {
    const cluster = setup();
    cluster.createTopic('dlq', 1);
    const p = await started(cluster);
    p.send(bad.keyless!.record, (err) => {
      if (err) void p.send({ topic: 'dlq', key: 'x', value: 'dead' }, undefined, TxnSendOption.IGNORE_SEND_ERRORS);
    }, TxnSendOption.IGNORE_SEND_ERRORS);
    await p.commitTransaction();
    expect(cluster.readCommitted('dlq').map((r) => r.value?.toString())).toEqual(['dead']);

    p.beginTransaction();
    p.send(bad.keyless!.record, (err) => err && p.markAbortable(err), TxnSendOption.IGNORE_SEND_ERRORS);
    await expect(p.commitTransaction()).rejects.toBeInstanceOf(TransactionAbortableError);
    await p.abortTransaction();
    await p.close();
  });

  it('commit waits for every pending send and sends offsets in the transaction', async () => {
    const cluster = setup();
    cluster.produceDelayMs = 5;
    const p = await started(cluster, { lingerMs: 50 });
    const sends = Array.from({ length: 50 }, (_, i) => p.send({ topic: 'out', key: `k${i}`, value: `v${i}` }));
    await p.sendOffsetsToTransaction([{ topic: 'in', partition: 0, offset: 42 }], 'grp');
    await p.commitTransaction();
    expect(p.pendingSends).toBe(0);
    expect((await Promise.all(sends)).every((m) => m.offset >= 0)).toBe(true);
    expect(cluster.readCommitted('out')).toHaveLength(50);
    expect(cluster.offsets[0]).toMatchObject({ groupId: 'grp', producer: -1 });
    await p.close();
  });

  it('wrong-state calls throw IllegalStateError naming the allowed states', async () => {
    const cluster = setup();
    const p = new TransactionalProducer({ transactionalId: 'tx-1', cluster });
    expect(() => p.beginTransaction()).toThrow(/allowed in state\(s\): READY/);
    await p.initTransactions();
    expect(() => p.send({ topic: 'out', key: 'k', value: 'v' })).toThrow(/IN_TRANSACTION/);
    await expect(p.commitTransaction()).rejects.toThrow(/state READY; allowed in state\(s\): IN_TRANSACTION/);
    await expect(p.initTransactions()).rejects.toBeInstanceOf(IllegalStateError);
    await p.close();
    expect(() => p.send({ topic: 'out', key: 'k', value: 'v' })).toThrow(/CLOSED/);
    await p.close();
  });
});

describe('TransactionalProducer: fatal errors', () => {
  it.each([TxnSendOption.NONE, TxnSendOption.IGNORE_SEND_ERRORS])('fencing is fatal whatever the option (%s)', async (option) => {
    const cluster = setup();
    const p = await started(cluster);
    await p.send({ topic: 'out', key: 'a', value: '1' }, undefined, option);
    const newer = new TransactionalProducer({ transactionalId: 'tx-1', cluster });
    await newer.initTransactions();
    const cb = vi.fn();
    await expect(p.send({ topic: 'out', key: 'b', value: '2' }, cb, option)).rejects.toBeInstanceOf(ProducerFencedError);
    expect(cb.mock.calls[0]![0]).toBeInstanceOf(ProducerFencedError);
    expect(p.state).toBe('FATAL_ERROR');
    await expect(p.send({ topic: 'out', key: 'c', value: '3' }, undefined, option)).rejects.toBeInstanceOf(ProducerFencedError);
    await expect(p.commitTransaction()).rejects.toBeInstanceOf(ProducerFencedError);
    await expect(p.abortTransaction()).rejects.toBeInstanceOf(ProducerFencedError);
    expect(() => p.beginTransaction()).toThrow(IllegalStateError);
    await p.close();
    expect(p.state).toBe('CLOSED');
    expect(cluster.readCommitted('out')).toHaveLength(0);
    await newer.close();
  });

  it('an EndTxn failure is fatal', async () => {
    const cluster = setup();
    const p = await started(cluster);
    await p.send({ topic: 'out', key: 'a', value: '1' });
    cluster.endTxnFault = 51;
    await expect(p.commitTransaction()).rejects.toThrow(/CONCURRENT_TRANSACTIONS/);
    expect(p.state).toBe('FATAL_ERROR');
    await p.close();
  });
});

describe('TransactionalProducer: idempotent (no transactionalId)', () => {
  it('sends without a transaction; failures only reject', async () => {
    const cluster = setup();
    const p = new TransactionalProducer({ cluster, lingerMs: 1 });
    const ok = await p.send({ topic: 'out', key: 'a', value: '1' });
    expect(ok.partition).toBeGreaterThanOrEqual(0);
    await expect(p.send(bad.keyless!.record)).rejects.toBeInstanceOf(InvalidRecordError);
    expect(p.state).toBe('READY');
    await p.send({ topic: 'out', key: 'b', value: '2' });
    expect(cluster.readCommitted('out')).toHaveLength(2);
    await p.close();
  });

  it('an unknown topic is retried until the delivery timeout, then DeliveryTimeoutError naming the topic', async () => {
    const cluster = setup();
    const p = new TransactionalProducer({ cluster, deliveryTimeoutMs: 150, retryBackoffMs: 10 });
    const err = await p.send({ topic: 'nope', key: 'a', value: '1' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeliveryTimeoutError);
    expect((err as Error).message).toMatch(/Topic 'nope'/);
    expect(cluster.describeCalls).toBeGreaterThan(1);
    expect(p.state).toBe('READY');
    await p.close();
  });
});
