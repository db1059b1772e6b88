/**
 * Ported from Kafka Streams' `NamedTest` and the invalid-store-name cases of
 * `KGroupedStreamImplTest`: names (of processors, stores, groupings, and so of
 * repartition topics) are validated at the call with Kafka's rules.
 */
import { describe, expect, it } from 'vitest';
import {
  Grouped,
  IllegalArgumentError,
  Materialized,
  Named,
  Serdes,
  Stores,
  StreamsBuilder,
  Topology,
  TopologyError,
} from '../../../../src/index.js';

const S = Serdes.String();
const INVALID_STORE_NAME = '~foo bar~';

function groupedStream() {
  const builder = new StreamsBuilder();
  return builder.stream('topic', { keySerde: S, valueSerde: S }).groupByKey({ keySerde: S, valueSerde: S });
}

describe('NamedTest', () => {
  /** NamedTest.shouldThrowExceptionGivenNullName */
  it('shouldThrowExceptionGivenNullName', () => {
    expect(() => Named.as(null as never)).toThrow(IllegalArgumentError);
  });

  /** NamedTest.shouldThrowExceptionOnInvalidTopicNames */
  it('shouldThrowExceptionOnInvalidTopicNames', () => {
    const longString = 'a'.repeat(250);
    const invalidNames = ['', 'foo bar', '..', 'foo:bar', 'foo=bar', '.', longString];
    for (const name of invalidNames) {
      expect(() => Named.as(name), `No exception was thrown for named with invalid name: ${name}`).toThrow(TopologyError);
    }
  });

  it('accepts the legal characters up to 249 of them', () => {
    expect(Named.as('a.B_c-9').name).toBe('a.B_c-9');
    expect(Named.as('a'.repeat(249)).name).toHaveLength(249);
    expect(() => Named.as('foo bar')).toThrow(`Name "foo bar" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'`);
  });
});

describe('KGroupedStreamImplTest: invalid store names', () => {
  /** KGroupedStreamImplTest.shouldNotHaveInvalidStoreNameOnReduce */
  it('shouldNotHaveInvalidStoreNameOnReduce', () => {
    const grouped = groupedStream();
    expect(() => grouped.reduce((a, b) => a + b, Materialized.as(INVALID_STORE_NAME))).toThrow(TopologyError);
  });

  /** KGroupedStreamImplTest.shouldNotHaveInvalidStoreNameOnAggregate */
  it('shouldNotHaveInvalidStoreNameOnAggregate', () => {
    const grouped = groupedStream();
    expect(() => grouped.aggregate(() => '', (_k, v, a: string) => a + v, Materialized.as<string, string>(INVALID_STORE_NAME))).toThrow(TopologyError);
  });

  it('a plain { storeName } object is validated too, at the aggregation call', () => {
    const grouped = groupedStream();
    expect(() => grouped.count({ storeName: INVALID_STORE_NAME })).toThrow(TopologyError);
  });
});

describe('names are validated at the call (sluice)', () => {
  it('Grouped.as and a { name } grouping', () => {
    expect(() => Grouped.as(INVALID_STORE_NAME)).toThrow(TopologyError);
    const builder = new StreamsBuilder();
    const s = builder.stream('topic', { keySerde: S, valueSerde: S });
    expect(() => s.groupBy((k) => k, { name: INVALID_STORE_NAME })).toThrow(TopologyError);
    expect(() => s.selectKey((k) => k).groupByKey({ name: INVALID_STORE_NAME })).toThrow(TopologyError);
    expect(() => s.filter(() => true, INVALID_STORE_NAME)).toThrow(TopologyError);
  });

  it('Topology source, processor, sink and store names', () => {
    const t = new Topology();
    expect(() => t.addSource(INVALID_STORE_NAME, 'topic')).toThrow(TopologyError);
    t.addSource('source', 'topic');
    expect(() => t.addProcessor(INVALID_STORE_NAME, () => ({ process() {} }), 'source')).toThrow(TopologyError);
    expect(() => t.addSink(INVALID_STORE_NAME, 'out', 'source')).toThrow(TopologyError);
    expect(() => t.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(INVALID_STORE_NAME), S, S))).toThrow(TopologyError);
  });
});
