/**
 * Seed 001 (KIP-467) rules on the embedded broker: each rule's Kafka error
 * code and, for record-level rules, the culprit indexes in record_errors.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedKafkaCluster } from '../../../src/cluster/embedded/embedded-cluster.js';
import { brokerOf } from '../../../src/cluster/embedded/internal/broker-access.js';
import { crc32c } from '../../../src/cluster/embedded/internal/crc32c.js';
import { BatchAttr, CRC_OFFSET, decodeBatch, encodeBatch, type NewBatch } from '../../../src/cluster/embedded/internal/record-batch.js';
import { KafkaErrorCode, KafkaProtocolError } from '../../../src/errors.js';

const NOW = 1_700_000_000_000;
const b = (s: string | null): Buffer | null => (s === null ? null : Buffer.from(s));
const r = (key: string | null, value = 'v', timestamp = NOW) => ({ key: b(key), value: b(value), timestamp });

/** Rewrites header bytes and recomputes the CRC (so only the intended rule fails). */
function patch(bytes: Buffer, edit: (buf: Buffer) => void): Buffer {
  const copy = Buffer.from(bytes);
  edit(copy);
  copy.writeUInt32BE(crc32c(copy.subarray(CRC_OFFSET + 4)), CRC_OFFSET);
  return copy;
}

let cluster: EmbeddedKafkaCluster;
let now = NOW;

function produce(topic: string, bytes: Buffer, partition = 0): KafkaProtocolError | number {
  try {
    return brokerOf(cluster).produceNow(topic, partition, bytes);
  } catch (e) {
    if (e instanceof KafkaProtocolError) return e;
    throw e;
  }
}
function rejected(topic: string, batch: NewBatch | Buffer, partition = 0): KafkaProtocolError {
  const res = produce(topic, Buffer.isBuffer(batch) ? batch : encodeBatch(batch), partition);
  expect(res).toBeInstanceOf(KafkaProtocolError);
  return res as KafkaProtocolError;
}

beforeEach(async () => {
  now = NOW;
  cluster = new EmbeddedKafkaCluster({ clock: () => now, tickIntervalMs: 0 });
  await cluster.createTopic('t', { partitions: 2 });
  await cluster.createTopic('compacted', { config: { 'cleanup.policy': 'compact' } });
});

describe('codec', () => {
  it('encodes a v2 batch whose CRC32C and fields decode back', () => {
    const bytes = encodeBatch({ producerId: 7, producerEpoch: 2, baseSequence: 4, attributes: BatchAttr.TRANSACTIONAL, records: [r('a'), { ...r(null, 'x', NOW + 5), headers: [{ key: 'h', value: b('1') }] }] });
    expect(bytes.readInt8(16)).toBe(2);
    expect(bytes.readUInt32BE(CRC_OFFSET)).toBe(crc32c(bytes.subarray(21)));
    const d = decodeBatch(bytes);
    expect(d).toMatchObject({ producerId: 7, producerEpoch: 2, baseSequence: 4, recordCount: 2, lastOffsetDelta: 1, baseTimestamp: NOW, maxTimestamp: NOW + 5 });
    expect(d.records[1]).toMatchObject({ key: null, offsetDelta: 1, timestampDelta: 5 });
    expect(d.records[1]!.headers[0]!.value!.toString()).toBe('1');
  });
  it('crc32c matches the standard check value', () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
  });
});

describe('batch-level rules', () => {
  it('CRC mismatch -> CORRUPT_MESSAGE (2), retriable', () => {
    const bytes = encodeBatch({ records: [r('a')] });
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 0xff, bytes.length - 1);
    const e = rejected('t', bytes);
    expect(e.kafkaCode).toBe(KafkaErrorCode.CORRUPT_MESSAGE);
    expect(e.kind).toBe('retriable');
    expect(e.message).toMatch(/Record is corrupt/);
  });
  it('magic < 2 -> INVALID_RECORD (87), as a Kafka 4 broker answers Produce v3+', () => {
    const bytes = encodeBatch({ records: [r('a')] });
    bytes.writeInt8(1, 16);
    const e = rejected('t', bytes);
    expect(e.kafkaCode).toBe(KafkaErrorCode.INVALID_RECORD);
    expect(e.message).toMatch(/magic version 2/);
    expect(e.errorMessage).toBeNull(); // a real broker sends no error_message without record_errors
  });
  it('idempotent/transactional batch on a topic with a pre-v2 message format -> UNSUPPORTED_FOR_MESSAGE_FORMAT (43)', async () => {
    await cluster.createTopic('legacy', { config: { 'message.format.version': '0.10.2' } });
    const { producerId } = brokerOf(cluster).txn.initProducerId(undefined, 1000);
    const e = rejected('legacy', { producerId, producerEpoch: 0, baseSequence: 0, records: [r('a')] });
    expect(e.kafkaCode).toBe(KafkaErrorCode.UNSUPPORTED_FOR_MESSAGE_FORMAT);
    expect(e.message).toMatch(/Idempotent records cannot be used with magic version 1/);
    expect(produce('legacy', encodeBatch({ records: [r('plain')] }))).toBe(0);
  });
  it('batch over max.message.bytes -> MESSAGE_TOO_LARGE (10)', async () => {
    await cluster.alterTopicConfig('t', { 'max.message.bytes': '200' });
    const e = rejected('t', { records: [r('a', 'x'.repeat(300))] });
    expect(e.kafkaCode).toBe(KafkaErrorCode.MESSAGE_TOO_LARGE);
    expect(e.message).toMatch(/exceeds the maximum configured value of 200/);
  });
  it('base offset other than 0 -> INVALID_RECORD (87)', () => {
    const e = rejected('t', { baseOffset: 3, records: [r('a')] });
    expect(e.kafkaCode).toBe(KafkaErrorCode.INVALID_RECORD);
    expect(e.message).toMatch(/baseOffset/);
  });
  it('last offset delta inconsistent with the record count -> INVALID_RECORD (87), not CORRUPT_MESSAGE', () => {
    const bytes = patch(encodeBatch({ records: [r('a'), r('b')] }), (buf) => buf.writeInt32BE(4, 23));
    const e = rejected('t', bytes);
    expect(e.kafkaCode).toBe(KafkaErrorCode.INVALID_RECORD);
    expect(e.kind).toBe('record');
    expect(e.message).toMatch(/Inconsistent batch offset range \[0, 4\] and count of records 2/);
  });
  it('declared record count different from the records present -> INVALID_RECORD', () => {
    const bytes = patch(encodeBatch({ records: [r('a'), r('b')] }), (buf) => {
      buf.writeInt32BE(2, 23);
      buf.writeInt32BE(3, 57);
    });
    expect(rejected('t', bytes).kafkaCode).toBe(KafkaErrorCode.INVALID_RECORD);
  });
  it('invalid offset range (negative last offset delta) -> INVALID_RECORD', () => {
    const bytes = patch(encodeBatch({ records: [r('a')] }), (buf) => buf.writeInt32BE(-1, 23));
    expect(rejected('t', bytes).message).toMatch(/invalid offset range/);
  });
  it('control batch from a client -> INVALID_RECORD', () => {
    const e = rejected('t', { attributes: BatchAttr.CONTROL, records: [r('a')] });
    expect(e.kafkaCode).toBe(KafkaErrorCode.INVALID_RECORD);
    expect(e.message).toMatch(/Clients are not allowed to write control records/);
  });
  it('idempotent batch without a sequence -> INVALID_RECORD', async () => {
    const p = cluster.producer({});
    await p.connect();
    const pid = brokerOf(cluster).txn.initProducerId(undefined, 1000).producerId;
    const e = rejected('t', { producerId: pid, producerEpoch: 0, baseSequence: -1, records: [r('a')] });
    expect(e.kafkaCode).toBe(KafkaErrorCode.INVALID_RECORD);
    expect(e.message).toMatch(/Invalid sequence number -1/);
  });
  it('a rejected batch writes nothing', () => {
    rejected('compacted', { records: [r('a'), r(null)] });
    expect(brokerOf(cluster).endOffsets('compacted')).toEqual([0]);
  });
});

describe('record-level rules (record_errors)', () => {
  it('keyless records on a compacted topic -> INVALID_RECORD (87) naming each culprit index', () => {
    const e = rejected('compacted', { records: [r('a'), r(null), r('c'), r(null)] });
    expect(e.kafkaCode).toBe(KafkaErrorCode.INVALID_RECORD);
    expect(e.recordErrors).toEqual([
      { batchIndex: 1, message: 'Compacted topic cannot accept message without key in topic partition compacted-0' },
      { batchIndex: 3, message: 'Compacted topic cannot accept message without key in topic partition compacted-0' },
    ]);
    expect(e.errorMessage).toMatch(/One or more records have been rejected due to 2 record errors in total/);
  });
  it('CreateTime after now + message.timestamp.after.max.ms (default 1h) -> INVALID_TIMESTAMP (32) with culprits', () => {
    const e = rejected('t', { records: [r('a'), r('b', 'v', NOW + 3_600_001), r('c', 'v', NOW + 3_600_000)] });
    expect(e.kafkaCode).toBe(KafkaErrorCode.INVALID_TIMESTAMP);
    expect(e.kind).toBe('record');
    expect(e.recordErrors.map((x) => x.batchIndex)).toEqual([1]);
    expect(e.recordErrors[0]!.message).toMatch(new RegExp(`Timestamp ${NOW + 3_600_001} of message with offset 1 is out of range`));
  });
  it('CreateTime before now - message.timestamp.before.max.ms -> INVALID_TIMESTAMP', async () => {
    await cluster.alterTopicConfig('t', { 'message.timestamp.before.max.ms': '1000' });
    const e = rejected('t', { records: [r('a', 'v', NOW - 1001), r('b', 'v', NOW - 1000), r('c', 'v', NOW - 5000)] });
    expect(e.kafkaCode).toBe(KafkaErrorCode.INVALID_TIMESTAMP);
    expect(e.recordErrors.map((x) => x.batchIndex)).toEqual([0, 2]);
  });
  it('a client batch flagged LogAppendTime on a CreateTime topic is accepted (as a Kafka 4.4 broker does)', () => {
    expect(produce('t', encodeBatch({ attributes: BatchAttr.TIMESTAMP_LOG_APPEND, records: [r('a'), r('b')] }))).toBe(0);
  });
  it('LogAppendTime topics accept any CreateTime and stamp the append time (batch re-stamped, CRC still valid)', async () => {
    await cluster.alterTopicConfig('t', { 'message.timestamp.type': 'LogAppendTime' });
    now = NOW + 7;
    expect(produce('t', encodeBatch({ records: [r('a', 'v', NOW + 10 * 3_600_000), r('b', 'v', 5)] }))).toBe(0);
    expect((await cluster.readCommitted('t')).map((x) => x.timestamp)).toEqual([NOW + 7, NOW + 7]);
    const stored = brokerOf(cluster).log('t', 0).entries[0]!.bytes;
    expect(stored.readUInt32BE(CRC_OFFSET)).toBe(crc32c(stored.subarray(CRC_OFFSET + 4)));
  });
  it('non-incremental inner offsets in a compressed (gzip) batch -> INVALID_RECORD naming the record', () => {
    const e = rejected('t', { gzip: true, records: [r('a'), { ...r('b'), offsetDelta: 5 }, { ...r('c'), offsetDelta: 2 }] });
    expect(e.kafkaCode).toBe(KafkaErrorCode.INVALID_RECORD);
    expect(e.recordErrors.map((x) => x.batchIndex)).toEqual([1]);
    expect(e.recordErrors[0]!.message).toMatch(/does not have incremental offsets/);
  });
  it('uncompressed batches are numbered by position whatever their offset deltas (as Kafka 4 accepts them); gzip batches decode', async () => {
    expect(produce('t', encodeBatch({ records: [r('a'), { ...r('b'), offsetDelta: 5 }] }))).toBe(0);
    expect(produce('t', encodeBatch({ gzip: true, records: [r('c'), r('d')] }))).toBe(2);
    expect((await cluster.readCommitted('t')).map((x) => [x.offset, x.key!.toString()])).toEqual([[0, 'a'], [1, 'b'], [2, 'c'], [3, 'd']]);
  });
  it('a mix of key and timestamp culprits is reported as INVALID_TIMESTAMP with every culprit', () => {
    const e = rejected('compacted', { records: [r(null), r('b', 'v', NOW + 9_999_999), r('c')] });
    expect(e.kafkaCode).toBe(KafkaErrorCode.INVALID_TIMESTAMP);
    expect(e.recordErrors.map((x) => x.batchIndex)).toEqual([0, 1]);
    // lower bound printed as Kafka does: now - Long.MAX_VALUE in long arithmetic
    expect(e.recordErrors[1]!.message).toContain(`within [${BigInt(NOW) - 9223372036854775807n}, ${NOW + 3_600_000}]`);
  });
});

describe('producer epoch and sequence rules', () => {
  async function idempotent(): Promise<{ pid: number }> {
    return { pid: brokerOf(cluster).txn.initProducerId(undefined, 1000).producerId };
  }
  const batch = (pid: number, epoch: number, seq: number, n = 1): NewBatch => ({
    producerId: pid, producerEpoch: epoch, baseSequence: seq, records: Array.from({ length: n }, (_, i) => r(`k${i}`)),
  });

  it('in-sequence batches are appended; a gap -> OUT_OF_ORDER_SEQUENCE_NUMBER (45)', async () => {
    const { pid } = await idempotent();
    expect(produce('t', encodeBatch(batch(pid, 0, 0, 2)))).toBe(0);
    expect(produce('t', encodeBatch(batch(pid, 0, 2)))).toBe(2);
    const e = rejected('t', batch(pid, 0, 5));
    expect(e.kafkaCode).toBe(KafkaErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
    expect(e.kind).toBe('fencing');
  });
  it('a retried duplicate of one of the last 5 batches is acknowledged with its original offset', async () => {
    const { pid } = await idempotent();
    for (let i = 0; i < 6; i++) expect(produce('t', encodeBatch(batch(pid, 0, i)))).toBe(i);
    expect(produce('t', encodeBatch(batch(pid, 0, 3)))).toBe(3);
    expect(produce('t', encodeBatch(batch(pid, 0, 1)))).toBe(1);
    expect(brokerOf(cluster).endOffsets('t')[0]).toBe(6);
    // older than the last 5: not recognized, out of sequence
    expect(rejected('t', batch(pid, 0, 0)).kafkaCode).toBe(KafkaErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
  });
  it('epoch lower than the last seen -> INVALID_PRODUCER_EPOCH (47), as Kafka >= 2.7 answers produce', async () => {
    const { pid } = await idempotent();
    produce('t', encodeBatch(batch(pid, 3, 0)));
    const e = rejected('t', batch(pid, 2, 1));
    expect(e.kafkaCode).toBe(KafkaErrorCode.INVALID_PRODUCER_EPOCH);
    expect(e.message).toMatch(/smaller than the last seen epoch 3/);
  });
  it('higher epoch must restart at sequence 0, else OUT_OF_ORDER_SEQUENCE_NUMBER', async () => {
    const { pid } = await idempotent();
    produce('t', encodeBatch(batch(pid, 0, 0)));
    expect(rejected('t', batch(pid, 1, 1)).kafkaCode).toBe(KafkaErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
    expect(produce('t', encodeBatch(batch(pid, 1, 0)))).toBe(1);
  });
  it('sequences wrap from Integer.MAX_VALUE to 0', async () => {
    const { pid } = await idempotent();
    expect(produce('t', encodeBatch(batch(pid, 0, 2147483646, 2)))).toBe(0);
    expect(produce('t', encodeBatch(batch(pid, 0, 0)))).toBe(2);
    expect(rejected('t', batch(pid, 0, 5)).kafkaCode).toBe(KafkaErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER);
  });
  it('a producer id this cluster never issued -> UNKNOWN_PRODUCER_ID (59)', () => {
    expect(rejected('t', batch(424242, 0, 0)).kafkaCode).toBe(KafkaErrorCode.UNKNOWN_PRODUCER_ID);
  });
  it('transactional batch to a partition not added to the transaction -> INVALID_TXN_STATE (48)', () => {
    const { producerId, epoch } = brokerOf(cluster).txn.initProducerId('tx', 60_000);
    brokerOf(cluster).txn.addPartitions('tx', producerId, epoch, [{ topic: 't', partition: 0 }]);
    const txn = (p: number): NewBatch => ({ ...batch(producerId, epoch, 0), attributes: BatchAttr.TRANSACTIONAL, records: [r(`p${p}`)] });
    expect(produce('t', encodeBatch(txn(0)), 0)).toBe(0);
    const e = rejected('t', txn(1), 1);
    expect(e.kafkaCode).toBe(KafkaErrorCode.INVALID_TXN_STATE);
    expect(e.message).toMatch(/t-1 was not added to the transaction/);
  });
});

describe('raw producer after a rejection', () => {
  it('keeps its sequence: the next batch to the partition is accepted', async () => {
    const p = cluster.producer({});
    await p.connect();
    const ok = { key: b('a'), value: b('v'), headers: {}, timestamp: NOW };
    await p.produce({ topic: 'compacted', partition: 0, records: [ok] });
    const e = await p.produce({ topic: 'compacted', partition: 0, records: [ok, { ...ok, key: null }] }).catch((x: unknown) => x);
    expect(e).toMatchObject({ kafkaCode: KafkaErrorCode.INVALID_RECORD, recordErrors: [{ batchIndex: 1 }] });
    expect(await p.produce({ topic: 'compacted', partition: 0, records: [ok, ok] })).toMatchObject({ baseOffset: 1 });
  });
});
