/**
 * Ported from Kafka Streams' `RepartitionTopicNamingTest` (the cases that do
 * not need windows, KTables or joins; the windowed ones run on plain `count()`
 * / `reduce()` here, sluice has no windowed aggregations yet).
 */
import { describe, expect, it } from 'vitest';
import { Grouped, Serdes, StreamsBuilder, TopologyError } from '../../../../src/index.js';

const S = Serdes.String();
const STR = { keySerde: S, valueSerde: S };
const kvMapper = (k: string, v: string): string => k + v;
const repartitionTopicPattern = /Sink: .*-repartition/g;

function getCountOfRepartitionTopicsFound(topologyString: string): number {
  return [...topologyString.matchAll(repartitionTopicPattern)].length;
}

function buildStreamGroupByKeyNoWindows(otherOperations: boolean, isGroupByKey: boolean): string {
  const builder = new StreamsBuilder();
  const selectKeyStream = builder.stream('topic', STR).selectKey((k, v) => k + v);
  const groupByAndCountRepartitionTopicName = 'kstream-grouping';
  if (isGroupByKey) {
    if (otherOperations) {
      selectKeyStream.filter(() => true).mapValues((v) => v).groupByKey(Grouped.as(groupByAndCountRepartitionTopicName)).count();
    } else {
      selectKeyStream.groupByKey(Grouped.as(groupByAndCountRepartitionTopicName)).count();
    }
  } else if (otherOperations) {
    selectKeyStream.filter(() => true).mapValues((v) => v).groupBy(kvMapper, Grouped.as(groupByAndCountRepartitionTopicName)).count();
  } else {
    selectKeyStream.groupBy(kvMapper, Grouped.as(groupByAndCountRepartitionTopicName)).count();
  }
  return builder.build().describe().toString();
}

describe('RepartitionTopicNamingTest', () => {
  /** RepartitionTopicNamingTest.shouldNotFailWithSameRepartitionTopicNameUsingSameKGroupedStream (count() and reduce() instead of two windowed counts) */
  it('shouldNotFailWithSameRepartitionTopicNameUsingSameKGroupedStream', () => {
    const builder = new StreamsBuilder();
    const kGroupedStream = builder.stream('topic', STR).selectKey((k) => k).groupByKey(Grouped.as('grouping'));
    kGroupedStream.count().toStream().to('output-one', { keySerde: S, valueSerde: Serdes.Long() });
    kGroupedStream.reduce((a, b) => a + b).toStream().to('output-two', STR);
    const topologyString = builder.build().describe().toString();
    expect(getCountOfRepartitionTopicsFound(topologyString)).toBe(1);
    expect(topologyString).toContain('grouping-repartition');
  });

  /** RepartitionTopicNamingTest.shouldFailWithSameRepartitionTopicName */
  it('shouldFailWithSameRepartitionTopicName', () => {
    expect(() => {
      const builder = new StreamsBuilder();
      builder.stream('topic', STR).selectKey((k) => k).groupByKey(Grouped.as('grouping')).count().toStream();
      builder.stream('topicII', STR).selectKey((k) => k).groupByKey(Grouped.as('grouping')).count().toStream();
      builder.build();
    }).toThrow(TopologyError);
  });

  /** RepartitionTopicNamingTest.shouldNotReuseRepartitionNodeWithUnnamedRepartitionTopics (count() twice instead of two windowed counts) */
  it('shouldNotReuseRepartitionNodeWithUnnamedRepartitionTopics', () => {
    const builder = new StreamsBuilder();
    const kGroupedStream = builder.stream('topic', STR).selectKey((k) => k).groupByKey();
    kGroupedStream.count().toStream().to('output-one', { keySerde: S, valueSerde: Serdes.Long() });
    kGroupedStream.count().toStream().to('output-two', { keySerde: S, valueSerde: Serdes.Long() });
    const topologyString = builder.build().describe().toString();
    expect(getCountOfRepartitionTopicsFound(topologyString)).toBe(2);
  });

  /** RepartitionTopicNamingTest.shouldKeepRepartitionTopicNameForGroupByKeyNoWindows */
  it('shouldKeepRepartitionTopicNameForGroupByKeyNoWindows', () => {
    const expectedNoWindowRepartitionTopic = '(topic: kstream-grouping-repartition)';
    expect(buildStreamGroupByKeyNoWindows(false, true)).toContain(expectedNoWindowRepartitionTopic);
    expect(buildStreamGroupByKeyNoWindows(true, true)).toContain(expectedNoWindowRepartitionTopic);
  });

  /** RepartitionTopicNamingTest.shouldKeepRepartitionTopicNameForGroupByNoWindows */
  it('shouldKeepRepartitionTopicNameForGroupByNoWindows', () => {
    const expectedNoWindowRepartitionTopic = '(topic: kstream-grouping-repartition)';
    expect(buildStreamGroupByKeyNoWindows(false, false)).toContain(expectedNoWindowRepartitionTopic);
    expect(buildStreamGroupByKeyNoWindows(true, false)).toContain(expectedNoWindowRepartitionTopic);
  });
});
