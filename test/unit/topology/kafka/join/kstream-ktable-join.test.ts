/**
 * Port of Kafka's `KStreamKTableJoinTest` (streams/src/test/java/org/apache/kafka/streams/kstream/internals/).
 * Inputs and expected outputs are Kafka's, the versioned (KIP-914) and
 * grace-period (KIP-923) cases included: shouldFailIfTableIsNotVersioned(ButMaterializationIsInherited),
 * shouldNotFailIfTableIsVersionedButMaterializationIsInherited,
 * shouldFailIfGracePeriodIsLongerThanHistoryRetention(AndInheritedStore),
 * shouldDelayJoinByGracePeriod, shouldHandleLateJoinsWithGracePeriod
 * (Kafka checks the stores of a grace join in builder.build(); sluice at the join).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Consumed, Joined, Materialized, Serdes, Stores, StreamsBuilder, TopologyError, type KStream, type KTable } from '../../../../../src/index.js';
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

describe('KStreamKTableJoinTest', () => {
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
    stream.join(table, TOSTRING_JOINER).process(processor.supplier);
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
  const pushNullValueToTable = (): void => {
    for (let i = 0; i < 2; i++) inputTableTopic.pipeInput(expectedKeys[i]!, null);
  };

  // KStreamKTableJoinTest.shouldFailIfTableIsNotVersioned
  it('shouldFailIfTableIsNotVersioned', () => {
    const builder = new StreamsBuilder();
    const streamA = builder.stream('topic', Consumed.with(Serdes.String(), Serdes.String()));
    const tableB = builder.table('topic2', Consumed.with(Serdes.String(), Serdes.String()));
    const join = () => streamA.join(tableB, (value1, value2) => value1 + value2, Joined.with(Serdes.String(), Serdes.String(), Serdes.String(), 'first-join', 6)).to('out-one');
    expect(join).toThrow(TopologyError);
    expect(join).toThrow('KTable must be versioned to use a grace period in a stream table join.');
  });

  // KStreamKTableJoinTest.shouldFailIfTableIsNotVersionedButMaterializationIsInherited
  // (Kafka throws from builder.build(); sluice at the join already)
  it('shouldFailIfTableIsNotVersionedButMaterializationIsInherited', () => {
    const builder = new StreamsBuilder();
    const streamA = builder.stream('topic', Consumed.with(Serdes.String(), Serdes.String()));
    const source = builder.table('topic2', Consumed.with(Serdes.String(), Serdes.String()), Materialized.as<string, string>(Stores.inMemoryKeyValueStore('tableB')));
    const tableB = source.filter(() => true);
    // the filter operation forces the table materialization to be inherited
    expect(() =>
      streamA.join(tableB, (value1, value2) => value1 + value2, Joined.with(Serdes.String(), Serdes.String(), Serdes.String(), 'first-join', 6)).to('out-one'),
    ).toThrow('KTable must be versioned to use a grace period in a stream table join.');
  });

  // KStreamKTableJoinTest.shouldNotFailIfTableIsVersionedButMaterializationIsInherited
  it('shouldNotFailIfTableIsVersionedButMaterializationIsInherited', () => {
    const builder = new StreamsBuilder();
    const streamA = builder.stream('topic', Consumed.with(Serdes.String(), Serdes.String()));
    const source = builder.table('topic2', Consumed.with(Serdes.String(), Serdes.String()), Materialized.as<string, string>(Stores.persistentVersionedKeyValueStore('tableB', 5 * 60_000)));
    const tableB = source.filter(() => true);
    // the filter operation forces the table materialization to be inherited
    streamA.join(tableB, (value1, value2) => value1 + value2, Joined.with(Serdes.String(), Serdes.String(), Serdes.String(), 'first-join', 6)).to('out-one');
    //should not throw an error
    expect(() => builder.build()).not.toThrow();
    // sluice: the join holds its buffer store first-join-Buffer, the table's store through the filter
    expect(planOf(builder.build()).stores.has('first-join-Buffer')).toBe(true);
  });

  // KStreamKTableJoinTest.shouldFailIfGracePeriodIsLongerThanHistoryRetention
  it('shouldFailIfGracePeriodIsLongerThanHistoryRetention', () => {
    const builder = new StreamsBuilder();
    const streamA = builder.stream('topic', Consumed.with(Serdes.String(), Serdes.String()));
    const tableB = builder.table('topic2', Consumed.with(Serdes.String(), Serdes.String()), Materialized.as<string, string>(Stores.persistentVersionedKeyValueStore('tableB', 5 * 60_000)));
    expect(() =>
      streamA.join(tableB, (value1, value2) => value1 + value2, Joined.with(Serdes.String(), Serdes.String(), Serdes.String(), 'first-join', 6 * 60_000)).to('out-one'),
    ).toThrow('History retention must be at least grace period.');
  });

  // KStreamKTableJoinTest.shouldFailIfGracePeriodIsLongerThanHistoryRetentionAndInheritedStore
  it('shouldFailIfGracePeriodIsLongerThanHistoryRetentionAndInheritedStore', () => {
    const builder = new StreamsBuilder();
    const streamA = builder.stream('topic', Consumed.with(Serdes.String(), Serdes.String()));
    const source = builder.table('topic2', Consumed.with(Serdes.String(), Serdes.String()), Materialized.as<string, string>(Stores.persistentVersionedKeyValueStore('V-grace', 0)));
    const tableB = source.filter(() => true);
    // the filter operation forces the table materialization to be inherited
    expect(() =>
      streamA.join(tableB, (value1, value2) => value1 + value2, Joined.with(Serdes.String(), Serdes.String(), Serdes.String(), 'first-join', 6)).to('out-one'),
    ).toThrow('History retention must be at least grace period.');
  });

  describe('with a grace period (makeJoin)', () => {
    /** Kafka's `makeJoin(grace)`: the stream joined with a table on the versioned store V-grace (5 minutes), join named Grace. */
    const makeJoin = (grace: number): void => {
      driver.close();
      builder = new StreamsBuilder();
      const consumed = Consumed.with(Serdes.Int32(), Serdes.String());
      const stream = builder.stream(streamTopic, consumed);
      const table = builder.table('tableTopic2', consumed, Materialized.as<number, string>(Stores.persistentVersionedKeyValueStore('V-grace', 5 * 60_000)));
      processor = captureProcessor<number, string>();
      stream.join(table, TOSTRING_JOINER, Joined.with(Serdes.Int32(), Serdes.String(), Serdes.String(), 'Grace', grace)).process(processor.supplier);
      driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: Serdes.Int32() as never, defaultValueSerde: Serdes.String() as never });
      inputStreamTopic = driver.createInputTopic(streamTopic, Serdes.Int32(), Serdes.String(), { startTimestampMs: 0, autoAdvanceMs: 0 });
      inputTableTopic = driver.createInputTopic('tableTopic2', Serdes.Int32(), Serdes.String(), { startTimestampMs: 0, autoAdvanceMs: 0 });
    };
    const pushToTableNonRandom = (messageCount: number, valuePrefix: string): void => {
      for (let i = 0; i < messageCount; i++) inputTableTopic.pipeInput(expectedKeys[i]!, valuePrefix + expectedKeys[i], 0);
    };

    // KStreamKTableJoinTest.shouldDelayJoinByGracePeriod
    it('shouldDelayJoinByGracePeriod', () => {
      makeJoin(2);
      // push four items to the table. this should not produce any item.
      pushToTableNonRandom(4, 'Y');
      processor.checkAndClearProcessResult(...EMPTY);
      // push all four items to the primary stream. this should produce two items.
      pushToStream(4, 'X');
      processor.checkAndClearProcessResult(kvt(0, 'X0+Y0', 0), kvt(1, 'X1+Y1', 1));
      // push all items to the table. this should not produce any item
      pushToTableNonRandom(4, 'YY');
      processor.checkAndClearProcessResult(...EMPTY);
      // push all four items to the primary stream. this should produce two items.
      pushToStream(4, 'X');
      processor.checkAndClearProcessResult(kvt(0, 'X0+YY0', 0), kvt(1, 'X1+YY1', 1));
      inputStreamTopic.pipeInput(5, 'test', 7);
      processor.checkAndClearProcessResult(kvt(2, 'X2+YY2', 2), kvt(2, 'X2+YY2', 2), kvt(3, 'X3+YY3', 3), kvt(3, 'X3+YY3', 3));
      // push all items to the table. this should not produce any item
      pushToTableNonRandom(4, 'YYY');
      processor.checkAndClearProcessResult(...EMPTY);
    });

    // KStreamKTableJoinTest.shouldHandleLateJoinsWithGracePeriod
    it('shouldHandleLateJoinsWithGracePeriod', () => {
      makeJoin(2);
      // push four items to the table. this should not produce any item.
      pushToTableNonRandom(4, 'Y');
      processor.checkAndClearProcessResult(...EMPTY);
      // push 4 records into the buffer and evict the first two
      pushToStream(4, 'X');
      processor.checkAndClearProcessResult(kvt(0, 'X0+Y0', 0), kvt(1, 'X1+Y1', 1));
      //should be processed immediately and not evict any other records
      pushToStream(1, 'X');
      processor.checkAndClearProcessResult(kvt(0, 'X0+Y0', 0));
    });
  });

  // KStreamKTableJoinTest.shouldReuseRepartitionTopicWithGeneratedName
  it('shouldReuseRepartitionTopicWithGeneratedName', () => {
    const builder = new StreamsBuilder();
    const streamA = builder.stream('topic', Consumed.with(Serdes.String(), Serdes.String()));
    const tableB = builder.table('topic2', Consumed.with(Serdes.String(), Serdes.String()));
    const tableC = builder.table('topic3', Consumed.with(Serdes.String(), Serdes.String()));
    const rekeyedStream = streamA.map((k, v) => ({ key: v, value: k }));
    rekeyedStream.join(tableB, (value1, value2) => value1 + value2).to('out-one');
    rekeyedStream.join(tableC, (value1, value2) => value1 + value2).to('out-two');
    expect(builder.build().describe().toString()).toBe(expectedTopologyWithGeneratedRepartitionTopicNames);
  });

  // KStreamKTableJoinTest.shouldCreateRepartitionTopicsWithUserProvidedName
  it('shouldCreateRepartitionTopicsWithUserProvidedName', () => {
    const builder = new StreamsBuilder();
    const streamA = builder.stream('topic', Consumed.with(Serdes.String(), Serdes.String()));
    const tableB = builder.table('topic2', Consumed.with(Serdes.String(), Serdes.String()));
    const tableC = builder.table('topic3', Consumed.with(Serdes.String(), Serdes.String()));
    const rekeyedStream = streamA.map((k, v) => ({ key: v, value: k }));
    rekeyedStream.join(tableB, (value1, value2) => value1 + value2, Joined.with(Serdes.String(), Serdes.String(), Serdes.String(), 'first-join')).to('out-one');
    rekeyedStream.join(tableC, (value1, value2) => value1 + value2, Joined.with(Serdes.String(), Serdes.String(), Serdes.String(), 'second-join')).to('out-two');
    expect(builder.build().describe().toString()).toBe(expectedTopologyWithUserProvidedRepartitionTopicNames);
  });

  // KStreamKTableJoinTest.shouldRequireCopartitionedStreams
  it('shouldRequireCopartitionedStreams', () => {
    const copartitionGroups = planOf(builder.build()).copartitionGroups ?? [];
    expect(copartitionGroups).toHaveLength(1);
    expect(new Set(copartitionGroups[0])).toEqual(new Set([streamTopic, tableTopic]));
  });

  // KStreamKTableJoinTest.shouldNotJoinWithEmptyTableOnStreamUpdates
  it('shouldNotJoinWithEmptyTableOnStreamUpdates', () => {
    // push two items to the primary stream. the table is empty
    pushToStream(2, 'X');
    processor.checkAndClearProcessResult(...EMPTY);
  });

  // KStreamKTableJoinTest.shouldNotJoinOnTableUpdates
  it('shouldNotJoinOnTableUpdates', () => {
    // push two items to the primary stream. the table is empty
    pushToStream(2, 'X');
    processor.checkAndClearProcessResult(...EMPTY);
    // push two items to the table. this should not produce any item.
    pushToTable(2, 'Y');
    processor.checkAndClearProcessResult(...EMPTY);
    // push all four items to the primary stream. this should produce two items.
    pushToStream(4, 'X');
    processor.checkAndClearProcessResult(kvt(0, 'X0+Y0', 0), kvt(1, 'X1+Y1', 1));
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

  // KStreamKTableJoinTest.shouldJoinOnlyIfMatchFoundOnStreamUpdates
  it('shouldJoinOnlyIfMatchFoundOnStreamUpdates', () => {
    // push two items to the table. this should not produce any item.
    pushToTable(2, 'Y');
    processor.checkAndClearProcessResult(...EMPTY);
    // push all four items to the primary stream. this should produce two items.
    pushToStream(4, 'X');
    processor.checkAndClearProcessResult(kvt(0, 'X0+Y0', 0), kvt(1, 'X1+Y1', 1));
  });

  // KStreamKTableJoinTest.shouldClearTableEntryOnNullValueUpdates
  it('shouldClearTableEntryOnNullValueUpdates', () => {
    // push all four items to the table. this should not produce any item.
    pushToTable(4, 'Y');
    processor.checkAndClearProcessResult(...EMPTY);
    // push all four items to the primary stream. this should produce four items.
    pushToStream(4, 'X');
    processor.checkAndClearProcessResult(kvt(0, 'X0+Y0', 0), kvt(1, 'X1+Y1', 1), kvt(2, 'X2+Y2', 2), kvt(3, 'X3+Y3', 3));
    // push two items with null to the table as deletes. this should not produce any item.
    pushNullValueToTable();
    processor.checkAndClearProcessResult(...EMPTY);
    // push all four items to the primary stream. this should produce two items.
    pushToStream(4, 'XX');
    processor.checkAndClearProcessResult(kvt(2, 'XX2+Y2', 2), kvt(3, 'XX3+Y3', 3));
  });

  // KStreamKTableJoinTest.shouldLogAndMeterWhenSkippingNullLeftKey
  // (sluice's drop line carries Kafka's phrase; the metric is the task's skipped count: process() answers 'skipped')
  it('shouldLogAndMeterWhenSkippingNullLeftKey', () => {
    const harness = taskHarness(builder.build(), 'kstream-ktable-join-null-key');
    expect(harness.process(streamTopic, null, Serdes.String().serialize(streamTopic, 'A'), 0)).toBe('skipped');
    expect(harness.warnings().map((l) => l.msg)).toEqual([expect.stringMatching(/^Skipping record due to null join key or value \(processor 'KSTREAM-JOIN-\d+' of task 0_0, input streamTopic-0@0\)/)]);
    harness.task.close();
  });

  // KStreamKTableJoinTest.shouldLogAndMeterWhenSkippingNullLeftValue
  it('shouldLogAndMeterWhenSkippingNullLeftValue', () => {
    const harness = taskHarness(builder.build(), 'kstream-ktable-join-null-value');
    expect(harness.process(streamTopic, Serdes.Int32().serialize(streamTopic, 1), null, 0)).toBe('skipped');
    expect(harness.warnings().map((l) => l.msg)).toEqual([expect.stringMatching(/^Skipping record due to null join key or value \(processor 'KSTREAM-JOIN-\d+' of task 0_0, input streamTopic-0@0\)/)]);
    harness.task.close();
  });
});

const expectedTopologyWithGeneratedRepartitionTopicNames =
  'Topologies:\n' +
  '   Sub-topology: 0\n' +
  '    Source: KSTREAM-SOURCE-0000000000 (topics: [topic])\n' +
  '      --> KSTREAM-MAP-0000000007\n' +
  '    Processor: KSTREAM-MAP-0000000007 (stores: [])\n' +
  '      --> KSTREAM-FILTER-0000000009\n' +
  '      <-- KSTREAM-SOURCE-0000000000\n' +
  '    Processor: KSTREAM-FILTER-0000000009 (stores: [])\n' +
  '      --> KSTREAM-SINK-0000000008\n' +
  '      <-- KSTREAM-MAP-0000000007\n' +
  '    Sink: KSTREAM-SINK-0000000008 (topic: KSTREAM-MAP-0000000007-repartition)\n' +
  '      <-- KSTREAM-FILTER-0000000009\n' +
  '\n' +
  '  Sub-topology: 1\n' +
  '    Source: KSTREAM-SOURCE-0000000010 (topics: [KSTREAM-MAP-0000000007-repartition])\n' +
  '      --> KSTREAM-JOIN-0000000011, KSTREAM-JOIN-0000000016\n' +
  '    Processor: KSTREAM-JOIN-0000000011 (stores: [topic2-STATE-STORE-0000000001])\n' +
  '      --> KSTREAM-SINK-0000000012\n' +
  '      <-- KSTREAM-SOURCE-0000000010\n' +
  '    Processor: KSTREAM-JOIN-0000000016 (stores: [topic3-STATE-STORE-0000000004])\n' +
  '      --> KSTREAM-SINK-0000000017\n' +
  '      <-- KSTREAM-SOURCE-0000000010\n' +
  '    Source: KSTREAM-SOURCE-0000000002 (topics: [topic2])\n' +
  '      --> KTABLE-SOURCE-0000000003\n' +
  '    Source: KSTREAM-SOURCE-0000000005 (topics: [topic3])\n' +
  '      --> KTABLE-SOURCE-0000000006\n' +
  '    Sink: KSTREAM-SINK-0000000012 (topic: out-one)\n' +
  '      <-- KSTREAM-JOIN-0000000011\n' +
  '    Sink: KSTREAM-SINK-0000000017 (topic: out-two)\n' +
  '      <-- KSTREAM-JOIN-0000000016\n' +
  '    Processor: KTABLE-SOURCE-0000000003 (stores: [topic2-STATE-STORE-0000000001])\n' +
  '      --> none\n' +
  '      <-- KSTREAM-SOURCE-0000000002\n' +
  '    Processor: KTABLE-SOURCE-0000000006 (stores: [topic3-STATE-STORE-0000000004])\n' +
  '      --> none\n' +
  '      <-- KSTREAM-SOURCE-0000000005\n\n';

const expectedTopologyWithUserProvidedRepartitionTopicNames =
  'Topologies:\n' +
  '   Sub-topology: 0\n' +
  '    Source: KSTREAM-SOURCE-0000000000 (topics: [topic])\n' +
  '      --> KSTREAM-MAP-0000000007\n' +
  '    Processor: KSTREAM-MAP-0000000007 (stores: [])\n' +
  '      --> first-join-repartition-filter, second-join-repartition-filter\n' +
  '      <-- KSTREAM-SOURCE-0000000000\n' +
  '    Processor: first-join-repartition-filter (stores: [])\n' +
  '      --> first-join-repartition-sink\n' +
  '      <-- KSTREAM-MAP-0000000007\n' +
  '    Processor: second-join-repartition-filter (stores: [])\n' +
  '      --> second-join-repartition-sink\n' +
  '      <-- KSTREAM-MAP-0000000007\n' +
  '    Sink: first-join-repartition-sink (topic: first-join-repartition)\n' +
  '      <-- first-join-repartition-filter\n' +
  '    Sink: second-join-repartition-sink (topic: second-join-repartition)\n' +
  '      <-- second-join-repartition-filter\n' +
  '\n' +
  '  Sub-topology: 1\n' +
  '    Source: first-join-repartition-source (topics: [first-join-repartition])\n' +
  '      --> first-join\n' +
  '    Source: KSTREAM-SOURCE-0000000002 (topics: [topic2])\n' +
  '      --> KTABLE-SOURCE-0000000003\n' +
  '    Processor: first-join (stores: [topic2-STATE-STORE-0000000001])\n' +
  '      --> KSTREAM-SINK-0000000012\n' +
  '      <-- first-join-repartition-source\n' +
  '    Sink: KSTREAM-SINK-0000000012 (topic: out-one)\n' +
  '      <-- first-join\n' +
  '    Processor: KTABLE-SOURCE-0000000003 (stores: [topic2-STATE-STORE-0000000001])\n' +
  '      --> none\n' +
  '      <-- KSTREAM-SOURCE-0000000002\n' +
  '\n' +
  '  Sub-topology: 2\n' +
  '    Source: second-join-repartition-source (topics: [second-join-repartition])\n' +
  '      --> second-join\n' +
  '    Source: KSTREAM-SOURCE-0000000005 (topics: [topic3])\n' +
  '      --> KTABLE-SOURCE-0000000006\n' +
  '    Processor: second-join (stores: [topic3-STATE-STORE-0000000004])\n' +
  '      --> KSTREAM-SINK-0000000017\n' +
  '      <-- second-join-repartition-source\n' +
  '    Sink: KSTREAM-SINK-0000000017 (topic: out-two)\n' +
  '      <-- second-join\n' +
  '    Processor: KTABLE-SOURCE-0000000006 (stores: [topic3-STATE-STORE-0000000004])\n' +
  '      --> none\n' +
  '      <-- KSTREAM-SOURCE-0000000005\n\n';
