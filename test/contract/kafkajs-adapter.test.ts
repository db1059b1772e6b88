/**
 * Contract of the kafkajs adapter (src/cluster/kafkajs) on a real broker:
 * admin, one-partition raw produce, Produce v8 record errors, transactions with
 * sendOffsets, fencing, the group consumer's assignment/seek/order semantics.
 */
import { afterEach, expect, it } from 'vitest';
import { createKafkaCluster } from '../../src/cluster/kafkajs/index.js';
import type { AdminPort, ClusterPort, GroupConsumerPort, RawProducerPort, WireRecord } from '../../src/cluster/port.js';
import { IllegalStateError, KafkaProtocolError, ProducerFencedError } from '../../src/errors.js';
import { describeKafka, readAll, uniqueGroup, uniqueName, uniqueTopic, waitFor, type ReadRecord } from '../helpers/index.js';

const rec = (key: string | null, value: string | null, headers: WireRecord['headers'] = {}): WireRecord => ({
  key: key === null ? null : Buffer.from(key),
  value: value === null ? null : Buffer.from(value),
  headers,
  timestamp: Date.now(),
});
const values = (records: ReadRecord[]) => records.map((r) => r.value?.toString() ?? null);

describeKafka('kafkajs adapter (real broker)', (brokers) => {
  let cluster: ClusterPort;
  const open: Array<{ close(): Promise<void> }> = [];
  const track = <T extends { close(): Promise<void> }>(c: T): T => {
    open.push(c);
    return c;
  };
  const getCluster = () => (cluster ??= createKafkaCluster({ bootstrapServers: brokers }));
  const admin = (): AdminPort => track(getCluster().admin());
  const producer = async (transactionalId?: string): Promise<RawProducerPort> => {
    const p = track(getCluster().producer({ transactionalId }));
    await p.connect();
    return p;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).reverse().map((c) => c.close().catch(() => undefined)));
  });

  it('admin: creates, describes (effective configs), alters incrementally, lists and deletes topics', async () => {
    const a = admin();
    const topic = uniqueTopic('adm');
    await a.createTopic(topic, { partitions: 3, config: { 'max.message.bytes': '4096' } });
    expect(await a.listTopics()).toContain(topic);
    const described = await a.describeTopic(topic);
    expect(described).toMatchObject({ name: topic, partitions: 3 });
    expect(described.config['max.message.bytes']).toBe('4096');
    expect(described.config['cleanup.policy']).toBe('delete'); // a broker default
    for (const key of ['message.timestamp.type', 'message.timestamp.before.max.ms', 'message.timestamp.after.max.ms']) {
      expect(described.config[key], key).toBeDefined();
    }
    await a.alterTopicConfig(topic, { 'cleanup.policy': 'compact' });
    const altered = await a.describeTopic(topic);
    expect(altered.config['cleanup.policy']).toBe('compact');
    expect(altered.config['max.message.bytes']).toBe('4096'); // kept: alteration is incremental
    expect(await a.endOffsets(topic)).toEqual([0, 0, 0]);
    expect(await a.committedOffsets(uniqueGroup('none'), topic)).toEqual([-1, -1, -1]);
    await expect(a.createTopic(topic)).rejects.toMatchObject({ kafkaCode: 36 });
    await a.deleteTopic(topic);
    expect(await a.listTopics()).not.toContain(topic);
    await a.createTopic(topic, { partitions: 1 }); // deleted for good: the name is free again
    expect((await a.describeTopic(topic)).partitions).toBe(1);
  });

  it('admin: an unknown topic rejects with UNKNOWN_TOPIC_OR_PARTITION naming it', async () => {
    const a = admin();
    const topic = uniqueTopic('missing');
    for (const call of [() => a.describeTopic(topic), () => a.endOffsets(topic), () => a.deleteTopic(topic)]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(KafkaProtocolError);
      expect(error).toMatchObject({ kafkaCode: 3, code: 'UNKNOWN_TOPIC_OR_PARTITION' });
      expect((error as Error).message).toContain(topic);
    }
  });

  it('raw producer: one-partition batches, offsets acknowledged, records read back intact', async () => {
    const a = admin();
    const topic = uniqueTopic('raw');
    await a.createTopic(topic, { partitions: 2 });
    const p = await producer();
    const ack0 = await p.produce({ topic, partition: 1, records: [rec('a', 'one', { h: 'x' }), rec(null, 'two')] });
    const ack1 = await p.produce({ topic, partition: 1, records: [rec('c', null)] });
    const ack2 = await p.produce({ topic, partition: 0, records: [rec('d', 'four')] });
    expect([ack0, ack1, ack2]).toEqual([
      { topic, partition: 1, baseOffset: 0 },
      { topic, partition: 1, baseOffset: 2 },
      { topic, partition: 0, baseOffset: 0 },
    ]);
    expect(await a.endOffsets(topic)).toEqual([1, 3]);
    const all = await readAll(brokers, topic);
    expect(all.map((r) => [r.partition, r.offset, r.key?.toString() ?? null, r.value?.toString() ?? null])).toEqual([
      [0, 0, 'd', 'four'],
      [1, 0, 'a', 'one'],
      [1, 1, null, 'two'],
      [1, 2, 'c', null],
    ]);
    expect(all[1]!.headers.h?.toString()).toBe('x');
  });

  it('Produce v8: a keyless record on a compacted topic gives INVALID_RECORD with record_errors; the good records then go through', async () => {
    const a = admin();
    const topic = uniqueTopic('v8');
    await a.createTopic(topic, { partitions: 1, config: { 'cleanup.policy': 'compact' } });
    const p = await producer();
    const error = await p.produce({ topic, partition: 0, records: [rec('k1', 'good-1'), rec(null, 'bad'), rec('k3', 'good-3')] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KafkaProtocolError);
    const kpe = error as KafkaProtocolError;
    expect(kpe.kafkaCode).toBe(87);
    expect(kpe.kind).toBe('record');
    expect(kpe.recordErrors).toHaveLength(1);
    expect(kpe.recordErrors[0]!.batchIndex).toBe(1);
    expect(kpe.recordErrors[0]!.message).toMatch(/Compacted topic cannot accept message without key/);
    expect(kpe.errorMessage).toMatch(/record errors/);
    // The sequence is not desynchronised: the two good records are accepted at offset 0.
    const ack = await p.produce({ topic, partition: 0, records: [rec('k1', 'good-1'), rec('k3', 'good-3')] });
    expect(ack.baseOffset).toBe(0);
    expect(values(await readAll(brokers, topic))).toEqual(['good-1', 'good-3']);
  });

  it('transactions: committed output and offsets become visible, aborted ones do not', async () => {
    const a = admin();
    const topic = uniqueTopic('txn');
    const groupId = uniqueGroup('txn');
    await a.createTopic(topic, { partitions: 1 });
    const p = await producer(uniqueName('txn'));
    await expect(p.produce({ topic, partition: 0, records: [rec('k', 'v')] })).rejects.toBeInstanceOf(IllegalStateError);
    await p.beginTransaction();
    await p.produce({ topic, partition: 0, records: [rec('k', 'committed-1'), rec('k', 'committed-2')] });
    await p.sendOffsets(groupId, [{ topic, partition: 0, offset: 5 }]);
    await p.commitTransaction();
    await p.beginTransaction();
    await p.produce({ topic, partition: 0, records: [rec('k', 'aborted')] });
    await p.sendOffsets(groupId, [{ topic, partition: 0, offset: 9 }]);
    await p.abortTransaction();
    expect(await a.committedOffsets(groupId, topic)).toEqual([5]);
    await waitFor(async () => values(await readAll(brokers, topic)).length === 2, { message: 'committed records' });
    expect(values(await readAll(brokers, topic))).toEqual(['committed-1', 'committed-2']);
    expect(values(await readAll(brokers, topic, { isolation: 'read_uncommitted' }))).toEqual(['committed-1', 'committed-2', 'aborted']);
  });

  it('fencing: a second producer with the same transactional id fences the first', async () => {
    const a = admin();
    const topic = uniqueTopic('fence');
    await a.createTopic(topic, { partitions: 1 });
    const id = uniqueName('fence');
    const first = await producer(id);
    await first.beginTransaction();
    await first.produce({ topic, partition: 0, records: [rec('k', 'zombie')] });
    const second = await producer(id); // InitProducerId: bumps the epoch, aborts the first one's transaction
    const error = await first
      .produce({ topic, partition: 0, records: [rec('k', 'zombie-2')] })
      .then(() => first.commitTransaction())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProducerFencedError);
    expect((error as ProducerFencedError).kind).toBe('fencing');
    await expect(first.abortTransaction()).rejects.toBeInstanceOf(ProducerFencedError); // unusable from now on
    await second.beginTransaction();
    await second.produce({ topic, partition: 0, records: [rec('k', 'owner')] });
    await second.commitTransaction();
    await waitFor(async () => values(await readAll(brokers, topic)).includes('owner'), { message: 'owner record' });
    expect(values(await readAll(brokers, topic))).toEqual(['owner']);
  });

  it('MESSAGE_TOO_LARGE: a batch over max.message.bytes is rejected as a whole; smaller batches go through', async () => {
    const a = admin();
    const topic = uniqueTopic('large');
    await a.createTopic(topic, { partitions: 1, config: { 'max.message.bytes': '2048' } });
    const p = await producer();
    const big = 'x'.repeat(3000);
    const error = await p.produce({ topic, partition: 0, records: [rec('a', 'small'), rec('b', big)] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KafkaProtocolError);
    expect((error as KafkaProtocolError).kafkaCode).toBe(10);
    // Kafka names no culprit for a batch over the size limit (record_errors empty): the eos layer must split.
    expect((error as KafkaProtocolError).recordErrors).toEqual([]);
    const ack = await p.produce({ topic, partition: 0, records: [rec('a', 'small')] });
    expect(ack.baseOffset).toBe(0);
  });

  it('after an INVALID_RECORD rejection, 10,000 more records over 4 partitions produce without sequence errors', async () => {
    const a = admin();
    const topic = uniqueTopic('bulk');
    await a.createTopic(topic, { partitions: 4, config: { 'cleanup.policy': 'compact' } });
    const p = await producer(uniqueName('bulk'));
    await p.beginTransaction();
    await expect(p.produce({ topic, partition: 2, records: [rec('k', 'ok'), rec(null, 'bad')] })).rejects.toMatchObject({ kafkaCode: 87 });
    const perPartition = 2500;
    const batch = 250;
    await Promise.all(
      [0, 1, 2, 3].map(async (partition) => {
        for (let start = 0; start < perPartition; start += batch) {
          const records = Array.from({ length: batch }, (_, i) => rec(`k${partition}-${start + i}`, `v${start + i}`));
          const ack = await p.produce({ topic, partition, records });
          expect(ack.baseOffset).toBe(start);
        }
      }),
    );
    await p.commitTransaction();
    await waitFor(async () => (await a.endOffsets(topic)).every((o) => o === perPartition + 1), { message: 'end offsets (+1 commit marker)' });
  });
});

describeKafka('kafkajs adapter group consumer (real broker)', (brokers) => {
  let cluster: ClusterPort;
  const open: Array<{ close(): Promise<void> }> = [];
  const track = <T extends { close(): Promise<void> }>(c: T): T => {
    open.push(c);
    return c;
  };
  const getCluster = () => (cluster ??= createKafkaCluster({ bootstrapServers: brokers }));
  afterEach(async () => {
    await Promise.all(open.splice(0).reverse().map((c) => c.close().catch(() => undefined)));
  });

  type Change = { assigned: string[]; revoked: string[]; generationId: number };
  function member(groupId: string) {
    const consumer: GroupConsumerPort = track(getCluster().consumer({ groupId, sessionTimeoutMs: 10_000, heartbeatIntervalMs: 500 }));
    const changes: Change[] = [];
    const owned = new Set<number>();
    const batches: Array<{ partition: number; offsets: number[]; epoch: number }> = [];
    const handlers = {
      onAssignment: async (c: { assigned: Array<{ partition: number }>; revoked: Array<{ partition: number }>; generationId: number }) => {
        changes.push({ assigned: c.assigned.map((t) => String(t.partition)), revoked: c.revoked.map((t) => String(t.partition)), generationId: c.generationId });
        for (const t of c.revoked) owned.delete(t.partition);
        for (const t of c.assigned) owned.add(t.partition);
      },
      eachBatch: async (b: { partition: number; records: Array<{ offset: number }> }) => {
        expect(owned.has(b.partition)).toBe(true); // never a batch of a partition not (yet) assigned
        batches.push({ partition: b.partition, offsets: b.records.map((r) => r.offset), epoch: changes.length });
      },
    };
    return { consumer, changes, owned, batches, handlers };
  }

  async function fill(topic: string, partitions: number, perPartition: number) {
    const p = track(getCluster().producer({}));
    await p.connect();
    for (let partition = 0; partition < partitions; partition += 1) {
      const records = Array.from({ length: perPartition }, (_, i) => rec(`k${i}`, `p${partition}-${i}`));
      await p.produce({ topic, partition, records });
    }
  }

  it('two members split a 4-partition topic; when one leaves the other gets all, in offset order', async () => {
    const a = track(getCluster().admin());
    const topic = uniqueTopic('grp');
    const groupId = uniqueGroup('grp');
    await a.createTopic(topic, { partitions: 4 });
    await fill(topic, 4, 5);

    const m1 = member(groupId);
    await m1.consumer.subscribe([topic]);
    const t0 = Date.now();
    await m1.consumer.run(m1.handlers);
    const firstJoinMs = Date.now() - t0;
    await waitFor(() => m1.owned.size === 4, { message: 'first member owns 4' });

    const m2 = member(groupId);
    await m2.consumer.subscribe([topic]);
    const t1 = Date.now();
    await m2.consumer.run(m2.handlers);
    await waitFor(() => m1.owned.size === 2 && m2.owned.size === 2, { message: 'split 2/2', timeoutMs: 30_000 });
    const rebalanceMs = Date.now() - t1;
    console.info(`[kafkajs-adapter] first join ${firstJoinMs} ms, rebalance to 2 members ${rebalanceMs} ms`);
    expect([...m1.owned, ...m2.owned].sort()).toEqual([0, 1, 2, 3]);
    const m1Revoke = m1.changes.at(-1)!;
    expect(m1Revoke.assigned).toEqual([]);
    expect(m1Revoke.revoked).toHaveLength(2);
    expect(m2.changes[0]!.assigned).toHaveLength(2);
    expect(m2.changes[0]!.generationId).toBeGreaterThan(m1.changes[0]!.generationId);

    // the partitions the first member kept were not re-read from the (absent) committed offset
    const kept = [...m1.owned];
    await new Promise((r) => setTimeout(r, 300));
    for (const partition of kept) {
      expect(m1.batches.filter((b) => b.partition === partition).flatMap((b) => b.offsets)).toEqual([0, 1, 2, 3, 4]);
    }

    const t2 = Date.now();
    await m2.consumer.close();
    const closeMs = Date.now() - t2;
    await waitFor(() => m1.owned.size === 4, { message: 'first member owns 4 again', timeoutMs: 30_000 });
    console.info(`[kafkajs-adapter] close ${closeMs} ms, partitions back to the remaining member ${Date.now() - t2} ms`);
    expect(m1.changes.at(-1)!.assigned.sort()).toEqual([...m2.owned].map(String).sort());

    // every partition's records were delivered in offset order, once per ownership (nothing was committed,
    // so a partition that comes back starts again from the beginning)
    await waitFor(() => new Set(m1.batches.concat(m2.batches).flatMap((b) => b.offsets.map((o) => `${b.partition}:${o}`))).size === 20, {
      message: 'all 20 records delivered',
    });
    for (const m of [m1, m2]) {
      for (const epoch of new Set(m.batches.map((b) => b.epoch))) {
        for (let partition = 0; partition < 4; partition += 1) {
          const offsets = m.batches.filter((b) => b.partition === partition && b.epoch === epoch).flatMap((b) => b.offsets);
          if (offsets.length > 0) expect(offsets).toEqual([0, 1, 2, 3, 4]);
        }
      }
    }
  });

  it('seek: inside onAssignment decides the start; during run re-reads from the offset; stale batches are dropped', async () => {
    const a = track(getCluster().admin());
    const topic = uniqueTopic('seek');
    await a.createTopic(topic, { partitions: 1 });
    await fill(topic, 1, 10);
    const consumer = track(getCluster().consumer({ groupId: uniqueGroup('seek'), sessionTimeoutMs: 10_000, heartbeatIntervalMs: 500 }));
    const seen: number[] = [];
    let rewound = false;
    await consumer.subscribe([topic]);
    await consumer.run({
      onAssignment: async ({ assigned }) => {
        await new Promise((r) => setTimeout(r, 200)); // a fetch may already wait at the gate
        for (const tp of assigned) consumer.seek({ ...tp, offset: 6 });
      },
      eachBatch: async (b) => {
        seen.push(...b.records.map((r) => r.offset));
        if (!rewound && seen.includes(9)) {
          rewound = true;
          consumer.seek({ topic, partition: 0, offset: 2 });
        }
      },
    });
    await waitFor(() => seen.length >= 12, { message: '6..9 then 2..9' });
    expect(seen.slice(0, 4)).toEqual([6, 7, 8, 9]);
    expect(seen.slice(4, 12)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await consumer.committed([{ topic, partition: 0 }])).toEqual([{ topic, partition: 0, offset: -1 }]);
    await consumer.commitOffsets([{ topic, partition: 0, offset: 10 }]);
    expect(await consumer.committed([{ topic, partition: 0 }])).toEqual([{ topic, partition: 0, offset: 10 }]);
  });

  it('heartbeats while a batch handler runs longer than the session timeout (no rebalance)', async () => {
    const a = track(getCluster().admin());
    const topic = uniqueTopic('slow');
    await a.createTopic(topic, { partitions: 1 });
    await fill(topic, 1, 3);
    const consumer = track(getCluster().consumer({ groupId: uniqueGroup('slow'), sessionTimeoutMs: 6_000, heartbeatIntervalMs: 500 }));
    const generations: number[] = [];
    let handled = 0;
    await consumer.subscribe([topic]);
    await consumer.run({
      onAssignment: async ({ generationId }) => void generations.push(generationId),
      eachBatch: async (b) => {
        if (handled === 0) await new Promise((r) => setTimeout(r, 8_000)); // > session timeout
        handled += b.records.length;
      },
    });
    await waitFor(() => handled >= 3, { message: 'slow batch handled', timeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(generations).toHaveLength(1); // never kicked out of the group, never re-joined
  }, 30_000);

  it('read_committed hides aborted records; pause holds a partition back until resume', async () => {
    const a = track(getCluster().admin());
    const topic = uniqueTopic('iso');
    await a.createTopic(topic, { partitions: 2 });
    const p = track(getCluster().producer({ transactionalId: uniqueName('iso') }));
    await p.connect();
    for (const [value, commit] of [['c1', true], ['a1', false], ['c2', true]] as const) {
      await p.beginTransaction();
      await p.produce({ topic, partition: 0, records: [rec('k', value)] });
      await (commit ? p.commitTransaction() : p.abortTransaction());
    }
    const plain = track(getCluster().producer({}));
    await plain.connect();
    await plain.produce({ topic, partition: 1, records: [rec('k', 'p1')] });

    const consumer = track(getCluster().consumer({ groupId: uniqueGroup('iso'), sessionTimeoutMs: 10_000, heartbeatIntervalMs: 500 }));
    const seen: string[] = [];
    consumer.pause([{ topic, partition: 1 }]); // before run: applied at assignment
    await consumer.subscribe([topic]);
    await consumer.run({
      onAssignment: async () => undefined,
      eachBatch: async (b) => void seen.push(...b.records.map((r) => `${b.partition}:${r.value?.toString()}`)),
    });
    await waitFor(() => seen.length >= 2, { message: 'committed records of partition 0' });
    await new Promise((r) => setTimeout(r, 700));
    expect(seen).toEqual(['0:c1', '0:c2']);
    consumer.resume([{ topic, partition: 1 }]);
    await waitFor(() => seen.includes('1:p1'), { message: 'resumed partition 1' });
  });

  it('read_committed moves past a fetch made only of aborted records (an aborted transaction larger than one fetch)', async () => {
    const a = track(getCluster().admin());
    const topic = uniqueTopic('big-abort');
    await a.createTopic(topic, { partitions: 1 });
    const p = track(getCluster().producer({ transactionalId: uniqueName('big-abort') }));
    await p.connect();
    // ~2.4 MB of aborted records: the consumer fetches at most 1 MiB per partition, so its
    // first fetches hold aborted records only (no control record, nothing visible).
    await p.beginTransaction();
    const big = 'x'.repeat(100_000);
    for (let batch = 0; batch < 3; batch += 1) {
      await p.produce({ topic, partition: 0, records: Array.from({ length: 8 }, (_, i) => rec(`k${batch}-${i}`, big)) });
    }
    await p.abortTransaction();
    const plain = track(getCluster().producer({}));
    await plain.connect();
    await plain.produce({ topic, partition: 0, records: [rec('k', 'after')] });

    const consumer = track(getCluster().consumer({ groupId: uniqueGroup('big-abort'), sessionTimeoutMs: 10_000, heartbeatIntervalMs: 500 }));
    const seen: Array<[number, string]> = [];
    await consumer.subscribe([topic]);
    await consumer.run({
      onAssignment: async () => undefined,
      eachBatch: async (b) => void seen.push(...b.records.map((r): [number, string] => [r.offset, r.value?.toString().slice(0, 5) ?? ''])),
    });
    await waitFor(() => seen.length >= 1, { message: 'the committed record after the aborted transaction', timeoutMs: 20_000 });
    // 24 aborted records (offsets 0..23) and the abort marker. EndTxn answers before the coordinator has written
    // the marker to the partition, so the plain record lands at 24 or 25: only it is seen, nothing aborted
    expect(seen.map(([, value]) => value)).toEqual(['after']);
    expect([24, 25]).toContain(seen[0]?.[0]);
  });

  it('a throwing eachBatch handler is reported through onError and stops the consumer', async () => {
    const a = track(getCluster().admin());
    const topic = uniqueTopic('crash');
    await a.createTopic(topic, { partitions: 1 });
    await fill(topic, 1, 3);
    const consumer = track(getCluster().consumer({ groupId: uniqueGroup('crash'), sessionTimeoutMs: 10_000, heartbeatIntervalMs: 500 }));
    const errors: Error[] = [];
    let calls = 0;
    await consumer.subscribe([topic]);
    await consumer.run({
      onAssignment: async () => undefined,
      eachBatch: async () => {
        calls += 1;
        throw new Error('handler bug');
      },
      onError: (e) => void errors.push(e),
    });
    await waitFor(() => errors.length > 0, { message: 'onError' });
    expect(errors[0]!.message).toBe('handler bug');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(calls).toBe(1); // stopped: the batch is not redelivered
  });
});
