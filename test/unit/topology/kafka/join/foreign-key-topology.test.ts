/**
 * Foreign-key join topologies, ported from Kafka: the node, store and topic
 * names of `describe()` (`KStreamImplTest.shouldSupportForeignKeyTableTableJoinWithKTableFromKStream`),
 * the internal topic names (`KTableKTableForeignKeyJoinScenarioTest.shouldUseExpectedTopicsWithSerde`,
 * its internal-topic part) and the default-serde scenarios of
 * `KTableKTableForeignKeyJoinScenarioTest` (they chain a key-based table
 * join, skipped while that join is not there).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Serdes } from '../../../../../src/serdes/serdes.js';
import { TopologyTestDriver } from '../../../../../src/testing/topology-test-driver.js';
import { Materialized } from '../../../../../src/topology/options.js';
import { StreamsBuilder } from '../../../../../src/topology/streams-builder.js';
import { keyJoinAvailable, readKeyValuesToMap } from '../../../../helpers/ktable/foreign-key-join-topology.js';
import { storeOf } from '../../../../helpers/store-of.js';

const S = Serdes.String();
const I = Serdes.Integer();
let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

describe('KStreamImplTest (foreign-key join)', () => {
  // KStreamImplTest.shouldSupportForeignKeyTableTableJoinWithKTableFromKStream
  it('shouldSupportForeignKeyTableTableJoinWithKTableFromKStream', () => {
    const consumed = { keySerde: S, valueSerde: S };
    const builder = new StreamsBuilder();
    const [input1, input2, output] = ['input1', 'input2', 'output'];
    const leftTable = builder.stream<string, string>(input1, consumed).toTable();
    const rightTable = builder.stream<string, string>(input2, consumed).toTable();
    const extractor = (value: string): string => value.split('|')[1]!;
    const joiner = (value1: string, value2: string): string => `(${value1},${value2})`;
    leftTable.join(rightTable, extractor, joiner).toStream().to(output);
    const topology = builder.build();
    expect(topology.describe().toString()).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KTABLE-SOURCE-0000000016 (topics: [KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic])\n' +
        '      --> KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-RESOLVER-PROCESSOR-0000000017\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [input1])\n' +
        '      --> KSTREAM-TOTABLE-0000000001\n' +
        '    Processor: KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-RESOLVER-PROCESSOR-0000000017 (stores: [KSTREAM-TOTABLE-STATE-STORE-0000000002])\n' +
        '      --> KTABLE-FK-JOIN-OUTPUT-0000000018\n' +
        '      <-- KTABLE-SOURCE-0000000016\n' +
        '    Processor: KSTREAM-TOTABLE-0000000001 (stores: [KSTREAM-TOTABLE-STATE-STORE-0000000002])\n' +
        '      --> KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000007\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KTABLE-FK-JOIN-OUTPUT-0000000018 (stores: [])\n' +
        '      --> KTABLE-TOSTREAM-0000000020\n' +
        '      <-- KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-RESOLVER-PROCESSOR-0000000017\n' +
        '    Processor: KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000007 (stores: [])\n' +
        '      --> KTABLE-SINK-0000000008\n' +
        '      <-- KSTREAM-TOTABLE-0000000001\n' +
        '    Processor: KTABLE-TOSTREAM-0000000020 (stores: [])\n' +
        '      --> KSTREAM-SINK-0000000021\n' +
        '      <-- KTABLE-FK-JOIN-OUTPUT-0000000018\n' +
        '    Sink: KSTREAM-SINK-0000000021 (topic: output)\n' +
        '      <-- KTABLE-TOSTREAM-0000000020\n' +
        '    Sink: KTABLE-SINK-0000000008 (topic: KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic)\n' +
        '      <-- KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000007\n' +
        '\n' +
        '  Sub-topology: 1\n' +
        '    Source: KSTREAM-SOURCE-0000000003 (topics: [input2])\n' +
        '      --> KSTREAM-TOTABLE-0000000004\n' +
        '    Source: KTABLE-SOURCE-0000000009 (topics: [KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic])\n' +
        '      --> KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-0000000011\n' +
        '    Processor: KSTREAM-TOTABLE-0000000004 (stores: [KSTREAM-TOTABLE-STATE-STORE-0000000005])\n' +
        '      --> KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-0000000013\n' +
        '      <-- KSTREAM-SOURCE-0000000003\n' +
        '    Processor: KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-0000000011 (stores: [KTABLE-FK-JOIN-SUBSCRIPTION-STATE-STORE-0000000010])\n' +
        '      --> KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-0000000012\n' +
        '      <-- KTABLE-SOURCE-0000000009\n' +
        '    Processor: KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-0000000012 (stores: [KSTREAM-TOTABLE-STATE-STORE-0000000005])\n' +
        '      --> KTABLE-SINK-0000000015\n' +
        '      <-- KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-0000000011\n' +
        '    Processor: KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-0000000013 (stores: [KTABLE-FK-JOIN-SUBSCRIPTION-STATE-STORE-0000000010])\n' +
        '      --> KTABLE-SINK-0000000015\n' +
        '      <-- KSTREAM-TOTABLE-0000000004\n' +
        '    Sink: KTABLE-SINK-0000000015 (topic: KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic)\n' +
        '      <-- KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-0000000012, KTABLE-FK-JOIN-SUBSCRIPTION-PROCESSOR-0000000013\n\n',
    );

    // Kafka's props: StreamsTestUtils.getStreamsConfig(Serdes.String(), Serdes.String())
    driver = new TopologyTestDriver(topology, { defaultKeySerde: S, defaultValueSerde: S });
    const left = driver.createInputTopic(input1, S, S);
    const right = driver.createInputTopic(input2, S, S);
    const outputTopic = driver.createOutputTopic(output, S, S);
    // Pre-populate the RHS records. This test is all about what happens when we add/remove LHS records
    right.pipeInput('rhs1', 'rhsValue1');
    right.pipeInput('rhs2', 'rhsValue2');
    right.pipeInput('rhs3', 'rhsValue3'); // this unreferenced FK won't show up in any results
    expect(readKeyValuesToMap(outputTopic)).toEqual(new Map());
    left.pipeInput('lhs1', 'lhsValue1|rhs1');
    left.pipeInput('lhs2', 'lhsValue2|rhs2');
    const expected = new Map([
      ['lhs1', '(lhsValue1|rhs1,rhsValue1)'],
      ['lhs2', '(lhsValue2|rhs2,rhsValue2)'],
    ]);
    expect(readKeyValuesToMap(outputTopic)).toEqual(expected);
    // Add another reference to an existing FK
    left.pipeInput('lhs3', 'lhsValue3|rhs1');
    expect(readKeyValuesToMap(outputTopic)).toEqual(new Map([['lhs3', '(lhsValue3|rhs1,rhsValue1)']]));
    left.pipeInput('lhs1', null);
    expect(readKeyValuesToMap(outputTopic)).toEqual(new Map([['lhs1', null]]));
  });
});

describe('KTableKTableForeignKeyJoinScenarioTest', () => {
  // KTableKTableForeignKeyJoinScenarioTest.shouldUseExpectedTopicsWithSerde (the internal topics it expects;
  // sluice does not prefix the serdes' pseudo topics -fk/-pk/-vh with the application id)
  it('shouldUseExpectedTopicsWithSerde: the internal topics are REGISTRATION-0000000006 and RESPONSE-0000000014', () => {
    const applicationId = 'ktable-ktable-joinOnForeignKey';
    const builder = new StreamsBuilder();
    const left = builder.table<number, string>('left_table', { keySerde: I, valueSerde: S });
    const right = builder.table<number, string>('right_table', { keySerde: I, valueSerde: S });
    left
      .join(right, (value: string) => Number.parseInt(value.split('|')[1]!, 10), (value1: string, value2: string) => `(${value1},${value2})`, { valueSerde: S })
      .toStream()
      .to('output-topic', { keySerde: I, valueSerde: S });
    driver = new TopologyTestDriver(builder.build(), { applicationId });
    driver.createInputTopic('left_table', I, S).pipeInput(2, 'lhsValue1|1');
    driver.createInputTopic('right_table', I, S).pipeInput(1, 'rhsValue1');
    // changelog topics are listed too (as Kafka's producedTopicNames()); this case checks the repartition topics
    expect(new Set(driver.producedTopicNames().filter((t) => !t.endsWith('-changelog')))).toEqual(
      new Set([
        `${applicationId}-KTABLE-FK-JOIN-SUBSCRIPTION-REGISTRATION-0000000006-topic`,
        `${applicationId}-KTABLE-FK-JOIN-SUBSCRIPTION-RESPONSE-0000000014-topic`,
        'output-topic',
      ]),
    );
    expect(readKeyValuesToMap(driver.createOutputTopic('output-topic', I, S))).toEqual(new Map([[2, '(lhsValue1|1,rhsValue1)']]));
  });

  /** Kafka's `validateTopologyCanProcessData`: default serdes Integer / String. */
  function validateTopologyCanProcessData(builder: StreamsBuilder<number, string>): void {
    driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: I, defaultValueSerde: S });
    const aTopic = driver.createInputTopic('A', I, S);
    const bTopic = driver.createInputTopic('B', I, S);
    const output = driver.createOutputTopic('output', I, S);
    aTopic.pipeInput(1, '999-alpha');
    bTopic.pipeInput(999, 'beta');
    expect(readKeyValuesToMap(output)).toEqual(new Map([[1, '(999-alpha,(999-alpha,beta))']]));
  }

  const fk = (value: string): number => Number.parseInt(value.split('-')[0]!, 10);
  const joiner = (aVal: string, bVal: string): string => `(${aVal},${bVal})`;
  const chained = keyJoinAvailable() ? describe : describe.skip;

  chained('with a chained key join', () => {
    // KTableKTableForeignKeyJoinScenarioTest.shouldWorkWithDefaultSerdes
    it('shouldWorkWithDefaultSerdes', () => {
      const builder = new StreamsBuilder<number, string>();
      const aTable = builder.table('A');
      const bTable = builder.table('B');
      const fkJoinResult = aTable.join(bTable, fk, joiner, Materialized.as<number, string>('asdf'));
      aTable.join(fkJoinResult, joiner).toStream().to('output');
      validateTopologyCanProcessData(builder);
    });

    // KTableKTableForeignKeyJoinScenarioTest.shouldWorkWithDefaultAndConsumedSerdes
    it('shouldWorkWithDefaultAndConsumedSerdes', () => {
      const builder = new StreamsBuilder<number, string>();
      const aTable = builder.table<number, string>('A', { keySerde: I, valueSerde: S });
      const bTable = builder.table('B');
      const fkJoinResult = aTable.join(bTable, fk, joiner, Materialized.as<number, string>('asdf'));
      aTable.join(fkJoinResult, joiner).toStream().to('output');
      validateTopologyCanProcessData(builder);
    });

    // KTableKTableForeignKeyJoinScenarioTest.shouldWorkWithDefaultAndJoinResultSerdes
    it('shouldWorkWithDefaultAndJoinResultSerdes', () => {
      const builder = new StreamsBuilder<number, string>();
      const aTable = builder.table('A');
      const bTable = builder.table('B');
      const fkJoinResult = aTable.join(bTable, fk, joiner, Materialized.as<number, string>('asdf').withKeySerde(I).withValueSerde(S));
      aTable.join(fkJoinResult, joiner).toStream().to('output');
      validateTopologyCanProcessData(builder);
    });

    // KTableKTableForeignKeyJoinScenarioTest.shouldWorkWithDefaultAndEquiJoinResultSerdes
    it('shouldWorkWithDefaultAndEquiJoinResultSerdes', () => {
      const builder = new StreamsBuilder<number, string>();
      const aTable = builder.table('A');
      const bTable = builder.table('B');
      const fkJoinResult = aTable.join(bTable, fk, joiner, Materialized.as<number, string>('asdf'));
      aTable.join(fkJoinResult, joiner, Materialized.with(I, S)).toStream().to('output');
      validateTopologyCanProcessData(builder);
    });

    // KTableKTableForeignKeyJoinScenarioTest.shouldWorkWithDefaultAndProducedSerdes
    it('shouldWorkWithDefaultAndProducedSerdes', () => {
      const builder = new StreamsBuilder<number, string>();
      const aTable = builder.table('A');
      const bTable = builder.table('B');
      const fkJoinResult = aTable.join(bTable, fk, joiner, Materialized.as<number, string>('asdf'));
      aTable.join(fkJoinResult, joiner).toStream().to('output', { keySerde: I, valueSerde: S });
      validateTopologyCanProcessData(builder);
    });
  });

  it('the foreign-key join alone with the default serdes of the driver (the scenarios without the chained key join)', () => {
    const builder = new StreamsBuilder<number, string>();
    const aTable = builder.table('A');
    const bTable = builder.table('B');
    aTable.join(bTable, fk, joiner, Materialized.as<number, string>('asdf')).toStream().to('output');
    driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: I, defaultValueSerde: S });
    driver.createInputTopic('A', I, S).pipeInput(1, '999-alpha');
    driver.createInputTopic('B', I, S).pipeInput(999, 'beta');
    expect(readKeyValuesToMap(driver.createOutputTopic('output', I, S))).toEqual(new Map([[1, '(999-alpha,beta)']]));
    expect(storeOf(driver.getKeyValueStore<number, string>('asdf')).get(1)).toBe('(999-alpha,beta)');
  });
});
