import { afterEach, describe, expect, it } from 'vitest';
import { Grouped, Materialized, Serdes, StreamsBuilder, TopologyError, type Topology } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { toRuntime } from '../../../src/topology/topology-runtime.js';
import { storeOf } from '../../helpers/store-of.js';

const S = Serdes.String();
const N = Serdes.Json<number>();
const STR = { keySerde: S, valueSerde: S };

let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

function wordCount(): Topology {
  const b = new StreamsBuilder();
  b.stream<string, string>('lines', STR)
    .flatMapValues((line) => line.split(' '))
    .groupBy((_k, word) => word)
    .count()
    .toStream()
    .to('counts', { keySerde: S, valueSerde: N });
  return b.build();
}

const WORD_COUNT_TEXT = [
  'Topologies:',
  '   Sub-topology: 0',
  '    Source: KSTREAM-SOURCE-0000000000 (topics: [lines])',
  '      --> KSTREAM-FLATMAPVALUES-0000000001',
  '    Processor: KSTREAM-FLATMAPVALUES-0000000001 (stores: [])',
  '      --> KSTREAM-KEY-SELECT-0000000002',
  '      <-- KSTREAM-SOURCE-0000000000',
  '    Processor: KSTREAM-KEY-SELECT-0000000002 (stores: [])',
  '      --> KSTREAM-FILTER-0000000006',
  '      <-- KSTREAM-FLATMAPVALUES-0000000001',
  '    Processor: KSTREAM-FILTER-0000000006 (stores: [])',
  '      --> KSTREAM-SINK-0000000005',
  '      <-- KSTREAM-KEY-SELECT-0000000002',
  '    Sink: KSTREAM-SINK-0000000005 (topic: KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition)',
  '      <-- KSTREAM-FILTER-0000000006',
  '',
  '  Sub-topology: 1',
  '    Source: KSTREAM-SOURCE-0000000007 (topics: [KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition])',
  '      --> KSTREAM-AGGREGATE-0000000004',
  '    Processor: KSTREAM-AGGREGATE-0000000004 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000003])',
  '      --> KTABLE-TOSTREAM-0000000008',
  '      <-- KSTREAM-SOURCE-0000000007',
  '    Processor: KTABLE-TOSTREAM-0000000008 (stores: [])',
  '      --> KSTREAM-SINK-0000000009',
  '      <-- KSTREAM-AGGREGATE-0000000004',
  '    Sink: KSTREAM-SINK-0000000009 (topic: counts)',
  '      <-- KTABLE-TOSTREAM-0000000008',
  '',
  '',
].join('\n');

describe('repartitioning: topology', () => {
  it("describe() shows the repartition boundary as Kafka Streams does (two sub-topologies, unresolved topic name)", () => {
    expect(wordCount().describe().toString()).toBe(WORD_COUNT_TEXT);
  });

  it('Grouped.as names the selectKey, the repartition topic and its filter/sink/source nodes', () => {
    const b = new StreamsBuilder();
    b.stream<string, string>('lines', STR)
      .groupBy((_k, v) => v, Grouped.as('by-word'))
      .count(Materialized.as('word-counts'));
    const [sub0, sub1] = b.build().describe().subtopologies;
    expect(sub0!.nodes.map((n) => n.name)).toEqual(['KSTREAM-SOURCE-0000000000', 'by-word', 'by-word-repartition-filter', 'by-word-repartition-sink']);
    expect(sub0!.nodes[3]).toMatchObject({ type: 'sink', topic: 'by-word-repartition' });
    expect(sub1!.nodes[0]).toMatchObject({ type: 'source', name: 'by-word-repartition-source', topics: ['by-word-repartition'] });
    expect(sub1!.nodes[1]).toMatchObject({ type: 'processor', stores: ['word-counts'] });
  });

  it('without Grouped.name the repartition topic is named after the state store', () => {
    const b = new StreamsBuilder();
    b.stream<string, string>('lines', STR).map((k, v) => ({ key: v, value: k })).groupByKey().count(Materialized.as('counts-store'));
    const sinks = b.build().describe().subtopologies[0]!.nodes.filter((n) => n.type === 'sink');
    expect(sinks).toMatchObject([{ topic: 'counts-store-repartition' }]);
  });

  it('groupByKey without a key change needs no repartition topic (one sub-topology)', () => {
    const b = new StreamsBuilder();
    b.stream<string, string>('lines', STR).mapValues((v) => v.length).groupByKey().count();
    const topology = b.build();
    expect(topology.describe().subtopologies).toHaveLength(1);
    expect(toRuntime(topology, { applicationId: 'app' }).internalTopics).toEqual([]);
  });

  it('toRuntime resolves internal topics to <applicationId>-<name> and sizes them from the upstream sources', () => {
    const runtime = toRuntime(wordCount(), { applicationId: 'wc' });
    const topic = 'wc-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition';
    expect(runtime.internalTopics).toEqual([{ name: topic, partitionCountFrom: ['lines'], writtenBy: [0], readBy: [1] }]);
    expect(runtime.subtopologies).toEqual([
      { id: 0, sourceTopics: ['lines'], sinkTopics: [topic] },
      { id: 1, sourceTopics: [topic], sinkTopics: ['counts'] },
    ]);
    expect(runtime.sourceTopics()).toEqual(['lines', topic]);
    expect(runtime.internalTopicPartitionCounts(new Map([['lines', 3]]))).toEqual(new Map([[topic, 3]]));
    expect(() => runtime.internalTopicPartitionCounts(new Map())).toThrow(TopologyError);
    // Without an application id the names stay unresolved.
    expect(toRuntime(wordCount()).internalTopics[0]!.name).toBe('KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition');
  });

  it('chained repartitions take the maximum upstream count, through the intermediate internal topic', () => {
    const b = new StreamsBuilder();
    b.stream<string, string>(['a', 'b'], STR)
      .groupBy((_k, v) => v, Grouped.as('first'))
      .count()
      .toStream()
      .groupBy((k) => k.length, { name: 'second', keySerde: Serdes.Json<number>(), valueSerde: N })
      .count();
    const runtime = toRuntime(b.build(), { applicationId: 'x' });
    expect(runtime.internalTopics.map((t) => t.name)).toEqual(['x-first-repartition', 'x-second-repartition']);
    expect(runtime.internalTopicPartitionCounts(new Map([['a', 4], ['b', 4]]))).toEqual(
      new Map([['x-first-repartition', 4], ['x-second-repartition', 4]]),
    );
    expect(runtime.subtopologies).toHaveLength(3);
  });

  it('the same Grouped name on two groupings is a TopologyError (one grouping reuses its topic, as Kafka)', () => {
    const b = new StreamsBuilder();
    const lines = b.stream<string, string>('lines', STR);
    const grouped = lines.groupBy((_k, v) => v, Grouped.as('g'));
    grouped.count();
    expect(() => grouped.count()).not.toThrow();
    expect(() => lines.selectKey((_k, v) => v).groupByKey(Grouped.as('g')).count()).toThrow(/g-repartition/);
  });
});

describe('repartitioning: TopologyTestDriver', () => {
  it('groupBy(...).count() counts words across the repartition topic', () => {
    driver = new TopologyTestDriver(wordCount());
    driver.createInputTopic('lines', S, S).pipeValueList(['a b a', 'b c']);
    const out = driver.createOutputTopic('counts', S, N).readKeyValuesToList();
    expect(out).toEqual([
      { key: 'a', value: 1 },
      { key: 'b', value: 1 },
      { key: 'a', value: 2 },
      { key: 'b', value: 2 },
      { key: 'c', value: 1 },
    ]);
    expect(storeOf(driver.getKeyValueStore<string, number>('KSTREAM-AGGREGATE-STATE-STORE-0000000003')).get('a')).toBe(2);
  });

  it('the repartition topic is named with the driver application id (default test-driver) and keeps the input timestamp', () => {
    driver = new TopologyTestDriver(wordCount(), { applicationId: 'wc' });
    driver.createInputTopic('lines', S, S).pipeInput('k', 'x y', 5_000);
    const topic = 'wc-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition';
    expect(driver.producedTopicNames()).toContain(topic);
    // Key and value types changed (groupBy, flatMapValues) and no serdes were given: the fallback is JSON.
    const repartitioned = driver.createOutputTopic(topic, Serdes.Json<string>(), Serdes.Json<string>()).readRecordsToList();
    expect(repartitioned.map((r) => [r.key, r.value, r.timestamp])).toEqual([
      ['x', 'x', 5_000],
      ['y', 'y', 5_000],
    ]);
    expect(driver.createOutputTopic('counts', S, N).readRecordsToList().map((r) => r.timestamp)).toEqual([5_000, 5_000]);
    driver.close();
    driver = new TopologyTestDriver(wordCount());
    driver.createInputTopic('lines', S, S).pipeInput('k', 'z');
    expect(driver.producedTopicNames()).toContain('test-driver-KSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition');
  });

  it('groupBy(...).reduce and aggregate with Grouped serdes', () => {
    const b = new StreamsBuilder();
    const lengths = b.stream<string, string>('in', STR).groupBy((_k, v) => v.length, { keySerde: Serdes.Json<number>(), valueSerde: S });
    lengths.reduce((acc, v) => `${acc},${v}`).toStream().to('reduced', { keySerde: Serdes.Json<number>(), valueSerde: S });
    lengths
      .aggregate(() => 0, (_k, v, acc: number) => acc + v.charCodeAt(0), { valueSerde: N })
      .toStream()
      .to('sums', { keySerde: Serdes.Json<number>(), valueSerde: N });
    driver = new TopologyTestDriver(b.build());
    driver.createInputTopic('in', S, S).pipeKeyValueList([
      { key: '1', value: 'a' },
      { key: '2', value: 'bb' },
      { key: '3', value: 'c' },
    ]);
    expect(driver.createOutputTopic('reduced', Serdes.Json<number>(), S).readKeyValuesToMap()).toEqual(new Map([[1, 'a,c'], [2, 'bb']]));
    expect(driver.createOutputTopic('sums', Serdes.Json<number>(), N).readKeyValuesToMap()).toEqual(new Map([[1, 97 + 99], [2, 98]]));
  });

  it('groupByKey after map repartitions by the new key; null keys are dropped before the repartition topic', () => {
    const b = new StreamsBuilder();
    b.stream<string, string>('in', STR)
      .map((k, v) => ({ key: v === 'drop' ? null : v.toUpperCase(), value: k }))
      .groupByKey({ keySerde: S, valueSerde: S })
      .count({ storeName: 'by-upper' })
      .toStream()
      .to('out', { keySerde: S, valueSerde: N });
    const topology = b.build();
    expect(topology.describe().subtopologies).toHaveLength(2);
    driver = new TopologyTestDriver(topology);
    driver.createInputTopic('in', S, S).pipeKeyValueList([
      { key: '1', value: 'x' },
      { key: '2', value: 'drop' },
      { key: '3', value: 'x' },
    ]);
    expect(driver.createOutputTopic('out', S, N).readKeyValuesToList()).toEqual([
      { key: 'X', value: 1 },
      { key: 'X', value: 2 },
    ]);
    expect(driver.createOutputTopic('test-driver-by-upper-repartition', S, S).getQueueSize()).toBe(2);
  });
});
