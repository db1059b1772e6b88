/**
 * Ported from Kafka Streams' `KGroupedTableImplTest` (inputs and expected
 * values and timestamps unchanged). Kafka's `props` give String keys and
 * Integer values by default: here the builder's default serdes
 * (`Serdes.String()`, `Serdes.Int32()`). A null argument is Kafka's
 * NullPointerException: an IllegalArgumentError "<argument> can't be null".
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { IllegalArgumentError, KeyValue, Materialized, Serdes, StreamsBuilder, TopologyError, type KGroupedTable, type KTable } from '../../../../../src/index.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import { recorder, type Recorder } from '../../../../helpers/ktable/t-group.js';
import { storeOf } from '../../../../helpers/store-of.js';

const INVALID_STORE_NAME = '~foo bar~';
const NULL = null as never;
const topic = 'input';

// MockInitializer / MockAggregator / MockReducer
const STRING_INIT = (): string => '0';
const TOSTRING_ADDER = (_k: unknown, value: unknown, aggregate: string): string => `${aggregate}+${String(value)}`;
const TOSTRING_REMOVER = (_k: unknown, value: unknown, aggregate: string): string => `${aggregate}-${String(value)}`;
const STRING_ADDER = (a: string, b: string): string => `${a}+${b}`;
const STRING_REMOVER = (a: string, b: string): string => `${a}-${b}`;
const INTEGER_ADDER = (a: number, b: number): number => a + b;
const INTEGER_SUBTRACTOR = (a: number, b: number): number => a - b;

let builder: StreamsBuilder<string, number>;
let groupedTable: KGroupedTable<string, string>;

beforeEach(() => {
  builder = new StreamsBuilder({ defaultKeySerde: Serdes.String(), defaultValueSerde: Serdes.Int32() });
  groupedTable = builder.table('blah', { keySerde: Serdes.String(), valueSerde: Serdes.String() }).groupBy((_k, v) => KeyValue.pair(v, v));
});

function expectNull(call: () => unknown, message: string): void {
  expect(call).toThrow(IllegalArgumentError);
  expect(call).toThrow(message);
}

function driverFor(): TopologyTestDriver {
  return new TopologyTestDriver(builder.build(), { applicationId: 'kgrouped-table-test' });
}

/** intProjection: `(key, value) -> KeyValue.pair(key, value.intValue())` */
const intProjection = (key: string, value: number): KeyValue<string, number> => KeyValue.pair(key, Math.trunc(value));

function getReducedResults(inputKTable: KTable<string, number>): Recorder<string, number> {
  const supplier = recorder<string, number>();
  inputKTable.toStream().process(supplier.supplier);
  return supplier;
}

function assertReduced(supplier: Recorder<string, number>, driver: TopologyTestDriver): void {
  const inputTopic = driver.createInputTopic(topic, Serdes.String(), Serdes.Double());
  inputTopic.pipeInput('A', 1.1, 10);
  inputTopic.pipeInput('B', 2.2, 11);
  expect(supplier.lastValueAndTimestampPerKey().get('A')).toEqual({ value: 1, timestamp: 10 });
  expect(supplier.lastValueAndTimestampPerKey().get('B')).toEqual({ value: 2, timestamp: 11 });

  inputTopic.pipeInput('A', 2.6, 30);
  inputTopic.pipeInput('B', 1.3, 30);
  inputTopic.pipeInput('A', 5.7, 50);
  inputTopic.pipeInput('B', 6.2, 20);
  expect(supplier.lastValueAndTimestampPerKey().get('A')).toEqual({ value: 5, timestamp: 50 });
  expect(supplier.lastValueAndTimestampPerKey().get('B')).toEqual({ value: 6, timestamp: 30 });
}

function processData(driver: TopologyTestDriver): void {
  const inputTopic = driver.createInputTopic(topic, Serdes.String(), Serdes.String());
  inputTopic.pipeInput('A', '1', 10);
  inputTopic.pipeInput('B', '1', 50);
  inputTopic.pipeInput('C', '1', 30);
  inputTopic.pipeInput('D', '2', 40);
  inputTopic.pipeInput('E', '2', 60);
}

describe('KGroupedTableImplTest', () => {
  /** KGroupedTableImplTest.shouldNotAllowInvalidStoreNameOnAggregate */
  it('shouldNotAllowInvalidStoreNameOnAggregate', () => {
    expect(() => groupedTable.aggregate(STRING_INIT, TOSTRING_ADDER, TOSTRING_REMOVER, Materialized.as(INVALID_STORE_NAME))).toThrow(TopologyError);
    expect(() => groupedTable.aggregate(STRING_INIT, TOSTRING_ADDER, TOSTRING_REMOVER, { storeName: INVALID_STORE_NAME })).toThrow(TopologyError);
  });

  /** KGroupedTableImplTest.shouldNotAllowInvalidStoreNameOnReduce */
  it('shouldNotAllowInvalidStoreNameOnReduce', () => {
    expect(() => groupedTable.reduce(STRING_ADDER, STRING_REMOVER, Materialized.as(INVALID_STORE_NAME))).toThrow(TopologyError);
    expect(() => groupedTable.reduce(STRING_ADDER, STRING_REMOVER, { storeName: INVALID_STORE_NAME })).toThrow(TopologyError);
  });

  /**
   * KGroupedTableImplTest.shouldNotAllowNullInitializerOnAggregate, shouldNotAllowNullAdderOnAggregate,
   * shouldNotAllowNullSubtractorOnAggregate, shouldThrowNullPointerOnAggregateWhenInitializerIsNull,
   * shouldThrowNullPointerOnAggregateWhenAdderIsNull, shouldThrowNullPointerOnAggregateWhenSubtractorIsNull,
   * shouldThrowNullPointerOnAggregateWhenMaterializedIsNull
   */
  it('null arguments of aggregate', () => {
    expectNull(() => groupedTable.aggregate(NULL, TOSTRING_ADDER, TOSTRING_REMOVER, Materialized.as('store')), "initializer can't be null");
    expectNull(() => groupedTable.aggregate(STRING_INIT, NULL, TOSTRING_REMOVER, Materialized.as('store')), "adder can't be null");
    expectNull(() => groupedTable.aggregate(STRING_INIT, TOSTRING_ADDER, NULL, Materialized.as('store')), "subtractor can't be null");
    expectNull(() => groupedTable.aggregate(STRING_INIT, TOSTRING_ADDER, TOSTRING_REMOVER, NULL), "materialized can't be null");
  });

  /**
   * KGroupedTableImplTest.shouldNotAllowNullAdderOnReduce, shouldNotAllowNullSubtractorOnReduce,
   * shouldThrowNullPointerOnReduceWhenMaterializedIsNull, shouldThrowNullPointerOnReduceWhenAdderIsNull,
   * shouldThrowNullPointerOnReduceWhenSubtractorIsNull
   */
  it('null arguments of reduce', () => {
    expectNull(() => groupedTable.reduce(NULL, STRING_REMOVER, Materialized.as('store')), "adder can't be null");
    expectNull(() => groupedTable.reduce(STRING_ADDER, NULL, Materialized.as('store')), "subtractor can't be null");
    expectNull(() => groupedTable.reduce(STRING_ADDER, STRING_REMOVER, NULL), "materialized can't be null");
  });

  /** KGroupedTableImplTest.shouldThrowNullPointOnCountWhenMaterializedIsNull */
  it('shouldThrowNullPointOnCountWhenMaterializedIsNull', () => {
    expectNull(() => groupedTable.count(NULL), "materialized can't be null");
  });

  /** KGroupedTableImplTest.shouldReduce */
  it('shouldReduce', () => {
    const reduced = builder
      .table(topic, { keySerde: Serdes.String(), valueSerde: Serdes.Double() }, Materialized.as<string, number>('store').withKeySerde(Serdes.String()).withValueSerde(Serdes.Double()))
      .groupBy(intProjection)
      .reduce(INTEGER_ADDER, INTEGER_SUBTRACTOR, Materialized.as('reduced'));
    const supplier = getReducedResults(reduced);
    const driver = driverFor();
    assertReduced(supplier, driver);
    expect(reduced.queryableStoreName).toBe('reduced');
    driver.close();
  });

  /** KGroupedTableImplTest.shouldReduceWithInternalStoreName */
  it('shouldReduceWithInternalStoreName', () => {
    const reduced = builder
      .table(topic, { keySerde: Serdes.String(), valueSerde: Serdes.Double() }, Materialized.as<string, number>('store').withKeySerde(Serdes.String()).withValueSerde(Serdes.Double()))
      .groupBy(intProjection)
      .reduce(INTEGER_ADDER, INTEGER_SUBTRACTOR);
    const supplier = getReducedResults(reduced);
    const driver = driverFor();
    assertReduced(supplier, driver);
    expect(reduced.queryableStoreName).toBeUndefined();
    driver.close();
  });

  /** KGroupedTableImplTest.shouldReduceAndMaterializeResults */
  it('shouldReduceAndMaterializeResults', () => {
    const reduced = builder
      .table(topic, { keySerde: Serdes.String(), valueSerde: Serdes.Double() })
      .groupBy(intProjection)
      .reduce(INTEGER_ADDER, INTEGER_SUBTRACTOR, Materialized.as<string, number>('reduce').withKeySerde(Serdes.String()).withValueSerde(Serdes.Int32()));
    const supplier = getReducedResults(reduced);
    const driver = driverFor();
    assertReduced(supplier, driver);
    const reduce = storeOf(driver.getKeyValueStore<string, number>('reduce'));
    expect(reduce.get('A')).toBe(5);
    expect(reduce.get('B')).toBe(6);
    const timestamped = storeOf(driver.getTimestampedKeyValueStore<string, number>('reduce'));
    expect(timestamped.get('A')).toEqual({ value: 5, timestamp: 50 });
    expect(timestamped.get('B')).toEqual({ value: 6, timestamp: 30 });
    driver.close();
  });

  /** KGroupedTableImplTest.shouldCountAndMaterializeResults */
  it('shouldCountAndMaterializeResults', () => {
    builder
      .table(topic, { keySerde: Serdes.String(), valueSerde: Serdes.String() })
      .groupBy((_k, v) => KeyValue.pair(v, v), { keySerde: Serdes.String(), valueSerde: Serdes.String() })
      .count(Materialized.as<string, number>('count').withKeySerde(Serdes.String()).withValueSerde(Serdes.Long()));
    const driver = driverFor();
    processData(driver);
    const counts = storeOf(driver.getKeyValueStore<string, number>('count'));
    expect(counts.get('1')).toBe(3);
    expect(counts.get('2')).toBe(2);
    const timestamped = storeOf(driver.getTimestampedKeyValueStore<string, number>('count'));
    expect(timestamped.get('1')).toEqual({ value: 3, timestamp: 50 });
    expect(timestamped.get('2')).toEqual({ value: 2, timestamp: 60 });
    driver.close();
  });

  /** KGroupedTableImplTest.shouldAggregateAndMaterializeResults */
  it('shouldAggregateAndMaterializeResults', () => {
    builder
      .table(topic, { keySerde: Serdes.String(), valueSerde: Serdes.String() })
      .groupBy((_k, v) => KeyValue.pair(v, v), { keySerde: Serdes.String(), valueSerde: Serdes.String() })
      .aggregate(STRING_INIT, TOSTRING_ADDER, TOSTRING_REMOVER, Materialized.as<string, string>('aggregate').withValueSerde(Serdes.String()).withKeySerde(Serdes.String()));
    const driver = driverFor();
    processData(driver);
    const aggregate = storeOf(driver.getKeyValueStore<string, string>('aggregate'));
    expect(aggregate.get('1')).toBe('0+1+1+1');
    expect(aggregate.get('2')).toBe('0+2+2');
    const timestamped = storeOf(driver.getTimestampedKeyValueStore<string, string>('aggregate'));
    expect(timestamped.get('1')).toEqual({ value: '0+1+1+1', timestamp: 50 });
    expect(timestamped.get('2')).toEqual({ value: '0+2+2', timestamp: 60 });
    driver.close();
  });
});
