/**
 * The record cache in front of the window store of a windowed aggregation
 * (Kafka's `CachingWindowStore` under `KStreamWindowAggregate` /
 * `KStreamSlidingWindowAggregate`): between two commits only the last update
 * of each window is logged and forwarded (through the store's flush
 * listener); without a cache (none, 0 bytes, or `Materialized` caching
 * disabled) every update is. Kafka's KStreamWindowAggregateTest and
 * TimeWindowedKStreamImplTest run on the TopologyTestDriver, which flushes
 * after every record: their outputs do not change with caching, and their
 * ports (test/unit/topology/kafka/windows) now run on the cached store.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { Materialized, Serdes, SlidingWindows, StreamsBuilder, TimeWindows, type Windowed } from '../../../src/index.js';
import { RecordCache } from '../../../src/state/record-cache.js';
import type { StoreInitContext } from '../../../src/state/store-contract.js';
import { toRuntime } from '../../../src/topology/topology-runtime.js';

const S = Serdes.String();

type Windowing = 'tumbling' | 'hopping' | 'sliding';

function run(
  windowing: Windowing,
  cacheMaxBytes: number | undefined,
  cachingEnabled = true,
  records = 1000,
): { changelog: string[]; downstream: Array<[string, number, number]> } {
  const builder = new StreamsBuilder();
  const grouped = builder.stream('in', { keySerde: S, valueSerde: S }).groupByKey();
  const materialized = { ...Materialized.as<string, number>('counts'), cachingEnabled };
  const table =
    windowing === 'sliding'
      ? grouped.windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(2000)).count(materialized)
      : grouped.windowedBy(windowing === 'tumbling' ? TimeWindows.ofSizeWithNoGrace(1000) : TimeWindows.ofSizeWithNoGrace(1000).advanceBy(500)).count(materialized);
  table.toStream((wk: Windowed<string>) => `${wk.key}@${wk.window.start}`).to('out', { keySerde: S, valueSerde: Serdes.Json<number>() });
  const downstream: Array<[string, number, number]> = [];
  const changelog: string[] = [];
  const handlers = { deserialization: { handle: () => 'FAIL' as const }, processing: { handle: () => 'FAIL' as const } };
  const task = toRuntime(builder.build(), { applicationId: 'app' }).createTask(
    { subtopology: 0, partition: 0 },
    { send: (o) => void downstream.push([o.key as string, o.value as number, o.timestamp]) },
    handlers,
    { clock: () => 0 },
  );
  const context: StoreInitContext = {
    applicationId: 'app',
    taskId: task.taskId,
    stateDir: '/nonexistent',
    changelog: { send: (store, key) => void changelog.push(`${store}:${key.toString('hex')}`) },
    cache: cacheMaxBytes === undefined ? undefined : new RecordCache(cacheMaxBytes),
    recordContext: () => task.recordContext(),
    logger: pino({ level: 'silent' }),
  };
  for (const store of task.stores) store.init(context);
  task.init();
  task.flushStores(); // commit 1 (nothing yet)
  for (let i = 0; i < records; i++) {
    task.process({ topic: 'in', partition: 0, offset: i, key: Buffer.from(`k${i % 10}`), value: Buffer.from('v'), headers: {}, timestamp: i });
  }
  task.flushStores(); // commit 2
  task.close();
  return { changelog, downstream };
}

describe('the record cache dedups a windowed aggregation between two commits', () => {
  it('tumbling windows: 1,000 updates of 10 keys in one window give 10 changelog and 10 downstream records, the last count of each', () => {
    const { changelog, downstream } = run('tumbling', 10 * 1024 * 1024);
    expect(changelog).toHaveLength(10);
    expect(new Set(changelog).size).toBe(10);
    expect(downstream.sort()).toEqual(Array.from({ length: 10 }, (_, k) => [`k${k}@0`, 100, 990 + k]).sort());
  });

  it('hopping windows: one record per key and window, with the last count', () => {
    const { changelog, downstream } = run('hopping', 10 * 1024 * 1024);
    expect(changelog).toHaveLength(20);
    const last = new Map(downstream.map(([k, n]) => [k, n]));
    expect(downstream).toHaveLength(20);
    for (let k = 0; k < 10; k++) {
      expect(last.get(`k${k}@0`)).toBe(100);
      // window [500, 1500): the records at 500..999
      expect(last.get(`k${k}@500`)).toBe(50);
    }
  });

  it('without a cache (none, 0 bytes, or caching disabled) every update is logged and forwarded', () => {
    for (const [bytes, caching] of [[undefined, true], [0, true], [10 * 1024 * 1024, false]] as const) {
      const { changelog, downstream } = run('tumbling', bytes, caching);
      expect(changelog).toHaveLength(1000);
      expect(downstream).toHaveLength(1000);
      expect(downstream[999]).toEqual(['k9@0', 100, 999]);
    }
  });

  it('sliding windows: fewer records than without a cache, and the same last count per window', () => {
    const cached = run('sliding', 10 * 1024 * 1024, true, 100);
    const uncached = run('sliding', 0, true, 100);
    expect(cached.downstream.length).toBeLessThan(uncached.downstream.length);
    expect(cached.changelog.length).toBeLessThan(uncached.changelog.length);
    const lastOf = (records: Array<[string, number, number]>) => new Map(records.map(([k, n]) => [k, n]));
    expect(lastOf(cached.downstream)).toEqual(lastOf(uncached.downstream));
  });

  it('a cache too small for the windows evicts before the commit; the last value of every window still arrives', () => {
    const { changelog, downstream } = run('tumbling', 300);
    expect(changelog.length).toBeGreaterThan(10);
    expect(downstream.length).toBe(changelog.length);
    const last = new Map(downstream.map(([k, n]) => [k, n]));
    expect([...last.values()]).toEqual(Array(10).fill(100));
  });
});
