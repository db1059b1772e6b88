/**
 * Ported from Kafka Streams' `KTableAggregateTest` (inputs and expected
 * outputs unchanged): `KTable.groupBy(...).aggregate/count` with the old
 * value subtracted before the new one is added, and the timestamps of
 * Kafka's `KTableAggregate`.
 *
 * The versioned cases (KIP-914) are ported too: `testAggOfVersionedStore`,
 * `testCountOfVersionedStore` (out-of-order updates of a versioned source are
 * not aggregated). Not ported: `testShouldSendTransientStateWhenUpgrading`
 * (sluice has no `upgrade.from` config: it always sends one record when the
 * grouping key is unchanged, which `testShouldNotSendTransientStateIfNotUpgrading` checks).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { KeyValue, Materialized, Serdes, Stores, StreamsBuilder, type Serde } from '../../../../../src/index.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import { kvt, recorder, type Recorder } from '../../../../helpers/ktable/t-group.js';

const stringSerde = Serdes.String();
const consumed = { keySerde: stringSerde, valueSerde: stringSerde };
const stringSerialized = { keySerde: stringSerde, valueSerde: stringSerde };

// MockInitializer.STRING_INIT, MockAggregator.TOSTRING_ADDER / TOSTRING_REMOVER
const STRING_INIT = (): string => '0';
const TOSTRING_ADDER = (_k: unknown, value: unknown, aggregate: string): string => `${aggregate}+${String(value)}`;
const TOSTRING_REMOVER = (_k: unknown, value: unknown, aggregate: string): string => `${aggregate}-${String(value)}`;

let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

function start(builder: StreamsBuilder): TopologyTestDriver {
  driver = new TopologyTestDriver(builder.build(), { applicationId: 'ktable-aggregate-test' });
  return driver;
}

function testCountHelper(builder: StreamsBuilder, input: string, supplier: Recorder<string, unknown>): void {
  const inputTopic = start(builder).createInputTopic(input, stringSerde, stringSerde, { startTimestampMs: 0 });
  inputTopic.pipeInput('A', 'green', 10);
  inputTopic.pipeInput('B', 'green', 9);
  inputTopic.pipeInput('A', 'blue', 12);
  inputTopic.pipeInput('C', 'yellow', 15);
  inputTopic.pipeInput('D', 'green', 11);
  expect(supplier.processed).toEqual([
    kvt('green', 1, 10),
    kvt('green', 2, 10),
    kvt('green', 1, 12),
    kvt('blue', 1, 12),
    kvt('yellow', 1, 15),
    kvt('green', 2, 12),
  ]);
}

describe('KTableAggregateTest', () => {
  /** KTableAggregateTest.testAggBasic */
  it('testAggBasic', () => {
    const builder = new StreamsBuilder();
    const supplier = recorder<string, unknown>();
    const table1 = builder.table('topic1', consumed);
    const table2 = table1
      .groupBy((k, v) => KeyValue.pair(k, v), stringSerialized)
      .aggregate(STRING_INIT, TOSTRING_ADDER, TOSTRING_REMOVER, Materialized.as<string, string>('topic1-Canonized').withValueSerde(stringSerde));
    table2.toStream().process(supplier.supplier);

    const inputTopic = start(builder).createInputTopic('topic1', stringSerde, stringSerde, { startTimestampMs: 0 });
    inputTopic.pipeInput('A', '1', 10);
    inputTopic.pipeInput('B', '2', 15);
    inputTopic.pipeInput('A', '3', 20);
    inputTopic.pipeInput('B', '4', 18);
    inputTopic.pipeInput('C', '5', 5);
    inputTopic.pipeInput('D', '6', 25);
    inputTopic.pipeInput('B', '7', 15);
    inputTopic.pipeInput('C', '8', 10);

    expect(supplier.processed).toEqual([
      kvt('A', '0+1', 10),
      kvt('B', '0+2', 15),
      kvt('A', '0+1-1+3', 20),
      kvt('B', '0+2-2+4', 18),
      kvt('C', '0+5', 5),
      kvt('D', '0+6', 25),
      kvt('B', '0+2-2+4-4+7', 18),
      kvt('C', '0+5-5+8', 10),
    ]);
  });

  /** KTableAggregateTest.testAggRepartition */
  it('testAggRepartition', () => {
    const builder = new StreamsBuilder();
    const supplier = recorder<string, unknown>();
    const table1 = builder.table('topic1', consumed);
    const table2 = table1
      .groupBy<string | null, string>((key, value) => {
        switch (key) {
          case 'null':
            return KeyValue.pair(null, value);
          case 'NULL':
            return null;
          default:
            return KeyValue.pair(value, value);
        }
      }, stringSerialized as never)
      .aggregate(STRING_INIT, TOSTRING_ADDER, TOSTRING_REMOVER, Materialized.as<string | null, string>('topic1-Canonized').withValueSerde(stringSerde));
    table2.toStream().process(supplier.supplier as never);

    const inputTopic = start(builder).createInputTopic('topic1', stringSerde, stringSerde, { startTimestampMs: 0 });
    inputTopic.pipeInput('A', '1', 10);
    inputTopic.pipeInput('A', null, 15);
    inputTopic.pipeInput('A', '1', 12);
    inputTopic.pipeInput('B', '2', 20);
    inputTopic.pipeInput('null', '3', 25);
    inputTopic.pipeInput('B', '4', 23);
    inputTopic.pipeInput('NULL', '5', 24);
    inputTopic.pipeInput('B', '7', 22);

    expect(supplier.processed).toEqual([
      kvt('1', '0+1', 10),
      kvt('1', '0+1-1', 15),
      kvt('1', '0+1-1+1', 15),
      kvt('2', '0+2', 20),
      kvt('2', '0+2-2', 23),
      kvt('4', '0+4', 23),
      kvt('4', '0+4-4', 23),
      kvt('7', '0+7', 22),
    ]);
  });

  /** KTableAggregateTest.testAggOfVersionedStore */
  it('testAggOfVersionedStore', () => {
    const builder = new StreamsBuilder();
    const supplier = recorder<string, unknown>();
    const versionedMaterialize = Materialized.as<string, string>(Stores.persistentVersionedKeyValueStore('versioned', 5 * 60_000));
    const table1 = builder.table('topic1', consumed, versionedMaterialize);
    const table2 = table1
      .groupBy<string | null, string>((key, value) => {
        switch (key) {
          case 'null':
            return KeyValue.pair(null, value);
          case 'NULL':
            return null;
          default:
            return KeyValue.pair(value, value);
        }
      }, stringSerialized as never)
      .aggregate(STRING_INIT, TOSTRING_ADDER, TOSTRING_REMOVER, Materialized.as<string | null, string>('topic1-Canonized').withValueSerde(stringSerde));
    table2.toStream().process(supplier.supplier as never);

    const inputTopic = start(builder).createInputTopic('topic1', stringSerde, stringSerde, { startTimestampMs: 0 });
    inputTopic.pipeInput('A', '1', 10);
    inputTopic.pipeInput('A', null, 15);
    inputTopic.pipeInput('A', '1', 12); // out-of-order record will be ignored
    inputTopic.pipeInput('B', '2', 20);
    inputTopic.pipeInput('null', '3', 25);
    inputTopic.pipeInput('B', '4', 23);
    inputTopic.pipeInput('NULL', '5', 24);
    inputTopic.pipeInput('B', '7', 22); // out-of-order record will be ignored

    expect(supplier.processed).toEqual([kvt('1', '0+1', 10), kvt('1', '0+1-1', 15), kvt('2', '0+2', 20), kvt('2', '0+2-2', 23), kvt('4', '0+4', 23)]);
  });

  /** KTableAggregateTest.testCountOfVersionedStore */
  it('testCountOfVersionedStore', () => {
    const builder = new StreamsBuilder();
    const supplier = recorder<string, unknown>();
    const input = 'count-test-input';
    const versionedMaterialize = Materialized.as<string, string>(Stores.persistentVersionedKeyValueStore('versioned', 5 * 60_000));
    builder
      .table(input, consumed, versionedMaterialize)
      .groupBy((_k, v) => KeyValue.pair(v, v), stringSerialized)
      .count()
      .toStream()
      .process(supplier.supplier);

    const inputTopic = start(builder).createInputTopic(input, stringSerde, stringSerde, { startTimestampMs: 0 });
    inputTopic.pipeInput('A', 'green', 10);
    inputTopic.pipeInput('B', 'green', 9);
    inputTopic.pipeInput('A', 'blue', 12);
    inputTopic.pipeInput('A', 'blue', 11); // out-of-order record will be ignored
    inputTopic.pipeInput('C', 'yellow', 15);
    inputTopic.pipeInput('D', 'green', 11);

    expect(supplier.processed).toEqual([
      kvt('green', 1, 10),
      kvt('green', 2, 10),
      kvt('green', 1, 12),
      kvt('blue', 1, 12),
      kvt('yellow', 1, 15),
      kvt('green', 2, 12),
    ]);
  });

  /** sluice (Kafka's KeyValueStoreMaterializer allows it): the aggregation result on a versioned store keeps its history. */
  it('an aggregation may be materialized on a versioned store; its history is queryable as of a time', () => {
    const builder = new StreamsBuilder();
    const supplier = recorder<string, unknown>();
    builder
      .table('colors', consumed)
      .groupBy((_k, v) => KeyValue.pair(v, v), stringSerialized)
      .count(Materialized.as<string, number>(Stores.persistentVersionedKeyValueStore('color-counts', 60_000)))
      .toStream()
      .process(supplier.supplier);
    const d = start(builder);
    const inputTopic = d.createInputTopic('colors', stringSerde, stringSerde, { startTimestampMs: 0 });
    inputTopic.pipeInput('A', 'green', 10);
    inputTopic.pipeInput('B', 'green', 20);
    inputTopic.pipeInput('A', 'blue', 30);
    expect(supplier.processed).toEqual([kvt('green', 1, 10), kvt('green', 2, 20), kvt('green', 1, 30), kvt('blue', 1, 30)]);
    const store = d.getVersionedKeyValueStore<string, number>('color-counts');
    expect(store).not.toBeNull();
    if (store === null) return;
    expect(store.get('green', 25)).toMatchObject({ value: 2, timestamp: 20 });
    expect(store.get('green')).toMatchObject({ value: 1, timestamp: 30 });
  });

  /** KTableAggregateTest.testCount */
  it('testCount', () => {
    const builder = new StreamsBuilder();
    const supplier = recorder<string, unknown>();
    const input = 'count-test-input';
    builder
      .table(input, consumed)
      .groupBy((_k, v) => KeyValue.pair(v, v), stringSerialized)
      .count(Materialized.as<string, number>('count'))
      .toStream()
      .process(supplier.supplier);
    testCountHelper(builder, input, supplier);
  });

  /** KTableAggregateTest.testCountWithInternalStore */
  it('testCountWithInternalStore', () => {
    const builder = new StreamsBuilder();
    const supplier = recorder<string, unknown>();
    const input = 'count-test-input';
    builder
      .table(input, consumed)
      .groupBy((_k, v) => KeyValue.pair(v, v), stringSerialized)
      .count()
      .toStream()
      .process(supplier.supplier);
    testCountHelper(builder, input, supplier);
  });

  /** KTableAggregateTest.testRemoveOldBeforeAddNew */
  it('testRemoveOldBeforeAddNew', () => {
    const builder = new StreamsBuilder();
    const supplier = recorder<string, unknown>();
    const input = 'count-test-input';
    builder
      .table(input, consumed)
      .groupBy((key, _value) => KeyValue.pair(key.charAt(0), key.charAt(1)), stringSerialized)
      .aggregate(
        () => '',
        (_aggKey, value, aggregate) => aggregate + value,
        (_key, value, aggregate) => aggregate.replaceAll(value, ''),
        Materialized.as<string, string>('someStore').withValueSerde(Serdes.String()),
      )
      .toStream()
      .process(supplier.supplier);

    const inputTopic = start(builder).createInputTopic(input, stringSerde, stringSerde, { startTimestampMs: 0 });
    inputTopic.pipeInput('11', 'A', 10);
    inputTopic.pipeInput('12', 'B', 8);
    inputTopic.pipeInput('11', null, 12);
    inputTopic.pipeInput('12', 'C', 6);

    expect(supplier.processed).toEqual([kvt('1', '1', 10), kvt('1', '12', 10), kvt('1', '2', 12), kvt('1', '2', 12)]);
  });

  /** KTableAggregateTest.testUpgradeFromConfig, as used by testShouldNotSendTransientStateIfNotUpgrading */
  function testUpgradeFromConfig(expected: Array<{ key: string; value: number; timestamp: number }>): void {
    const builder = new StreamsBuilder();
    builder
      .table('input-topic', consumed)
      // key is not changed
      .groupBy((k, v) => KeyValue.pair(k, v), stringSerialized)
      .count()
      .toStream()
      .to('output-topic');
    const d = start(builder);
    const inputTopic = d.createInputTopic('input-topic', stringSerde, stringSerde, { startTimestampMs: 0 });
    const outputTopic = d.createOutputTopic('output-topic', stringSerde, Serdes.Long());
    inputTopic.pipeInput('1', '', 8);
    inputTopic.pipeInput('1', '', 9);
    expect(outputTopic.readRecordsToList().map((tr) => ({ key: tr.key, value: tr.value, timestamp: tr.timestamp }))).toEqual(expected);
  }

  /** KTableAggregateTest.testShouldNotSendTransientStateIfNotUpgrading */
  it('testShouldNotSendTransientStateIfNotUpgrading', () => {
    testUpgradeFromConfig([kvt('1', 1, 8), kvt('1', 1, 9)]);
  });

  /** KTableAggregateTest.NoEqualsImpl: a key class without `equals` (identity comparison). */
  class NoEqualsImpl {
    constructor(readonly x: string) {}
  }
  /** KTableAggregateTest.NoEqualsImplSerde */
  const noEqualsImplSerde: Serde<NoEqualsImpl> = Serdes.from<NoEqualsImpl>(
    (_topic, data) => Buffer.from(data.x, 'utf8'),
    (_topic, data) => new NoEqualsImpl(data.toString('utf8')),
    'NoEqualsImpl',
  );

  /** KTableAggregateTest.testKeyWithNoEquals */
  function testKeyWithNoEquals(
    keyValueMapper: (k: NoEqualsImpl, v: NoEqualsImpl) => KeyValue<NoEqualsImpl, NoEqualsImpl>,
    expected: Array<{ key: NoEqualsImpl; value: number; timestamp: number }>,
  ): void {
    const builder = new StreamsBuilder();
    builder
      .table('input-topic', { keySerde: noEqualsImplSerde, valueSerde: noEqualsImplSerde })
      .groupBy(keyValueMapper, { keySerde: noEqualsImplSerde, valueSerde: noEqualsImplSerde })
      .count()
      .toStream()
      .to('output-topic', { keySerde: noEqualsImplSerde, valueSerde: Serdes.Long() });
    const d = start(builder);
    const inputTopic = d.createInputTopic('input-topic', noEqualsImplSerde, noEqualsImplSerde, { startTimestampMs: 0 });
    const outputTopic = d.createOutputTopic('output-topic', noEqualsImplSerde, Serdes.Long());

    const a = new NoEqualsImpl('1');
    const b = new NoEqualsImpl('1');
    expect(a).not.toBe(b);

    inputTopic.pipeInput(a, a, 8);
    inputTopic.pipeInput(b, b, 9);

    const comparable = (list: Array<{ key: NoEqualsImpl | null; value: number | null; timestamp: number }>): unknown[] =>
      list.map((tr) => ({ key: tr.key?.x, value: tr.value, timestamp: tr.timestamp }));
    expect(comparable(outputTopic.readRecordsToList())).toEqual(comparable(expected));
  }

  /** KTableAggregateTest.testNoEqualsAndNotSameObject */
  it('testNoEqualsAndNotSameObject', () => {
    testKeyWithNoEquals(
      // key changes, different object reference (deserializer returns a new object reference)
      (_k, v) => KeyValue.pair(v, v),
      [
        kvt(new NoEqualsImpl('1'), 1, 8),
        kvt(new NoEqualsImpl('1'), 0, 9), // transient inconsistent state
        kvt(new NoEqualsImpl('1'), 1, 9),
      ],
    );
  });

  /** KTableAggregateTest.testNoEqualsAndSameObject */
  it('testNoEqualsAndSameObject', () => {
    testKeyWithNoEquals(
      // key does not change, same object reference
      (k, v) => KeyValue.pair(k, v),
      [kvt(new NoEqualsImpl('1'), 1, 8), kvt(new NoEqualsImpl('1'), 1, 9)],
    );
  });
});
