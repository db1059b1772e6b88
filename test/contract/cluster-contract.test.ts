/**
 * The cluster contract: the same cases against the embedded cluster and real
 * Kafka (kafkajs adapter). Real Kafka is the reference; where the embedded
 * cluster is allowed to differ, a comment says why.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FetchedBatch, GroupConsumerPort, RawProducerPort, TopicPartition, WireRecord } from '../../src/client/port.js';
import { KafkaErrorCode, KafkaProtocolError, StreamsError } from '../../src/errors.js';
import { uniqueGroup, uniqueName, uniqueTopic, waitFor } from '../helpers/index.js';
import { backends, type BackendContext } from './backends.js';

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
        await (commit ? p.commitTransaction() : p.abortTransaction());
      }
      // a: 0, marker 1, b: 2, marker 3, c: 4, marker 5, d: 6, marker 7; start after a
      await p.beginTransaction();
      await p.sendOffsets(group, [{ topic: t, partition: 0, offset: 2 }]);
      await p.commitTransaction();
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
