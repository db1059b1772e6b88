/**
 * The record cache in front of DSL aggregation stores:
 * - ports of Kafka Streams' KGroupedStreamImplTest cases that read the store
 *   with `getTimestampedKeyValueStore` (shouldCountAndMaterializeResults,
 *   shouldAggregateAndMaterializeResults: the `ValueAndTimestamp` halves) and
 *   shouldAggregateWithDefaultSerdes, inputs (its `processData`) and expected
 *   outputs unchanged, on the TopologyTestDriver (which flushes after every
 *   record, so outputs equal cache-disabled outputs);
 * - caching dedups: 1,000 updates to 10 keys between two commits give 10
 *   changelog records and 10 downstream records; without the cache, 1,000.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { Materialized, Serdes, StreamsBuilder, type KGroupedStream } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { RecordCache } from '../../../src/state/record-cache.js';
import type { StoreInitContext } from '../../../src/state/store-contract.js';
import { toRuntime } from '../../../src/topology/topology-runtime.js';
import { storeOf } from '../../helpers/store-of.js';

const S = Serdes.String();
const TOPIC = 'topic';

let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

function processData(d: TopologyTestDriver): void {
  const inputTopic = d.createInputTopic(TOPIC, S, S);
  inputTopic.pipeInput('1', 'A', 5);
  inputTopic.pipeInput('2', 'B', 1);
  inputTopic.pipeInput('1', 'C', 3);
  inputTopic.pipeInput('1', 'D', 10);
  inputTopic.pipeInput('3', 'E', 8);
  inputTopic.pipeInput('3', 'F', 9);
  inputTopic.pipeInput('3', null);
}

function setup(): { builder: StreamsBuilder; groupedStream: KGroupedStream<string, string> } {
  const builder = new StreamsBuilder();
  const groupedStream = builder.stream(TOPIC, { keySerde: S, valueSerde: S }).groupByKey({ keySerde: S, valueSerde: S });
  return { builder, groupedStream };
}

const STRING_INIT = (): string => '0';
const TOSTRING_ADDER = (_k: string, v: string, agg: string): string => `${agg}+${v}`;

describe('KGroupedStreamImplTest on the cached default store (ported)', () => {
  // KGroupedStreamImplTest.shouldCountAndMaterializeResults (getTimestampedKeyValueStore half)
  it('shouldCountAndMaterializeResults', () => {
    const { builder, groupedStream } = setup();
    groupedStream.count({ ...Materialized.as<string, number>('count'), keySerde: S });
    driver = new TopologyTestDriver(builder.build());
    processData(driver);
    const count = storeOf(driver.getTimestampedKeyValueStore<string, number>('count'));
    expect(count.get('1')).toEqual({ value: 3, timestamp: 10 });
    expect(count.get('2')).toEqual({ value: 1, timestamp: 1 });
    expect(count.get('3')).toEqual({ value: 2, timestamp: 9 });
  });

  // KGroupedStreamImplTest.shouldAggregateAndMaterializeResults (getTimestampedKeyValueStore half)
  it('shouldAggregateAndMaterializeResults', () => {
    const { builder, groupedStream } = setup();
    groupedStream.aggregate(STRING_INIT, TOSTRING_ADDER, { ...Materialized.as<string, string>('aggregate'), keySerde: S, valueSerde: S });
    driver = new TopologyTestDriver(builder.build());
    processData(driver);
    const plain = storeOf(driver.getKeyValueStore<string, string>('aggregate'));
    expect([plain.get('1'), plain.get('2'), plain.get('3')]).toEqual(['0+A+C+D', '0+B', '0+E+F']);
    const aggregate = storeOf(driver.getTimestampedKeyValueStore<string, string>('aggregate'));
    expect(aggregate.get('1')).toEqual({ value: '0+A+C+D', timestamp: 10 });
    expect(aggregate.get('2')).toEqual({ value: '0+B', timestamp: 1 });
    expect(aggregate.get('3')).toEqual({ value: '0+E+F', timestamp: 9 });
  });

  // KGroupedStreamImplTest.shouldAggregateWithDefaultSerdes (lastValueAndTimestampPerKey of the downstream processor)
  it('shouldAggregateWithDefaultSerdes', () => {
    const { builder, groupedStream } = setup();
    const last = new Map<string, { value: string; timestamp: number }>();
    groupedStream
      .aggregate(STRING_INIT, TOSTRING_ADDER)
      .toStream()
      .process(() => ({ process: (r) => void last.set(r.key, { value: r.value, timestamp: r.timestamp }) }));
    driver = new TopologyTestDriver(builder.build());
    processData(driver);
    expect(last.get('1')).toEqual({ value: '0+A+C+D', timestamp: 10 });
    expect(last.get('2')).toEqual({ value: '0+B', timestamp: 1 });
    expect(last.get('3')).toEqual({ value: '0+E+F', timestamp: 9 });
  });

  it('the driver forwards every update (it flushes after each record), cache or not', () => {
    for (const statestoreCacheMaxBytes of [10 * 1024 * 1024, 0]) {
      const { builder, groupedStream } = setup();
      groupedStream.count().toStream().to('out', { keySerde: S, valueSerde: Serdes.Json<number>() });
      const d = new TopologyTestDriver(builder.build(), { statestoreCacheMaxBytes });
      processData(d);
      const out = d.createOutputTopic('out', S, Serdes.Json<number>()).readRecordsToList();
      expect(out.map((r) => [r.key, r.value, r.timestamp])).toEqual([
        ['1', 1, 5],
        ['2', 1, 1],
        ['1', 2, 5],
        ['1', 3, 10],
        ['3', 1, 8],
        ['3', 2, 9],
      ]);
      d.close();
    }
  });
});

describe('the record cache dedups an aggregation between two commits', () => {
  function run(cacheMaxBytes: number | undefined, cachingEnabled = true): { changelog: string[]; downstream: Array<[string, number, number]> } {
    const builder = new StreamsBuilder();
    builder
      .stream('in', { keySerde: S, valueSerde: S })
      .groupByKey()
      .count({ ...Materialized.as<string, number>('counts'), cachingEnabled })
      .toStream()
      .to('out', { keySerde: S, valueSerde: Serdes.Json<number>() });
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
      changelog: { send: (store, key) => void changelog.push(`${store}:${key.toString()}`) },
      cache: cacheMaxBytes === undefined ? undefined : new RecordCache(cacheMaxBytes),
      recordContext: () => task.recordContext(),
      logger: pino({ level: 'silent' }),
    };
    for (const store of task.stores) store.init(context);
    task.init();
    task.flushStores(); // commit 1 (nothing yet)
    for (let i = 0; i < 1000; i++) {
      task.process({ topic: 'in', partition: 0, offset: i, key: Buffer.from(`k${i % 10}`), value: Buffer.from('v'), headers: {}, timestamp: i });
    }
    task.flushStores(); // commit 2
    task.close();
    return { changelog, downstream };
  }

  it('1,000 updates to 10 keys: 10 changelog records and 10 downstream records, the last count of each key', () => {
    const { changelog, downstream } = run(10 * 1024 * 1024);
    expect(changelog).toHaveLength(10);
    expect(new Set(changelog).size).toBe(10);
    expect(downstream).toHaveLength(10);
    expect(downstream.sort()).toEqual(Array.from({ length: 10 }, (_, k) => [`k${k}`, 100, 990 + k]).sort());
  });

  it('without a cache (none, 0 bytes, or caching disabled) every update is logged and forwarded', () => {
    for (const [bytes, caching] of [[undefined, true], [0, true], [10 * 1024 * 1024, false]] as const) {
      const { changelog, downstream } = run(bytes, caching);
      expect(changelog).toHaveLength(1000);
      expect(downstream).toHaveLength(1000);
      expect(downstream[999]).toEqual(['k9', 100, 999]);
    }
  });

  it('a cache too small for the 10 keys evicts (so logs and forwards) before the commit; the last value of every key still arrives', () => {
    const { changelog, downstream } = run(300);
    expect(changelog.length).toBeGreaterThan(10);
    expect(downstream.length).toBe(changelog.length);
    const last = new Map(downstream.map(([k, n]) => [k, n]));
    expect([...last.values()]).toEqual(Array(10).fill(100));
  });
});
