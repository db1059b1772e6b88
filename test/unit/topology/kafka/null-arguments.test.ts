/**
 * Ported from Kafka Streams' `KStreamImplTest` (`shouldNotAllowNull...`) and
 * `KGroupedStreamImplTest` (`shouldNotHaveNull...`): a missing DSL argument
 * fails at the call with Kafka's message, naming the argument.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { IllegalArgumentError, Materialized, Named, Serdes, StreamsBuilder, type KStream } from '../../../../src/index.js';
import type { KGroupedStream } from '../../../../src/topology/dsl-interfaces.js';

const S = Serdes.String();
// Kafka passes null where Java allows it; TypeScript needs a cast to do the same.
const NULL = null as never;

let builder: StreamsBuilder;
let testStream: KStream<string, string>;
beforeEach(() => {
  builder = new StreamsBuilder();
  testStream = builder.stream('source', { keySerde: S, valueSerde: S });
});

function expectNull(call: () => unknown, message: string): void {
  let thrown: unknown;
  try {
    call();
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(IllegalArgumentError);
  expect((thrown as Error).message).toBe(message);
}

describe('KStreamImplTest: null arguments', () => {
  /** KStreamImplTest.shouldNotAllowNullPredicateOnFilter / ...WithNamed / shouldNotAllowNullNamedOnFilter */
  it('filter', () => {
    expectNull(() => testStream.filter(NULL), "predicate can't be null");
    expectNull(() => testStream.filter(NULL, Named.as('filter')), "predicate can't be null");
    expectNull(() => testStream.filter(() => true, NULL), "named can't be null");
  });
  /** KStreamImplTest.shouldNotAllowNullPredicateOnFilterNot / ...WithName / shouldNotAllowNullNamedOnFilterNot */
  it('filterNot', () => {
    expectNull(() => testStream.filterNot(NULL), "predicate can't be null");
    expectNull(() => testStream.filterNot(NULL, Named.as('filter')), "predicate can't be null");
    expectNull(() => testStream.filterNot(() => true, NULL), "named can't be null");
  });
  /** KStreamImplTest.shouldNotAllowNullMapperOnSelectKey / ...WithNamed / shouldNotAllowNullNamedOnSelectKey */
  it('selectKey', () => {
    expectNull(() => testStream.selectKey(NULL), "mapper can't be null");
    expectNull(() => testStream.selectKey(NULL, Named.as('keySelector')), "mapper can't be null");
    expectNull(() => testStream.selectKey((k) => k, NULL), "named can't be null");
  });
  /** KStreamImplTest.shouldNotAllowNullMapperOnMap / ...WithNamed / shouldNotAllowNullNamedOnMap */
  it('map', () => {
    expectNull(() => testStream.map(NULL), "mapper can't be null");
    expectNull(() => testStream.map(NULL, Named.as('map')), "mapper can't be null");
    expectNull(() => testStream.map((key, value) => ({ key, value }), NULL), "named can't be null");
  });
  /** KStreamImplTest.shouldNotAllowNullMapperOnMapValues / ...WithNamed / shouldNotAllowNullNamedOnMapValues (sluice's mapper gets (value, key), Kafka's ValueMapper wording) */
  it('mapValues', () => {
    expectNull(() => testStream.mapValues(NULL), "valueMapper can't be null");
    expectNull(() => testStream.mapValues(NULL, Named.as('valueMapper')), "valueMapper can't be null");
    expectNull(() => testStream.mapValues((v) => v, NULL), "named can't be null");
  });
  /** KStreamImplTest.shouldNotAllowNullMapperOnFlatMap / ...WithNamed / shouldNotAllowNullNamedOnFlatMap */
  it('flatMap', () => {
    expectNull(() => testStream.flatMap(NULL), "mapper can't be null");
    expectNull(() => testStream.flatMap(NULL, Named.as('flatMapper')), "mapper can't be null");
    expectNull(() => testStream.flatMap(() => [], NULL), "named can't be null");
  });
  /** KStreamImplTest.shouldNotAllowNullMapperOnFlatMapValues / ...WithKey / ...WithNamed / shouldNotAllowNullNameOnFlatMapValues */
  it('flatMapValues', () => {
    expectNull(() => testStream.flatMapValues(NULL), "valueMapper can't be null");
    expectNull(() => testStream.flatMapValues(NULL, Named.as('flatValueMapper')), "valueMapper can't be null");
    expectNull(() => testStream.flatMapValues(() => [], NULL), "named can't be null");
  });
  /** KStreamImplTest.shouldNotAllowNullActionOnForEach / ...WithName / shouldNotAllowNullNamedOnForEach */
  it('foreach', () => {
    expectNull(() => testStream.foreach(NULL), "action can't be null");
    expectNull(() => testStream.foreach(NULL, Named.as('foreach')), "action can't be null");
    expectNull(() => testStream.foreach(() => undefined, NULL), "named can't be null");
  });
  /** KStreamImplTest.shouldNotAllowNullActionOnPeek / ...WithName / shouldNotAllowNullNamedOnPeek */
  it('peek', () => {
    expectNull(() => testStream.peek(NULL), "action can't be null");
    expectNull(() => testStream.peek(NULL, Named.as('peek')), "action can't be null");
    expectNull(() => testStream.peek(() => undefined, NULL), "named can't be null");
  });
  /** KStreamImplTest.shouldNotAllowNullKStreamOnMerge / ...WithNamed / shouldNotAllowNullNamedOnMerge */
  it('merge', () => {
    expectNull(() => testStream.merge(NULL), "stream can't be null");
    expectNull(() => testStream.merge(NULL, Named.as('merge')), "stream can't be null");
    expectNull(() => testStream.merge(testStream, NULL), "named can't be null");
  });
  /** KStreamImplTest.shouldNotAllowNullTopicOnTo / TopicChooserOnTo / ...WithProduced / shouldNotAllowNullProducedOnTo... */
  it('to', () => {
    expectNull(() => testStream.to(NULL), "topic can't be null");
    expectNull(() => testStream.to(NULL, { keySerde: S, valueSerde: S }), "topic can't be null");
    expectNull(() => testStream.to('topic', NULL), "produced can't be null");
    expectNull(() => testStream.to(() => 'topic', NULL), "produced can't be null");
  });
  /** KStreamImplTest.shouldNotAllowNullSelectorOnGroupBy / ...WithGrouped / shouldNotAllowNullGroupedOnGroupBy / ...OnGroupByKey */
  it('groupBy and groupByKey', () => {
    expectNull(() => testStream.groupBy(NULL), "keySelector can't be null");
    expectNull(() => testStream.groupBy(NULL, { name: 'name' }), "keySelector can't be null");
    expectNull(() => testStream.groupBy((k) => k, NULL), "grouped can't be null");
    expectNull(() => testStream.groupByKey(NULL), "grouped can't be null");
  });
  /** KStreamImplTest.shouldNotAllowNullProcessSupplierOnProcess / ...WithNamed / shouldNotAllowNullStoreNameOnProcess */
  it('process', () => {
    expectNull(() => testStream.process(NULL), "processorSupplier can't be null");
    expectNull(() => testStream.process(() => ({ process() {} }), NULL), "stateStoreNames can't be null");
  });
  it('split().branch() and defaultBranch()', () => {
    expectNull(() => testStream.split().branch(NULL), "predicate can't be null");
    expectNull(() => testStream.split(NULL), "named can't be null");
    expectNull(() => testStream.split().defaultBranch(NULL), "branched can't be null");
  });
});

describe('KGroupedStreamImplTest: null arguments', () => {
  let groupedStream: KGroupedStream<string, string>;
  beforeEach(() => {
    groupedStream = testStream.groupByKey({ keySerde: S, valueSerde: S });
  });
  /** KGroupedStreamImplTest.shouldNotHaveNullReducerOnReduce */
  it('reduce(null)', () => expectNull(() => groupedStream.reduce(NULL), "reducer can't be null"));
  /** KGroupedStreamImplTest.shouldNotHaveNullInitializerOnAggregate */
  it('aggregate(null, adder)', () =>
    expectNull(() => groupedStream.aggregate(NULL, (_k, v, a: string) => a + v, Materialized.as<string, string>('store')), "initializer can't be null"));
  /** KGroupedStreamImplTest.shouldNotHaveNullAdderOnAggregate */
  it('aggregate(init, null)', () => expectNull(() => groupedStream.aggregate(() => '', NULL, Materialized.as('store')), "aggregator can't be null"));
  /** KGroupedStreamImplTest (materialized can't be null, as KGroupedStreamImpl.count/reduce check) */
  it('count(null)', () => expectNull(() => groupedStream.count(NULL), "materialized can't be null"));
  it('builder.addStateStore(null)', () => expectNull(() => builder.addStateStore(NULL), "builder can't be null"));
});
