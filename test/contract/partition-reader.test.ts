/**
 * The partition reader (`ClusterPort.reader()`, Kafka's `assign()` consumer
 * used to restore changelogs), the same cases on the embedded cluster and on
 * real Kafka: read_committed returns exactly the committed records in order,
 * `endOffset` is the last stable offset, `nextOffset` moves past transaction
 * markers and aborted records, a read at the end waits at most `maxWaitMs`,
 * OFFSET_OUT_OF_RANGE beyond the end, read_uncommitted sees every data record.
 * The data is written with the project's raw producer port.
 */
import { afterEach, expect, it } from 'vitest';
import type { ConsumedRecord, PartitionReaderPort, RawProducerPort, TopicPartition, WireRecord } from '../../src/cluster/port.js';
import { IllegalArgumentError, KafkaErrorCode, KafkaProtocolError } from '../../src/errors.js';
import { uniqueName, uniqueTopic, waitFor } from '../helpers/index.js';
import { describeOnEachBackend } from './support/handler-suite.js';

const rec = (key: string, value: string | null): WireRecord => ({ key: Buffer.from(key), value: value === null ? null : Buffer.from(value), headers: {}, timestamp: Date.now() });
const kv = (rs: ConsumedRecord[]) => rs.map((r) => [r.offset, r.key?.toString() ?? null, r.value?.toString() ?? null]);

await describeOnEachBackend('partition reader', (backend, fx) => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).reverse().map((c) => c.close().catch(() => undefined)));
  });
  const producer = async (transactional: boolean): Promise<RawProducerPort> => {
    const p = fx.ctx.cluster.producer({ transactionalId: transactional ? uniqueName('reader-txn') : undefined });
    open.push(p);
    await p.connect();
    return p;
  };
  const reader = (isolationLevel?: 'read_committed' | 'read_uncommitted'): PartitionReaderPort => {
    const factory = fx.ctx.cluster.reader;
    if (!factory) throw new Error(`${backend.name}: ClusterPort.reader() missing`);
    const r = factory.call(fx.ctx.cluster, isolationLevel ? { isolationLevel } : {});
    open.push(r);
    return r;
  };
  const topic = async (partitions = 1, config: Record<string, string> = {}): Promise<string> => {
    const name = uniqueTopic(`reader-${backend.name}`);
    await fx.ctx.admin.createTopic(name, { partitions, config });
    return name;
  };
  const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: fx.ctx.patienceMs, intervalMs: 20, message });
  /** Reads `tp` from `from` until `nextOffset` reaches `end`; every fetch must make progress or return records. */
  const readUpTo = async (r: PartitionReaderPort, tp: TopicPartition, from: number, end: number, maxBytes?: number) => {
    const records: ConsumedRecord[] = [];
    const positions: number[] = [];
    let offset = from;
    while (offset < end) {
      const result = await r.fetch(tp, offset, { maxBytes, maxWaitMs: 200 });
      records.push(...result.records);
      expect(result.nextOffset).toBeGreaterThanOrEqual(offset);
      offset = result.nextOffset;
      positions.push(offset);
      if (positions.length > 200) throw new Error(`no progress reading ${tp.topic}-${tp.partition}: positions ${positions.slice(-5).join(', ')}`);
    }
    return { records, nextOffset: offset, positions };
  };

  /**
   * One partition: a1 (txn A) 0, b1 (txn B) 1, a2 (A) 2, n1 (idempotent, no txn) 3, commit-A marker 4,
   * b2 (B) 5, abort-B marker 6, c1 (txn C, left open) 7. High watermark 8, last stable offset 7.
   */
  const interleaved = async () => {
    const t = await topic();
    const [a, b, c, plain] = [await producer(true), await producer(true), await producer(true), await producer(false)];
    const tp = { topic: t, partition: 0 };
    // the high watermark (the admin port's endOffsets answers the LSO on real Kafka: kafkajs' ListOffsets is read_committed)
    const hw = reader('read_uncommitted');
    const highWatermark = async () => (await hw.endOffsets(t))[0];
    await a.beginTransaction();
    await b.beginTransaction();
    expect((await a.produce({ ...tp, records: [rec('a', 'a1')] })).baseOffset).toBe(0);
    expect((await b.produce({ ...tp, records: [rec('b', 'b1')] })).baseOffset).toBe(1);
    expect((await a.produce({ ...tp, records: [rec('a', 'a2')] })).baseOffset).toBe(2);
    expect((await plain.produce({ ...tp, records: [rec('n', 'n1')] })).baseOffset).toBe(3);
    await a.commitTransaction();
    await eventually(async () => (await highWatermark()) === 5, 'the commit marker of A written');
    expect((await b.produce({ ...tp, records: [rec('b', 'b2')] })).baseOffset).toBe(5);
    await b.abortTransaction();
    await eventually(async () => (await highWatermark()) === 7, 'the abort marker of B written');
    await c.beginTransaction();
    expect((await c.produce({ ...tp, records: [rec('c', 'c1')] })).baseOffset).toBe(7);
    return { t, tp, c };
  };

  it('read_committed: exactly the committed records in order; endOffset is the LSO, held back by an open transaction and moved by its commit', async () => {
    const { t, tp, c } = await interleaved();
    const r = reader();
    expect(await r.endOffsets(t)).toEqual([7]);

    const first = await r.fetch(tp, 0);
    expect(first.endOffset).toBe(7);
    const { records, nextOffset } = await readUpTo(r, tp, 0, 7);
    expect(kv(records)).toEqual([[0, 'a', 'a1'], [2, 'a', 'a2'], [3, 'n', 'n1']]);
    expect(nextOffset).toBe(7); // past b2 (aborted) and both markers

    // the open transaction holds the end back: nothing at 7 yet
    const held = await r.fetch(tp, 7, { maxWaitMs: 100 });
    expect(held).toEqual({ records: [], nextOffset: 7, endOffset: 7 });

    await c.commitTransaction();
    await eventually(async () => (await r.endOffsets(t))[0] === 9, 'the LSO past the commit marker of C');
    const tail = await readUpTo(r, tp, 7, 9);
    expect(kv(tail.records)).toEqual([[7, 'c', 'c1']]);
    expect(tail.nextOffset).toBe(9);
  });

  it('nextOffset moves past markers and aborted records: a fetch of only those returns no record and a later position', async () => {
    const { tp } = await interleaved();
    const r = reader();
    const first = await r.fetch(tp, 4); // commit marker A, b2 (aborted), abort marker B
    expect(first.records).toEqual([]);
    expect(first.nextOffset).toBeGreaterThan(4);
    const rest = await readUpTo(r, tp, first.nextOffset, 7);
    expect(rest.records).toEqual([]);
    expect(rest.nextOffset).toBe(7);
  });

  it('a read at the end waits at most maxWaitMs and returns nothing; beyond the end rejects with OFFSET_OUT_OF_RANGE', async () => {
    const t = await topic();
    const tp = { topic: t, partition: 0 };
    const p = await producer(false);
    await p.produce({ ...tp, records: [rec('k', 'v1'), rec('k', 'v2')] });
    const r = reader();
    const started = Date.now();
    const atEnd = await r.fetch(tp, 2, { maxWaitMs: 300 });
    const waited = Date.now() - started;
    expect(atEnd).toEqual({ records: [], nextOffset: 2, endOffset: 2 });
    expect(waited).toBeGreaterThanOrEqual(200);
    expect(waited).toBeLessThan(3_000);

    const beyond = await r.fetch(tp, 10).then(() => undefined, (e: unknown) => e);
    expect(beyond).toBeInstanceOf(KafkaProtocolError);
    expect((beyond as KafkaProtocolError).kafkaCode).toBe(KafkaErrorCode.OFFSET_OUT_OF_RANGE);
    await expect(r.fetch(tp, -1)).rejects.toBeInstanceOf(IllegalArgumentError);
  });

  it('a record written while a read waits at the end is returned by that read', async () => {
    const t = await topic();
    const tp = { topic: t, partition: 0 };
    const p = await producer(false);
    const r = reader();
    const waiting = r.fetch(tp, 0, { maxWaitMs: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await p.produce({ ...tp, records: [rec('k', 'late')] });
    const result = await waiting;
    expect(kv(result.records)).toEqual([[0, 'k', 'late']]);
    expect(result.nextOffset).toBe(1);
  });

  it('read_uncommitted sees every data record (aborted and open transactions too), no marker; endOffset is the high watermark', async () => {
    const { t, tp } = await interleaved();
    const r = reader('read_uncommitted');
    expect(await r.endOffsets(t)).toEqual([8]);
    const { records, nextOffset } = await readUpTo(r, tp, 0, 8);
    expect(kv(records)).toEqual([[0, 'a', 'a1'], [1, 'b', 'b1'], [2, 'a', 'a2'], [3, 'n', 'n1'], [5, 'b', 'b2'], [7, 'c', 'c1']]);
    expect(nextOffset).toBe(8);
    expect((await r.fetch(tp, 0)).endOffset).toBe(8);
  });

  it('a compacted changelog-like topic: every committed update in order (tombstones included), aborted ones never, batch by batch with a small maxBytes', async () => {
    const t = await topic(2, { 'cleanup.policy': 'compact' });
    const tp = { topic: t, partition: 1 };
    const txn = await producer(true);
    const committed: [string, string | null][] = [];
    for (let round = 0; round < 6; round++) {
      await txn.beginTransaction();
      const updates: [string, string | null][] = [[`k${round % 3}`, `v${round}`], [`k${(round + 1) % 3}`, round === 4 ? null : `w${round}`]];
      for (const [key, value] of updates) await txn.produce({ ...tp, records: [rec(key, value)] });
      if (round === 2) {
        await txn.abortTransaction();
      } else {
        await txn.commitTransaction();
        committed.push(...updates);
      }
    }
    const r = reader();
    const end = await eventually(async () => {
      const offsets = await r.endOffsets(t);
      return offsets[1] === 18 && offsets; // 6 rounds × (2 records + 1 marker)
    }, 'every marker written');
    expect(end).toEqual([0, 18]);
    const { records, nextOffset, positions } = await readUpTo(r, tp, 0, 18, 1);
    expect(records.map((x) => [x.key?.toString(), x.value?.toString() ?? null])).toEqual(committed);
    expect(records.map((x) => x.offset)).toEqual([...records.map((x) => x.offset)].sort((x, y) => x - y));
    expect(nextOffset).toBe(18);
    expect(positions.length).toBeGreaterThan(1); // maxBytes 1: one batch per fetch, not all at once
    expect(await r.fetch({ topic: t, partition: 0 }, 0, { maxWaitMs: 50 })).toEqual({ records: [], nextOffset: 0, endOffset: 0 });
  });

  it('endOffsets of an unknown topic rejects with UNKNOWN_TOPIC_OR_PARTITION; a closed reader rejects', async () => {
    const r = reader();
    const e = await r.endOffsets(uniqueTopic('missing')).then(() => undefined, (x: unknown) => x);
    expect(e).toBeInstanceOf(KafkaProtocolError);
    expect((e as KafkaProtocolError).kafkaCode).toBe(KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    const t = await topic();
    await r.close();
    await expect(r.endOffsets(t)).rejects.toThrow(/closed/);
  });
});
