/**
 * Ported from Kafka Streams' `KGroupedStreamImplTest.shouldCountAndMaterializeResults`,
 * `shouldReduceAndMaterializeResults` and `shouldAggregateAndMaterializeResults`
 * (input of its `processData`, expected values and `ValueAndTimestamp`
 * timestamps unchanged): an aggregation result carries the maximum timestamp
 * seen for its key. sluice's stores hold values only, so the timestamps are
 * read from the updates written by `toStream().to(...)`; the last update per
 * key is Kafka's `ValueAndTimestamp`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Materialized, Serdes, StreamsBuilder, type KGroupedStream } from '../../../../src/index.js';
import { TopologyTestDriver } from '../../../../src/testing.js';
import { storeOf } from '../../../helpers/store-of.js';

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

/** The last update per key as [value, timestamp] (Kafka's ValueAndTimestamp in the store). */
function lastPerKey<V>(records: Array<{ key: string | null; value: V | null; timestamp: number }>): Map<string | null, [V | null, number]> {
  return new Map(records.map((r) => [r.key, [r.value, r.timestamp]]));
}

describe('KGroupedStreamImplTest: aggregation timestamps', () => {
  /** KGroupedStreamImplTest.shouldCountAndMaterializeResults */
  it('shouldCountAndMaterializeResults', () => {
    const { builder, groupedStream } = setup();
    groupedStream.count(Materialized.as('count')).toStream().to('out', { keySerde: S, valueSerde: Serdes.Json<number>() });
    driver = new TopologyTestDriver(builder.build());
    processData(driver);
    const count = storeOf(driver.getKeyValueStore<string, number>('count'));
    expect(count.get('1')).toBe(3);
    expect(count.get('2')).toBe(1);
    expect(count.get('3')).toBe(2);
    const updates = driver.createOutputTopic('out', S, Serdes.Json<number>()).readRecordsToList();
    expect(lastPerKey(updates)).toEqual(new Map([['1', [3, 10]], ['2', [1, 1]], ['3', [2, 9]]]));
    expect(updates.map((r) => r.timestamp)).toEqual([5, 1, 5, 10, 8, 9]);
  });

  /** KGroupedStreamImplTest.shouldReduceAndMaterializeResults */
  it('shouldReduceAndMaterializeResults', () => {
    const { builder, groupedStream } = setup();
    groupedStream.reduce((a, b) => `${a}+${b}`, { storeName: 'reduce', keySerde: S, valueSerde: S }).toStream().to('out', { keySerde: S, valueSerde: S });
    driver = new TopologyTestDriver(builder.build());
    processData(driver);
    const reduced = storeOf(driver.getKeyValueStore<string, string>('reduce'));
    expect(reduced.get('1')).toBe('A+C+D');
    expect(reduced.get('2')).toBe('B');
    expect(reduced.get('3')).toBe('E+F');
    const updates = driver.createOutputTopic('out', S, S).readRecordsToList();
    expect(lastPerKey(updates)).toEqual(new Map([['1', ['A+C+D', 10]], ['2', ['B', 1]], ['3', ['E+F', 9]]]));
    expect(updates.map((r) => r.timestamp)).toEqual([5, 1, 5, 10, 8, 9]);
  });

  /** KGroupedStreamImplTest.shouldAggregateAndMaterializeResults */
  it('shouldAggregateAndMaterializeResults', () => {
    const { builder, groupedStream } = setup();
    groupedStream
      .aggregate(() => '0', (_k, v, agg: string) => `${agg}+${v}`, { storeName: 'aggregate', keySerde: S, valueSerde: S })
      .toStream()
      .to('out', { keySerde: S, valueSerde: S });
    driver = new TopologyTestDriver(builder.build());
    processData(driver);
    const aggregate = storeOf(driver.getKeyValueStore<string, string>('aggregate'));
    expect(aggregate.get('1')).toBe('0+A+C+D');
    expect(aggregate.get('2')).toBe('0+B');
    expect(aggregate.get('3')).toBe('0+E+F');
    const updates = driver.createOutputTopic('out', S, S).readRecordsToList();
    expect(lastPerKey(updates)).toEqual(new Map([['1', ['0+A+C+D', 10]], ['2', ['0+B', 1]], ['3', ['0+E+F', 9]]]));
    expect(updates.map((r) => r.timestamp)).toEqual([5, 1, 5, 10, 8, 9]);
  });
});
