/**
 * Port of Kafka's `KStreamKTableLeftJoinTest` (streams/src/test/java/org/apache/kafka/streams/kstream/internals/),
 * every case; inputs and expected outputs are Kafka's. Plus the null-key rule
 * of Kafka 3.7+ (`KStreamKTableJoinProcessor.maybeDropRecord`): a left join
 * keeps a null-key record that has a value.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Consumed, Serdes, StreamsBuilder, type KStream, type KTable } from '../../../../../src/index.js';
import { planOf } from '../../../../../src/topology/topology.js';
import { TopologyTestDriver, type TestInputTopic } from '../../../../../src/testing.js';
import { captureProcessor, kvt, taskHarness, type KeyValueTimestamp } from '../../../../helpers/ktable/stream-table-join.js';

const EMPTY: KeyValueTimestamp<number, string>[] = [];
const streamTopic = 'streamTopic';
const tableTopic = 'tableTopic';
const expectedKeys = [0, 1, 2, 3];
/** Kafka's `MockValueJoiner.TOSTRING_JOINER`. */
const TOSTRING_JOINER = (value1: unknown, value2: unknown): string => `${String(value1)}+${String(value2)}`;
const randomTimestamp = (): number => Math.floor(Math.random() * 2147483647);

describe('KStreamKTableLeftJoinTest', () => {
  let driver: TopologyTestDriver;
  let inputStreamTopic: TestInputTopic<number, string>;
  let inputTableTopic: TestInputTopic<number, string>;
  let processor: ReturnType<typeof captureProcessor<number, string>>;
  let builder: StreamsBuilder;

  beforeEach(() => {
    builder = new StreamsBuilder();
    const consumed = Consumed.with(Serdes.Int32(), Serdes.String());
    const stream: KStream<number, string> = builder.stream(streamTopic, consumed);
    const table: KTable<number, string> = builder.table(tableTopic, consumed);
    processor = captureProcessor<number, string>();
    stream.leftJoin(table, TOSTRING_JOINER).process(processor.supplier);
    driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: Serdes.Int32() as never, defaultValueSerde: Serdes.String() as never });
    inputStreamTopic = driver.createInputTopic(streamTopic, Serdes.Int32(), Serdes.String(), { startTimestampMs: 0, autoAdvanceMs: 0 });
    inputTableTopic = driver.createInputTopic(tableTopic, Serdes.Int32(), Serdes.String(), { startTimestampMs: 0, autoAdvanceMs: 0 });
  });

  afterEach(() => driver.close());

  const pushToStream = (messageCount: number, valuePrefix: string): void => {
    for (let i = 0; i < messageCount; i++) inputStreamTopic.pipeInput(expectedKeys[i]!, valuePrefix + expectedKeys[i], i);
  };
  const pushToTable = (messageCount: number, valuePrefix: string): void => {
    for (let i = 0; i < messageCount; i++) inputTableTopic.pipeInput(expectedKeys[i]!, valuePrefix + expectedKeys[i], randomTimestamp());
  };
  const pushNullValueToTable = (messageCount: number): void => {
    for (let i = 0; i < messageCount; i++) inputTableTopic.pipeInput(expectedKeys[i]!, null);
  };

  // KStreamKTableLeftJoinTest.shouldRequireCopartitionedStreams
  it('shouldRequireCopartitionedStreams', () => {
    const copartitionGroups = planOf(builder.build()).copartitionGroups ?? [];
    expect(copartitionGroups).toHaveLength(1);
    expect(new Set(copartitionGroups[0])).toEqual(new Set([streamTopic, tableTopic]));
  });

  // KStreamKTableLeftJoinTest.shouldJoinWithEmptyTableOnStreamUpdates
  it('shouldJoinWithEmptyTableOnStreamUpdates', () => {
    // push two items to the primary stream. the table is empty
    pushToStream(2, 'X');
    processor.checkAndClearProcessResult(kvt(0, 'X0+null', 0), kvt(1, 'X1+null', 1));
  });

  // KStreamKTableLeftJoinTest.shouldNotJoinOnTableUpdates
  it('shouldNotJoinOnTableUpdates', () => {
    // push two items to the primary stream. the table is empty
    pushToStream(2, 'X');
    processor.checkAndClearProcessResult(kvt(0, 'X0+null', 0), kvt(1, 'X1+null', 1));
    // push two items to the table. this should not produce any item.
    pushToTable(2, 'Y');
    processor.checkAndClearProcessResult(...EMPTY);
    // push all four items to the primary stream. this should produce four items.
    pushToStream(4, 'X');
    processor.checkAndClearProcessResult(kvt(0, 'X0+Y0', 0), kvt(1, 'X1+Y1', 1), kvt(2, 'X2+null', 2), kvt(3, 'X3+null', 3));
    // push all items to the table. this should not produce any item
    pushToTable(4, 'YY');
    processor.checkAndClearProcessResult(...EMPTY);
    // push all four items to the primary stream. this should produce four items.
    pushToStream(4, 'X');
    processor.checkAndClearProcessResult(kvt(0, 'X0+YY0', 0), kvt(1, 'X1+YY1', 1), kvt(2, 'X2+YY2', 2), kvt(3, 'X3+YY3', 3));
    // push all items to the table. this should not produce any item
    pushToTable(4, 'YYY');
    processor.checkAndClearProcessResult(...EMPTY);
  });

  // KStreamKTableLeftJoinTest.shouldJoinRegardlessIfMatchFoundOnStreamUpdates
  it('shouldJoinRegardlessIfMatchFoundOnStreamUpdates', () => {
    // push two items to the table. this should not produce any item.
    pushToTable(2, 'Y');
    processor.checkAndClearProcessResult(...EMPTY);
    // push all four items to the primary stream. this should produce four items.
    pushToStream(4, 'X');
    processor.checkAndClearProcessResult(kvt(0, 'X0+Y0', 0), kvt(1, 'X1+Y1', 1), kvt(2, 'X2+null', 2), kvt(3, 'X3+null', 3));
  });

  // KStreamKTableLeftJoinTest.shouldClearTableEntryOnNullValueUpdates
  it('shouldClearTableEntryOnNullValueUpdates', () => {
    // push all four items to the table. this should not produce any item.
    pushToTable(4, 'Y');
    processor.checkAndClearProcessResult(...EMPTY);
    // push all four items to the primary stream. this should produce four items.
    pushToStream(4, 'X');
    processor.checkAndClearProcessResult(kvt(0, 'X0+Y0', 0), kvt(1, 'X1+Y1', 1), kvt(2, 'X2+Y2', 2), kvt(3, 'X3+Y3', 3));
    // push two items with null to the table as deletes. this should not produce any item.
    pushNullValueToTable(2);
    processor.checkAndClearProcessResult(...EMPTY);
    // push all four items to the primary stream. this should produce four items.
    pushToStream(4, 'XX');
    processor.checkAndClearProcessResult(kvt(0, 'XX0+null', 0), kvt(1, 'XX1+null', 1), kvt(2, 'XX2+Y2', 2), kvt(3, 'XX3+Y3', 3));
  });

  // sluice: Kafka 3.7+'s KStreamKTableJoinProcessor.maybeDropRecord: a left join keeps a null-key record with a value
  // (joined with null), and still drops a null value
  it('keeps a null-key record with a value (joined with null) and drops a null value', () => {
    inputTableTopic.pipeInput(0, 'Y0', 0);
    inputStreamTopic.pipeInput(null, 'A', 5);
    inputStreamTopic.pipeInput(0, null, 6);
    processor.checkAndClearProcessResult(kvt(null as unknown as number, 'A+null', 5));
    const harness = taskHarness(builder.build(), 'kstream-ktable-left-join-null-value');
    expect(harness.process(streamTopic, null, Serdes.String().serialize(streamTopic, 'A'), 0)).toBe('processed');
    expect(harness.process(streamTopic, Serdes.Int32().serialize(streamTopic, 1), null, 1)).toBe('skipped');
    expect(harness.warnings().map((l) => l.msg)).toEqual([expect.stringMatching(/^Skipping record due to null join key or value \(processor 'KSTREAM-LEFTJOIN-\d+' of task 0_0, input streamTopic-0@1\)/)]);
    harness.task.close();
  });
});
