/**
 * Port of Kafka's `StreamTableJoinWithGraceIntegrationTest` (KIP-923; over the
 * TopologyTestDriver as in Kafka, with `AbstractJoinIntegrationTest`'s input):
 * testInnerWithVersionedStore, testLeftWithVersionedStore. Inputs and
 * expected outputs are Kafka's. Kafka runs each with and without caching; the
 * join's buffer and the versioned store have no cache, so both give the same
 * output (run both here too).
 */
import { describe, expect, it } from 'vitest';
import { Joined, Materialized, Serdes, Stores, StreamsBuilder } from '../../../../../src/index.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import { ANY_UNIQUE_KEY, INPUT_TOPIC_LEFT, INPUT_TOPIC_RIGHT, input } from '../../../../helpers/ktable/abstract-join-input.js';

const L = Serdes.Int64();
const S = Serdes.String();
const OUTPUT_TOPIC = 'outputTopic';
const STORE_NAME = 'table-store';
const APP_ID = 'stream-table-join-integration-test';
const JOINED = Joined.with(L, S, S, 'Grace', 2);

type Expected = [string, number] | null;
const _ = null;
const valueJoiner = (value1: string, value2: string | null): string => `${value1}-${String(value2)}`;

/** AbstractJoinIntegrationTest.runTestWithDriver(input, expectedResult, streamsConfig, topology). */
function runTestWithDriver(kind: 'join' | 'leftJoin', cacheEnabled: boolean, expectedResult: Expected[]): void {
  const builder = new StreamsBuilder();
  // (the config's default serdes, Long and String, as Kafka's builder.stream(INPUT_TOPIC_LEFT))
  const leftStream = builder.stream(INPUT_TOPIC_LEFT, { keySerde: L, valueSerde: S });
  const rightTable = builder.table<bigint, string>(INPUT_TOPIC_RIGHT, {}, Materialized.as<bigint, string>(Stores.persistentVersionedKeyValueStore(STORE_NAME, 5 * 60_000)));
  const joined = kind === 'join' ? leftStream.join(rightTable, valueJoiner, JOINED) : leftStream.leftJoin(rightTable, valueJoiner, JOINED);
  joined.to(OUTPUT_TOPIC);
  const driver = new TopologyTestDriver(builder.build(), {
    applicationId: `${APP_ID}-${kind === 'join' ? 'inner' : 'left'}`,
    defaultKeySerde: L,
    defaultValueSerde: S,
    ...(cacheEnabled ? {} : { statestoreCacheMaxBytes: 0 }),
  });
  try {
    const topics = { [INPUT_TOPIC_LEFT]: driver.createInputTopic(INPUT_TOPIC_LEFT, L, S), [INPUT_TOPIC_RIGHT]: driver.createInputTopic(INPUT_TOPIC_RIGHT, L, S) };
    const outputTopic = driver.createOutputTopic(OUTPUT_TOPIC, L, S);
    const baseTimestamp = 1_700_000_000_000;
    expect(expectedResult).toHaveLength(input.length);
    input.forEach(([topic, value, ts], i) => {
      topics[topic as keyof typeof topics].pipeInput(ANY_UNIQUE_KEY, value, baseTimestamp + ts);
      const expected = expectedResult[i];
      const output = outputTopic.readRecordsToList().map((r) => [r.key, r.value, r.timestamp - baseTimestamp]);
      expect(output, `after input ${i} (${topic} ${String(value)}@${ts})`).toEqual(expected === null || expected === undefined ? [] : [[ANY_UNIQUE_KEY, expected[0], expected[1]]]);
    });
  } finally {
    driver.close();
  }
}

describe('StreamTableJoinWithGraceIntegrationTest', () => {
  for (const cacheEnabled of [true, false]) {
    it(`testInnerWithVersionedStore [cacheEnabled=${cacheEnabled}]`, () => {
      runTestWithDriver('join', cacheEnabled, [_, _, _, _, _, _, _, _, ['B-a', 5], _, _, _, _, _, ['D-b', 6], _, _, _, _, _, _, ['F-a', 4], _]);
    });

    it(`testLeftWithVersionedStore [cacheEnabled=${cacheEnabled}]`, () => {
      runTestWithDriver('leftJoin', cacheEnabled, [_, _, _, _, ['A-null', 3], _, _, _, ['B-a', 5], _, _, _, _, _, ['D-b', 6], _, _, _, ['C-null', 9], _, _, ['F-a', 4], _]);
    });
  }
});
