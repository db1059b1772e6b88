/**
 * Ported from Kafka Streams' `KStreamImplTest`: the `toTable` cases (inputs,
 * expected outputs and describe() strings unchanged), plus sluice cases for
 * a named toTable after a key change, derived from `KStreamImpl.toTable` /
 * `createRepartitionedSource`.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { IllegalArgumentError, Materialized, Named, Serdes, Stores, StreamsBuilder, type KStream } from '../../../../../src/index.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import { storeOf } from '../../../../helpers/store-of.js';

const S = Serdes.String();
const I = Serdes.Int32();
const consumed = { keySerde: S, valueSerde: S };
// StreamsTestUtils.getStreamsConfig(Serdes.String(), Serdes.String())
const props = { applicationId: 'kstream-to-table-test', defaultKeySerde: S, defaultValueSerde: S };
const NULL = null as never;
const rec = (key: unknown, value: unknown, timestamp: number) => ({ key, value, timestamp });

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

describe('KStreamImplTest: toTable null arguments', () => {
  let testStream: KStream<string, string>;
  beforeEach(() => {
    testStream = new StreamsBuilder().stream('source', consumed);
  });

  /**
   * KStreamImplTest.shouldNotAllowNullNamedOnToTable. (Java's
   * shouldNotAllowNullMaterializedOnToTable passes the same single null typed
   * as a Materialized; JavaScript cannot tell the two apart, so one null
   * argument is reported as the Named.)
   */
  it('shouldNotAllowNullNamedOnToTable', () => {
    expectNull(() => testStream.toTable(NULL), "named can't be null");
  });

  /** KStreamImplTest.shouldNotAllowNullNamedOnToTableWithMaterialized */
  it('shouldNotAllowNullNamedOnToTableWithMaterialized', () => {
    expectNull(() => testStream.toTable(NULL, {}), "named can't be null");
  });

  /** KStreamImplTest.shouldNotAllowNullMaterializedOnToTableWithNamed */
  it('shouldNotAllowNullMaterializedOnToTableWithNamed', () => {
    expectNull(() => testStream.toTable(Named.as('name'), NULL), "materialized can't be null");
  });
});

describe('KStreamImplTest: toTable', () => {
  const input = 'input';
  const output = 'output';

  /** KStreamImplTest.shouldNotMaterializedKTableFromKStream */
  it('shouldNotMaterializedKTableFromKStream', () => {
    const builder = new StreamsBuilder();
    builder.stream(input, consumed).toTable().toStream().to(output);
    expect(builder.build().describe().toString()).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
        '      --> KSTREAM-TOTABLE-0000000001\n' +
        '    Processor: KSTREAM-TOTABLE-0000000001 (stores: [])\n' +
        '      --> KTABLE-TOSTREAM-0000000003\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KTABLE-TOSTREAM-0000000003 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000004\n' +
        '      <-- KSTREAM-TOTABLE-0000000001\n' +
        '    Sink: KSTREAM-SINK-0000000004 (topic: output)\n' +
        '      <-- KTABLE-TOSTREAM-0000000003\n\n',
    );
    const driver = new TopologyTestDriver(builder.build(), props);
    const inputTopic = driver.createInputTopic(input, S, S);
    const outputTopic = driver.createOutputTopic(output, S, S);
    inputTopic.pipeInput('A', '01', 5);
    inputTopic.pipeInput('B', '02', 100);
    inputTopic.pipeInput('C', '03', 0);
    inputTopic.pipeInput('D', '04', 0);
    inputTopic.pipeInput('A', '05', 10);
    inputTopic.pipeInput('A', '06', 8);
    expect(outputTopic.readRecordsToList().map((r) => rec(r.key, r.value, r.timestamp))).toEqual([
      rec('A', '01', 5),
      rec('B', '02', 100),
      rec('C', '03', 0),
      rec('D', '04', 0),
      rec('A', '05', 10),
      rec('A', '06', 8),
    ]);
    driver.close();
  });

  /** KStreamImplTest.shouldMaterializeKTableFromKStream */
  it('shouldMaterializeKTableFromKStream', () => {
    const builder = new StreamsBuilder();
    const storeName = 'store';
    builder.stream(input, consumed).toTable(Materialized.as<string, string>(Stores.inMemoryKeyValueStore(storeName)));
    const topology = builder.build();
    expect(topology.describe().toString()).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
        '      --> KSTREAM-TOTABLE-0000000001\n' +
        '    Processor: KSTREAM-TOTABLE-0000000001 (stores: [store])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n\n',
    );
    const driver = new TopologyTestDriver(topology, props);
    const inputTopic = driver.createInputTopic(input, S, S);
    const store = storeOf(driver.getKeyValueStore<string, string>(storeName));
    inputTopic.pipeInput('A', '01');
    inputTopic.pipeInput('B', '02');
    inputTopic.pipeInput('A', '03');
    expect(new Map(store.all().map((kv) => [kv.key, kv.value]))).toEqual(
      new Map([
        ['A', '03'],
        ['B', '02'],
      ]),
    );
    driver.close();
  });

  /** KStreamImplTest.shouldSupportKeyChangeKTableFromKStream */
  it('shouldSupportKeyChangeKTableFromKStream', () => {
    const builder = new StreamsBuilder();
    builder
      .stream(input, consumed)
      .map((key, value) => ({ key: key.charCodeAt(0) - 'A'.charCodeAt(0), value }))
      .toTable({ keySerde: I })
      .toStream()
      .to(output);
    const topology = builder.build();
    expect(topology.describe().toString()).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
        '      --> KSTREAM-MAP-0000000001\n' +
        '    Processor: KSTREAM-MAP-0000000001 (stores: [])\n' +
        '      --> KSTREAM-FILTER-0000000005\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KSTREAM-FILTER-0000000005 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000004\n' +
        '      <-- KSTREAM-MAP-0000000001\n' +
        '    Sink: KSTREAM-SINK-0000000004 (topic: KSTREAM-TOTABLE-0000000002-repartition)\n' +
        '      <-- KSTREAM-FILTER-0000000005\n' +
        '\n' +
        '  Sub-topology: 1\n' +
        '    Source: KSTREAM-SOURCE-0000000006 (topics: [KSTREAM-TOTABLE-0000000002-repartition])\n' +
        '      --> KSTREAM-TOTABLE-0000000002\n' +
        '    Processor: KSTREAM-TOTABLE-0000000002 (stores: [])\n' +
        '      --> KTABLE-TOSTREAM-0000000007\n' +
        '      <-- KSTREAM-SOURCE-0000000006\n' +
        '    Processor: KTABLE-TOSTREAM-0000000007 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000008\n' +
        '      <-- KSTREAM-TOTABLE-0000000002\n' +
        '    Sink: KSTREAM-SINK-0000000008 (topic: output)\n' +
        '      <-- KTABLE-TOSTREAM-0000000007\n\n',
    );
    const driver = new TopologyTestDriver(topology, props);
    const inputTopic = driver.createInputTopic(input, S, S);
    const outputTopic = driver.createOutputTopic(output, I, S);
    inputTopic.pipeInput('A', '01', 5);
    inputTopic.pipeInput('B', '02', 100);
    inputTopic.pipeInput('C', '03', 0);
    inputTopic.pipeInput('D', '04', 0);
    inputTopic.pipeInput('A', '05', 10);
    inputTopic.pipeInput('A', '06', 8);
    expect(outputTopic.readRecordsToList().map((r) => rec(r.key, r.value, r.timestamp))).toEqual([
      rec(0, '01', 5),
      rec(1, '02', 100),
      rec(2, '03', 0),
      rec(3, '04', 0),
      rec(0, '05', 10),
      rec(0, '06', 8),
    ]);
    driver.close();
  });

  /** KStreamImplTest.shouldSupportTriggerMaterializedWithKTableFromKStream */
  it('shouldSupportTriggerMaterializedWithKTableFromKStream', () => {
    const builder = new StreamsBuilder();
    const storeName = 'store';
    builder
      .stream(input, consumed)
      .toTable()
      .mapValues((value) => value.charCodeAt(0) - 'a'.charCodeAt(0), Materialized.as<string, number>(storeName).withKeySerde(S).withValueSerde(I))
      .toStream()
      .to(output);
    const topology = builder.build();
    expect(topology.describe().toString()).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
        '      --> KSTREAM-TOTABLE-0000000001\n' +
        '    Processor: KSTREAM-TOTABLE-0000000001 (stores: [])\n' +
        '      --> KTABLE-MAPVALUES-0000000003\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KTABLE-MAPVALUES-0000000003 (stores: [store])\n' +
        '      --> KTABLE-TOSTREAM-0000000004\n' +
        '      <-- KSTREAM-TOTABLE-0000000001\n' +
        '    Processor: KTABLE-TOSTREAM-0000000004 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000005\n' +
        '      <-- KTABLE-MAPVALUES-0000000003\n' +
        '    Sink: KSTREAM-SINK-0000000005 (topic: output)\n' +
        '      <-- KTABLE-TOSTREAM-0000000004\n\n',
    );
    const driver = new TopologyTestDriver(topology, props);
    const inputTopic = driver.createInputTopic(input, S, S);
    const outputTopic = driver.createOutputTopic(output, S, I);
    const store = storeOf(driver.getKeyValueStore<string, number>(storeName));
    inputTopic.pipeInput('A', 'green', 10);
    inputTopic.pipeInput('B', 'green', 9);
    inputTopic.pipeInput('A', 'blue', 12);
    inputTopic.pipeInput('C', 'yellow', 15);
    inputTopic.pipeInput('D', 'green', 11);
    expect(new Map(store.all().map((kv) => [kv.key, kv.value]))).toEqual(
      new Map([
        ['A', 1],
        ['B', 6],
        ['C', 24],
        ['D', 6],
      ]),
    );
    expect(outputTopic.readRecordsToList().map((r) => rec(r.key, r.value, r.timestamp))).toEqual([
      rec('A', 6, 10),
      rec('B', 6, 9),
      rec('A', 1, 12),
      rec('C', 24, 15),
      rec('D', 6, 11),
    ]);
    driver.close();
  });
});

describe('toTable after a key change, named (sluice, from KStreamImpl.toTable)', () => {
  it('a named toTable after selectKey repartitions through <name>-repartition with <name>-repartition-sink/-filter/-source, indices consumed as Kafka', () => {
    const builder = new StreamsBuilder();
    builder
      .stream('input', consumed)
      .selectKey((_k, v) => v)
      .toTable(Named.as('latest'), Materialized.as<string, string>('latest-store'))
      .toStream()
      .to('output');
    expect(builder.build().describe().toString()).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
        '      --> KSTREAM-KEY-SELECT-0000000001\n' +
        '    Processor: KSTREAM-KEY-SELECT-0000000001 (stores: [])\n' +
        '      --> latest-repartition-filter\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: latest-repartition-filter (stores: [])\n' +
        '      --> latest-repartition-sink\n' +
        '      <-- KSTREAM-KEY-SELECT-0000000001\n' +
        '    Sink: latest-repartition-sink (topic: latest-repartition)\n' +
        '      <-- latest-repartition-filter\n' +
        '\n' +
        '  Sub-topology: 1\n' +
        '    Source: latest-repartition-source (topics: [latest-repartition])\n' +
        '      --> latest\n' +
        '    Processor: latest (stores: [latest-store])\n' +
        '      --> KTABLE-TOSTREAM-0000000006\n' +
        '      <-- latest-repartition-source\n' +
        '    Processor: KTABLE-TOSTREAM-0000000006 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000007\n' +
        '      <-- latest\n' +
        '    Sink: KSTREAM-SINK-0000000007 (topic: output)\n' +
        '      <-- KTABLE-TOSTREAM-0000000006\n\n',
    );
  });

  it('the re-keyed table keeps the latest value per new key and forwards a delete as a null value', () => {
    const builder = new StreamsBuilder();
    builder
      .stream('input', consumed)
      .selectKey((k) => k.toUpperCase())
      .toTable(Materialized.as<string, string>('by-upper').withCachingDisabled())
      .toStream()
      .to('output');
    const driver = new TopologyTestDriver(builder.build(), props);
    const inputTopic = driver.createInputTopic('input', S, S);
    inputTopic.pipeInput('a', 'v1', 1);
    inputTopic.pipeInput('A', 'v2', 2);
    inputTopic.pipeInput('a', null, 3);
    expect(driver.createOutputTopic('output', S, S).readKeyValuesToList()).toEqual([
      { key: 'A', value: 'v1' },
      { key: 'A', value: 'v2' },
      { key: 'A', value: null },
    ]);
    expect(storeOf(driver.getKeyValueStore<string, string>('by-upper')).get('A')).toBeNull();
    driver.close();
  });
});
