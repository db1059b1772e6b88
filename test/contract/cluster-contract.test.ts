/**
 * The cluster contract: the same cases against the embedded cluster and real
 * Kafka (kafkajs adapter). Real Kafka is the reference; where the embedded
 * cluster is allowed to differ, a comment says why.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FetchedBatch, GroupConsumerPort, RawProducerPort, TopicPartition, WireRecord } from '../../src/cluster/port.js';
import { KafkaErrorCode, KafkaProtocolError, StreamsError } from '../../src/errors.js';
import { uniqueGroup, uniqueName, uniqueTopic, waitFor } from '../helpers/index.js';
import { backends, rawProduceV8, type BackendContext } from './backends.js';
import { EmbeddedKafkaCluster } from '../../src/cluster/embedded/embedded-cluster.js';
import { brokerOf } from '../../src/cluster/embedded/internal/broker-access.js';
import { BatchAttr, CRC_OFFSET, encodeBatch, type NewBatch } from '../../src/cluster/embedded/internal/record-batch.js';
import { crc32c } from '../../src/cluster/embedded/internal/crc32c.js';
import { kafkaBrokers, kafkaSkipReason } from '../helpers/index.js';

const rec = (key: string | null, value: string, extra: Partial<WireRecord> = {}): WireRecord => ({
  key: key === null ? null : Buffer.from(key), value: Buffer.from(value), headers: {}, timestamp: Date.now(), ...extra,
});
const values = (rs: { value: Buffer | null }[]) => rs.map((r) => r.value?.toString() ?? null);

for (const backend of await backends()) {
  const title = `cluster contract: ${backend.name}`;
  (backend.skipReason ? describe.skip : describe)(backend.skipReason ? `${title} [skipped: ${backend.skipReason}]` : title, () => {
    let ctx: BackendContext;
    const open: { close(): Promise<void> }[] = [];
    const track = <T extends { close(): Promise<void> }>(c: T): T => (open.push(c), c);
    const producer = async (transactionalId?: string): Promise<RawProducerPort> => {
      const p = track(ctx.cluster.producer({ transactionalId }));
      await p.connect();
      return p;
    };
    const topic = async (partitions = 1, config: Record<string, string> = {}): Promise<string> => {
      const name = uniqueTopic(`contract-${backend.name}`);
      await ctx.admin.createTopic(name, { partitions, config });
      return name;
    };
    const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx.patienceMs, intervalMs: 20, message });
    const rejection = async (p: Promise<unknown>): Promise<KafkaProtocolError> => {
      const e = await p.then(() => undefined, (x: unknown) => x);
      expect(e, 'expected a KafkaProtocolError').toBeInstanceOf(KafkaProtocolError);
      return e as KafkaProtocolError;
    };

    beforeEach(async () => {
      ctx = await backend.create();
    });
    afterEach(async () => {
      await Promise.all(open.splice(0).reverse().map((c) => c.close().catch(() => undefined)));
      await ctx.close();
    });

    it('topic configs default like a Kafka 4 broker; unknown topics reject with UNKNOWN_TOPIC_OR_PARTITION', async () => {
      const t = await topic(2);
      const d = await ctx.admin.describeTopic(t);
      expect(d.partitions).toBe(2);
      expect(d.config).toMatchObject({
        'cleanup.policy': 'delete', 'max.message.bytes': '1048588', 'message.timestamp.type': 'CreateTime',
        'message.timestamp.before.max.ms': '9223372036854775807', 'message.timestamp.after.max.ms': '3600000',
      });
      const e = await rejection(ctx.admin.describeTopic(uniqueName('missing')));
      expect(e.kafkaCode).toBe(KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    });

    it('admin offsets for sluice reset: offsetsForTime (-1 past the last record) and setCommittedOffsets of an empty group', async () => {
      const t = await topic(2);
      const p = await producer();
      const rec = (value: string, timestamp: number): WireRecord => ({ key: null, value: Buffer.from(value), headers: {}, timestamp });
      await p.produce({ topic: t, partition: 0, records: [rec('a', 1000), rec('b', 2000), rec('c', 3000)] });
      expect(await ctx.admin.offsetsForTime!(t, 0)).toEqual([0, -1]);
      expect(await ctx.admin.offsetsForTime!(t, 1500)).toEqual([1, -1]);
      expect(await ctx.admin.offsetsForTime!(t, 3001)).toEqual([-1, -1]);
      const group = uniqueGroup('contract-reset');
      await ctx.admin.setCommittedOffsets!(group, t, new Map([[0, 2], [1, 0]]));
      expect(await ctx.admin.committedOffsets(group, t)).toEqual([2, 0]);
    });

    it('produce/fetch round-trip: offsets, keys, values, headers', async () => {
      const t = await topic(2);
      const p = await producer();
      const ack = await p.produce({ topic: t, partition: 1, records: [rec('k1', 'v1', { headers: { h: 'x' } }), rec(null, 'v2')] });
      expect(ack).toEqual({ topic: t, partition: 1, baseOffset: 0 });
      expect(await p.produce({ topic: t, partition: 1, records: [rec('k3', 'v3')] })).toMatchObject({ baseOffset: 2 });
      expect(await ctx.admin.endOffsets(t)).toEqual([0, 3]);
      const read = await eventually(async () => { const r = await ctx.read(t); return r.length === 3 && r; }, '3 records');
      expect(read.map((r) => [r.partition, r.offset, r.key?.toString() ?? null, r.value?.toString()])).toEqual([
        [1, 0, 'k1', 'v1'], [1, 1, null, 'v2'], [1, 2, 'k3', 'v3'],
      ]);
      expect(String(read[0]!.headers.h)).toBe('x');
    });

    it('a bad topic config rejects createTopic with INVALID_CONFIG naming the key', async () => {
      const e = await rejection(ctx.admin.createTopic(uniqueTopic('bad-config'), { partitions: 1, config: { 'cleanup.policy': 'compacted' } }));
      expect(e.kafkaCode).toBe(KafkaErrorCode.INVALID_CONFIG);
      expect(e.message).toContain('cleanup.policy');
    });

    it('produce to a partition that does not exist rejects with UNKNOWN_TOPIC_OR_PARTITION; the producer goes on', async () => {
      const t = await topic(2);
      const p = await producer();
      const e = await rejection(p.produce({ topic: t, partition: 5, records: [rec('k', 'v')] }));
      expect(e.kafkaCode).toBe(KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
      expect(await p.produce({ topic: t, partition: 0, records: [rec('k', 'v')] })).toMatchObject({ baseOffset: 0 });
    });

    it('transactions: commit visible, abort invisible to read_committed and visible to read_uncommitted', async () => {
      const t = await topic();
      const p = await producer(uniqueName('tx'));
      for (const [v, commit] of [['a', true], ['b', false], ['c', true]] as const) {
        await p.beginTransaction();
        await p.produce({ topic: t, partition: 0, records: [rec('k', v)] });
        await (commit ? p.commitTransaction() : p.abortTransaction());
      }
      const committed = await eventually(async () => { const r = await ctx.read(t); return r.length === 2 && r; }, 'committed records');
      expect(values(committed)).toEqual(['a', 'c']);
      const all = await eventually(async () => { const r = await ctx.read(t, 'read_uncommitted'); return r.length === 3 && r; }, 'all records');
      expect(values(all)).toEqual(['a', 'b', 'c']);
      expect(await ctx.admin.endOffsets(t)).toEqual([6]); // 3 data records + 3 markers
    });

    it('offsets sent in a transaction are committed atomically with it (abort discards them)', async () => {
      const t = await topic(2);
      const group = uniqueGroup('contract');
      const p = await producer(uniqueName('tx'));
      await p.beginTransaction();
      await p.produce({ topic: t, partition: 0, records: [rec('k', 'x')] });
      await p.sendOffsets(group, [{ topic: t, partition: 1, offset: 3 }]);
      await p.abortTransaction();
      await p.beginTransaction();
      await p.produce({ topic: t, partition: 0, records: [rec('k', 'y')] });
      await p.sendOffsets(group, [{ topic: t, partition: 0, offset: 5 }]);
      expect(await ctx.admin.committedOffsets(group, t)).toEqual([-1, -1]);
      await p.commitTransaction();
      await eventually(async () => (await ctx.admin.committedOffsets(group, t))[0] === 5, 'offset committed');
      expect(await ctx.admin.committedOffsets(group, t)).toEqual([5, -1]);
    });

    it('fencing: a second producer with the same transactional id fences the first and aborts its transaction', async () => {
      const t = await topic();
      const id = uniqueName('tx');
      const p1 = await producer(id);
      await p1.beginTransaction();
      await p1.produce({ topic: t, partition: 0, records: [rec('k', 'zombie')] });
      const p2 = await producer(id);
      // the fenced producer's next produce and EndTxn fail with a fencing error, and it stays unusable
      const pe = await p1.produce({ topic: t, partition: 0, records: [rec('k', 'late')] }).then(() => undefined, (x: unknown) => x);
      expect(pe).toBeInstanceOf(StreamsError);
      expect((pe as StreamsError).kind).toBe('fencing');
      const e = await p1.commitTransaction().then(() => undefined, (x: unknown) => x);
      expect(e).toBeInstanceOf(StreamsError);
      expect((e as StreamsError).kind).toBe('fencing');
      await p2.beginTransaction();
      await p2.produce({ topic: t, partition: 0, records: [rec('k', 'owner')] });
      await p2.commitTransaction();
      const r = await eventually(async () => { const x = await ctx.read(t); return x.length === 1 && x; }, 'owner record');
      expect(values(r)).toEqual(['owner']);
    });

    it('groups: two consumers split the partitions; when one leaves the other gets all', async () => {
      const t = await topic(4);
      const group = uniqueGroup('contract');
      const owned = new Map<string, Set<number>>();
      const seen: string[] = [];
      const start = async (name: string): Promise<GroupConsumerPort> => {
        const c = track(ctx.cluster.consumer({ groupId: group, ...ctx.consumerTiming }));
        owned.set(name, new Set());
        await c.subscribe([t]);
        await c.run({
          onAssignment: async ({ assigned, revoked }: { assigned: TopicPartition[]; revoked: TopicPartition[] }) => {
            for (const tp of revoked) owned.get(name)!.delete(tp.partition);
            for (const tp of assigned) owned.get(name)!.add(tp.partition);
          },
          eachBatch: async (b: FetchedBatch) => {
            for (const r of b.records) {
              expect(owned.get(name)!.has(b.partition), `${name} got a batch of partition ${b.partition} it does not own`).toBe(true);
              seen.push(r.value!.toString());
            }
          },
        });
        return c;
      };
      await start('a');
      const b = await start('b');
      await eventually(() => owned.get('a')!.size === 2 && owned.get('b')!.size === 2, 'partitions split 2/2');
      const p = await producer();
      for (let i = 0; i < 4; i++) await p.produce({ topic: t, partition: i, records: [rec(null, `v${i}`)] });
      await eventually(() => seen.length === 4, 'four records delivered');
      await b.close();
      await eventually(() => owned.get('a')!.size === 4, 'a owns all partitions');
      await p.produce({ topic: t, partition: 3, records: [rec(null, 'after')] });
      await eventually(() => seen.includes('after'), 'record after the rebalance');
    });

    it('group consumer: read_committed skips aborted data, starts at the committed offset, seek and committed()', async () => {
      const t = await topic();
      const group = uniqueGroup('contract');
      const p = await producer(uniqueName('tx'));
      for (const [v, commit] of [['a', true], ['b', false], ['c', true], ['d', true]] as const) {
        await p.beginTransaction();
        await p.produce({ topic: t, partition: 0, records: [rec('k', v)] });
        // a: 0, marker 1, b: 2, marker 3, c: 4, marker 5, d: 6, marker 7; the group starts after a
        if (v === 'a') await p.sendOffsets(group, [{ topic: t, partition: 0, offset: 2 }]);
        await (commit ? p.commitTransaction() : p.abortTransaction());
      }
      await eventually(async () => (await ctx.admin.committedOffsets(group, t))[0] === 2, 'offset 2 committed');
      const got: { offset: number; value: string }[] = [];
      let seeked = false;
      const c = track(ctx.cluster.consumer({ groupId: group, ...ctx.consumerTiming }));
      await c.subscribe([t]);
      await c.run({
        onAssignment: async () => undefined,
        eachBatch: async (b: FetchedBatch) => {
          for (const r of b.records) got.push({ offset: r.offset, value: r.value!.toString() });
        },
      });
      await eventually(() => got.length === 2, 'c and d');
      expect(got).toEqual([{ offset: 4, value: 'c' }, { offset: 6, value: 'd' }]);
      expect(await c.committed([{ topic: t, partition: 0 }])).toEqual([{ topic: t, partition: 0, offset: 2 }]);
      await c.commitOffsets([{ topic: t, partition: 0, offset: 7 }]);
      expect(await ctx.admin.committedOffsets(group, t)).toEqual([7]);
      c.seek({ topic: t, partition: 0, offset: 0 });
      seeked = true;
      await eventually(() => got.length === 5, 'a, c and d again after seek');
      expect(seeked && got.slice(2).map((g) => g.value)).toEqual(['a', 'c', 'd']);
    });

    describe('validation errors', () => {
      it('keyless record to a compacted topic -> INVALID_RECORD (87) with record_errors naming the index', async () => {
        const t = await topic(1, { 'cleanup.policy': 'compact' });
        const p = await producer();
        const e = await rejection(p.produce({ topic: t, partition: 0, records: [rec('a', '1'), rec(null, '2'), rec('c', '3')] }));
        expect(e.kafkaCode).toBe(KafkaErrorCode.INVALID_RECORD);
        expect(e.recordErrors.map((x) => x.batchIndex)).toEqual([1]);
        expect(e.recordErrors[0]!.message).toMatch(/Compacted topic cannot accept message without key/);
        // the batch was not written and the producer's sequence is unchanged
        expect(await p.produce({ topic: t, partition: 0, records: [rec('a', '1')] })).toMatchObject({ baseOffset: 0 });
      });

      it('batch over max.message.bytes -> MESSAGE_TOO_LARGE (10)', async () => {
        const t = await topic(1, { 'max.message.bytes': '2048' });
        const p = await producer();
        const e = await rejection(p.produce({ topic: t, partition: 0, records: [rec('k', 'x'.repeat(3000))] }));
        expect(e.kafkaCode).toBe(KafkaErrorCode.MESSAGE_TOO_LARGE);
        expect(await p.produce({ topic: t, partition: 0, records: [rec('k', 'small')] })).toMatchObject({ baseOffset: 0 });
      });

      it('CreateTime beyond message.timestamp.after.max.ms -> INVALID_TIMESTAMP (32) with record_errors', async () => {
        const t = await topic();
        const p = await producer();
        const future = Date.now() + 2 * 3_600_000;
        const e = await rejection(p.produce({ topic: t, partition: 0, records: [rec('a', '1'), rec('b', '2', { timestamp: future })] }));
        expect(e.kafkaCode).toBe(KafkaErrorCode.INVALID_TIMESTAMP);
        expect(e.recordErrors.map((x) => x.batchIndex)).toEqual([1]);
      });
    });
  });
}

/**
 * Identical raw record-batch bytes sent to a real broker (Produce v8 over a
 * socket) and to the embedded broker: same error code, same record_errors
 * indexes, same base offset. Deliberate differences are listed in
 * src/cluster/embedded/README.md (UNKNOWN_PRODUCER_ID for never-issued ids; a gzip batch
 * with bad inner offsets, where Kafka 4.4 answers UNKNOWN_SERVER_ERROR).
 */
const brokers = kafkaBrokers();
(brokers ? describe : describe.skip)(`raw produce parity: embedded vs real broker${brokers ? '' : ` [skipped: ${kafkaSkipReason()}]`}`, () => {
  const now = Date.now();
  const r = (key: string | null, timestamp = now) => ({ key: key === null ? null : Buffer.from(key), value: Buffer.from('v'), timestamp });
  const patched = (batch: NewBatch, edit: (b: Buffer) => void) => {
    const b = encodeBatch(batch);
    edit(b);
    b.writeUInt32BE(crc32c(b.subarray(CRC_OFFSET + 4)), CRC_OFFSET);
    return b;
  };
  const pid = 770_000_000 + Math.floor(Math.random() * 1_000_000);
  const seq = (epoch: number, baseSequence: number, n = 1): NewBatch => ({ producerId: pid, producerEpoch: epoch, baseSequence, records: Array.from({ length: n }, (_, i) => r(`k${i}`)) });
  const cases: [string, Buffer][] = [
    ['valid batch', encodeBatch({ records: [r('a'), r(null)] })],
    ['CRC mismatch', (() => { const b = encodeBatch({ records: [r('a')] }); b[b.length - 1]! ^= 0xff; return b; })()],
    ['magic 1', (() => { const b = encodeBatch({ records: [r('a')] }); b.writeInt8(1, 16); return b; })()],
    ['base offset 3', encodeBatch({ baseOffset: 3, records: [r('a')] })],
    ['last offset delta vs count', patched({ records: [r('a'), r('b')] }, (b) => b.writeInt32BE(4, 23))],
    ['declared count vs records', patched({ records: [r('a'), r('b')] }, (b) => { b.writeInt32BE(2, 23); b.writeInt32BE(3, 57); })],
    ['control batch from a client', encodeBatch({ attributes: BatchAttr.CONTROL, records: [r('a')] })],
    ['uncompressed odd offset deltas', encodeBatch({ records: [r('a'), { ...r('b'), offsetDelta: 5 }] })],
    ['gzip batch', encodeBatch({ gzip: true, records: [r('a'), r('b')] })],
    ['timestamps out of range', encodeBatch({ records: [r('a'), r('b', now + 7_200_000), r('c', now + 7_300_000)] })],
    ['batch flagged LogAppendTime', encodeBatch({ attributes: BatchAttr.TIMESTAMP_LOG_APPEND, records: [r('a'), r('b')] })],
    ['idempotent without sequence', encodeBatch({ ...seq(0, 0), baseSequence: -1 })],
    ['seq 0..1', encodeBatch(seq(0, 0, 2))],
    ['seq 2', encodeBatch(seq(0, 2))],
    ['sequence gap', encodeBatch(seq(0, 5))],
    ['duplicate of 0..1', encodeBatch(seq(0, 0, 2))],
    ['new epoch, sequence 1', encodeBatch(seq(3, 1))],
    ['new epoch, sequence 0', encodeBatch(seq(3, 0))],
    ['older epoch', encodeBatch(seq(2, 1))],
  ];

  it('answers every case like the real broker', async () => {
    const topic = uniqueTopic('raw-parity');
    const kafka = await backends().then((all) => all.find((b) => b.name === 'kafka')!.create());
    const embedded = new EmbeddedKafkaCluster({ tickIntervalMs: 0 });
    try {
      await kafka.admin.createTopic(topic, {});
      await embedded.createTopic(topic);
      (brokerOf(embedded).txn as unknown as { issued: Set<number> }).issued.add(pid); // a real leader accepts unknown ids
      for (const [name, bytes] of cases) {
        const real = await rawProduceV8(brokers![0]!, topic, 0, bytes);
        let mine: { errorCode: number; baseOffset: number; indexes: number[] };
        try {
          mine = { errorCode: 0, baseOffset: brokerOf(embedded).produceNow(topic, 0, bytes), indexes: [] };
        } catch (e) {
          const k = e as KafkaProtocolError;
          mine = { errorCode: k.kafkaCode, baseOffset: -1, indexes: k.recordErrors.map((x) => x.batchIndex) };
        }
        expect(mine, name).toEqual({ errorCode: real.errorCode, baseOffset: real.baseOffset, indexes: real.recordErrors.map((x) => x.batchIndex) });
      }
    } finally {
      await kafka.close();
      await embedded.close();
    }
  });
});
