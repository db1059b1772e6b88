/**
 * Ports of Kafka's `SuppressTopologyTest` final-results cases: the topology
 * description of `suppress(untilWindowCloses(...))` after a session-windowed
 * count, anonymous (numbered) and named; expected texts unchanged.
 */
import { describe, expect, it } from 'vitest';
import { BufferConfig, Grouped, KeyValue, Materialized, Serdes, SessionWindows, StreamsBuilder, Suppressed, Windowed } from '../../../../src/index.js';
import type { Serde } from '../../../../src/index.js';

const STRING_SERDE = Serdes.String();
const LONG = Serdes.Long() as unknown as Serde<number>;

const NAMED_FINAL_TOPOLOGY =
  'Topologies:\n' +
  '   Sub-topology: 0\n' +
  '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
  '      --> KSTREAM-KEY-SELECT-0000000001\n' +
  '    Processor: KSTREAM-KEY-SELECT-0000000001 (stores: [])\n' +
  '      --> counts-repartition-filter\n' +
  '      <-- KSTREAM-SOURCE-0000000000\n' +
  '    Processor: counts-repartition-filter (stores: [])\n' +
  '      --> counts-repartition-sink\n' +
  '      <-- KSTREAM-KEY-SELECT-0000000001\n' +
  '    Sink: counts-repartition-sink (topic: counts-repartition)\n' +
  '      <-- counts-repartition-filter\n' +
  '\n' +
  '  Sub-topology: 1\n' +
  '    Source: counts-repartition-source (topics: [counts-repartition])\n' +
  '      --> KSTREAM-AGGREGATE-0000000002\n' +
  '    Processor: KSTREAM-AGGREGATE-0000000002 (stores: [counts])\n' +
  '      --> myname\n' +
  '      <-- counts-repartition-source\n' +
  '    Processor: myname (stores: [myname-store])\n' +
  '      --> KTABLE-TOSTREAM-0000000006\n' +
  '      <-- KSTREAM-AGGREGATE-0000000002\n' +
  '    Processor: KTABLE-TOSTREAM-0000000006 (stores: [])\n' +
  '      --> KSTREAM-MAP-0000000007\n' +
  '      <-- myname\n' +
  '    Processor: KSTREAM-MAP-0000000007 (stores: [])\n' +
  '      --> KSTREAM-SINK-0000000008\n' +
  '      <-- KTABLE-TOSTREAM-0000000006\n' +
  '    Sink: KSTREAM-SINK-0000000008 (topic: output-suppressed)\n' +
  '      <-- KSTREAM-MAP-0000000007\n' +
  '\n';

const ANONYMOUS_FINAL_TOPOLOGY =
  'Topologies:\n' +
  '   Sub-topology: 0\n' +
  '    Source: KSTREAM-SOURCE-0000000000 (topics: [input])\n' +
  '      --> KSTREAM-KEY-SELECT-0000000001\n' +
  '    Processor: KSTREAM-KEY-SELECT-0000000001 (stores: [])\n' +
  '      --> counts-repartition-filter\n' +
  '      <-- KSTREAM-SOURCE-0000000000\n' +
  '    Processor: counts-repartition-filter (stores: [])\n' +
  '      --> counts-repartition-sink\n' +
  '      <-- KSTREAM-KEY-SELECT-0000000001\n' +
  '    Sink: counts-repartition-sink (topic: counts-repartition)\n' +
  '      <-- counts-repartition-filter\n' +
  '\n' +
  '  Sub-topology: 1\n' +
  '    Source: counts-repartition-source (topics: [counts-repartition])\n' +
  '      --> KSTREAM-AGGREGATE-0000000002\n' +
  '    Processor: KSTREAM-AGGREGATE-0000000002 (stores: [counts])\n' +
  '      --> KTABLE-SUPPRESS-0000000006\n' +
  '      <-- counts-repartition-source\n' +
  '    Processor: KTABLE-SUPPRESS-0000000006 (stores: [KTABLE-SUPPRESS-STATE-STORE-0000000007])\n' +
  '      --> KTABLE-TOSTREAM-0000000008\n' +
  '      <-- KSTREAM-AGGREGATE-0000000002\n' +
  '    Processor: KTABLE-TOSTREAM-0000000008 (stores: [])\n' +
  '      --> KSTREAM-MAP-0000000009\n' +
  '      <-- KTABLE-SUPPRESS-0000000006\n' +
  '    Processor: KSTREAM-MAP-0000000009 (stores: [])\n' +
  '      --> KSTREAM-SINK-0000000010\n' +
  '      <-- KTABLE-TOSTREAM-0000000008\n' +
  '    Sink: KSTREAM-SINK-0000000010 (topic: output-suppressed)\n' +
  '      <-- KSTREAM-MAP-0000000009\n' +
  '\n';

function finalTopology(suppressed: Suppressed<Windowed<string>>): string {
  const builder = new StreamsBuilder();
  builder
    .stream('input', { keySerde: STRING_SERDE, valueSerde: STRING_SERDE })
    .groupBy((k: string) => k, Grouped.with(STRING_SERDE, STRING_SERDE))
    .windowedBy(SessionWindows.ofInactivityGapAndGrace(5, 5))
    .count(Materialized.as<string, number>('counts').withCachingDisabled())
    .suppress(suppressed)
    .toStream()
    .map((k, v) => KeyValue.pair(Windowed.toString(k), v))
    .to('output-suppressed', { keySerde: STRING_SERDE, valueSerde: LONG });
  return builder.build().describe().toString();
}

describe('SuppressTopologyTest, final results (ported)', () => {
  // SuppressTopologyTest.shouldUseNumberingForAnonymousFinalSuppressionNode
  it('shouldUseNumberingForAnonymousFinalSuppressionNode', () => {
    // without the name, the suppression node increments the topology index
    expect(finalTopology(Suppressed.untilWindowCloses(BufferConfig.unbounded()))).toBe(ANONYMOUS_FINAL_TOPOLOGY);
  });

  // SuppressTopologyTest.shouldApplyNameToFinalSuppressionNode
  it('shouldApplyNameToFinalSuppressionNode', () => {
    // without the name, the suppression node does not increment the topology index
    expect(finalTopology(Suppressed.untilWindowCloses(BufferConfig.unbounded()).withName('myname'))).toBe(NAMED_FINAL_TOPOLOGY);
  });
});
