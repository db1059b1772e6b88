/**
 * Ported from Kafka Streams' `RepartitionTopicNamingTest` (the cases without
 * KTables or joins). The first cases here were written before windowed
 * aggregations existed and run on plain `count()` / `reduce()`; the windowed
 * cases, as Kafka wrote them, follow in the second describe.
 */
import { describe, expect, it } from 'vitest';
import { Grouped, Serdes, SessionWindows, StreamsBuilder, TimeWindows, TopologyError } from '../../../../src/index.js';

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

function buildStreamGroupByKeyTimeWindows(otherOperations: boolean, isGroupByKey: boolean): string {
  const groupedTimeWindowRepartitionTopicName = 'time-window-grouping';
  const builder = new StreamsBuilder();
  const selectKeyStream = builder.stream('topic', STR).selectKey((k, v) => k + v);
  if (isGroupByKey) {
    if (otherOperations) {
      selectKeyStream.filter(() => true).mapValues((v) => v).groupByKey(Grouped.as(groupedTimeWindowRepartitionTopicName)).windowedBy(TimeWindows.ofSizeWithNoGrace(10)).count();
    } else {
      selectKeyStream.groupByKey(Grouped.as(groupedTimeWindowRepartitionTopicName)).windowedBy(TimeWindows.ofSizeWithNoGrace(10)).count();
    }
  } else if (otherOperations) {
    selectKeyStream.filter(() => true).mapValues((v) => v).groupBy(kvMapper, Grouped.as(groupedTimeWindowRepartitionTopicName)).count();
  } else {
    selectKeyStream.groupBy(kvMapper, Grouped.as(groupedTimeWindowRepartitionTopicName)).count();
  }
  return builder.build().describe().toString();
}

describe('RepartitionTopicNamingTest (windowed cases)', () => {
  const grouped = (builder: StreamsBuilder, name?: string) => {
    const selected = builder.stream('topic', STR).selectKey((k) => k);
    return name === undefined ? selected.groupByKey() : selected.groupByKey(Grouped.as(name));
  };

  /** RepartitionTopicNamingTest.shouldNotFailWithSameRepartitionTopicNameUsingSameKGroupedStream */
  it('shouldNotFailWithSameRepartitionTopicNameUsingSameKGroupedStream (windowed)', () => {
    const builder = new StreamsBuilder();
    const kGroupedStream = grouped(builder, 'grouping');
    kGroupedStream.windowedBy(TimeWindows.ofSizeWithNoGrace(10)).count().toStream().to('output-one');
    kGroupedStream.windowedBy(TimeWindows.ofSizeWithNoGrace(30)).count().toStream().to('output-two');
    const topologyString = builder.build().describe().toString();
    expect(getCountOfRepartitionTopicsFound(topologyString)).toBe(1);
    expect(topologyString).toContain('grouping-repartition');
  });

  /** RepartitionTopicNamingTest.shouldNotFailWithSameRepartitionTopicNameUsingSameTimeWindowStream */
  it('shouldNotFailWithSameRepartitionTopicNameUsingSameTimeWindowStream', () => {
    const builder = new StreamsBuilder();
    const kGroupedStream = grouped(builder, 'grouping');
    const timeWindowedKStream = kGroupedStream.windowedBy(TimeWindows.ofSizeWithNoGrace(10));
    timeWindowedKStream.count().toStream().to('output-one');
    timeWindowedKStream.reduce((v, v2) => v + v2).toStream().to('output-two');
    kGroupedStream.windowedBy(TimeWindows.ofSizeWithNoGrace(30)).count().toStream().to('output-two');
    const topologyString = builder.build().describe().toString();
    expect(getCountOfRepartitionTopicsFound(topologyString)).toBe(1);
    expect(topologyString).toContain('grouping-repartition');
  });

  /** RepartitionTopicNamingTest.shouldNotFailWithSameRepartitionTopicNameUsingSameSessionWindowStream */
  it('shouldNotFailWithSameRepartitionTopicNameUsingSameSessionWindowStream', () => {
    const builder = new StreamsBuilder();
    const kGroupedStream = grouped(builder, 'grouping');
    const sessionWindowedKStream = kGroupedStream.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(10));
    sessionWindowedKStream.count().toStream().to('output-one');
    sessionWindowedKStream.reduce((v, v2) => v + v2).toStream().to('output-two');
    kGroupedStream.windowedBy(TimeWindows.ofSizeWithNoGrace(30)).count().toStream().to('output-two');
    const topologyString = builder.build().describe().toString();
    expect(getCountOfRepartitionTopicsFound(topologyString)).toBe(1);
    expect(topologyString).toContain('grouping-repartition');
  });

  /** RepartitionTopicNamingTest.shouldNotReuseRepartitionNodeWithUnnamedRepartitionTopics */
  it('shouldNotReuseRepartitionNodeWithUnnamedRepartitionTopics (windowed)', () => {
    const builder = new StreamsBuilder();
    const kGroupedStream = grouped(builder);
    kGroupedStream.windowedBy(TimeWindows.ofSizeWithNoGrace(10)).count().toStream().to('output-one');
    kGroupedStream.windowedBy(TimeWindows.ofSizeWithNoGrace(30)).count().toStream().to('output-two');
    const topologyString = builder.build().describe().toString();
    expect(getCountOfRepartitionTopicsFound(topologyString)).toBe(2);
  });

  /** RepartitionTopicNamingTest.shouldNotFailWithSameRepartitionTopicNameUsingSameKGroupedStreamOptimizationsOn */
  it('shouldNotFailWithSameRepartitionTopicNameUsingSameKGroupedStreamOptimizationsOn', () => {
    const builder = new StreamsBuilder();
    const kGroupedStream = grouped(builder, 'grouping');
    kGroupedStream.windowedBy(TimeWindows.ofSizeWithNoGrace(10)).count();
    kGroupedStream.windowedBy(TimeWindows.ofSizeWithNoGrace(30)).count();
    const topology = builder.build({ topologyOptimization: 'all' });
    expect(getCountOfRepartitionTopicsFound(topology.describe().toString())).toBe(1);
  });

  /** RepartitionTopicNamingTest.shouldPassWithSameRepartitionTopicNameUsingSameKGroupedStreamOptimized */
  it('shouldPassWithSameRepartitionTopicNameUsingSameKGroupedStreamOptimized', () => {
    const builder = new StreamsBuilder();
    const kGroupedStream = grouped(builder, 'grouping');
    kGroupedStream.windowedBy(TimeWindows.ofSizeWithNoGrace(10)).count();
    kGroupedStream.windowedBy(TimeWindows.ofSizeWithNoGrace(30)).count();
    expect(() => builder.build({ topologyOptimization: 'all' })).not.toThrow();
  });

  /** RepartitionTopicNamingTest.shouldKeepRepartitionTopicNameForGroupByKeyTimeWindows */
  it('shouldKeepRepartitionTopicNameForGroupByKeyTimeWindows', () => {
    const expectedTimeWindowRepartitionTopic = '(topic: time-window-grouping-repartition)';
    expect(buildStreamGroupByKeyTimeWindows(false, true)).toContain(expectedTimeWindowRepartitionTopic);
    expect(buildStreamGroupByKeyTimeWindows(true, true)).toContain(expectedTimeWindowRepartitionTopic);
  });

  /** RepartitionTopicNamingTest.shouldKeepRepartitionTopicNameForGroupByTimeWindows */
  it('shouldKeepRepartitionTopicNameForGroupByTimeWindows', () => {
    const expectedTimeWindowRepartitionTopic = '(topic: time-window-grouping-repartition)';
    expect(buildStreamGroupByKeyTimeWindows(false, false)).toContain(expectedTimeWindowRepartitionTopic);
    expect(buildStreamGroupByKeyTimeWindows(true, false)).toContain(expectedTimeWindowRepartitionTopic);
  });
});
