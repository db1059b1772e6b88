/**
 * Ported from Kafka Streams' `KTableSourceTest` (inputs and expected outputs
 * unchanged), the table-source cases of `StreamsBuilderTest` and the
 * builder.table describe() of `TopologyTest`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Materialized, Serdes, StreamsBuilder, TopologyError } from '../../../../../src/index.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import { toRuntime } from '../../../../../src/topology/topology-runtime.js';
import type { KTable } from '../../../../../src/topology/dsl-interfaces.js';
import { captureLogger } from '../../../handlers/capture-logger.js';
import { addValueGetterProbe, change, kvt, RecordingProcessorSupplier } from '../../../../helpers/ktable/recording-processor.js';
import { storeOf } from '../../../../helpers/store-of.js';
import { impl } from '../../../../helpers/dsl-impl.js';

const S = Serdes.String();
const I = Serdes.Int32();
const stringConsumed = { keySerde: S, valueSerde: S };
// StreamsTestUtils.getStreamsConfig(Serdes.String(), Serdes.String())
const props = { applicationId: 'ktable-source-test', defaultKeySerde: S, defaultValueSerde: S };

describe('KTableSourceTest', () => {
  /** KTableSourceTest.testKTable */
  it('testKTable', () => {
    const builder = new StreamsBuilder();
    const topic1 = 'topic1';
    const table1 = builder.table(topic1, { keySerde: S, valueSerde: I });
    const supplier = new RecordingProcessorSupplier<string, number>();
    table1.toStream().process(supplier);
    const driver = new TopologyTestDriver(builder.build(), props);
    const inputTopic = driver.createInputTopic(topic1, S, I);
    inputTopic.pipeInput('A', 1, 10);
    inputTopic.pipeInput('B', 2, 11);
    inputTopic.pipeInput('C', 3, 12);
    inputTopic.pipeInput('D', 4, 13);
    inputTopic.pipeInput('A', null, 14);
    inputTopic.pipeInput('B', null, 15);
    driver.close();
    expect(supplier.theCapturedProcessor().processed()).toEqual([
      kvt('A', 1, 10),
      kvt('B', 2, 11),
      kvt('C', 3, 12),
      kvt('D', 4, 13),
      kvt('A', null, 14),
      kvt('B', null, 15),
    ]);
  });

  /**
   * KTableSourceTest.kTableShouldLogAndMeterOnSkippedRecords: the record is
   * dropped with a WARN "Skipping record due to null key" naming topic,
   * partition and offset (sluice logs them as fields) and counted as skipped.
   */
  it('kTableShouldLogAndMeterOnSkippedRecords', () => {
    const builder = new StreamsBuilder();
    const topic = 'topic';
    builder.table(topic, stringConsumed);
    const { logger, lines } = captureLogger();
    const task = toRuntime(builder.build()).createTask(
      { subtopology: 0, partition: 0 },
      { send: () => undefined },
      { deserialization: { handle: () => 'FAIL' as const }, processing: { handle: () => 'FAIL' as const } },
      { logger, clock: () => 0 },
    );
    for (const store of task.stores) {
      store.init({ applicationId: 'ktable-source-test', taskId: task.taskId, stateDir: mkdtempSync(join(tmpdir(), 'sluice-ktable-source-')), changelog: undefined, cache: undefined, recordContext: () => task.recordContext(), logger });
    }
    task.init();
    const outcome = task.process({ topic, partition: 0, offset: 0, key: null, value: Buffer.from('value'), headers: {}, timestamp: 0 });
    expect(outcome).toBe('skipped');
    const warns = lines.filter((l) => l.level === 40);
    expect(warns).toHaveLength(1);
    expect(String(warns[0]!.msg)).toMatch(/^Skipping record due to null key/);
    expect(warns[0]).toMatchObject({ topic: 'topic', partition: 0, offset: 0 });
    task.close();
  });

  /** KTableSourceTest.testValueGetter */
  it('testValueGetter', () => {
    const builder = new StreamsBuilder();
    const topic1 = 'topic1';
    const table1 = builder.table(topic1, stringConsumed, Materialized.as<string, string>('store'));
    const topology = builder.build();
    const getter1 = addValueGetterProbe(topology, table1.nodeName, impl(table1).valueGetterSupplier());
    const driver = new TopologyTestDriver(topology, props);
    const inputTopic1 = driver.createInputTopic(topic1, S, S);

    inputTopic1.pipeInput('A', '01', 10);
    inputTopic1.pipeInput('B', '01', 20);
    inputTopic1.pipeInput('C', '01', 15);
    expect(getter1.get('A')).toEqual({ value: '01', timestamp: 10 });
    expect(getter1.get('B')).toEqual({ value: '01', timestamp: 20 });
    expect(getter1.get('C')).toEqual({ value: '01', timestamp: 15 });

    inputTopic1.pipeInput('A', '02', 30);
    inputTopic1.pipeInput('B', '02', 5);
    expect(getter1.get('A')).toEqual({ value: '02', timestamp: 30 });
    expect(getter1.get('B')).toEqual({ value: '02', timestamp: 5 });
    expect(getter1.get('C')).toEqual({ value: '01', timestamp: 15 });

    inputTopic1.pipeInput('A', '03', 29);
    expect(getter1.get('A')).toEqual({ value: '03', timestamp: 29 });
    expect(getter1.get('B')).toEqual({ value: '02', timestamp: 5 });
    expect(getter1.get('C')).toEqual({ value: '01', timestamp: 15 });

    inputTopic1.pipeInput('A', null, 50);
    inputTopic1.pipeInput('B', null, 3);
    expect(getter1.get('A')).toBeNull();
    expect(getter1.get('B')).toBeNull();
    expect(getter1.get('C')).toEqual({ value: '01', timestamp: 15 });
    driver.close();
  });

  function sendsChanges(table1: KTable<string, string>, expectOld: boolean): void {
    const supplier = new RecordingProcessorSupplier<string, unknown>();
    const topology = impl(table1).ctx.topology.addProcessor('proc1', supplier, table1.nodeName);
    const driver = new TopologyTestDriver(topology, props);
    const inputTopic1 = driver.createInputTopic('topic1', S, S);
    const proc1 = supplier.theCapturedProcessor();
    const old = <V>(v: V): V | null => (expectOld ? v : null);

    inputTopic1.pipeInput('A', '01', 10);
    inputTopic1.pipeInput('B', '01', 20);
    inputTopic1.pipeInput('C', '01', 15);
    proc1.checkAndClearProcessResult(kvt('A', change('01', null), 10), kvt('B', change('01', null), 20), kvt('C', change('01', null), 15));

    inputTopic1.pipeInput('A', '02', 8);
    inputTopic1.pipeInput('B', '02', 22);
    proc1.checkAndClearProcessResult(kvt('A', change('02', old('01')), 8), kvt('B', change('02', old('01')), 22));

    inputTopic1.pipeInput('A', '03', 12);
    proc1.checkAndClearProcessResult(kvt('A', change('03', old('02')), 12));

    inputTopic1.pipeInput('A', null, 15);
    inputTopic1.pipeInput('B', null, 20);
    proc1.checkAndClearProcessResult(kvt('A', change(null, old('03')), 15), kvt('B', change(null, old('02')), 20));
    driver.close();
  }

  /** KTableSourceTest.testNotSendingOldValue */
  it('testNotSendingOldValue', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table('topic1', stringConsumed);
    builder.build();
    sendsChanges(table1, false);
  });

  /** KTableSourceTest.testSendingOldValue */
  it('testSendingOldValue', () => {
    const builder = new StreamsBuilder();
    const table1 = builder.table('topic1', stringConsumed);
    impl(table1).enableSendingOldValues(true);
    expect(impl(table1).sendingOldValueEnabled()).toBe(true);
    builder.build();
    sendsChanges(table1, true);
  });

  /**
   * KTableSourceTest.testKTableSourceEmitOnChange, which Kafka keeps
   * `@Disabled` ("we have disabled KIP-557 until KAFKA-12508 can be properly
   * addressed"): Kafka's KTableSource.process puts every update
   * (`KeyValueStoreWrapper.put`, no `putIfDifferentValues`) and forwards it,
   * identical values included. Same inputs; the expected output is what
   * Kafka's code does today (issue 29 item 6: sluice keeps it): `A=1@12` is
   * forwarded, and the store holds the last put's timestamp.
   */
  it('testKTableSourceEmitOnChange (disabled in Kafka): identical updates are still forwarded and stored, as Kafka does', () => {
    const builder = new StreamsBuilder();
    const topic1 = 'topic1';
    builder.table(topic1, { keySerde: S, valueSerde: I }, Materialized.as<string, number>('store')).toStream().to('output', { keySerde: S, valueSerde: I });
    const driver = new TopologyTestDriver(builder.build(), props);
    try {
      const inputTopic = driver.createInputTopic(topic1, S, I);
      const outputTopic = driver.createOutputTopic('output', S, I);
      inputTopic.pipeInput('A', 1, 10);
      inputTopic.pipeInput('B', 2, 11);
      inputTopic.pipeInput('A', 1, 12);
      expect(storeOf(driver.getTimestampedKeyValueStore<string, number>('store')).get('A')).toEqual({ value: 1, timestamp: 12 });
      inputTopic.pipeInput('B', 3, 13);
      inputTopic.pipeInput('A', 1, 9);
      expect(outputTopic.readRecordsToList().map((r) => [r.key, r.value, r.timestamp])).toEqual([
        ['A', 1, 10],
        ['B', 2, 11],
        ['A', 1, 12],
        ['B', 3, 13],
        ['A', 1, 9],
      ]);
      expect(storeOf(driver.getTimestampedKeyValueStore<string, number>('store')).get('A')).toEqual({ value: 1, timestamp: 9 });
    } finally {
      driver.close();
    }
  });
});

describe('StreamsBuilderTest: table sources', () => {
  /** StreamsBuilderTest.shouldUseSerdesDefinedInMaterializedToConsumeTable */
  it('shouldUseSerdesDefinedInMaterializedToConsumeTable', () => {
    const builder = new StreamsBuilder();
    const results = new Map<bigint, string>();
    const topic = 'topic';
    builder
      .table(topic, {}, Materialized.as<bigint, string>('store').withKeySerde(Serdes.Int64()).withValueSerde(S))
      .toStream()
      .foreach((k, v) => void results.set(k, v as string));
    const driver = new TopologyTestDriver(builder.build(), props);
    const inputTopic = driver.createInputTopic(topic, Serdes.Int64(), S);
    inputTopic.pipeInput(1n, 'value1');
    inputTopic.pipeInput(2n, 'value2');
    const store = storeOf(driver.getKeyValueStore<bigint, string>('store'));
    expect(store.get(1n)).toBe('value1');
    expect(store.get(2n)).toBe('value2');
    expect(results.get(1n)).toBe('value1');
    expect(results.get(2n)).toBe('value2');
    driver.close();
  });

  /** StreamsBuilderTest.shouldNotMaterializeStoresIfNotRequired */
  it('shouldNotMaterializeStoresIfNotRequired', () => {
    const builder = new StreamsBuilder();
    builder.table('topic', {}, Materialized.with(Serdes.Int64(), S));
    const description = builder.build().describe();
    expect(description.subtopologies.flatMap((s) => s.nodes.flatMap((n) => (n.type === 'processor' ? n.stores : [])))).toEqual([]);
  });

  /** StreamsBuilderTest.shouldUseSpecifiedNameForTableSourceProcessor */
  it('shouldUseSpecifiedNameForTableSourceProcessor', () => {
    const builder = new StreamsBuilder();
    const expected = 'source-node';
    builder.table('stream-topic', { name: expected });
    builder.table('stream-topic-two');
    // Kafka lists the processors in insertion order; describe() orders sub-topologies its own way, so compare as sets.
    const names = builder.build().describe().subtopologies.flatMap((s) => s.nodes.map((n) => n.name));
    expect(names.sort()).toEqual([`${expected}-source`, expected, 'KSTREAM-SOURCE-0000000004', 'KTABLE-SOURCE-0000000005'].sort());
  });

  /** StreamsBuilderTest.shouldNotAllowTablesFromSameTopic */
  it('shouldNotAllowTablesFromSameTopic', () => {
    const builder = new StreamsBuilder();
    builder.table('topic');
    expect(() => builder.table('topic')).toThrow(TopologyError);
  });

  /** StreamsBuilderTest.shouldNowAllowStreamAndTableFromSameTopic */
  it('shouldNowAllowStreamAndTableFromSameTopic', () => {
    const builder = new StreamsBuilder();
    builder.stream('topic');
    expect(() => builder.table('topic')).toThrow(TopologyError);
  });
});

describe('TopologyTest: builder.table describe()', () => {
  /** TopologyTest.kTableNonMaterializedMapValuesShouldPreserveTopologyStructure */
  it('kTableNonMaterializedMapValuesShouldPreserveTopologyStructure', () => {
    const builder = new StreamsBuilder();
    const table = builder.table('input-topic');
    table.mapValues(() => null);
    expect(builder.build().describe().toString()).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [input-topic])\n' +
        '      --> KTABLE-SOURCE-0000000002\n' +
        '    Processor: KTABLE-SOURCE-0000000002 (stores: [])\n' +
        '      --> KTABLE-MAPVALUES-0000000003\n' +
        '      <-- KSTREAM-SOURCE-0000000001\n' +
        '    Processor: KTABLE-MAPVALUES-0000000003 (stores: [])\n' +
        '      --> none\n' +
        '      <-- KTABLE-SOURCE-0000000002\n\n',
    );
  });

  /** TopologyTest.kTableAnonymousMaterializedMapValuesShouldPreserveTopologyStructure */
  it('kTableAnonymousMaterializedMapValuesShouldPreserveTopologyStructure', () => {
    const builder = new StreamsBuilder();
    const table = builder.table('input-topic');
    table.mapValues(() => null, {});
    expect(builder.build().describe().toString()).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [input-topic])\n' +
        '      --> KTABLE-SOURCE-0000000002\n' +
        '    Processor: KTABLE-SOURCE-0000000002 (stores: [])\n' +
        '      --> KTABLE-MAPVALUES-0000000004\n' +
        '      <-- KSTREAM-SOURCE-0000000001\n' +
        '    Processor: KTABLE-MAPVALUES-0000000004 (stores: [])\n' +
        '      --> none\n' +
        '      <-- KTABLE-SOURCE-0000000002\n' +
        '\n',
    );
  });

  /** TopologyTest.kTableNamedMaterializedMapValuesShouldPreserveTopologyStructure */
  it('kTableNamedMaterializedMapValuesShouldPreserveTopologyStructure', () => {
    const builder = new StreamsBuilder();
    const table = builder.table('input-topic');
    table.mapValues(() => null, Materialized.as('store-name'));
    expect(builder.build().describe().toString()).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [input-topic])\n' +
        '      --> KTABLE-SOURCE-0000000002\n' +
        '    Processor: KTABLE-SOURCE-0000000002 (stores: [])\n' +
        '      --> KTABLE-MAPVALUES-0000000003\n' +
        '      <-- KSTREAM-SOURCE-0000000001\n' +
        '    Processor: KTABLE-MAPVALUES-0000000003 (stores: [store-name])\n' +
        '      --> none\n' +
        '      <-- KTABLE-SOURCE-0000000002\n' +
        '\n',
    );
  });

  /** TopologyTest.kTableNonMaterializedFilterShouldPreserveTopologyStructure */
  it('kTableNonMaterializedFilterShouldPreserveTopologyStructure', () => {
    const builder = new StreamsBuilder();
    const table = builder.table('input-topic');
    table.filter(() => false);
    expect(builder.build().describe().toString()).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [input-topic])\n' +
        '      --> KTABLE-SOURCE-0000000002\n' +
        '    Processor: KTABLE-SOURCE-0000000002 (stores: [])\n' +
        '      --> KTABLE-FILTER-0000000003\n' +
        '      <-- KSTREAM-SOURCE-0000000001\n' +
        '    Processor: KTABLE-FILTER-0000000003 (stores: [])\n' +
        '      --> none\n' +
        '      <-- KTABLE-SOURCE-0000000002\n\n',
    );
  });

  /** TopologyTest.kTableAnonymousMaterializedFilterShouldPreserveTopologyStructure */
  it('kTableAnonymousMaterializedFilterShouldPreserveTopologyStructure', () => {
    const builder = new StreamsBuilder();
    const table = builder.table('input-topic');
    table.filter(() => false, {});
    expect(builder.build().describe().toString()).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [input-topic])\n' +
        '      --> KTABLE-SOURCE-0000000002\n' +
        '    Processor: KTABLE-SOURCE-0000000002 (stores: [])\n' +
        '      --> KTABLE-FILTER-0000000004\n' +
        '      <-- KSTREAM-SOURCE-0000000001\n' +
        '    Processor: KTABLE-FILTER-0000000004 (stores: [])\n' +
        '      --> none\n' +
        '      <-- KTABLE-SOURCE-0000000002\n' +
        '\n',
    );
  });

  /** TopologyTest.kTableNamedMaterializedFilterShouldPreserveTopologyStructure */
  it('kTableNamedMaterializedFilterShouldPreserveTopologyStructure', () => {
    const builder = new StreamsBuilder();
    const table = builder.table('input-topic');
    table.filter(() => false, Materialized.as('store-name'));
    expect(builder.build().describe().toString()).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [input-topic])\n' +
        '      --> KTABLE-SOURCE-0000000002\n' +
        '    Processor: KTABLE-SOURCE-0000000002 (stores: [])\n' +
        '      --> KTABLE-FILTER-0000000003\n' +
        '      <-- KSTREAM-SOURCE-0000000001\n' +
        '    Processor: KTABLE-FILTER-0000000003 (stores: [store-name])\n' +
        '      --> none\n' +
        '      <-- KTABLE-SOURCE-0000000002\n' +
        '\n',
    );
  });

  /**
   * The store a downstream lookup materializes is printed on the source, as
   * in Kafka's table describe() (`TopologyTest.tableZeroArgCountShouldPreserveTopologyStructure`'s
   * first sub-topology): here a forced old-values switch materializes it.
   */
  it('a materialized builder.table prints its generated store: KTABLE-SOURCE-0000000002 (stores: [input-topic-STATE-STORE-0000000000])', () => {
    const builder = new StreamsBuilder();
    impl(builder.table('input-topic')).enableSendingOldValues(true);
    expect(builder.build().describe().toString()).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [input-topic])\n' +
        '      --> KTABLE-SOURCE-0000000002\n' +
        '    Processor: KTABLE-SOURCE-0000000002 (stores: [input-topic-STATE-STORE-0000000000])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000001\n\n',
    );
  });
});
