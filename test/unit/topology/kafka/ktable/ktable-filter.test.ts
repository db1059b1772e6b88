/**
 * Ported from Kafka Streams' `KTableFilterTest` (inputs and expected outputs
 * unchanged). Caching is disabled at the config level, as the Java setUp.
 */
import { describe, expect, it } from 'vitest';
import { Materialized, Serdes, Stores, StreamsBuilder } from '../../../../../src/index.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import type { KTable } from '../../../../../src/topology/dsl-interfaces.js';
import { addValueGetterProbe, change, kvt, RecordingProcessorSupplier } from '../../../../helpers/ktable/recording-processor.js';
import { impl } from '../../../../helpers/dsl-impl.js';

const S = Serdes.String();
const I = Serdes.Int32();
const consumed = { keySerde: S, valueSerde: I };
// StreamsTestUtils.getStreamsConfig(Serdes.String(), Serdes.Integer()) with STATESTORE_CACHE_MAX_BYTES_CONFIG = 0
const props = { applicationId: 'ktable-filter-test', defaultKeySerde: S, defaultValueSerde: I, statestoreCacheMaxBytes: 0 };
const predicate = (_key: string, value: number): boolean => value % 2 === 0;
const topic1 = 'topic1';

function doTestKTable(builder: StreamsBuilder, table2: KTable<string, number>, table3: KTable<string, number>, topic: string): void {
  const supplier = new RecordingProcessorSupplier<string, number>();
  table2.toStream().process(supplier);
  table3.toStream().process(supplier);
  const driver = new TopologyTestDriver(builder.build(), props);
  const inputTopic = driver.createInputTopic(topic, S, I);
  inputTopic.pipeInput('A', 1, 10);
  inputTopic.pipeInput('B', 2, 5);
  inputTopic.pipeInput('C', 3, 8);
  inputTopic.pipeInput('D', 4, 14);
  inputTopic.pipeInput('A', null, 18);
  inputTopic.pipeInput('B', null, 15);
  driver.close();
  const processors = supplier.capturedProcessors(2);
  processors[0]!.checkAndClearProcessResult(kvt('A', null, 10), kvt('B', 2, 5), kvt('C', null, 8), kvt('D', 4, 14), kvt('A', null, 18), kvt('B', null, 15));
  processors[1]!.checkAndClearProcessResult(kvt('A', 1, 10), kvt('B', null, 5), kvt('C', 3, 8), kvt('D', null, 14), kvt('A', null, 18), kvt('B', null, 15));
}

function doTestValueGetter(builder: StreamsBuilder, table2: KTable<string, number>, table3: KTable<string, number>, topic: string): void {
  const topology = builder.build();
  const getter2 = addValueGetterProbe(topology, table2.nodeName, impl(table2).valueGetterSupplier());
  const getter3 = addValueGetterProbe(topology, table3.nodeName, impl(table3).valueGetterSupplier());
  const driver = new TopologyTestDriver(topology, props);
  const inputTopic = driver.createInputTopic(topic, S, I);

  inputTopic.pipeInput('A', 1, 5);
  inputTopic.pipeInput('B', 1, 10);
  inputTopic.pipeInput('C', 1, 15);
  expect(getter2.get('A')).toBeNull();
  expect(getter2.get('B')).toBeNull();
  expect(getter2.get('C')).toBeNull();
  expect(getter3.get('A')).toEqual({ value: 1, timestamp: 5 });
  expect(getter3.get('B')).toEqual({ value: 1, timestamp: 10 });
  expect(getter3.get('C')).toEqual({ value: 1, timestamp: 15 });

  inputTopic.pipeInput('A', 2, 10);
  inputTopic.pipeInput('B', 2, 5);
  expect(getter2.get('A')).toEqual({ value: 2, timestamp: 10 });
  expect(getter2.get('B')).toEqual({ value: 2, timestamp: 5 });
  expect(getter2.get('C')).toBeNull();
  expect(getter3.get('A')).toBeNull();
  expect(getter3.get('B')).toBeNull();
  expect(getter3.get('C')).toEqual({ value: 1, timestamp: 15 });

  inputTopic.pipeInput('A', 3, 15);
  expect(getter2.get('A')).toBeNull();
  expect(getter2.get('B')).toEqual({ value: 2, timestamp: 5 });
  expect(getter2.get('C')).toBeNull();
  expect(getter3.get('A')).toEqual({ value: 3, timestamp: 15 });
  expect(getter3.get('B')).toBeNull();
  expect(getter3.get('C')).toEqual({ value: 1, timestamp: 15 });

  inputTopic.pipeInput('A', null, 10);
  inputTopic.pipeInput('B', null, 20);
  expect(getter2.get('A')).toBeNull();
  expect(getter2.get('B')).toBeNull();
  expect(getter2.get('C')).toBeNull();
  expect(getter3.get('A')).toBeNull();
  expect(getter3.get('B')).toBeNull();
  expect(getter3.get('C')).toEqual({ value: 1, timestamp: 15 });
  driver.close();
}

function doTestNotSendingOldValue(builder: StreamsBuilder, table1: KTable<string, number>, table2: KTable<string, number>, topic: string): void {
  const supplier = new RecordingProcessorSupplier<string, unknown>();
  builder.build().addProcessor('proc1', supplier, table1.nodeName);
  builder.build().addProcessor('proc2', supplier, table2.nodeName);
  const driver = new TopologyTestDriver(builder.build(), props);
  const inputTopic = driver.createInputTopic(topic, S, I);

  inputTopic.pipeInput('A', 1, 5);
  inputTopic.pipeInput('B', 1, 10);
  inputTopic.pipeInput('C', 1, 15);
  supplier.capturedProcessors(2);
  const [p0, p1] = [supplier.forNode('proc1'), supplier.forNode('proc2')];
  p0.checkAndClearProcessResult(kvt('A', change(1, null), 5), kvt('B', change(1, null), 10), kvt('C', change(1, null), 15));
  p1.checkAndClearProcessResult(kvt('A', change(null, null), 5), kvt('B', change(null, null), 10), kvt('C', change(null, null), 15));

  inputTopic.pipeInput('A', 2, 15);
  inputTopic.pipeInput('B', 2, 8);
  p0.checkAndClearProcessResult(kvt('A', change(2, null), 15), kvt('B', change(2, null), 8));
  p1.checkAndClearProcessResult(kvt('A', change(2, null), 15), kvt('B', change(2, null), 8));

  inputTopic.pipeInput('A', 3, 20);
  p0.checkAndClearProcessResult(kvt('A', change(3, null), 20));
  p1.checkAndClearProcessResult(kvt('A', change(null, null), 20));
  inputTopic.pipeInput('A', null, 10);
  inputTopic.pipeInput('B', null, 20);
  p0.checkAndClearProcessResult(kvt('A', change(null, null), 10), kvt('B', change(null, null), 20));
  p1.checkAndClearProcessResult(kvt('A', change(null, null), 10), kvt('B', change(null, null), 20));
  driver.close();
}

function doTestSendingOldValue(builder: StreamsBuilder, table1: KTable<string, number>, table2: KTable<string, number>, topic: string): void {
  const supplier = new RecordingProcessorSupplier<string, unknown>();
  const topology = builder.build();
  topology.addProcessor('proc1', supplier, table1.nodeName);
  topology.addProcessor('proc2', supplier, table2.nodeName);
  const parentSendOldVals = impl(table1).sendingOldValueEnabled();
  const driver = new TopologyTestDriver(topology, props);
  const inputTopic = driver.createInputTopic(topic, S, I);
  const old = (v: number): number | null => (parentSendOldVals ? v : null);

  inputTopic.pipeInput('A', 1, 5);
  inputTopic.pipeInput('B', 1, 10);
  inputTopic.pipeInput('C', 1, 15);
  supplier.capturedProcessors(2);
  const [table1Output, table2Output] = [supplier.forNode('proc1'), supplier.forNode('proc2')];
  table1Output.checkAndClearProcessResult(kvt('A', change(1, null), 5), kvt('B', change(1, null), 10), kvt('C', change(1, null), 15));
  table2Output.checkEmptyAndClearProcessResult();

  inputTopic.pipeInput('A', 2, 15);
  inputTopic.pipeInput('B', 2, 8);
  table1Output.checkAndClearProcessResult(kvt('A', change(2, old(1)), 15), kvt('B', change(2, old(1)), 8));
  table2Output.checkAndClearProcessResult(kvt('A', change(2, null), 15), kvt('B', change(2, null), 8));

  inputTopic.pipeInput('A', 3, 20);
  table1Output.checkAndClearProcessResult(kvt('A', change(3, old(2)), 20));
  table2Output.checkAndClearProcessResult(kvt('A', change(null, 2), 20));

  inputTopic.pipeInput('A', null, 10);
  inputTopic.pipeInput('B', null, 20);
  table1Output.checkAndClearProcessResult(kvt('A', change(null, old(3)), 10), kvt('B', change(null, old(2)), 20));
  table2Output.checkAndClearProcessResult(kvt('B', change(null, 2), 20));
  driver.close();
}

function doTestSkipNullOnMaterialization(builder: StreamsBuilder, table1: KTable<string, string>, table2: KTable<string, string>, topic: string, shouldSkip: boolean): void {
  const supplier = new RecordingProcessorSupplier<string, unknown>();
  const topology = builder.build();
  topology.addProcessor('proc1', supplier, table1.nodeName);
  topology.addProcessor('proc2', supplier, table2.nodeName);
  const driver = new TopologyTestDriver(topology, props);
  const stringinputTopic = driver.createInputTopic(topic, S, S);
  stringinputTopic.pipeInput('A', 'reject', 5);
  stringinputTopic.pipeInput('B', 'reject', 10);
  stringinputTopic.pipeInput('C', 'reject', 20);
  driver.close();
  supplier.capturedProcessors(2);
  supplier.forNode('proc1').checkAndClearProcessResult(kvt('A', change('reject', null), 5), kvt('B', change('reject', null), 10), kvt('C', change('reject', null), 20));
  if (shouldSkip) {
    supplier.forNode('proc2').checkEmptyAndClearProcessResult();
  } else {
    supplier.forNode('proc2').checkAndClearProcessResult(kvt('A', change(null, null), 5), kvt('B', change(null, null), 10), kvt('C', change(null, null), 20));
  }
}

describe('KTableFilterTest', () => {
  /** KTableFilterTest.shouldPassThroughWithoutMaterialization */
  it('shouldPassThroughWithoutMaterialization', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table(topic1, consumed);
    const table2 = table1.filter(predicate);
    const table3 = table1.filterNot(predicate);
    expect(table1.queryableStoreName).toBeUndefined();
    expect(table2.queryableStoreName).toBeUndefined();
    expect(table3.queryableStoreName).toBeUndefined();
    doTestKTable(builder, table2, table3, topic1);
  });

  /** KTableFilterTest.shouldPassThroughOnMaterialization */
  it('shouldPassThroughOnMaterialization', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table(topic1, consumed);
    const table2 = table1.filter(predicate, Materialized.as('store2'));
    const table3 = table1.filterNot(predicate);
    expect(table1.queryableStoreName).toBeUndefined();
    expect(table2.queryableStoreName).toBe('store2');
    expect(table3.queryableStoreName).toBeUndefined();
    doTestKTable(builder, table2, table3, topic1);
  });

  /** KTableFilterTest.shouldGetValuesOnMaterialization */
  it('shouldGetValuesOnMaterialization', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table(topic1, consumed);
    const table2 = table1.filter(predicate, Materialized.as('store2'));
    const table3 = table1.filterNot(predicate, Materialized.as('store3'));
    const table4 = table1.filterNot(predicate);
    expect(table1.queryableStoreName).toBeUndefined();
    expect(table2.queryableStoreName).toBe('store2');
    expect(table3.queryableStoreName).toBe('store3');
    expect(table4.queryableStoreName).toBeUndefined();
    doTestValueGetter(builder, table2, table3, topic1);
  });

  /** KTableFilterTest.shouldNotSendOldValuesWithoutMaterialization */
  it('shouldNotSendOldValuesWithoutMaterialization', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table(topic1, consumed);
    const table2 = table1.filter(predicate);
    doTestNotSendingOldValue(builder, table1, table2, topic1);
  });

  /** KTableFilterTest.shouldNotSendOldValuesOnMaterialization */
  it('shouldNotSendOldValuesOnMaterialization', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table(topic1, consumed);
    const table2 = table1.filter(predicate, Materialized.as('store2'));
    doTestNotSendingOldValue(builder, table1, table2, topic1);
  });

  /** KTableFilterTest.shouldNotEnableSendingOldValuesIfNotAlreadyMaterializedAndNotForcedToMaterialize */
  it('shouldNotEnableSendingOldValuesIfNotAlreadyMaterializedAndNotForcedToMaterialize', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table(topic1, consumed);
    const table2 = table1.filter(predicate);
    impl(table2).enableSendingOldValues(false);
    doTestNotSendingOldValue(builder, table1, table2, topic1);
  });

  /** KTableFilterTest.shouldEnableSendOldValuesWhenNotMaterializedAlreadyButForcedToMaterialize */
  it('shouldEnableSendOldValuesWhenNotMaterializedAlreadyButForcedToMaterialize', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table(topic1, consumed);
    const table2 = table1.filter(predicate);
    impl(table2).enableSendingOldValues(true);
    expect(impl(table1).sendingOldValueEnabled()).toBe(true);
    expect(impl(table2).sendingOldValueEnabled()).toBe(true);
    doTestSendingOldValue(builder, table1, table2, topic1);
  });

  /** KTableFilterTest.shouldEnableSendOldValuesWhenMaterializedAlreadyAndForcedToMaterialize */
  it('shouldEnableSendOldValuesWhenMaterializedAlreadyAndForcedToMaterialize', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table(topic1, consumed);
    const table2 = table1.filter(predicate, Materialized.as('store2'));
    impl(table2).enableSendingOldValues(true);
    expect(impl(table1).sendingOldValueEnabled()).toBe(false);
    expect(impl(table2).sendingOldValueEnabled()).toBe(true);
    doTestSendingOldValue(builder, table1, table2, topic1);
  });

  /** KTableFilterTest.shouldSendOldValuesWhenEnabledOnUpStreamMaterialization */
  it('shouldSendOldValuesWhenEnabledOnUpStreamMaterialization', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table(topic1, consumed, Materialized.as('store2'));
    const table2 = table1.filter(predicate);
    impl(table2).enableSendingOldValues(false);
    expect(impl(table1).sendingOldValueEnabled()).toBe(true);
    expect(impl(table2).sendingOldValueEnabled()).toBe(true);
    doTestSendingOldValue(builder, table1, table2, topic1);
  });

  /**
   * KTableFilterTest.shouldSkipNullToRepartitionWithoutMaterialization. The
   * Java test lets `table2.groupBy(...).reduce(...)` enable sending old values;
   * that is what KTableImpl.groupBy does (`enableSendingOldValues(true)`), so
   * the switch is thrown directly here (grouping a table is ported with it).
   */
  it('shouldSkipNullToRepartitionWithoutMaterialization', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table(topic1, { keySerde: S, valueSerde: S });
    const table2 = table1.filter((_key, value) => value.toLowerCase() === 'accept');
    impl(table2).enableSendingOldValues(true);
    doTestSkipNullOnMaterialization(builder, table1, table2, topic1, true);
  });

  /** KTableFilterTest.shouldSkipNullToRepartitionOnMaterialization (groupBy's switch thrown directly, as above) */
  it('shouldSkipNullToRepartitionOnMaterialization', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table(topic1, { keySerde: S, valueSerde: S });
    const table2 = table1.filter((_key, value) => value.toLowerCase() === 'accept', Materialized.as('store2'));
    impl(table2).enableSendingOldValues(true);
    doTestSkipNullOnMaterialization(builder, table1, table2, topic1, true);
  });

  /**
   * KTableFilterTest.shouldNotSkipNullIfVersionedUpstream: stateful downstream operation enables
   * sendOldValues, but duplicate nulls will still be sent because the source table is versioned
   * (groupBy(...).reduce(...) as in Kafka).
   */
  it('shouldNotSkipNullIfVersionedUpstream', () => {
    const builder = new StreamsBuilder();
    const versionedMaterialize = Materialized.as<string, string>(Stores.persistentVersionedKeyValueStore('versioned', 5 * 60_000));
    const table1 = builder.table(topic1, { keySerde: S, valueSerde: S }, versionedMaterialize);
    const table2 = table1.filter((_key, value) => value.toLowerCase() === 'accept');
    table2.groupBy((key, value) => ({ key, value }), { keySerde: S, valueSerde: S }).reduce((a, b) => a + b, (a, b) => a + b);
    doTestSkipNullOnMaterialization(builder, table1, table2, topic1, false);
  });

  /**
   * KTableFilterTest.shouldSkipNullIfVersionedDownstream: materializing the result of the filter as a
   * versioned store does not prevent duplicate tombstones from being sent, as it's whether the input
   * table is versioned or not that determines whether the optimization is enabled.
   */
  it('shouldSkipNullIfVersionedDownstream', () => {
    const builder = new StreamsBuilder();
    const versionedMaterialize = Materialized.as<string, string>(Stores.persistentVersionedKeyValueStore('versioned', 5 * 60_000));
    const table1 = builder.table(topic1, { keySerde: S, valueSerde: S }, Materialized.as('store'));
    const table2 = table1.filter((_key, value) => value.toLowerCase() === 'accept', versionedMaterialize);
    table2.groupBy((key, value) => ({ key, value }), { keySerde: S, valueSerde: S }).reduce((a, b) => a + b, (a, b) => a + b);
    doTestSkipNullOnMaterialization(builder, table1, table2, topic1, true);
  });

  /** KTableFilterTest.testTypeVariance */
  it('testTypeVariance', () => {
    const numberKeyPredicate = (_key: unknown, _value: unknown): boolean => false;
    const builder = new StreamsBuilder();
    builder.table<number, string>('empty', { keySerde: I, valueSerde: S }).filter(numberKeyPredicate).filterNot(numberKeyPredicate).toStream().to('nirvana');
    expect(builder.build().describe().subtopologies).toHaveLength(1);
  });
});
