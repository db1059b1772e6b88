/**
 * The purge of committed repartition records (src/runtime/internal/repartition-purge.ts). Kafka's
 * TaskManagerTest purge cases are ported with their inputs (t1p1, offsets 5 and 17); the interval is
 * StreamThread's `(now - lastPurgeMs) > purgeTimeMs`.
 */
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { AdminPort, TopicPartitionOffset } from '../../../src/cluster/port.js';
import { RepartitionPurger } from '../../../src/runtime/internal/repartition-purge.js';

const T1 = 'app-t1-repartition';
const t1p1 = (offset: number): TopicPartitionOffset => ({ topic: T1, partition: 1, offset });

function setup(deleteRecords: AdminPort['deleteRecords'], intervalMs = 0) {
  const calls: Array<[string, Record<number, number>]> = [];
  const spy = vi.fn(async (topic: string, offsets: ReadonlyMap<number, number>) => {
    calls.push([topic, Object.fromEntries(offsets)]);
    return deleteRecords?.(topic, offsets);
  });
  const warnings: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void (JSON.parse(line).level === 40 && warnings.push(JSON.parse(line).msg)) });
  const purger = new RepartitionPurger({ admin: { deleteRecords: spy } as unknown as AdminPort, repartitionTopics: new Set([T1]), intervalMs, logger, startedAt: 0 });
  return { purger, calls, warnings };
}

describe('RepartitionPurger', () => {
  it('shouldSendPurgeData: deleteRecords before 5, then before 17, in order', async () => {
    const { purger, calls } = setup(async () => undefined);
    purger.maybePurge(1, () => [t1p1(5)]);
    await purger.inFlight;
    purger.maybePurge(2, () => [t1p1(17)]);
    await purger.inFlight;
    expect(calls).toEqual([[T1, { 1: 5 }], [T1, { 1: 17 }]]);
  });

  it('shouldNotSendPurgeDataIfPreviousNotDone: while the request for 5 runs, 17 is not sent', async () => {
    let release!: () => void;
    const { purger, calls } = setup(() => new Promise<void>((resolve) => (release = resolve)));
    purger.maybePurge(1, () => [t1p1(5)]);
    purger.maybePurge(2, () => [t1p1(17)]);
    expect(calls).toEqual([[T1, { 1: 5 }]]);
    release();
    await purger.inFlight;
  });

  it('shouldIgnorePurgeDataErrors: a failing purge throws nothing, logs one WARN, and the next one is sent', async () => {
    const { purger, calls, warnings } = setup(async () => {
      throw new Error('KABOOM!');
    });
    purger.maybePurge(1, () => [t1p1(5)]);
    await purger.inFlight;
    purger.maybePurge(2, () => [t1p1(5)]);
    await purger.inFlight;
    expect(calls).toHaveLength(2);
    expect(warnings).toEqual([expect.stringMatching(/^purging consumed records of repartition topics failed/)]);
  });

  it('at most once per interval (strictly more than repartitionPurgeIntervalMs apart), counted from the start', async () => {
    const { purger, calls } = setup(async () => undefined, 30_000);
    purger.maybePurge(30_000, () => [t1p1(5)]);
    expect(calls).toHaveLength(0);
    purger.maybePurge(30_001, () => [t1p1(5)]);
    await purger.inFlight;
    purger.maybePurge(50_000, () => [t1p1(9)]);
    expect(calls).toEqual([[T1, { 1: 5 }]]);
    purger.maybePurge(60_002, () => [t1p1(9)]);
    await purger.inFlight;
    expect(calls).toEqual([[T1, { 1: 5 }], [T1, { 1: 9 }]]);
  });

  it('only repartition partitions, only offsets above 0 and not already purged to; one request per topic', async () => {
    const { purger, calls } = setup(async () => undefined);
    purger.maybePurge(1, () => [t1p1(5), { topic: 'source', partition: 0, offset: 8 }, { topic: T1, partition: 0, offset: 0 }, { topic: T1, partition: 2, offset: 3 }]);
    await purger.inFlight;
    purger.maybePurge(2, () => [t1p1(5), { topic: T1, partition: 2, offset: 4 }]);
    await purger.inFlight;
    expect(calls).toEqual([[T1, { 1: 5, 2: 3 }], [T1, { 2: 4 }]]);
  });

  it('an admin without deleteRecords purges nothing', () => {
    const purger = new RepartitionPurger({ admin: {} as AdminPort, repartitionTopics: new Set([T1]), intervalMs: 0, logger: pino({ level: 'silent' }), startedAt: 0 });
    purger.maybePurge(1, () => [t1p1(5)]);
    expect(purger.inFlight).toBeUndefined();
  });
});
