/** Transaction coordinator of the embedded cluster: fencing, AddPartitions, offsets, EndTxn, timeouts. */
import { beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedKafkaCluster } from '../../../src/cluster/embedded/embedded-cluster.js';
import { brokerOf } from '../../../src/cluster/embedded/internal/broker-access.js';
import { transition } from '../../../src/cluster/embedded/internal/txn-state.js';
import { IllegalStateError, KafkaErrorCode, KafkaProtocolError, ProducerFencedError } from '../../../src/errors.js';

let now = 1_700_000_000_000;
let cluster: EmbeddedKafkaCluster;
const rec = (v: string) => ({ key: Buffer.from('k'), value: Buffer.from(v), headers: {}, timestamp: now });
const values = (rs: { value: Buffer | null }[]) => rs.map((r) => r.value!.toString());
const causeCode = (e: unknown) => ((e as Error).cause as KafkaProtocolError | undefined)?.kafkaCode;

beforeEach(async () => {
  now = 1_700_000_000_000;
  cluster = new EmbeddedKafkaCluster({ clock: () => now, tickIntervalMs: 0 });
  await cluster.createTopic('out', { partitions: 2 });
});

describe('fencing', () => {
  it('a second producer with the same transactional id fences the first and aborts its transaction', async () => {
    const p1 = cluster.producer({ transactionalId: 'tx' });
    await p1.connect();
    await p1.beginTransaction();
    await p1.produce({ topic: 'out', partition: 0, records: [rec('zombie')] });
    const p2 = cluster.producer({ transactionalId: 'tx' });
    await p2.connect();
    // the open transaction was aborted by InitProducerId: marker written, data hidden
    expect(await cluster.readCommitted('out')).toEqual([]);
    expect(values(await cluster.readUncommitted('out'))).toEqual(['zombie']);
    expect(await cluster.endOffsets('out')).toEqual([2, 0]);
    expect(cluster.describeTransaction('tx')).toMatchObject({ epoch: 2, state: 'Empty' });
    // the fenced producer: produce to the partition it wrote -> INVALID_PRODUCER_EPOCH, then unusable
    const e = await p1.produce({ topic: 'out', partition: 0, records: [rec('late')] }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProducerFencedError);
    expect([KafkaErrorCode.INVALID_PRODUCER_EPOCH, KafkaErrorCode.PRODUCER_FENCED]).toContain(causeCode(e));
    await expect(p1.commitTransaction()).rejects.toBeInstanceOf(ProducerFencedError);
    // the new producer works
    await p2.beginTransaction();
    await p2.produce({ topic: 'out', partition: 0, records: [rec('new')] });
    await p2.commitTransaction();
    expect(values(await cluster.readCommitted('out'))).toEqual(['new']);
  });

  it('fenced producer: EndTxn -> PRODUCER_FENCED, TxnOffsetCommit -> INVALID_PRODUCER_EPOCH, AddPartitions -> PRODUCER_FENCED', () => {
    const txn = brokerOf(cluster).txn;
    const old = txn.initProducerId('tx', 60_000);
    txn.addPartitions('tx', old.producerId, old.epoch, [{ topic: 'out', partition: 0 }]);
    txn.addOffsets('tx', old.producerId, old.epoch, 'g');
    cluster.fenceTransactionalId('tx');
    const code = (f: () => void) => {
      try {
        f();
      } catch (e) {
        return (e as KafkaProtocolError).kafkaCode;
      }
      return 0;
    };
    expect(code(() => txn.endTxn('tx', old.producerId, old.epoch, true))).toBe(KafkaErrorCode.PRODUCER_FENCED);
    expect(code(() => txn.txnOffsetCommit('tx', old.producerId, old.epoch, 'g', []))).toBe(KafkaErrorCode.INVALID_PRODUCER_EPOCH);
    expect(code(() => txn.addPartitions('tx', old.producerId, old.epoch, [{ topic: 'out', partition: 1 }]))).toBe(KafkaErrorCode.PRODUCER_FENCED);
    expect(code(() => txn.endTxn('tx', old.producerId, old.epoch + 1, true))).toBe(KafkaErrorCode.INVALID_TXN_STATE); // fence aborted it: nothing open
  });

  it('fenceTransactionalId fault: the producer is fenced at its next request', async () => {
    const p = cluster.producer({ transactionalId: 'tx' });
    await p.connect();
    await p.beginTransaction();
    await p.produce({ topic: 'out', partition: 1, records: [rec('a')] });
    cluster.fenceTransactionalId('tx');
    expect(await cluster.readCommitted('out')).toEqual([]);
    const e = await p.produce({ topic: 'out', partition: 1, records: [rec('b')] }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProducerFencedError);
    expect(causeCode(e)).toBe(KafkaErrorCode.INVALID_PRODUCER_EPOCH);
  });
});

describe('transaction lifecycle', () => {
  it('EndTxn writes a marker to every partition of the transaction; offsets commit with it', async () => {
    const p = cluster.producer({ transactionalId: 'tx' });
    await p.connect();
    await p.beginTransaction();
    await p.produce({ topic: 'out', partition: 0, records: [rec('a')] });
    await p.produce({ topic: 'out', partition: 1, records: [rec('b'), rec('c')] });
    await p.sendOffsets('g', [{ topic: 'out', partition: 0, offset: 42 }]);
    // open transaction: LSO holds at its first offset
    expect(brokerOf(cluster).log('out', 1).lastStableOffset).toBe(0);
    await p.commitTransaction();
    expect(await cluster.endOffsets('out')).toEqual([2, 3]);
    expect(brokerOf(cluster).log('out', 1).lastStableOffset).toBe(3);
    expect(await cluster.committedOffsets('g', 'out')).toEqual([42, -1]);
    const marker = brokerOf(cluster).log('out', 1).entries[1]!.batch;
    expect(marker.attributes & 0x30).toBe(0x30); // control + transactional
  });

  it('aborted offsets are discarded; aborted data indexed and hidden from read_committed only', async () => {
    const p = cluster.producer({ transactionalId: 'tx' });
    await p.connect();
    await p.beginTransaction();
    await p.produce({ topic: 'out', partition: 0, records: [rec('a')] });
    await p.sendOffsets('g', [{ topic: 'out', partition: 0, offset: 9 }]);
    await p.abortTransaction();
    expect(await cluster.committedOffsets('g', 'out')).toEqual([-1, -1]);
    expect(brokerOf(cluster).log('out', 0).aborted).toEqual([{ producerId: expect.any(Number), firstOffset: 0, lastOffset: 1 }]);
    expect(brokerOf(cluster).log('out', 0).fetch(0, 'read_committed')).toMatchObject({ records: [], nextOffset: 2 });
  });

  it('a transactional producer cannot produce outside a transaction; beginTransaction needs a transactional id', async () => {
    const p = cluster.producer({ transactionalId: 'tx' });
    await p.connect();
    await expect(p.produce({ topic: 'out', partition: 0, records: [rec('a')] })).rejects.toBeInstanceOf(IllegalStateError);
    const idem = cluster.producer({});
    await idem.connect();
    await expect(idem.beginTransaction()).rejects.toThrow(/transactionalId/);
    // idempotent producers get a producer id too
    await idem.produce({ topic: 'out', partition: 0, records: [rec('x')] });
    expect(brokerOf(cluster).log('out', 0).entries[0]!.batch.producerId).toBeGreaterThan(0);
  });

  it('EndTxn without an open transaction -> INVALID_TXN_STATE; a retried EndTxn of the same outcome succeeds', () => {
    const txn = brokerOf(cluster).txn;
    const { producerId, epoch } = txn.initProducerId('tx', 60_000);
    expect(() => txn.endTxn('tx', producerId, epoch, true)).toThrow(expect.objectContaining({ kafkaCode: KafkaErrorCode.INVALID_TXN_STATE }));
    txn.addPartitions('tx', producerId, epoch, [{ topic: 'out', partition: 0 }]);
    txn.endTxn('tx', producerId, epoch, true);
    expect(() => txn.endTxn('tx', producerId, epoch, true)).not.toThrow();
    expect(() => txn.endTxn('tx', producerId, epoch, false)).toThrow(expect.objectContaining({ kafkaCode: KafkaErrorCode.INVALID_TXN_STATE }));
  });

  it('the transition table refuses illegal moves naming the allowed source states', () => {
    const meta = { transactionalId: 'x', state: 'Empty' as const };
    expect(() => transition(meta, 'CompleteCommit')).toThrow(IllegalStateError);
    expect(() => transition({ ...meta }, 'CompleteCommit')).toThrow(/only from: PrepareCommit/);
  });
});

describe('transaction timeout', () => {
  it('a transaction older than its timeout is aborted and its producer fenced', async () => {
    const p = cluster.producer({ transactionalId: 'tx', transactionTimeoutMs: 1000 });
    await p.connect();
    await p.beginTransaction();
    await p.produce({ topic: 'out', partition: 0, records: [rec('slow')] });
    now += 999;
    cluster.tick();
    expect(cluster.describeTransaction('tx')!.state).toBe('Ongoing');
    now += 2;
    cluster.tick();
    expect(cluster.describeTransaction('tx')).toMatchObject({ state: 'CompleteAbort', epoch: 1 });
    expect(brokerOf(cluster).log('out', 0).lastStableOffset).toBe(2);
    expect(await cluster.readCommitted('out')).toEqual([]);
    await expect(p.commitTransaction()).rejects.toSatisfy((e: unknown) => e instanceof ProducerFencedError && causeCode(e) === KafkaErrorCode.PRODUCER_FENCED);
  });

  it('InitProducerId rejects a timeout above transaction.max.timeout.ms', () => {
    expect(() => brokerOf(cluster).txn.initProducerId('tx', 900_001)).toThrow(expect.objectContaining({ kafkaCode: KafkaErrorCode.INVALID_TRANSACTION_TIMEOUT }));
  });
});

describe('fault injection on coordinator requests', () => {
  it('CONCURRENT_TRANSACTIONS on AddOffsetsToTxn is retriable: the producer stays usable and the retry succeeds', async () => {
    const p = cluster.producer({ transactionalId: 'tx' });
    await p.connect();
    await p.beginTransaction();
    cluster.failTxnRequest({ transactionalId: 'tx', api: 'AddOffsetsToTxn', code: KafkaErrorCode.CONCURRENT_TRANSACTIONS });
    const e = await p.sendOffsets('g', [{ topic: 'out', partition: 0, offset: 1 }]).catch((x: unknown) => x);
    expect(e).toMatchObject({ kafkaCode: KafkaErrorCode.CONCURRENT_TRANSACTIONS, kind: 'retriable' });
    await p.sendOffsets('g', [{ topic: 'out', partition: 0, offset: 1 }]);
    await p.commitTransaction();
    expect(await cluster.committedOffsets('g', 'out')).toEqual([1, -1]);
  });
  it('a fencing code on EndTxn makes the producer unusable', async () => {
    const p = cluster.producer({ transactionalId: 'tx' });
    await p.connect();
    await p.beginTransaction();
    await p.produce({ topic: 'out', partition: 0, records: [rec('a')] });
    cluster.failTxnRequest({ transactionalId: 'tx', api: 'EndTxn', code: KafkaErrorCode.PRODUCER_FENCED });
    await expect(p.commitTransaction()).rejects.toBeInstanceOf(ProducerFencedError);
    await expect(p.beginTransaction()).rejects.toBeInstanceOf(ProducerFencedError);
  });
});

describe('fault injection on produce', () => {
  it('fails the next N produce requests with the given code and record errors, then recovers; latency is applied', async () => {
    const p = cluster.producer({});
    await p.connect();
    cluster.failProduce({ topic: 'out', partition: 0, code: KafkaErrorCode.INVALID_RECORD, count: 2, recordErrors: [{ batchIndex: 0, message: 'bad' }] });
    for (let i = 0; i < 2; i++) {
      const e = await p.produce({ topic: 'out', partition: 0, records: [rec('a')] }).catch((x: unknown) => x);
      expect(e).toMatchObject({ kafkaCode: KafkaErrorCode.INVALID_RECORD, recordErrors: [{ batchIndex: 0, message: 'bad' }] });
    }
    await p.produce({ topic: 'out', partition: 1, records: [rec('other partition unaffected')] });
    expect(await p.produce({ topic: 'out', partition: 0, records: [rec('ok')] })).toMatchObject({ baseOffset: 0 });
    cluster.setLatency({ produceMs: 15 });
    const t0 = Date.now();
    await p.produce({ topic: 'out', partition: 0, records: [rec('slow')] });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(10);
  });
});
