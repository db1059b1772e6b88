/**
 * Ported from Kafka Streams' `KTableImplTest`: the cases of the KTable core
 * (source, mapValues, filter, toStream, old values, null arguments); the
 * join, groupBy and suppress cases belong to those features' ports.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { IllegalArgumentError, Materialized, Serdes, StreamsBuilder } from '../../../../../src/index.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import type { KTable } from '../../../../../src/topology/dsl-interfaces.js';
import { kvt, RecordingProcessorSupplier } from '../../../../helpers/ktable/recording-processor.js';
import { impl } from '../../../../helpers/dsl-impl.js';

const S = Serdes.String();
const consumed = { keySerde: S, valueSerde: S };
const produced = { keySerde: S, valueSerde: S };
// StreamsTestUtils.getStreamsConfig(Serdes.String(), Serdes.String())
const props = { applicationId: 'ktable-impl-test', defaultKeySerde: S, defaultValueSerde: S };
const NULL = null as never;

/** testKTable / testMaterializedKTable: the same topology, the source materialized as `fred` or not. */
function runFourTables(materializeSource: boolean) {
  const builder = new StreamsBuilder();
  const topic1 = 'topic1';
  const topic2 = 'topic2';
  const table1: KTable<string, string> = materializeSource ? builder.table(topic1, consumed, Materialized.as<string, string>('fred')) : builder.table(topic1, consumed);
  const supplier = new RecordingProcessorSupplier<string, unknown>();
  const p0 = table1.toStream().process(supplier).nodeName;
  const table2 = table1.mapValues((s) => Number.parseInt(s, 10));
  const p1 = table2.toStream().process(supplier).nodeName;
  const table3 = table2.filter((_key, value) => value % 2 === 0);
  const p2 = table3.toStream().process(supplier).nodeName;
  table1.toStream().to(topic2, produced);
  const table4 = builder.table(topic2, consumed);
  const p3 = table4.toStream().process(supplier).nodeName;

  const driver = new TopologyTestDriver(builder.build(), props);
  const inputTopic = driver.createInputTopic(topic1, S, S);
  inputTopic.pipeInput('A', '01', 5);
  inputTopic.pipeInput('B', '02', 100);
  inputTopic.pipeInput('C', '03', 0);
  inputTopic.pipeInput('D', '04', 0);
  inputTopic.pipeInput('A', '05', 10);
  inputTopic.pipeInput('A', '06', 8);
  driver.close();
  supplier.capturedProcessors(4);
  return [p0, p1, p2, p3].map((name) => supplier.forNode(name).processed());
}

describe('KTableImplTest', () => {
  let table: KTable<string, string>;
  beforeEach(() => {
    table = new StreamsBuilder().table('test', consumed);
  });

  /** KTableImplTest.testKTable */
  it('testKTable', () => {
    const processed = runFourTables(false);
    expect(processed[0]).toEqual([kvt('A', '01', 5), kvt('B', '02', 100), kvt('C', '03', 0), kvt('D', '04', 0), kvt('A', '05', 10), kvt('A', '06', 8)]);
    expect(processed[1]).toEqual([kvt('A', 1, 5), kvt('B', 2, 100), kvt('C', 3, 0), kvt('D', 4, 0), kvt('A', 5, 10), kvt('A', 6, 8)]);
    expect(processed[2]).toEqual([kvt('A', null, 5), kvt('B', 2, 100), kvt('C', null, 0), kvt('D', 4, 0), kvt('A', null, 10), kvt('A', 6, 8)]);
    expect(processed[3]).toEqual([kvt('A', '01', 5), kvt('B', '02', 100), kvt('C', '03', 0), kvt('D', '04', 0), kvt('A', '05', 10), kvt('A', '06', 8)]);
  });

  /** KTableImplTest.testMaterializedKTable */
  it('testMaterializedKTable', () => {
    const processed = runFourTables(true);
    expect(processed[0]).toEqual([kvt('A', '01', 5), kvt('B', '02', 100), kvt('C', '03', 0), kvt('D', '04', 0), kvt('A', '05', 10), kvt('A', '06', 8)]);
    expect(processed[1]).toEqual([kvt('A', 1, 5), kvt('B', 2, 100), kvt('C', 3, 0), kvt('D', 4, 0), kvt('A', 5, 10), kvt('A', 6, 8)]);
    expect(processed[2]).toEqual([kvt('B', 2, 100), kvt('D', 4, 0), kvt('A', 6, 8)]);
    expect(processed[3]).toEqual([kvt('A', '01', 5), kvt('B', '02', 100), kvt('C', '03', 0), kvt('D', '04', 0), kvt('A', '05', 10), kvt('A', '06', 8)]);
  });

  /** KTableImplTest.testStateStoreLazyEval (Java counts driver.getAllStateStores(); here: no node has a store) */
  it('testStateStoreLazyEval', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table('topic1', consumed);
    builder.table('topic2', consumed);
    const table1Mapped = table1.mapValues((s) => Number.parseInt(s, 10));
    table1Mapped.filter((_key, value) => value % 2 === 0);
    const stores = builder.build().describe().subtopologies.flatMap((s) => s.nodes.flatMap((n) => (n.type === 'processor' ? n.stores : [])));
    expect(stores).toHaveLength(0);
  });

  /** KTableImplTest.shouldNotEnableSendingOldValuesIfNotMaterializedAlreadyAndNotForcedToMaterialize */
  it('shouldNotEnableSendingOldValuesIfNotMaterializedAlreadyAndNotForcedToMaterialize', () => {
    const t = new StreamsBuilder().table('topic1', consumed);
    impl(t).enableSendingOldValues(false);
    expect(impl(t).sendingOldValueEnabled()).toBe(false);
  });

  /** KTableImplTest.shouldEnableSendingOldValuesIfNotMaterializedAlreadyButForcedToMaterialize */
  it('shouldEnableSendingOldValuesIfNotMaterializedAlreadyButForcedToMaterialize', () => {
    const t = new StreamsBuilder().table('topic1', consumed);
    impl(t).enableSendingOldValues(true);
    expect(impl(t).sendingOldValueEnabled()).toBe(true);
  });

  /** KTableImplTest.shouldNotAllowNullPredicateOnFilter */
  it('shouldNotAllowNullPredicateOnFilter', () => {
    expect(() => table.filter(NULL)).toThrow(IllegalArgumentError);
  });

  /** KTableImplTest.shouldNotAllowNullPredicateOnFilterNot */
  it('shouldNotAllowNullPredicateOnFilterNot', () => {
    expect(() => table.filterNot(NULL)).toThrow(IllegalArgumentError);
  });

  /** KTableImplTest.shouldNotAllowNullMapperOnMapValues / shouldNotAllowNullMapperOnMapValueWithKey (one mapper type covers both) */
  it('shouldNotAllowNullMapperOnMapValues', () => {
    expect(() => table.mapValues(NULL)).toThrow(IllegalArgumentError);
  });

  /** KTableImplTest.shouldThrowNullPointerOnFilterWhenMaterializedIsNull (the Java overload (predicate, Materialized): here the second argument) */
  it('shouldThrowNullPointerOnFilterWhenMaterializedIsNull', () => {
    expect(() => table.filter(() => false, undefined, NULL)).toThrow("materialized can't be null");
  });

  /** KTableImplTest.shouldThrowNullPointerOnFilterNotWhenMaterializedIsNull */
  it('shouldThrowNullPointerOnFilterNotWhenMaterializedIsNull', () => {
    expect(() => table.filterNot(() => false, undefined, NULL)).toThrow("materialized can't be null");
  });

  it("toStream(null) fails with Kafka's message", () => {
    expect(() => table.toStream(NULL)).toThrow("named can't be null");
  });
});
