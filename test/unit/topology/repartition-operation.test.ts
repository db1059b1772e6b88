/**
 * `KStream.repartition(Repartitioned)`: topic and node names as Kafka's
 * `createRepartitionedSource` builds them, the partition count, serdes and
 * defaults, and `Repartitioned`'s argument checks.
 */
import { describe, expect, it } from 'vitest';
import { IllegalArgumentError, Repartitioned, Serdes, StreamsBuilder, TopologyError } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { toRuntime } from '../../../src/topology/topology-runtime.js';

const S = Serdes.String();
const STR = { keySerde: S, valueSerde: S };

describe('KStream.repartition()', () => {
  it('unnamed: KSTREAM-REPARTITION-<n>-repartition, generated sink/filter/source after it, as Kafka describes it', () => {
    const b = new StreamsBuilder();
    b.stream('topic-source', STR).repartition().to('out', STR);
    expect(b.build().describe().toString()).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [topic-source])\n' +
        '      --> KSTREAM-FILTER-0000000003\n' +
        '    Processor: KSTREAM-FILTER-0000000003 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000002\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Sink: KSTREAM-SINK-0000000002 (topic: KSTREAM-REPARTITION-0000000001-repartition)\n' +
        '      <-- KSTREAM-FILTER-0000000003\n' +
        '\n' +
        '  Sub-topology: 1\n' +
        '    Source: KSTREAM-SOURCE-0000000004 (topics: [KSTREAM-REPARTITION-0000000001-repartition])\n' +
        '      --> KSTREAM-SINK-0000000005\n' +
        '    Sink: KSTREAM-SINK-0000000005 (topic: out)\n' +
        '      <-- KSTREAM-SOURCE-0000000004\n\n',
    );
  });

  it('named: <name>-repartition with <name>-repartition-sink/-filter/-source, and three indexes burnt as Kafka does', () => {
    const b = new StreamsBuilder();
    b.stream('in', STR).repartition(Repartitioned.as('by-x')).filter(() => true).to('out', STR);
    const text = b.build().describe().toString();
    expect(text).toContain('Sink: by-x-repartition-sink (topic: by-x-repartition)');
    expect(text).toContain('Processor: by-x-repartition-filter (stores: [])');
    expect(text).toContain('Source: by-x-repartition-source (topics: [by-x-repartition])');
    expect(text).toContain('Processor: KSTREAM-FILTER-0000000004 (stores: [])');
  });

  it('the topic gets withNumberOfPartitions(n), else the upstream count; resolved with the application id', () => {
    const b = new StreamsBuilder();
    const s = b.stream('in', STR);
    s.repartition(Repartitioned.as<string, string>('six').withNumberOfPartitions(6)).to('out-a', STR);
    s.repartition(Repartitioned.as('same')).to('out-b', STR);
    const runtime = toRuntime(b.build(), { applicationId: 'app' });
    expect(runtime.internalTopics.map((t) => t.name)).toEqual(['app-six-repartition', 'app-same-repartition']);
    expect([...runtime.internalTopicPartitionCounts(new Map([['in', 3]]))]).toEqual([
      ['app-six-repartition', 6],
      ['app-same-repartition', 3],
    ]);
  });

  it('null keys cross the topic too (Kafka repartition() keeps them), with their timestamps', () => {
    const b = new StreamsBuilder();
    b.stream('in', STR).repartition(Repartitioned.as('r')).to('out', STR);
    const driver = new TopologyTestDriver(b.build());
    driver.createInputTopic('in', S, S).pipeRecordList([
      { key: null, value: 'no-key', timestamp: 5 },
      { key: 'k', value: 'v', timestamp: 6 },
    ]);
    expect(driver.createOutputTopic('out', S, S).readRecordsToList().map((r) => [r.key, r.value, r.timestamp])).toEqual([
      [null, 'no-key', 5],
      ['k', 'v', 6],
    ]);
    expect(driver.producedTopicNames()).toEqual(['test-driver-r-repartition', 'out']);
    driver.close();
  });

  it('after a type change: Repartitioned serdes, else the config defaults; without either, a TopologyError naming the repartition', () => {
    const withSerdes = new StreamsBuilder();
    withSerdes.stream('in', STR).mapValues((v) => v.length).repartition(Repartitioned.with(S, Serdes.Integer())).to('out');
    const d1 = new TopologyTestDriver(withSerdes.build());
    d1.createInputTopic('in', S, S).pipeInput('k', 'abc');
    expect(d1.createOutputTopic('out', S, Serdes.Integer()).readValue()).toBe(3);
    d1.close();

    const withDefaults = new StreamsBuilder();
    withDefaults.stream('in', STR).map((k, v) => ({ key: v, value: k })).repartition(Repartitioned.as('swap')).to('out');
    const d2 = new TopologyTestDriver(withDefaults.build(), { defaultKeySerde: S, defaultValueSerde: S });
    d2.createInputTopic('in', S, S).pipeInput('k', 'v');
    expect(d2.createOutputTopic('out', S, S).readKeyValue()).toEqual({ key: 'v', value: 'k' });
    d2.close();

    const neither = new StreamsBuilder();
    neither.stream('in', STR).map((k, v) => ({ key: v, value: k })).repartition(Repartitioned.as('swap')).to('out');
    expect(() => new TopologyTestDriver(neither.build())).toThrow(/repartition 'swap' \(after 'KSTREAM-MAP-0000000001'\): the key serde is unknown/);
  });

  it('Repartitioned checks its arguments at the call; a repartition name used twice is a TopologyError', () => {
    expect(() => Repartitioned.as('bad name')).toThrow(TopologyError);
    expect(() => Repartitioned.as('r').withNumberOfPartitions(0)).toThrow(new IllegalArgumentError('numberOfPartitions must be a positive integer; got 0'));
    expect(() => Repartitioned.numberOfPartitions(1.5)).toThrow(IllegalArgumentError);
    expect(() => Repartitioned.as('r').withStreamPartitioner(null as never)).toThrow(new IllegalArgumentError("partitioner can't be null"));
    expect(() => new StreamsBuilder().stream('in', STR).repartition({ numberOfPartitions: -1 })).toThrow(IllegalArgumentError);
    const s = new StreamsBuilder().stream('in', STR);
    s.repartition(Repartitioned.as('r'));
    expect(() => s.repartition(Repartitioned.as('r'))).toThrow(TopologyError);
  });

  it('a plain { name, numberOfPartitions } object works as a Repartitioned', () => {
    const b = new StreamsBuilder();
    b.stream('in', STR).repartition({ name: 'plain', numberOfPartitions: 2 }).to('out', STR);
    const runtime = toRuntime(b.build(), { applicationId: 'a' });
    expect([...runtime.internalTopicPartitionCounts(new Map([['in', 5]]))]).toEqual([['a-plain-repartition', 2]]);
  });
});
