/**
 * Port of the versioned cases of Kafka's `TableTableJoinIntegrationTest`
 * (streams/src/test/java/org/apache/kafka/streams/integration/, over the
 * TopologyTestDriver as in Kafka, with `AbstractJoinIntegrationTest`'s input):
 * testInner/Left/OuterWithVersionedStores, testInner/Left/OuterWithLeftVersionedOnly,
 * testInner/Left/OuterWithRightVersionedOnly, with caching disabled (the
 * `cacheEnabled = false` parameter; with caching Kafka only checks the final
 * result, which the uncached lists end with too). Inputs and expected outputs
 * are Kafka's: an out-of-order update of a versioned table (KIP-914) joins
 * nothing; the same update of a timestamped table does.
 */
import { describe, expect, it } from 'vitest';
import { Materialized, Serdes, Stores, StreamsBuilder, type KTable } from '../../../../../src/index.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import { ANY_UNIQUE_KEY, INPUT_TOPIC_LEFT, INPUT_TOPIC_RIGHT, input } from '../../../../helpers/ktable/abstract-join-input.js';

const L = Serdes.Int64();
const S = Serdes.String();
const OUTPUT_TOPIC = 'outputTopic';
const APP_ID = 'table-table-join-integration-test';
const STORE_NAME = `${APP_ID}-store`;

/** `new TestRecord<>(ANY_UNIQUE_KEY, value, null, ts)`, as [value, ts]. */
type Expected = [string | null, number] | null;

const valueJoiner = (value1: string | null, value2: string | null): string => `${String(value1)}-${String(value2)}`;
const versioned = (name: string) => Materialized.as<bigint, string>(Stores.persistentVersionedKeyValueStore(name, 5 * 60_000)).withLoggingDisabled();
const timestamped = (name: string) => Materialized.as<bigint, string>(name).withLoggingDisabled();
const materialized = Materialized.as<bigint, string>(STORE_NAME).withKeySerde(L).withValueSerde(S).withCachingDisabled().withLoggingDisabled();

type Kind = 'join' | 'leftJoin' | 'outerJoin';

/** AbstractJoinIntegrationTest.runTestWithDriver(input, expectedResult, STORE_NAME, ...) with caching disabled. */
function runTestWithDriver(leftVersioned: boolean, rightVersioned: boolean, kind: Kind, expectedResult: Expected[]): void {
  const builder = new StreamsBuilder();
  const consumed = { keySerde: L, valueSerde: S };
  const leftTable: KTable<bigint, string> = builder.table(INPUT_TOPIC_LEFT, consumed, leftVersioned ? versioned('left') : timestamped('left'));
  const rightTable: KTable<bigint, string> = builder.table(INPUT_TOPIC_RIGHT, consumed, rightVersioned ? versioned('right') : timestamped('right'));
  const joined =
    kind === 'join'
      ? leftTable.join(rightTable, valueJoiner, materialized)
      : kind === 'leftJoin'
        ? leftTable.leftJoin(rightTable, valueJoiner, materialized)
        : leftTable.outerJoin(rightTable, valueJoiner, materialized);
  joined.toStream().to(OUTPUT_TOPIC, { keySerde: L, valueSerde: S });
  const driver = new TopologyTestDriver(builder.build(), { applicationId: `${APP_ID}-${kind}`, defaultKeySerde: L, defaultValueSerde: S, statestoreCacheMaxBytes: 0 });
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

const _ = null;

describe('TableTableJoinIntegrationTest (versioned cases, cacheEnabled = false)', () => {
  it('testInnerWithVersionedStores', () => {
    runTestWithDriver(true, true, 'join', [_, _, _, ['A-a', 4], ['B-a', 5], ['B-b', 6], [null, 7], _, _, ['C-c', 10], [null, 11], _, _, _, _, _, _, _, ['E-e', 15], _, _, _, _]);
  });

  it('testLeftWithVersionedStores', () => {
    runTestWithDriver(true, true, 'leftJoin', [
      _, _, ['A-null', 3], ['A-a', 4], ['B-a', 5], ['B-b', 6], [null, 7], _, ['C-null', 9], ['C-c', 10], ['C-null', 11], [null, 12],
      _, _, _, _, _, _, ['E-e', 15], _, _, _, _,
    ]);
  });

  it('testOuterWithVersionedStores', () => {
    runTestWithDriver(true, true, 'outerJoin', [
      _, _, ['A-null', 3], ['A-a', 4], ['B-a', 5], ['B-b', 6], ['null-b', 7], [null, 8], ['C-null', 9], ['C-c', 10], ['C-null', 11], [null, 12],
      _, _, _, _, _, ['null-e', 14], ['E-e', 15], _, _, _, _,
    ]);
  });

  it('testInnerWithLeftVersionedOnly', () => {
    runTestWithDriver(true, false, 'join', [
      _, _, _, ['A-a', 4], ['B-a', 5], ['B-b', 6], [null, 7], _, _, ['C-c', 10], [null, 11], _, _, _, _, _, _, _, ['E-e', 15], _, [null, 15], _, ['E-f', 15],
    ]);
  });

  it('testLeftWithLeftVersionedOnly', () => {
    runTestWithDriver(true, false, 'leftJoin', [
      _, _, ['A-null', 3], ['A-a', 4], ['B-a', 5], ['B-b', 6], [null, 7], _, ['C-null', 9], ['C-c', 10], ['C-null', 11], [null, 12],
      _, _, _, _, _, _, ['E-e', 15], _, ['E-null', 15], _, ['E-f', 15],
    ]);
  });

  it('testOuterWithLeftVersionedOnly', () => {
    runTestWithDriver(true, false, 'outerJoin', [
      _, _, ['A-null', 3], ['A-a', 4], ['B-a', 5], ['B-b', 6], ['null-b', 7], [null, 8], ['C-null', 9], ['C-c', 10], ['C-null', 11], [null, 12],
      _, ['null-d', 7], _, _, [null, 3], ['null-e', 14], ['E-e', 15], _, ['E-null', 15], _, ['E-f', 15],
    ]);
  });

  it('testInnerWithRightVersionedOnly', () => {
    runTestWithDriver(false, true, 'join', [
      _, _, _, ['A-a', 4], ['B-a', 5], ['B-b', 6], [null, 7], _, _, ['C-c', 10], [null, 11], _, _, _, _, _, _, _, ['E-e', 15], [null, 14], _, ['F-e', 14], _,
    ]);
  });

  it('testLeftWithRightVersionedOnly', () => {
    runTestWithDriver(false, true, 'leftJoin', [
      _, _, ['A-null', 3], ['A-a', 4], ['B-a', 5], ['B-b', 6], [null, 7], _, ['C-null', 9], ['C-c', 10], ['C-null', 11], [null, 12],
      _, _, ['D-null', 6], [null, 2], _, _, ['E-e', 15], [null, 14], _, ['F-e', 14], _,
    ]);
  });

  it('testOuterWithRightVersionedOnly', () => {
    runTestWithDriver(false, true, 'outerJoin', [
      _, _, ['A-null', 3], ['A-a', 4], ['B-a', 5], ['B-b', 6], ['null-b', 7], [null, 8], ['C-null', 9], ['C-c', 10], ['C-null', 11], [null, 12],
      _, _, ['D-null', 6], [null, 2], _, ['null-e', 14], ['E-e', 15], ['null-e', 14], _, ['F-e', 14], _,
    ]);
  });
});
