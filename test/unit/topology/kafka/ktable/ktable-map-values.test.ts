/**
 * Ported from Kafka Streams' `KTableMapValuesTest` (inputs and expected
 * outputs unchanged).
 */
import { describe, expect, it } from 'vitest';
import { Materialized, Serdes, StreamsBuilder } from '../../../../../src/index.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import type { KTable } from '../../../../../src/topology/dsl-interfaces.js';
import { addValueGetterProbe, change, kvt, RecordingProcessorSupplier } from '../../../../helpers/ktable/recording-processor.js';
import { impl } from '../../../../helpers/dsl-impl.js';

const S = Serdes.String();
const I = Serdes.Int32();
const consumed = { keySerde: S, valueSerde: S };
// StreamsTestUtils.getStreamsConfig(Serdes.String(), Serdes.String())
const props = { applicationId: 'ktable-map-values-test', defaultKeySerde: S, defaultValueSerde: S };
const topic1 = 'topic1';
const parse = (s: string): number => Number.parseInt(s, 10);

function doTestKTable(builder: StreamsBuilder, topic: string, supplier: RecordingProcessorSupplier<string, number>): void {
  const driver = new TopologyTestDriver(builder.build(), props);
  const inputTopic1 = driver.createInputTopic(topic, S, S);
  inputTopic1.pipeInput('A', '1', 5);
  inputTopic1.pipeInput('B', '2', 25);
  inputTopic1.pipeInput('C', '3', 20);
  inputTopic1.pipeInput('D', '4', 10);
  expect(supplier.theCapturedProcessor().processed()).toEqual([kvt('A', 1, 5), kvt('B', 2, 25), kvt('C', 3, 20), kvt('D', 4, 10)]);
  driver.close();
}

function doTestValueGetter(builder: StreamsBuilder, topic: string, table2: KTable<string, number>, table3: KTable<string, number>): void {
  const topology = builder.build();
  const getter2 = addValueGetterProbe(topology, table2.nodeName, impl(table2).valueGetterSupplier());
  const getter3 = addValueGetterProbe(topology, table3.nodeName, impl(table3).valueGetterSupplier());
  const driver = new TopologyTestDriver(topology, props);
  const inputTopic1 = driver.createInputTopic(topic, S, S);
  const vt = (value: number, timestamp: number) => ({ value, timestamp });

  inputTopic1.pipeInput('A', '01', 50);
  inputTopic1.pipeInput('B', '01', 10);
  inputTopic1.pipeInput('C', '01', 30);
  expect(getter2.get('A')).toEqual(vt(1, 50));
  expect(getter2.get('B')).toEqual(vt(1, 10));
  expect(getter2.get('C')).toEqual(vt(1, 30));
  expect(getter3.get('A')).toEqual(vt(-1, 50));
  expect(getter3.get('B')).toEqual(vt(-1, 10));
  expect(getter3.get('C')).toEqual(vt(-1, 30));

  inputTopic1.pipeInput('A', '02', 25);
  inputTopic1.pipeInput('B', '02', 20);
  expect(getter2.get('A')).toEqual(vt(2, 25));
  expect(getter2.get('B')).toEqual(vt(2, 20));
  expect(getter2.get('C')).toEqual(vt(1, 30));
  expect(getter3.get('A')).toEqual(vt(-2, 25));
  expect(getter3.get('B')).toEqual(vt(-2, 20));
  expect(getter3.get('C')).toEqual(vt(-1, 30));

  inputTopic1.pipeInput('A', '03', 35);
  expect(getter2.get('A')).toEqual(vt(3, 35));
  expect(getter2.get('B')).toEqual(vt(2, 20));
  expect(getter2.get('C')).toEqual(vt(1, 30));
  expect(getter3.get('A')).toEqual(vt(-3, 35));
  expect(getter3.get('B')).toEqual(vt(-2, 20));
  expect(getter3.get('C')).toEqual(vt(-1, 30));

  inputTopic1.pipeInput('A', null, 1);
  expect(getter2.get('A')).toBeNull();
  expect(getter2.get('B')).toEqual(vt(2, 20));
  expect(getter2.get('C')).toEqual(vt(1, 30));
  expect(getter3.get('A')).toBeNull();
  expect(getter3.get('B')).toEqual(vt(-2, 20));
  expect(getter3.get('C')).toEqual(vt(-1, 30));
  driver.close();
}

function testSendingOldValues(builder: StreamsBuilder, topic: string, table2: KTable<string, number>): void {
  const supplier = new RecordingProcessorSupplier<string, unknown>();
  builder.build().addProcessor('proc', supplier, table2.nodeName);
  const driver = new TopologyTestDriver(builder.build(), props);
  const inputTopic1 = driver.createInputTopic(topic, S, S);
  const proc = supplier.theCapturedProcessor();

  inputTopic1.pipeInput('A', '01', 5);
  inputTopic1.pipeInput('B', '01', 10);
  inputTopic1.pipeInput('C', '01', 15);
  proc.checkAndClearProcessResult(kvt('A', change(1, null), 5), kvt('B', change(1, null), 10), kvt('C', change(1, null), 15));

  inputTopic1.pipeInput('A', '02', 10);
  inputTopic1.pipeInput('B', '02', 8);
  proc.checkAndClearProcessResult(kvt('A', change(2, 1), 10), kvt('B', change(2, 1), 8));

  inputTopic1.pipeInput('A', '03', 20);
  proc.checkAndClearProcessResult(kvt('A', change(3, 2), 20));

  inputTopic1.pipeInput('A', null, 30);
  proc.checkAndClearProcessResult(kvt('A', change(null, 3), 30));
  driver.close();
}

describe('KTableMapValuesTest', () => {
  /** KTableMapValuesTest.testKTable */
  it('testKTable', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table(topic1, consumed);
    const table2 = table1.mapValues((value) => value.charCodeAt(0) - 48);
    const supplier = new RecordingProcessorSupplier<string, number>();
    table2.toStream().process(supplier);
    doTestKTable(builder, topic1, supplier);
  });

  /** KTableMapValuesTest.testQueryableKTable */
  it('testQueryableKTable', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table(topic1, consumed);
    const table2 = table1.mapValues((value) => value.charCodeAt(0) - 48, Materialized.as<string, number>('anyName').withValueSerde(I));
    const supplier = new RecordingProcessorSupplier<string, number>();
    table2.toStream().process(supplier);
    doTestKTable(builder, topic1, supplier);
  });

  /** KTableMapValuesTest.testQueryableValueGetter */
  it('testQueryableValueGetter', () => {
    const builder = new StreamsBuilder();
    const storeName2 = 'store2';
    const storeName3 = 'store3';
    const table1 = builder.table(topic1, consumed);
    const table2 = table1.mapValues((s) => parse(s), Materialized.as<string, number>(storeName2).withValueSerde(I));
    const table3 = table1.mapValues((value) => parse(value) * -1, Materialized.as<string, number>(storeName3).withValueSerde(I));
    const table4 = table1.mapValues((s) => parse(s));
    expect(table2.queryableStoreName).toBe(storeName2);
    expect(table3.queryableStoreName).toBe(storeName3);
    expect(table4.queryableStoreName).toBeUndefined();
    doTestValueGetter(builder, topic1, table2, table3);
  });

  /** KTableMapValuesTest.testNotSendingOldValue */
  it('testNotSendingOldValue', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table(topic1, consumed);
    const table2 = table1.mapValues((s) => parse(s));
    const supplier = new RecordingProcessorSupplier<string, unknown>();
    const topology = builder.build().addProcessor('proc', supplier, table2.nodeName);
    const driver = new TopologyTestDriver(topology, props);
    const inputTopic1 = driver.createInputTopic(topic1, S, S);
    const proc = supplier.theCapturedProcessor();
    expect(impl(table1).sendingOldValueEnabled()).toBe(false);
    expect(impl(table2).sendingOldValueEnabled()).toBe(false);

    inputTopic1.pipeInput('A', '01', 5);
    inputTopic1.pipeInput('B', '01', 10);
    inputTopic1.pipeInput('C', '01', 15);
    proc.checkAndClearProcessResult(kvt('A', change(1, null), 5), kvt('B', change(1, null), 10), kvt('C', change(1, null), 15));

    inputTopic1.pipeInput('A', '02', 10);
    inputTopic1.pipeInput('B', '02', 8);
    proc.checkAndClearProcessResult(kvt('A', change(2, null), 10), kvt('B', change(2, null), 8));

    inputTopic1.pipeInput('A', '03', 20);
    proc.checkAndClearProcessResult(kvt('A', change(3, null), 20));

    inputTopic1.pipeInput('A', null, 30);
    proc.checkAndClearProcessResult(kvt('A', change(null, null), 30));
    driver.close();
  });

  /** KTableMapValuesTest.shouldEnableSendingOldValuesOnParentIfMapValuesNotMaterialized */
  it('shouldEnableSendingOldValuesOnParentIfMapValuesNotMaterialized', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table(topic1, consumed);
    const table2 = table1.mapValues((s) => parse(s));
    impl(table2).enableSendingOldValues(true);
    expect(impl(table1).sendingOldValueEnabled()).toBe(true);
    expect(impl(table2).sendingOldValueEnabled()).toBe(true);
    testSendingOldValues(builder, topic1, table2);
  });

  /** KTableMapValuesTest.shouldNotEnableSendingOldValuesOnParentIfMapValuesMaterialized */
  it('shouldNotEnableSendingOldValuesOnParentIfMapValuesMaterialized', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table(topic1, consumed);
    const table2 = table1.mapValues((s) => parse(s), Materialized.as<string, number>('bob').withValueSerde(I));
    impl(table2).enableSendingOldValues(true);
    expect(impl(table1).sendingOldValueEnabled()).toBe(false);
    expect(impl(table2).sendingOldValueEnabled()).toBe(true);
    testSendingOldValues(builder, topic1, table2);
  });
});
