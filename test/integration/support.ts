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
import { quietKafka } from '../helpers/index.js';
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
