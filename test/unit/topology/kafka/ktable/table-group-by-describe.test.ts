/**
 * Ported from Kafka Streams' `TopologyTest` (`table...CountShouldPreserveTopologyStructure`,
 * expected descriptions unchanged): a table's groupBy/count is a
 * `KTABLE-SELECT-` node writing the repartition topic (no null-key filter,
 * unlike a stream's groupBy), and the `KTABLE-AGGREGATE-` node reading it in
 * a new sub-topology, with Kafka's order of generated names. Not ported: the
 * store-type assertions (`persistent()`), sluice's describe() shows no store type.
 */
import { describe, expect, it } from 'vitest';
import { KeyValue, Materialized, Named, Serdes, Stores, StreamsBuilder, type Topology } from '../../../../../src/index.js';

const S = Serdes.String();

function zeroArgCountDescription(): string {
  return [
    'Topologies:',
    '   Sub-topology: 0',
    '    Source: KSTREAM-SOURCE-0000000001 (topics: [input-topic])',
    '      --> KTABLE-SOURCE-0000000002',
    '    Processor: KTABLE-SOURCE-0000000002 (stores: [input-topic-STATE-STORE-0000000000])',
    '      --> KTABLE-SELECT-0000000003',
    '      <-- KSTREAM-SOURCE-0000000001',
    '    Processor: KTABLE-SELECT-0000000003 (stores: [])',
    '      --> KSTREAM-SINK-0000000005',
    '      <-- KTABLE-SOURCE-0000000002',
    '    Sink: KSTREAM-SINK-0000000005 (topic: KTABLE-AGGREGATE-STATE-STORE-0000000004-repartition)',
    '      <-- KTABLE-SELECT-0000000003',
    '',
    '  Sub-topology: 1',
    '    Source: KSTREAM-SOURCE-0000000006 (topics: [KTABLE-AGGREGATE-STATE-STORE-0000000004-repartition])',
    '      --> KTABLE-AGGREGATE-0000000007',
    '    Processor: KTABLE-AGGREGATE-0000000007 (stores: [KTABLE-AGGREGATE-STATE-STORE-0000000004])',
    '      --> none',
    '      <-- KSTREAM-SOURCE-0000000006',
    '',
    '',
  ].join('\n');
}

const nullSelector = (): KeyValue<string, string> | null => null;

function describeOf(topology: Topology): string {
  return topology.describe().toString();
}

describe('TopologyTest: table groupBy/count descriptions', () => {
  /** TopologyTest.tableZeroArgCountShouldPreserveTopologyStructure */
  it('tableZeroArgCountShouldPreserveTopologyStructure', () => {
    const builder = new StreamsBuilder();
    builder.table('input-topic').groupBy(nullSelector).count();
    expect(describeOf(builder.build())).toBe(zeroArgCountDescription());
  });

  /** TopologyTest.tableNamedMaterializedCountShouldPreserveTopologyStructure (withStoreType(IN_MEMORY): an in-memory supplier) */
  it('tableNamedMaterializedCountShouldPreserveTopologyStructure', () => {
    const builder = new StreamsBuilder();
    builder.table('input-topic').groupBy(nullSelector).count(Materialized.as(Stores.inMemoryKeyValueStore('count-store')));
    expect(describeOf(builder.build())).toBe(
      [
        'Topologies:',
        '   Sub-topology: 0',
        '    Source: KSTREAM-SOURCE-0000000001 (topics: [input-topic])',
        '      --> KTABLE-SOURCE-0000000002',
        '    Processor: KTABLE-SOURCE-0000000002 (stores: [input-topic-STATE-STORE-0000000000])',
        '      --> KTABLE-SELECT-0000000003',
        '      <-- KSTREAM-SOURCE-0000000001',
        '    Processor: KTABLE-SELECT-0000000003 (stores: [])',
        '      --> KSTREAM-SINK-0000000004',
        '      <-- KTABLE-SOURCE-0000000002',
        '    Sink: KSTREAM-SINK-0000000004 (topic: count-store-repartition)',
        '      <-- KTABLE-SELECT-0000000003',
        '',
        '  Sub-topology: 1',
        '    Source: KSTREAM-SOURCE-0000000005 (topics: [count-store-repartition])',
        '      --> KTABLE-AGGREGATE-0000000006',
        '    Processor: KTABLE-AGGREGATE-0000000006 (stores: [count-store])',
        '      --> none',
        '      <-- KSTREAM-SOURCE-0000000005',
        '',
        '',
      ].join('\n'),
    );
  });

  /** TopologyTest.tableAnonymousMaterializedCountShouldPreserveTopologyStructure (Materialized.with(null, Serdes.Long())) */
  it('tableAnonymousMaterializedCountShouldPreserveTopologyStructure', () => {
    const builder = new StreamsBuilder();
    builder.table('input-topic').groupBy(nullSelector).count({ valueSerde: Serdes.Long() });
    expect(describeOf(builder.build())).toBe(zeroArgCountDescription());
  });

  /** TopologyTest.tableAnonymousStoreTypedMaterializedCountShouldPreserveTopologyStructure (an anonymous Materialized: same names) */
  it('tableAnonymousStoreTypedMaterializedCountShouldPreserveTopologyStructure', () => {
    const builder = new StreamsBuilder();
    builder.table('input-topic').groupBy(nullSelector).count(Materialized.with(S, Serdes.Long()).withCachingDisabled());
    expect(describeOf(builder.build())).toBe(zeroArgCountDescription());
  });

  /** Not in Kafka's tests: Grouped.name names the select node and the topic; Named names sink, source and processor (KGroupedTableImpl.doAggregate). */
  it('names from Grouped and Named, and a named grouping shares its repartition topic', () => {
    const builder = new StreamsBuilder();
    const grouped = builder.table('input-topic', { keySerde: S, valueSerde: S }).groupBy((_k, v) => KeyValue.pair(v, v), { name: 'by-value' });
    grouped.count(Named.as('counted'));
    grouped.reduce((a, b) => a + b, (a, b) => a.replace(b, ''), Materialized.as('reduced'));
    const text = describeOf(builder.build());
    expect(text).toContain('Processor: by-value (stores: [])');
    expect(text).toContain('Sink: counted-sink (topic: by-value-repartition)');
    expect(text).toContain('Source: counted-source (topics: [by-value-repartition])\n      --> KTABLE-REDUCE-0000000006, counted');
    expect(text).toContain('Processor: KTABLE-REDUCE-0000000006 (stores: [reduced])');
    expect(text).not.toContain('KSTREAM-SINK-0000000004');
  });
});
