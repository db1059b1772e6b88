/**
 * Issue 29 item 1: the key-taking forms are key first, as Kafka's
 * `ValueMapperWithKey` / `ValueJoinerWithKey`. Ported from Kafka Streams
 * (inputs and expected results unchanged):
 * - `KStreamMapValuesTest.testMapValuesWithKeys`
 * - `KStreamFlatMapValuesTest.testFlatMapValuesWithKeys`
 * - `KStreamImplValueJoinerWithKeyTest` (all seven cases: stream-stream
 *   join/leftJoin/outerJoin, stream-table join/leftJoin, stream-global-table
 *   join/leftJoin).
 * Kafka's capturing processor is an output topic here (same key, value, timestamp).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  JoinWindows,
  Joined,
  Serdes,
  StreamJoined,
  StreamsBuilder,
  ValueJoinerWithKey,
  ValueMapperWithKey,
  type KStream,
} from '../../../../src/index.js';
import { TopologyTestDriver } from '../../../../src/testing.js';

const I = Serdes.Int32();
const S = Serdes.String();
let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

describe('KStreamMapValuesTest / KStreamFlatMapValuesTest (key-first mappers)', () => {
  const topicName = 'topic';

  it('testMapValuesWithKeys', () => {
    const builder = new StreamsBuilder();
    // Java: ValueMapperWithKey<Integer, CharSequence, Integer> mapper = (readOnlyKey, value) -> value.length() + readOnlyKey;
    const mapper = ValueMapperWithKey.of((readOnlyKey: number, value: string) => value.length + readOnlyKey);
    const expectedKeys = [1, 10, 100, 1000];
    builder.stream(topicName, { keySerde: I, valueSerde: S }).mapValues(mapper).to('out', { keySerde: I, valueSerde: I });
    driver = new TopologyTestDriver(builder.build());
    const inputTopic = driver.createInputTopic(topicName, I, S);
    for (const expectedKey of expectedKeys) inputTopic.pipeInput(expectedKey, String(expectedKey), Math.floor(expectedKey / 2));
    const processed = driver.createOutputTopic('out', I, I).readRecordsToList().map(({ key, value, timestamp }) => ({ key, value, timestamp }));
    expect(processed).toEqual([
      { key: 1, value: 2, timestamp: 0 },
      { key: 10, value: 12, timestamp: 5 },
      { key: 100, value: 103, timestamp: 50 },
      { key: 1000, value: 1004, timestamp: 500 },
    ]);
  });

  it('testFlatMapValuesWithKeys', () => {
    const builder = new StreamsBuilder();
    const mapper = ValueMapperWithKey.of((readOnlyKey: number, value: number) => [`v${value}`, `k${readOnlyKey}`]);
    const expectedKeys = [0, 1, 2, 3];
    builder.stream(topicName, { keySerde: I, valueSerde: I }).flatMapValues(mapper).to('out', { keySerde: I, valueSerde: S });
    driver = new TopologyTestDriver(builder.build());
    const inputTopic = driver.createInputTopic(topicName, I, I, { startTimestampMs: 0, autoAdvanceMs: 0 });
    for (const expectedKey of expectedKeys) inputTopic.pipeInput(expectedKey, expectedKey, 0);
    const processed = driver.createOutputTopic('out', I, S).readRecordsToList().map(({ key, value, timestamp }) => ({ key, value, timestamp }));
    expect(processed).toEqual([
      { key: 0, value: 'v0', timestamp: 0 },
      { key: 0, value: 'k0', timestamp: 0 },
      { key: 1, value: 'v1', timestamp: 0 },
      { key: 1, value: 'k1', timestamp: 0 },
      { key: 2, value: 'v2', timestamp: 0 },
      { key: 2, value: 'k2', timestamp: 0 },
      { key: 3, value: 'v3', timestamp: 0 },
      { key: 3, value: 'k3', timestamp: 0 },
    ]);
  });
});

describe('KStreamImplValueJoinerWithKeyTest', () => {
  const leftTopic = 'left';
  const rightTopic = 'right';
  const ktableTopic = 'ktableTopic';
  const globalTopic = 'globalTopic';
  const outputTopic = 'joined-result';
  const valueJoinerWithKey = ValueJoinerWithKey.of((key: string, lv: number, rv: number | null) => `${key}:${lv + (rv === null ? 0 : rv)}`);
  const joinWindows = JoinWindows.ofTimeDifferenceAndGrace(100, 24 * 3_600_000);
  const streamJoined = StreamJoined.with(S, I, I);
  const joined = Joined.with(S, I, I);
  const keyValueMapper = (k: string): string => k;

  function setup() {
    const builder = new StreamsBuilder();
    const leftStream = builder.stream(leftTopic, { keySerde: S, valueSerde: I });
    const rightStream = builder.stream(rightTopic, { keySerde: S, valueSerde: I });
    const ktable = builder.table(ktableTopic, { keySerde: S, valueSerde: I });
    const globalKTable = builder.globalTable(globalTopic, { keySerde: S, valueSerde: I });
    return { builder, leftStream, rightStream, ktable, globalKTable };
  }

  function runJoinTopology(builder: StreamsBuilder, result: KStream<string, string>, expectedResults: Array<{ key: string; value: string }>, isTableJoin: boolean, right: string): void {
    result.to(outputTopic, { keySerde: S, valueSerde: S });
    driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: S, defaultValueSerde: S });
    const rightInputTopic = driver.createInputTopic(right, S, I);
    const leftInputTopic = driver.createInputTopic(leftTopic, S, I);
    const joinResultTopic = driver.createOutputTopic(outputTopic, S, S);
    // with stream table joins need to make sure records hit the table first, joins only triggered from streams side
    if (isTableJoin) {
      rightInputTopic.pipeInput('A', 2);
      leftInputTopic.pipeInput('A', 3);
    } else {
      leftInputTopic.pipeInput('A', 3);
      rightInputTopic.pipeInput('A', 2);
    }
    expect(joinResultTopic.readKeyValuesToList()).toEqual(expectedResults);
  }

  it('shouldIncludeKeyInStreamSteamJoinResults', () => {
    const { builder, leftStream, rightStream } = setup();
    // Left KV A, 3, Right KV A, 5
    runJoinTopology(builder, leftStream.join(rightStream, valueJoinerWithKey, joinWindows, streamJoined), [{ key: 'A', value: 'A:5' }], false, rightTopic);
  });

  it('shouldIncludeKeyInStreamLeftJoinResults', () => {
    const { builder, leftStream, rightStream } = setup();
    runJoinTopology(builder, leftStream.leftJoin(rightStream, valueJoinerWithKey, joinWindows, streamJoined), [{ key: 'A', value: 'A:5' }], false, rightTopic);
  });

  it('shouldIncludeKeyInStreamOuterJoinResults', () => {
    const { builder, leftStream, rightStream } = setup();
    const outer = ValueJoinerWithKey.of((key: string, lv: number | null, rv: number | null) => valueJoinerWithKey.keyFirst(key, lv as number, rv));
    runJoinTopology(builder, leftStream.outerJoin(rightStream, outer, joinWindows, streamJoined), [{ key: 'A', value: 'A:5' }], false, rightTopic);
  });

  it('shouldIncludeKeyInStreamTableJoinResults', () => {
    const { builder, leftStream, ktable } = setup();
    runJoinTopology(builder, leftStream.join(ktable, valueJoinerWithKey, joined), [{ key: 'A', value: 'A:5' }], true, ktableTopic);
  });

  it('shouldIncludeKeyInStreamTableLeftJoinResults', () => {
    const { builder, leftStream, ktable } = setup();
    runJoinTopology(builder, leftStream.leftJoin(ktable, valueJoinerWithKey, joined), [{ key: 'A', value: 'A:5' }], true, ktableTopic);
  });

  it('shouldIncludeKeyInStreamGlobalTableJoinResults', () => {
    const { builder, leftStream, globalKTable } = setup();
    runJoinTopology(builder, leftStream.join(globalKTable, keyValueMapper, valueJoinerWithKey), [{ key: 'A', value: 'A:5' }], true, globalTopic);
  });

  it('shouldIncludeKeyInStreamGlobalTableLeftJoinResults', () => {
    const { builder, leftStream, globalKTable } = setup();
    runJoinTopology(builder, leftStream.leftJoin(globalKTable, keyValueMapper, valueJoinerWithKey), [{ key: 'A', value: 'A:5' }], true, globalTopic);
  });
});
