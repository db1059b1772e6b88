import { afterEach, describe, expect, it } from 'vitest';
import { Serdes, StreamsBuilder, TopologyError, type Topology } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';

const S = Serdes.String();
const STR = { keySerde: S, valueSerde: S };
let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

function passThrough(): Topology {
  const b = new StreamsBuilder();
  b.stream<string, string>('in', STR).to('out', STR);
  return b.build();
}

describe('TopologyTestDriver topics', () => {
  it('input topics: start time, auto-advance, explicit timestamps, value lists and record lists', () => {
    driver = new TopologyTestDriver(passThrough(), { initialWallClockTimeMs: 5_000 });
    const input = driver.createInputTopic('in', S, S, { autoAdvanceMs: 10 });
    const out = driver.createOutputTopic('out', S, S);
    input.pipeInput('a', '1'); // 5000
    input.pipeInput('b', '2'); // 5010
    input.pipeInput('c', '3', 42); // explicit, no advance
    input.advanceTime(100);
    input.pipeValueList(['4']); // 5120
    input.pipeRecordList([{ key: 'e', value: '5', timestamp: 7, headers: { h: 'v' } }, { value: '6' }]);
    const records = out.readRecordsToList();
    expect(records.map((r) => [r.key, r.value, r.timestamp])).toEqual([
      ['a', '1', 5000],
      ['b', '2', 5010],
      ['c', '3', 42],
      [null, '4', 5120],
      ['e', '5', 7],
      [null, '6', 5130],
    ]);
    expect(records[4]!.headers).toEqual({ h: 'v' });
    expect(records.every((r) => r.topic === 'out' && r.partition === 0)).toBe(true);
  });

  it('output topics: reading consumes; readKeyValuesToMap keeps the last value per key, a tombstone as key -> null (as Kafka)', () => {
    driver = new TopologyTestDriver(passThrough());
    const input = driver.createInputTopic('in', S, S);
    const out = driver.createOutputTopic('out', S, S);
    expect(out.isEmpty()).toBe(true);
    input.pipeKeyValueList([
      { key: 'a', value: '1' },
      { key: 'b', value: '2' },
      { key: 'a', value: '3' },
      { key: 'b', value: null },
    ]);
    expect(out.getQueueSize()).toBe(4);
    expect(driver.producedTopicNames()).toEqual(['out']);
    expect(out.readValue()).toBe('1');
    expect(out.readKeyValue()).toEqual({ key: 'b', value: '2' });
    expect(out.readKeyValuesToMap()).toEqual(new Map([['a', '3'], ['b', null]]));
    expect(out.isEmpty()).toBe(true);
    expect(() => out.readRecord()).toThrow(/Output topic 'out' is empty/);
  });

  it('producedTopicNames keeps a topic after its records are read (as Kafka TopologyTestDriver does)', () => {
    driver = new TopologyTestDriver(passThrough());
    const out = driver.createOutputTopic('out', S, S);
    expect(driver.producedTopicNames()).toEqual([]);
    driver.createInputTopic('in', S, S).pipeInput('k', 'v');
    expect(out.readValuesToList()).toEqual(['v']);
    expect(out.isEmpty()).toBe(true);
    expect(driver.producedTopicNames()).toEqual(['out']);
  });

  it('refuses input topics the topology does not read', () => {
    driver = new TopologyTestDriver(passThrough());
    expect(() => driver!.createInputTopic('nope', S, S)).toThrow(TopologyError);
    expect(() => driver!.createInputTopic('nope', S, S)).toThrow(/source topics are \[in\]/);
  });

  it('input serialization failures surface as SerializationError from pipeInput', () => {
    driver = new TopologyTestDriver(passThrough());
    const input = driver.createInputTopic('in', S, Serdes.Int32());
    expect(() => input.pipeInput('k', 1.5)).toThrow(/Failed to serialize value for topic 'in' with serde Int32/);
  });

  it('after a failed record, what it wrote to source topics is not processed later', () => {
    const b = new StreamsBuilder();
    const s = b.stream<string, string>('in', STR);
    s.to('loop', STR);
    s.filter((_k, v) => {
      if (v === 'boom') throw new Error('boom');
      return false;
    });
    const seen: string[] = [];
    b.stream<string, string>('loop', STR).foreach((_k, v) => seen.push(v));
    driver = new TopologyTestDriver(b.build());
    const input = driver.createInputTopic('in', S, S);
    expect(() => input.pipeInput('k', 'boom')).toThrow(/boom/);
    input.pipeInput('k', 'ok');
    expect(seen).toEqual(['ok']);
  });
});
