/**
 * Shared pieces of the exactly-once integration tests (real Kafka): the app
 * under test, input production with known coordinates, and the DESIGN.md §6
 * invariant check.
 *
 * Input record i has key `k<i>` and value `<i>`, goes to partition i % P and,
 * produced in order by an idempotent producer into a fresh topic, has offset
 * floor(i / P). The app maps value `<i>` to `out-<i>`, so every output names
 * the input that produced it.
 */
import { expect } from 'vitest';
import type { ReadRecord } from '../helpers/index.js';
import { quietKafka, uniqueGroup } from '../helpers/index.js';
export { invariantTopology } from './fixtures/topology.js';

/** Produces inputs `from` .. `from + count - 1` (see the module comment). */
export async function produceInputs(brokers: string[], topic: string, partitions: number, from: number, count: number): Promise<void> {
  const producer = quietKafka(brokers).producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    const chunk = 4000;
    for (let start = from; start < from + count; start += chunk) {
      const end = Math.min(from + count, start + chunk);
      const messages = [];
      for (let i = start; i < end; i++) messages.push({ key: `k${i}`, value: String(i), partition: i % partitions });
      await producer.send({ topic, acks: -1, messages });
    }
  } finally {
    await producer.disconnect();
  }
}

/** The input index an output record came from. */
export function inputIndexOf(record: Pick<ReadRecord, 'value'>): number {
  const text = record.value?.toString() ?? '';
  if (!text.startsWith('out-')) throw new Error(`unexpected output value ${text}`);
  return Number(text.slice(4));
}

/**
 * The DESIGN.md §6 invariant between a read of the outputs (read_committed) and
 * the group's committed offsets read before (`before`) and after (`after`) it:
 * no output twice; every input below `before` has its output; no output whose
 * input is at or above `after`. With a stopped app, before = after.
 */
/**
 * Reads the outputs of a running app for {@link expectInvariant}: committed
 * offsets `before`, the outputs, committed offsets `after`. A transaction's
 * commit makes its offsets visible when its marker reaches `__consumer_offsets`,
 * and its outputs when their markers reach the output partitions: Kafka writes
 * those markers one after the other, so for a moment the offsets can be visible
 * before the outputs. The read is repeated (for at most `settleMs`) until every
 * input below `before` has its output; the check itself stays strict.
 */
export async function readForInvariant(
  read: () => Promise<Pick<ReadRecord, 'value'>[]>,
  committed: () => Promise<number[]>,
  partitions: number,
  settleMs = 10_000,
): Promise<{ outputs: Pick<ReadRecord, 'value'>[]; before: number[]; after: number[] }> {
  const before = await committed();
  const deadline = Date.now() + settleMs;
  for (;;) {
    const outputs = await read();
    const after = await committed();
    const seen = new Set(outputs.map(inputIndexOf));
    const complete = before.every((end, p) => {
      for (let offset = 0; offset < end; offset++) if (!seen.has(offset * partitions + p)) return false;
      return true;
    });
    if (complete || Date.now() > deadline) return { outputs, before, after };
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function expectInvariant(outputs: Pick<ReadRecord, 'value'>[], partitions: number, before: number[], after: number[]): void {
  const seen = new Map<number, number>();
  for (const r of outputs) {
    const i = inputIndexOf(r);
    seen.set(i, (seen.get(i) ?? 0) + 1);
  }
  const duplicates = [...seen].filter(([, n]) => n > 1).map(([i]) => i);
  expect(duplicates, 'outputs seen more than once').toEqual([]);
  const aboveCommitted = [...seen.keys()].filter((i) => Math.floor(i / partitions) >= Math.max(0, after[i % partitions]!));
  expect(aboveCommitted.slice(0, 10), 'outputs visible although their input is not committed').toEqual([]);
  const missing: number[] = [];
  for (let p = 0; p < partitions; p++) {
    for (let offset = 0; offset < Math.max(0, before[p]!); offset++) {
      const i = offset * partitions + p;
      if (!seen.has(i)) missing.push(i);
    }
  }
  expect(missing.slice(0, 10), 'committed inputs without their output').toEqual([]);
}

interface RawMessage {
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  isControlRecord?: boolean;
  batchContext?: { producerId: string; inTransaction: boolean };
}

/**
 * What a read_committed reader sees, computed from the transaction markers of
 * a read_uncommitted read: a transactional record is visible iff the next
 * control record of its producer on that partition is a COMMIT marker.
 *
 * Why not kafkajs' read_committed: kafkajs 2.2.4 `filterAbortedMessages`
 * assumes the broker's `abortedTransactions` are sorted by first offset, but
 * the broker lists them in marker order; when transactions of several
 * producers interleave on a partition, records of an aborted transaction leak
 * (observed here: a killed worker's aborted outputs shown as committed).
 */
export async function readCommittedByMarkers(brokers: string[], topic: string, timeoutMs = 60_000): Promise<Pick<ReadRecord, 'partition' | 'offset' | 'key' | 'value'>[]> {
  const kafka = quietKafka(brokers);
  const admin = kafka.admin();
  await admin.connect();
  const ends = await admin.fetchTopicOffsets(topic);
  await admin.disconnect();
  const target = new Map(ends.map((e) => [e.partition, Number(e.high)]));
  const byPartition = new Map<number, Map<number, RawMessage>>(ends.map((e) => [e.partition, new Map()]));
  const done = () => [...target].every(([p, high]) => high === 0 || [...byPartition.get(p)!.keys()].some((o) => o >= high - 1));
  if (!done()) {
    // maxWaitTimeInMs: a fetch at the end of a partition waits at most 100 ms; with kafkajs' default (5 s)
    // disconnect() waits for that long poll, and every read took 5 s more
    const consumer = kafka.consumer({ groupId: uniqueGroup('markers-reader'), readUncommitted: true, maxWaitTimeInMs: 100 });
    await consumer.connect();
    try {
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachBatch: async ({ batch }) => {
          const raw = (batch as unknown as { rawMessages?: RawMessage[] }).rawMessages ?? [];
          const map = byPartition.get(batch.partition)!;
          for (const m of raw) map.set(Number(m.offset), m);
        },
      });
      const deadline = Date.now() + timeoutMs;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`readCommittedByMarkers(${topic}): timed out`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await consumer.disconnect();
    }
  }
  const visible: Pick<ReadRecord, 'partition' | 'offset' | 'key' | 'value'>[] = [];
  for (const [partition, map] of byPartition) {
    const messages = [...map.entries()].sort((a, b) => a[0] - b[0]);
    const open = new Map<string, RawMessage[]>();
    for (const [offset, m] of messages) {
      if (offset >= target.get(partition)!) continue;
      const pid = m.batchContext?.producerId ?? '';
      if (m.isControlRecord) {
        const commit = m.key !== null && m.key.length >= 4 && m.key.readInt16BE(2) === 1;
        if (commit) for (const r of open.get(pid) ?? []) visible.push({ partition, offset: Number(r.offset), key: r.key, value: r.value });
        open.delete(pid);
      } else if (m.batchContext?.inTransaction) {
        (open.get(pid) ?? open.set(pid, []).get(pid)!).push(m);
      } else {
        visible.push({ partition, offset, key: m.key, value: m.value });
      }
    }
  }
  return visible.sort((a, b) => a.partition - b.partition || a.offset - b.offset);
}
