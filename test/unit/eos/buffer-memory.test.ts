/**
 * Issue 12 item 8: the producer's buffer bound (`bufferMemoryBytes`). A full
 * buffer never makes `send()` throw: the record waits, in send order, and its
 * promise resolves later; bytes are released when a batch is acknowledged or
 * fails; `bufferAvailable()` resolves once there is room; an abort fails the
 * records still waiting.
 */
import { describe, expect, it } from 'vitest';
import { BufferMemory, RECORD_OVERHEAD_BYTES } from '../../../src/eos/internal/buffer-memory.js';
import { InvalidRecordError, TransactionAbortableError } from '../../../src/errors.js';
import { TransactionalProducer } from '../../../src/runtime/transactional-producer.js';
import { TxnSendOption } from '../../../src/eos/txn-send-option.js';
import { FakeCluster } from './fake-cluster.js';

const IGNORE = TxnSendOption.IGNORE_SEND_ERRORS;
/** Room for about three small records. */
const SMALL_BUFFER = 3 * (RECORD_OVERHEAD_BYTES + 40);

function setup() {
  const cluster = new FakeCluster();
  cluster.createTopic('out', 1);
  cluster.createTopic('compact', 1, { 'cleanup.policy': 'compact' });
  return cluster;
}

async function started(cluster: FakeCluster, bufferMemoryBytes = SMALL_BUFFER) {
  const p = new TransactionalProducer({ transactionalId: 'tx-buf', cluster, lingerMs: 1, retryBackoffMs: 1, bufferMemoryBytes });
  await p.initTransactions();
  p.beginTransaction();
  return p;
}

const tick = () => new Promise<'pending'>((r) => setTimeout(() => r('pending'), 0));

describe('producer buffer memory', () => {
  it('a full buffer makes sends wait (no throw) and keeps send order; everything commits', async () => {
    const cluster = setup();
    cluster.produceDelayMs = 5;
    const p = await started(cluster);
    const sends = Array.from({ length: 40 }, (_, i) => p.send({ topic: 'out', key: 'k', value: `v${i}` }, undefined, IGNORE));
    // Only about three records fit: the others wait and bufferAvailable() is pending.
    expect(await Promise.race([p.bufferAvailable().then(() => 'free' as const), tick()])).toBe('pending');
    const metas = await Promise.all(sends);
    expect(metas.map((m) => m.offset)).toEqual([...metas.map((m) => m.offset)].sort((a, b) => a - b));
    expect(cluster.produceCalls.length).toBeGreaterThan(5);
    expect(Math.max(...cluster.produceCalls.map((c) => c.count))).toBeLessThanOrEqual(4);
    await expect(p.bufferAvailable()).resolves.toBeUndefined();
    await p.commitTransaction();
    expect(cluster.readCommitted('out').map((r) => r.value?.toString())).toEqual(Array.from({ length: 40 }, (_, i) => `v${i}`));
    await p.close();
  });

  it('bytes of failed records are released too (later records are not stuck)', async () => {
    const cluster = setup();
    const p = await started(cluster);
    const bad = Array.from({ length: 10 }, () => p.send({ topic: 'compact', key: null, value: 'x' }, undefined, IGNORE).catch((e: unknown) => e));
    const good = p.send({ topic: 'out', key: 'k', value: 'after' }, undefined, IGNORE);
    for (const e of await Promise.all(bad)) expect(e).toBeInstanceOf(InvalidRecordError);
    await expect(good).resolves.toMatchObject({ topic: 'out' });
    await p.commitTransaction();
    await p.close();
  });

  it('abortTransaction fails the records still waiting for room', async () => {
    const cluster = setup();
    cluster.produceDelayMs = 20;
    const p = await started(cluster);
    const sends = Array.from({ length: 20 }, (_, i) => p.send({ topic: 'out', key: 'k', value: `v${i}` }, undefined, IGNORE).catch((e: unknown) => e));
    await p.abortTransaction();
    const results = await Promise.all(sends);
    expect(results.some((r) => r instanceof TransactionAbortableError)).toBe(true);
    expect(p.pendingSends).toBe(0);
    expect(cluster.readCommitted('out')).toEqual([]);
    await p.close();
  });

  it('BufferMemory: admits while below the limit, parks in FIFO order, releases idempotently', async () => {
    const m = new BufferMemory(100);
    expect(m.hasRoom).toBe(true);
    const release = m.reserve(150); // one record may overshoot
    expect(m.hasRoom).toBe(false);
    const order: number[] = [];
    m.park(() => (order.push(1), m.reserve(60)), () => undefined);
    m.park(() => (order.push(2), m.reserve(60)), () => undefined);
    const free = m.whenAvailable();
    release();
    release();
    await Promise.resolve();
    expect(m.used).toBe(120);
    expect(order).toEqual([1, 2]);
    expect(m.parked).toBe(0);
    expect(await Promise.race([free.then(() => 'free'), tick()])).toBe('pending');
  });

  it('the option is validated', () => {
    expect(() => new TransactionalProducer({ cluster: setup(), bufferMemoryBytes: 0 })).toThrow(/bufferMemoryBytes/);
    expect(() => new TransactionalProducer({ cluster: setup(), maxBlockMs: -1 })).toThrow(/maxBlockMs/);
  });
});
