/**
 * Ported from Kafka Streams' `CogroupedKStreamImplTest` (inputs and expected
 * outputs unchanged): the null-argument cases (IllegalArgumentError where Java
 * throws NullPointerException), the topology descriptions without
 * `topology.optimization` (sluice does not implement
 * `merge.repartition.topics` yet, so the four `...WithOptimization` cases are
 * not ported), and every test-driver case. Kafka's props give String default
 * serdes with caching off (`StreamsTestUtils.getStreamsConfig`); the
 * aggregate's value serde is `Serdes.Json()` in sluice when `Materialized`
 * gives none (Kafka: `default.value.serde`), so those outputs are read with
 * `Serdes.Json()` (the values compared are Kafka's).
 */
import { describe, expect, it } from 'vitest';
import {
  Grouped,
  IllegalArgumentError,
  KeyValue,
  Materialized,
  Named,
  Serdes,
  SessionWindows,
  SlidingWindows,
  StreamsBuilder,
  type CogroupedKStream,
  type KGroupedStream,
  type Serde,
  type Windows,
} from '../../../../../src/index.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import { defined } from '../../../../../src/internal/defined.js';

const S = Serdes.String();
const I = Serdes.Int32();
const J = Serdes.Json<string>();
const stringConsumed = { keySerde: S, valueSerde: S };
const OUTPUT = 'output';
// StreamsTestUtils.getStreamsConfig(Serdes.String(), Serdes.String()): caching off
const props = { applicationId: 'cogrouped-kstream-impl-test', defaultKeySerde: S, defaultValueSerde: S, statestoreCacheMaxBytes: 0 };

const STRING_AGGREGATOR = (_key: string, value: string, aggregate: string): string => aggregate + value;
const STRING_INITIALIZER = (): string => '';
const STRING_SUM_AGGREGATOR = (_key: string, value: string, aggregate: number): number => aggregate + Number.parseInt(value, 10);
const SUM_AGGREGATOR = (_key: string, value: number, aggregate: number): number => aggregate + value;
const SUM_INITIALIZER = (): number => 0;
// MockAggregator.TOSTRING_ADDER / TOSTRING_REMOVER, MockInitializer.STRING_INIT
const TOSTRING_ADDER = (_key: string, value: string, aggregate: string): string => `${aggregate}+${value}`;
const TOSTRING_REMOVER = (_key: string, value: string, aggregate: string): string => `${aggregate}-${value}`;
const STRING_INIT = (): string => '0';
const swap = (k: string, v: string): KeyValue<string, string> => KeyValue.pair(v, k);

/**
 * The sub-topologies of a description, without their numbers, in order of
 * their text. sluice numbers sub-topologies by their sorted source names
 * (Kafka before KAFKA-9020); Kafka today numbers them in the order their
 * nodes were added, so where a repartition source named
 * `COGROUPKSTREAM-...` sorts before `KSTREAM-SOURCE-...` the numbers differ:
 * those cases compare the sub-topologies (every node, edge, store and topic)
 * but not their numbers.
 */
function subtopologyBlocks(description: string): string[] {
  return description
    .split(/ {2,3}Sub-topology: \d+\n/)
    .slice(1)
    .map((block) => block.trimEnd())
    .sort();
}

/**
 * The same with each node's successor list sorted: in one case Kafka lists
 * two successors of equal sub-tree size against its own comparator (size,
 * then name), as its TreeSet orders them while the sizes are still growing;
 * sluice's description (description.ts) applies the comparator to the final
 * sizes.
 */
function withSortedSuccessors(blocks: string[]): string[] {
  return blocks.map((block) => block.replace(/--> (.+)/g, (_all, list: string) => `--> ${list.split(', ').sort().join(', ')}`));
}

/** The expected descriptions, copied from the Java test. */
const EXPECTED: Record<string, string> = {
  shouldNameProcessorsAndStoreBasedOnNamedParameter:
    'Topologies:\n' +
    '   Sub-topology: 0\n' +
    '    Source: KSTREAM-SOURCE-0000000000 (topics: [one])\n' +
    '      --> test-cogroup-agg-0\n' +
    '    Source: KSTREAM-SOURCE-0000000001 (topics: [two])\n' +
    '      --> test-cogroup-agg-1\n' +
    '    Processor: test-cogroup-agg-0 (stores: [store])\n' +
    '      --> test-cogroup-merge\n' +
    '      <-- KSTREAM-SOURCE-0000000000\n' +
    '    Processor: test-cogroup-agg-1 (stores: [store])\n' +
    '      --> test-cogroup-merge\n' +
    '      <-- KSTREAM-SOURCE-0000000001\n' +
    '    Processor: test-cogroup-merge (stores: [])\n' +
    '      --> KTABLE-TOSTREAM-0000000005\n' +
    '      <-- test-cogroup-agg-0, test-cogroup-agg-1\n' +
    '    Processor: KTABLE-TOSTREAM-0000000005 (stores: [])\n' +
    '      --> KSTREAM-SINK-0000000006\n' +
    '      <-- test-cogroup-merge\n' +
    '    Sink: KSTREAM-SINK-0000000006 (topic: output)\n' +
    '      <-- KTABLE-TOSTREAM-0000000005\n\n'
  ,
  shouldNameRepartitionTopic:
    'Topologies:\n' +
    '   Sub-topology: 0\n' +
    '    Source: KSTREAM-SOURCE-0000000000 (topics: [one])\n' +
    '      --> KSTREAM-MAP-0000000002\n' +
    '    Processor: KSTREAM-MAP-0000000002 (stores: [])\n' +
    '      --> repartition-test-repartition-filter\n' +
    '      <-- KSTREAM-SOURCE-0000000000\n' +
    '    Processor: repartition-test-repartition-filter (stores: [])\n' +
    '      --> repartition-test-repartition-sink\n' +
    '      <-- KSTREAM-MAP-0000000002\n' +
    '    Sink: repartition-test-repartition-sink (topic: repartition-test-repartition)\n' +
    '      <-- repartition-test-repartition-filter\n\n' +
    '  Sub-topology: 1\n' +
    '    Source: KSTREAM-SOURCE-0000000001 (topics: [two])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000008\n' +
    '    Source: repartition-test-repartition-source (topics: [repartition-test-repartition])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000007\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000007 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000009\n' +
    '      <-- repartition-test-repartition-source\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000008 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000009\n' +
    '      <-- KSTREAM-SOURCE-0000000001\n' +
    '    Processor: COGROUPKSTREAM-MERGE-0000000009 (stores: [])\n' +
    '      --> KTABLE-TOSTREAM-0000000010\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-0000000007, COGROUPKSTREAM-AGGREGATE-0000000008\n' +
    '    Processor: KTABLE-TOSTREAM-0000000010 (stores: [])\n' +
    '      --> KSTREAM-SINK-0000000011\n' +
    '      <-- COGROUPKSTREAM-MERGE-0000000009\n' +
    '    Sink: KSTREAM-SINK-0000000011 (topic: output)\n' +
    '      <-- KTABLE-TOSTREAM-0000000010\n\n'
  ,
  shouldInsertRepartitionsTopicForUpstreamKeyModification:
    'Topologies:\n' +
    '   Sub-topology: 0\n' +
    '    Source: KSTREAM-SOURCE-0000000000 (topics: [one])\n' +
    '      --> KSTREAM-MAP-0000000002\n' +
    '    Processor: KSTREAM-MAP-0000000002 (stores: [])\n' +
    '      --> store-repartition-filter\n' +
    '      <-- KSTREAM-SOURCE-0000000000\n' +
    '    Processor: store-repartition-filter (stores: [])\n' +
    '      --> store-repartition-sink\n' +
    '      <-- KSTREAM-MAP-0000000002\n' +
    '    Sink: store-repartition-sink (topic: store-repartition)\n' +
    '      <-- store-repartition-filter\n\n' +
    '  Sub-topology: 1\n' +
    '    Source: KSTREAM-SOURCE-0000000001 (topics: [two])\n' +
    '      --> test-cogroup-agg-1\n' +
    '    Source: store-repartition-source (topics: [store-repartition])\n' +
    '      --> test-cogroup-agg-0\n' +
    '    Processor: test-cogroup-agg-0 (stores: [store])\n' +
    '      --> test-cogroup-merge\n' +
    '      <-- store-repartition-source\n' +
    '    Processor: test-cogroup-agg-1 (stores: [store])\n' +
    '      --> test-cogroup-merge\n' +
    '      <-- KSTREAM-SOURCE-0000000001\n' +
    '    Processor: test-cogroup-merge (stores: [])\n' +
    '      --> KTABLE-TOSTREAM-0000000009\n' +
    '      <-- test-cogroup-agg-0, test-cogroup-agg-1\n' +
    '    Processor: KTABLE-TOSTREAM-0000000009 (stores: [])\n' +
    '      --> KSTREAM-SINK-0000000010\n' +
    '      <-- test-cogroup-merge\n' +
    '    Sink: KSTREAM-SINK-0000000010 (topic: output)\n' +
    '      <-- KTABLE-TOSTREAM-0000000009\n\n'
  ,
  shouldInsertRepartitionsTopicForUpstreamKeyModificationWithGroupedReusedInSameCogroups:
    'Topologies:\n' +
    '   Sub-topology: 0\n' +
    '    Source: KSTREAM-SOURCE-0000000000 (topics: [one])\n' +
    '      --> KSTREAM-MAP-0000000002\n' +
    '    Processor: KSTREAM-MAP-0000000002 (stores: [])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition-filter, COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-filter\n' +
    '      <-- KSTREAM-SOURCE-0000000000\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-filter (stores: [])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-sink\n' +
    '      <-- KSTREAM-MAP-0000000002\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition-filter (stores: [])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition-sink\n' +
    '      <-- KSTREAM-MAP-0000000002\n' +
    '    Sink: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-sink (topic: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition)\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-filter\n' +
    '    Sink: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition-sink (topic: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition)\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition-filter\n\n' +
    '  Sub-topology: 1\n' +
    '    Source: KSTREAM-SOURCE-0000000001 (topics: [two])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000008, COGROUPKSTREAM-AGGREGATE-0000000015\n' +
    '    Source: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-source (topics: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000007\n' +
    '    Source: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition-source (topics: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000014\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000007 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000009\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-source\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000008 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000009\n' +
    '      <-- KSTREAM-SOURCE-0000000001\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000014 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000016\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition-source\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000015 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000016\n' +
    '      <-- KSTREAM-SOURCE-0000000001\n' +
    '    Processor: COGROUPKSTREAM-MERGE-0000000009 (stores: [])\n' +
    '      --> KTABLE-TOSTREAM-0000000019\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-0000000007, COGROUPKSTREAM-AGGREGATE-0000000008\n' +
    '    Processor: COGROUPKSTREAM-MERGE-0000000016 (stores: [])\n' +
    '      --> KTABLE-TOSTREAM-0000000017\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-0000000014, COGROUPKSTREAM-AGGREGATE-0000000015\n' +
    '    Processor: KTABLE-TOSTREAM-0000000017 (stores: [])\n' +
    '      --> KSTREAM-SINK-0000000018\n' +
    '      <-- COGROUPKSTREAM-MERGE-0000000016\n' +
    '    Processor: KTABLE-TOSTREAM-0000000019 (stores: [])\n' +
    '      --> KSTREAM-SINK-0000000020\n' +
    '      <-- COGROUPKSTREAM-MERGE-0000000009\n' +
    '    Sink: KSTREAM-SINK-0000000018 (topic: output)\n' +
    '      <-- KTABLE-TOSTREAM-0000000017\n' +
    '    Sink: KSTREAM-SINK-0000000020 (topic: OUTPUT2)\n' +
    '      <-- KTABLE-TOSTREAM-0000000019\n\n'
  ,
  shouldInsertRepartitionsTopicForUpstreamKeyModificationWithGroupedReusedInSameCogroupsWithOptimization:
    'Topologies:\n' +
    '   Sub-topology: 0\n' +
    '    Source: KSTREAM-SOURCE-0000000000 (topics: [one])\n' +
    '      --> KSTREAM-MAP-0000000002\n' +
    '    Processor: KSTREAM-MAP-0000000002 (stores: [])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-filter\n' +
    '      <-- KSTREAM-SOURCE-0000000000\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-filter (stores: [])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-sink\n' +
    '      <-- KSTREAM-MAP-0000000002\n' +
    '    Sink: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-sink (topic: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition)\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-filter\n\n' +
    '  Sub-topology: 1\n' +
    '    Source: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-source (topics: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000014, COGROUPKSTREAM-AGGREGATE-0000000007\n' +
    '    Source: KSTREAM-SOURCE-0000000001 (topics: [two])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000015, COGROUPKSTREAM-AGGREGATE-0000000008\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000007 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000009\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-source\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000008 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000009\n' +
    '      <-- KSTREAM-SOURCE-0000000001\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000014 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000016\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-source\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000015 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000010])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000016\n' +
    '      <-- KSTREAM-SOURCE-0000000001\n' +
    '    Processor: COGROUPKSTREAM-MERGE-0000000009 (stores: [])\n' +
    '      --> KTABLE-TOSTREAM-0000000019\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-0000000007, COGROUPKSTREAM-AGGREGATE-0000000008\n' +
    '    Processor: COGROUPKSTREAM-MERGE-0000000016 (stores: [])\n' +
    '      --> KTABLE-TOSTREAM-0000000017\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-0000000014, COGROUPKSTREAM-AGGREGATE-0000000015\n' +
    '    Processor: KTABLE-TOSTREAM-0000000017 (stores: [])\n' +
    '      --> KSTREAM-SINK-0000000018\n' +
    '      <-- COGROUPKSTREAM-MERGE-0000000016\n' +
    '    Processor: KTABLE-TOSTREAM-0000000019 (stores: [])\n' +
    '      --> KSTREAM-SINK-0000000020\n' +
    '      <-- COGROUPKSTREAM-MERGE-0000000009\n' +
    '    Sink: KSTREAM-SINK-0000000018 (topic: output)\n' +
    '      <-- KTABLE-TOSTREAM-0000000017\n' +
    '    Sink: KSTREAM-SINK-0000000020 (topic: OUTPUT2)\n' +
    '      <-- KTABLE-TOSTREAM-0000000019\n\n'
  ,
  shouldInsertRepartitionsTopicForUpstreamKeyModificationWithGroupedReusedInDifferentCogroups:
    'Topologies:\n' +
    '   Sub-topology: 0\n' +
    '    Source: KSTREAM-SOURCE-0000000000 (topics: [one])\n' +
    '      --> KSTREAM-MAP-0000000003\n' +
    '    Processor: KSTREAM-MAP-0000000003 (stores: [])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-filter, COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011-repartition-filter\n' +
    '      <-- KSTREAM-SOURCE-0000000000\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-filter (stores: [])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-sink\n' +
    '      <-- KSTREAM-MAP-0000000003\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011-repartition-filter (stores: [])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011-repartition-sink\n' +
    '      <-- KSTREAM-MAP-0000000003\n' +
    '    Sink: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-sink (topic: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition)\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-filter\n' +
    '    Sink: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011-repartition-sink (topic: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011-repartition)\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011-repartition-filter\n\n' +
    '  Sub-topology: 1\n' +
    '    Source: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011-repartition-source (topics: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011-repartition])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000015\n' +
    '    Source: KSTREAM-SOURCE-0000000001 (topics: [two])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000016\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000015 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000017\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011-repartition-source\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000016 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000017\n' +
    '      <-- KSTREAM-SOURCE-0000000001\n' +
    '    Processor: COGROUPKSTREAM-MERGE-0000000017 (stores: [])\n' +
    '      --> none\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-0000000015, COGROUPKSTREAM-AGGREGATE-0000000016\n\n' +
    '  Sub-topology: 2\n' +
    '    Source: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-source (topics: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000008\n' +
    '    Source: KSTREAM-SOURCE-0000000002 (topics: [three])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000009\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000008 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000010\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-source\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000009 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000010\n' +
    '      <-- KSTREAM-SOURCE-0000000002\n' +
    '    Processor: COGROUPKSTREAM-MERGE-0000000010 (stores: [])\n' +
    '      --> none\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-0000000008, COGROUPKSTREAM-AGGREGATE-0000000009\n\n'
  ,
  shouldInsertRepartitionsTopicForUpstreamKeyModificationWithGroupedReusedInDifferentCogroupsWithOptimization:
    'Topologies:\n' +
    '   Sub-topology: 0\n' +
    '    Source: KSTREAM-SOURCE-0000000000 (topics: [one])\n' +
    '      --> KSTREAM-MAP-0000000003\n' +
    '    Processor: KSTREAM-MAP-0000000003 (stores: [])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-filter\n' +
    '      <-- KSTREAM-SOURCE-0000000000\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-filter (stores: [])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-sink\n' +
    '      <-- KSTREAM-MAP-0000000003\n' +
    '    Sink: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-sink (topic: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition)\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-filter\n\n' +
    '  Sub-topology: 1\n' +
    '    Source: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-source (topics: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000008, COGROUPKSTREAM-AGGREGATE-0000000015\n' +
    '    Source: KSTREAM-SOURCE-0000000001 (topics: [two])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000016\n' +
    '    Source: KSTREAM-SOURCE-0000000002 (topics: [three])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000009\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000008 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000010\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-source\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000009 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000010\n' +
    '      <-- KSTREAM-SOURCE-0000000002\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000015 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000017\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition-source\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000016 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000011])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000017\n' +
    '      <-- KSTREAM-SOURCE-0000000001\n' +
    '    Processor: COGROUPKSTREAM-MERGE-0000000010 (stores: [])\n' +
    '      --> none\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-0000000008, COGROUPKSTREAM-AGGREGATE-0000000009\n' +
    '    Processor: COGROUPKSTREAM-MERGE-0000000017 (stores: [])\n' +
    '      --> none\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-0000000015, COGROUPKSTREAM-AGGREGATE-0000000016\n\n'
  ,
  shouldInsertRepartitionsTopicForUpstreamKeyModificationWithGroupedReused:
    'Topologies:\n' +
    '   Sub-topology: 0\n' +
    '    Source: KSTREAM-SOURCE-0000000000 (topics: [one])\n' +
    '      --> KSTREAM-MAP-0000000002\n' +
    '    Processor: KSTREAM-MAP-0000000002 (stores: [])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-filter, KSTREAM-FILTER-0000000013\n' +
    '      <-- KSTREAM-SOURCE-0000000000\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-filter (stores: [])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-sink\n' +
    '      <-- KSTREAM-MAP-0000000002\n' +
    '    Processor: KSTREAM-FILTER-0000000013 (stores: [])\n' +
    '      --> KSTREAM-SINK-0000000012\n' +
    '      <-- KSTREAM-MAP-0000000002\n' +
    '    Sink: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-sink (topic: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition)\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-filter\n' +
    '    Sink: KSTREAM-SINK-0000000012 (topic: KSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition)\n' +
    '      <-- KSTREAM-FILTER-0000000013\n\n' +
    '  Sub-topology: 1\n' +
    '    Source: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-source (topics: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000007\n' +
    '    Source: KSTREAM-SOURCE-0000000001 (topics: [two])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000008\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000007 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000009\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-source\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000008 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000009\n' +
    '      <-- KSTREAM-SOURCE-0000000001\n' +
    '    Processor: COGROUPKSTREAM-MERGE-0000000009 (stores: [])\n' +
    '      --> none\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-0000000007, COGROUPKSTREAM-AGGREGATE-0000000008\n\n' +
    '  Sub-topology: 2\n' +
    '    Source: KSTREAM-SOURCE-0000000014 (topics: [KSTREAM-AGGREGATE-STATE-STORE-0000000010-repartition])\n' +
    '      --> KSTREAM-AGGREGATE-0000000011\n' +
    '    Processor: KSTREAM-AGGREGATE-0000000011 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000010])\n' +
    '      --> none\n' +
    '      <-- KSTREAM-SOURCE-0000000014\n\n'
  ,
  shouldInsertRepartitionsTopicForUpstreamKeyModificationWithGroupedReusedWithOptimization:
    'Topologies:\n' +
    '   Sub-topology: 0\n' +
    '    Source: KSTREAM-SOURCE-0000000000 (topics: [one])\n' +
    '      --> KSTREAM-MAP-0000000002\n' +
    '    Processor: KSTREAM-MAP-0000000002 (stores: [])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-filter\n' +
    '      <-- KSTREAM-SOURCE-0000000000\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-filter (stores: [])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-sink\n' +
    '      <-- KSTREAM-MAP-0000000002\n' +
    '    Sink: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-sink (topic: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition)\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-filter\n\n' +
    '  Sub-topology: 1\n' +
    '    Source: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-source (topics: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000007, KSTREAM-AGGREGATE-0000000011\n' +
    '    Source: KSTREAM-SOURCE-0000000001 (topics: [two])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000008\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000007 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000009\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-source\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000008 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000009\n' +
    '      <-- KSTREAM-SOURCE-0000000001\n' +
    '    Processor: COGROUPKSTREAM-MERGE-0000000009 (stores: [])\n' +
    '      --> none\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-0000000007, COGROUPKSTREAM-AGGREGATE-0000000008\n' +
    '    Processor: KSTREAM-AGGREGATE-0000000011 (stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000010])\n' +
    '      --> none\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000003-repartition-source\n\n'
  ,
  shouldInsertRepartitionsTopicForUpstreamKeyModificationWithGroupedRemadeWithOptimization:
    'Topologies:\n' +
    '   Sub-topology: 0\n' +
    '    Source: KSTREAM-SOURCE-0000000000 (topics: [one])\n' +
    '      --> KSTREAM-MAP-0000000003, KSTREAM-MAP-0000000004\n' +
    '    Processor: KSTREAM-MAP-0000000003 (stores: [])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000005-repartition-filter\n' +
    '      <-- KSTREAM-SOURCE-0000000000\n' +
    '    Processor: KSTREAM-MAP-0000000004 (stores: [])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000012-repartition-filter\n' +
    '      <-- KSTREAM-SOURCE-0000000000\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000005-repartition-filter (stores: [])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000005-repartition-sink\n' +
    '      <-- KSTREAM-MAP-0000000003\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000012-repartition-filter (stores: [])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000012-repartition-sink\n' +
    '      <-- KSTREAM-MAP-0000000004\n' +
    '    Sink: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000005-repartition-sink (topic: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000005-repartition)\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000005-repartition-filter\n' +
    '    Sink: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000012-repartition-sink (topic: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000012-repartition)\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000012-repartition-filter\n\n' +
    '  Sub-topology: 1\n' +
    '    Source: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000005-repartition-source (topics: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000005-repartition])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000009\n' +
    '    Source: KSTREAM-SOURCE-0000000001 (topics: [two])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000010\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000009 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000005])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000011\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000005-repartition-source\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000010 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000005])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000011\n' +
    '      <-- KSTREAM-SOURCE-0000000001\n' +
    '    Processor: COGROUPKSTREAM-MERGE-0000000011 (stores: [])\n' +
    '      --> none\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-0000000009, COGROUPKSTREAM-AGGREGATE-0000000010\n\n' +
    '  Sub-topology: 2\n' +
    '    Source: COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000012-repartition-source (topics: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000012-repartition])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000017\n' +
    '    Source: KSTREAM-SOURCE-0000000002 (topics: [three])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000016\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000016 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000012])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000018\n' +
    '      <-- KSTREAM-SOURCE-0000000002\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000017 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000012])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000018\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000012-repartition-source\n' +
    '    Processor: COGROUPKSTREAM-MERGE-0000000018 (stores: [])\n' +
    '      --> none\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-0000000016, COGROUPKSTREAM-AGGREGATE-0000000017\n\n'
  ,
  shouldInsertRepartitionsTopicForCogroupsUsedTwice:
    'Topologies:\n' +
    '   Sub-topology: 0\n' +
    '    Source: KSTREAM-SOURCE-0000000000 (topics: [one])\n' +
    '      --> KSTREAM-MAP-0000000001\n' +
    '    Processor: KSTREAM-MAP-0000000001 (stores: [])\n' +
    '      --> foo-repartition-filter\n' +
    '      <-- KSTREAM-SOURCE-0000000000\n' +
    '    Processor: foo-repartition-filter (stores: [])\n' +
    '      --> foo-repartition-sink\n' +
    '      <-- KSTREAM-MAP-0000000001\n' +
    '    Sink: foo-repartition-sink (topic: foo-repartition)\n' +
    '      <-- foo-repartition-filter\n\n' +
    '  Sub-topology: 1\n' +
    '    Source: foo-repartition-source (topics: [foo-repartition])\n' +
    '      --> COGROUPKSTREAM-AGGREGATE-0000000006, COGROUPKSTREAM-AGGREGATE-0000000012\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000006 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000002])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000007\n' +
    '      <-- foo-repartition-source\n' +
    '    Processor: COGROUPKSTREAM-AGGREGATE-0000000012 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000008])\n' +
    '      --> COGROUPKSTREAM-MERGE-0000000013\n' +
    '      <-- foo-repartition-source\n' +
    '    Processor: COGROUPKSTREAM-MERGE-0000000007 (stores: [])\n' +
    '      --> none\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-0000000006\n' +
    '    Processor: COGROUPKSTREAM-MERGE-0000000013 (stores: [])\n' +
    '      --> none\n' +
    '      <-- COGROUPKSTREAM-AGGREGATE-0000000012\n\n'
  ,
};

describe('CogroupedKStreamImplTest: null arguments', () => {
  function setup(): { groupedStream: KGroupedStream<string, string>; cogroupedStream: CogroupedKStream<string, string> } {
    const builder = new StreamsBuilder();
    const groupedStream = builder.stream('topic', stringConsumed).groupByKey(Grouped.with(S, S));
    return { groupedStream, cogroupedStream: groupedStream.cogroup(TOSTRING_ADDER) };
  }
  const nul = null as never;

  it('shouldThrowNPEInCogroupIfKGroupedStreamIsNull', () => {
    expect(() => setup().cogroupedStream.cogroup(nul, TOSTRING_ADDER)).toThrow(IllegalArgumentError);
  });
  it('shouldNotHaveNullAggregatorOnCogroup', () => {
    const { groupedStream, cogroupedStream } = setup();
    expect(() => cogroupedStream.cogroup(groupedStream, nul)).toThrow(IllegalArgumentError);
  });
  it('shouldNotHaveNullInitializerOnAggregate (and WitNamed, WitMaterialized, WitNamedAndMaterialized)', () => {
    const { cogroupedStream } = setup();
    expect(() => cogroupedStream.aggregate(nul)).toThrow("initializer can't be null");
    expect(() => cogroupedStream.aggregate(nul, Named.as('name'))).toThrow("initializer can't be null");
    expect(() => cogroupedStream.aggregate(nul, Materialized.as('store'))).toThrow("initializer can't be null");
    expect(() => cogroupedStream.aggregate(nul, Named.as('name'), Materialized.as('store'))).toThrow("initializer can't be null");
  });
  it('shouldNotHaveNullNamedOnAggregate, shouldNotHaveNullMaterializedOnAggregate (one null cannot tell them apart: named)', () => {
    expect(() => setup().cogroupedStream.aggregate(STRING_INITIALIZER, nul)).toThrow("named can't be null");
  });
  it('shouldNotHaveNullNamedOnAggregateWithMateriazlied', () => {
    expect(() => setup().cogroupedStream.aggregate(STRING_INITIALIZER, nul, Materialized.as('store'))).toThrow("named can't be null");
  });
  it('shouldNotHaveNullMaterializedOnAggregateWithNames', () => {
    expect(() => setup().cogroupedStream.aggregate(STRING_INITIALIZER, Named.as('name'), nul)).toThrow("materialized can't be null");
  });
  it('shouldNotHaveNullWindowOnWindowedByTime, BySession, BySliding', () => {
    const { cogroupedStream } = setup();
    expect(() => cogroupedStream.windowedBy(nul as Windows)).toThrow("windows can't be null");
    expect(() => cogroupedStream.windowedBy(nul as SessionWindows)).toThrow("windows can't be null");
    expect(() => cogroupedStream.windowedBy(nul as SlidingWindows)).toThrow("windows can't be null");
  });
});

describe('CogroupedKStreamImplTest: topology descriptions', () => {
  it('shouldNameProcessorsAndStoreBasedOnNamedParameter', () => {
    const builder = new StreamsBuilder();
    const groupedOne = builder.stream('one', stringConsumed).groupByKey();
    const groupedTwo = builder.stream('two', stringConsumed).groupByKey();
    const customers = groupedOne.cogroup(STRING_AGGREGATOR).cogroup(groupedTwo, STRING_AGGREGATOR).aggregate(STRING_INITIALIZER, Named.as('test'), Materialized.as('store'));
    customers.toStream().to(OUTPUT);
    expect(builder.build().describe().toString()).toBe(EXPECTED['shouldNameProcessorsAndStoreBasedOnNamedParameter']);
  });

  it('shouldNameRepartitionTopic', () => {
    const builder = new StreamsBuilder();
    const stream1 = builder.stream('one', stringConsumed);
    const test2 = builder.stream('two', stringConsumed);
    const groupedOne = stream1.map(swap).groupByKey(Grouped.as('repartition-test'));
    const groupedTwo = test2.groupByKey();
    const customers = groupedOne.cogroup(STRING_AGGREGATOR).cogroup(groupedTwo, STRING_AGGREGATOR).aggregate(STRING_INITIALIZER);
    customers.toStream().to(OUTPUT);
    expect(builder.build().describe().toString()).toBe(EXPECTED['shouldNameRepartitionTopic']);
  });

  it('shouldInsertRepartitionsTopicForUpstreamKeyModification', () => {
    const builder = new StreamsBuilder();
    const stream1 = builder.stream('one', stringConsumed);
    const test2 = builder.stream('two', stringConsumed);
    const groupedOne = stream1.map(swap).groupByKey();
    const groupedTwo = test2.groupByKey();
    const customers = groupedOne.cogroup(STRING_AGGREGATOR).cogroup(groupedTwo, STRING_AGGREGATOR).aggregate(STRING_INITIALIZER, Named.as('test'), Materialized.as('store'));
    customers.toStream().to(OUTPUT);
    expect(builder.build().describe().toString()).toBe(EXPECTED['shouldInsertRepartitionsTopicForUpstreamKeyModification']);
  });

  it('shouldInsertRepartitionsTopicForUpstreamKeyModificationWithGroupedReusedInSameCogroups', () => {
    const builder = new StreamsBuilder();
    const stream1 = builder.stream('one', stringConsumed);
    const stream2 = builder.stream('two', stringConsumed);
    const groupedOne = stream1.map(swap).groupByKey();
    const groupedTwo = stream2.groupByKey();
    const cogroupedTwo = groupedOne.cogroup(STRING_AGGREGATOR).cogroup(groupedTwo, STRING_AGGREGATOR).aggregate(STRING_INITIALIZER);
    const cogroupedOne = groupedOne.cogroup(STRING_AGGREGATOR).cogroup(groupedTwo, STRING_AGGREGATOR).aggregate(STRING_INITIALIZER);
    cogroupedOne.toStream().to(OUTPUT);
    cogroupedTwo.toStream().to('OUTPUT2');
    const description = builder.build().describe().toString();
    expect(withSortedSuccessors(subtopologyBlocks(description))).toEqual(withSortedSuccessors(subtopologyBlocks(defined(EXPECTED['shouldInsertRepartitionsTopicForUpstreamKeyModificationWithGroupedReusedInSameCogroups'], 'shouldInsertRepartitionsTopicForUpstreamKeyModificationWithGroupedReusedInSameCogroups'))));
    expect(description.startsWith('Topologies:\n')).toBe(true);
  });

  it('shouldInsertRepartitionsTopicForUpstreamKeyModificationWithGroupedReusedInDifferentCogroups', () => {
    const builder = new StreamsBuilder();
    const stream1 = builder.stream('one', stringConsumed);
    const stream2 = builder.stream('two', stringConsumed);
    const stream3 = builder.stream('three', stringConsumed);
    const groupedOne = stream1.map(swap).groupByKey();
    const groupedTwo = stream2.groupByKey();
    const groupedThree = stream3.groupByKey();
    groupedOne.cogroup(STRING_AGGREGATOR).cogroup(groupedThree, STRING_AGGREGATOR).aggregate(STRING_INITIALIZER);
    groupedOne.cogroup(STRING_AGGREGATOR).cogroup(groupedTwo, STRING_AGGREGATOR).aggregate(STRING_INITIALIZER);
    const description = builder.build().describe().toString();
    expect(subtopologyBlocks(description)).toEqual(subtopologyBlocks(defined(EXPECTED['shouldInsertRepartitionsTopicForUpstreamKeyModificationWithGroupedReusedInDifferentCogroups'], 'shouldInsertRepartitionsTopicForUpstreamKeyModificationWithGroupedReusedInDifferentCogroups')));
    expect(description.startsWith('Topologies:\n')).toBe(true);
  });

  it('shouldInsertRepartitionsTopicForUpstreamKeyModificationWithGroupedReused', () => {
    const builder = new StreamsBuilder();
    const stream1 = builder.stream('one', stringConsumed);
    const stream2 = builder.stream('two', stringConsumed);
    const groupedOne = stream1.map(swap).groupByKey();
    const groupedTwo = stream2.groupByKey();
    groupedOne.cogroup(STRING_AGGREGATOR).cogroup(groupedTwo, STRING_AGGREGATOR).aggregate(STRING_INITIALIZER);
    groupedOne.aggregate(STRING_INITIALIZER, STRING_AGGREGATOR);
    const description = builder.build().describe().toString();
    expect(subtopologyBlocks(description)).toEqual(subtopologyBlocks(defined(EXPECTED['shouldInsertRepartitionsTopicForUpstreamKeyModificationWithGroupedReused'], 'shouldInsertRepartitionsTopicForUpstreamKeyModificationWithGroupedReused')));
    expect(description.startsWith('Topologies:\n')).toBe(true);
  });

  it('shouldInsertRepartitionsTopicForCogroupsUsedTwice', () => {
    const builder = new StreamsBuilder();
    const stream1 = builder.stream('one', stringConsumed);
    const groupedOne = stream1.map(swap).groupByKey(Grouped.as('foo'));
    const one = groupedOne.cogroup(STRING_AGGREGATOR);
    one.aggregate(STRING_INITIALIZER);
    one.aggregate(STRING_INITIALIZER);
    expect(builder.build().describe().toString()).toBe(EXPECTED['shouldInsertRepartitionsTopicForCogroupsUsedTwice']);
  });
});

describe('CogroupedKStreamImplTest: test driver', () => {
  type Expected<V> = readonly [key: string, value: V, timestamp: number];

  /** Runs `pipe` on a driver of `builder`, then reads OUTPUT with `valueSerde` and compares key, value and timestamp of every record (Kafka's assertOutputKeyValueTimestamp calls, then nothing more). */
  function run<V>(builder: StreamsBuilder, valueSerde: Serde<V>, pipe: (driver: TopologyTestDriver) => void, expected: readonly Expected<V>[]): void {
    const driver = new TopologyTestDriver(builder.build(), props);
    try {
      pipe(driver);
      const output = driver.createOutputTopic(OUTPUT, S, valueSerde);
      expect(output.readRecordsToList().map((r) => [r.key, r.value, r.timestamp])).toEqual(expected);
    } finally {
      driver.close();
    }
  }

  it('shouldCogroupAndAggregateSingleKStreams', () => {
    const builder = new StreamsBuilder();
    const grouped1 = builder.stream('one', stringConsumed).groupByKey();
    grouped1.cogroup(STRING_AGGREGATOR).aggregate(STRING_INITIALIZER).toStream().to(OUTPUT);
    run(builder, J, (driver) => {
      const one = driver.createInputTopic('one', S, S);
      one.pipeInput('k1', 'A', 0);
      one.pipeInput('k2', 'B', 0);
      one.pipeInput('k2', 'B', 0);
      one.pipeInput('k1', 'A', 0);
    }, [['k1', 'A', 0], ['k2', 'B', 0], ['k2', 'BB', 0], ['k1', 'AA', 0]]);
  });

  it('testCogroupHandleNullValues', () => {
    const builder = new StreamsBuilder();
    const grouped1 = builder.stream('one', stringConsumed).groupByKey();
    grouped1.cogroup(STRING_AGGREGATOR).aggregate(STRING_INITIALIZER).toStream().to(OUTPUT);
    run(builder, J, (driver) => {
      const one = driver.createInputTopic('one', S, S);
      one.pipeInput('k1', 'A', 0);
      one.pipeInput('k2', 'B', 0);
      one.pipeInput('k2', null, 0);
      one.pipeInput('k2', 'B', 0);
      one.pipeInput('k1', 'A', 0);
    }, [['k1', 'A', 0], ['k2', 'B', 0], ['k2', 'BB', 0], ['k1', 'AA', 0]]);
  });

  it('shouldCogroupAndAggregateTwoKStreamsWithDistinctKeys', () => {
    const builder = new StreamsBuilder();
    const grouped1 = builder.stream('one', stringConsumed).groupByKey();
    const grouped2 = builder.stream('two', stringConsumed).groupByKey();
    grouped1.cogroup(STRING_AGGREGATOR).cogroup(grouped2, STRING_AGGREGATOR).aggregate(STRING_INITIALIZER).toStream().to(OUTPUT);
    run(builder, J, (driver) => {
      const one = driver.createInputTopic('one', S, S);
      const two = driver.createInputTopic('two', S, S);
      one.pipeInput('k1', 'A', 0);
      one.pipeInput('k1', 'A', 1);
      one.pipeInput('k1', 'A', 10);
      one.pipeInput('k1', 'A', 100);
      two.pipeInput('k2', 'B', 100);
      two.pipeInput('k2', 'B', 200);
      two.pipeInput('k2', 'B', 1);
      two.pipeInput('k2', 'B', 500);
      two.pipeInput('k2', 'B', 500);
      two.pipeInput('k2', 'B', 100);
    }, [
      ['k1', 'A', 0], ['k1', 'AA', 1], ['k1', 'AAA', 10], ['k1', 'AAAA', 100],
      ['k2', 'B', 100], ['k2', 'BB', 200], ['k2', 'BBB', 200], ['k2', 'BBBB', 500], ['k2', 'BBBBB', 500], ['k2', 'BBBBBB', 500],
    ]);
  });

  it('shouldCogroupAndAggregateTwoKStreamsWithSharedKeys', () => {
    const builder = new StreamsBuilder();
    const grouped1 = builder.stream('one', stringConsumed).groupByKey();
    const grouped2 = builder.stream('two', stringConsumed).groupByKey();
    grouped1.cogroup(STRING_AGGREGATOR).cogroup(grouped2, STRING_AGGREGATOR).aggregate(STRING_INITIALIZER).toStream().to(OUTPUT);
    run(builder, J, (driver) => {
      const one = driver.createInputTopic('one', S, S);
      const two = driver.createInputTopic('two', S, S);
      one.pipeInput('k1', 'A', 0);
      one.pipeInput('k2', 'A', 1);
      one.pipeInput('k1', 'A', 10);
      one.pipeInput('k2', 'A', 100);
      two.pipeInput('k2', 'B', 100);
      two.pipeInput('k2', 'B', 200);
      two.pipeInput('k1', 'B', 1);
      two.pipeInput('k2', 'B', 500);
      two.pipeInput('k1', 'B', 500);
      two.pipeInput('k2', 'B', 500);
      two.pipeInput('k3', 'B', 500);
      two.pipeInput('k2', 'B', 100);
    }, [
      ['k1', 'A', 0], ['k2', 'A', 1], ['k1', 'AA', 10], ['k2', 'AA', 100], ['k2', 'AAB', 100], ['k2', 'AABB', 200],
      ['k1', 'AAB', 10], ['k2', 'AABBB', 500], ['k1', 'AABB', 500], ['k2', 'AABBBB', 500],
      // Kafka stops reading here; the two records left:
      ['k3', 'B', 500], ['k2', 'AABBBBB', 500],
    ]);
  });

  it('shouldAllowDifferentOutputTypeInCoGroup', () => {
    const builder = new StreamsBuilder();
    const grouped1 = builder.stream('one', stringConsumed).groupByKey();
    const grouped2 = builder.stream('two', stringConsumed).groupByKey();
    grouped1
      .cogroup(STRING_SUM_AGGREGATOR)
      .cogroup(grouped2, STRING_SUM_AGGREGATOR)
      .aggregate(SUM_INITIALIZER, Materialized.as<string, number>('store1').withValueSerde(I))
      .toStream()
      .to(OUTPUT);
    run(builder, I, (driver) => {
      const one = driver.createInputTopic('one', S, S);
      const two = driver.createInputTopic('two', S, S);
      one.pipeInput('k1', '1', 0);
      one.pipeInput('k2', '1', 1);
      one.pipeInput('k1', '1', 10);
      one.pipeInput('k2', '1', 100);
      two.pipeInput('k2', '2', 100);
      two.pipeInput('k2', '2', 200);
      two.pipeInput('k1', '2', 1);
      two.pipeInput('k2', '2', 500);
      two.pipeInput('k1', '2', 500);
      two.pipeInput('k2', '3', 500);
      two.pipeInput('k3', '2', 500);
      two.pipeInput('k2', '2', 100);
    }, [
      ['k1', 1, 0], ['k2', 1, 1], ['k1', 2, 10], ['k2', 2, 100], ['k2', 4, 100], ['k2', 6, 200],
      ['k1', 4, 10], ['k2', 8, 500], ['k1', 6, 500], ['k2', 11, 500],
      // Kafka stops reading here; the two records left:
      ['k3', 2, 500], ['k2', 13, 500],
    ]);
  });

  it('shouldCoGroupStreamsWithDifferentInputTypes', () => {
    const builder = new StreamsBuilder();
    const grouped1 = builder.stream('one', stringConsumed).groupByKey();
    const grouped2 = builder.stream('two', { keySerde: S, valueSerde: I }).groupByKey();
    grouped1
      .cogroup(STRING_SUM_AGGREGATOR)
      .cogroup(grouped2, SUM_AGGREGATOR)
      .aggregate(SUM_INITIALIZER, Materialized.as<string, number>('store1').withValueSerde(I))
      .toStream()
      .to(OUTPUT);
    run(builder, I, (driver) => {
      const one = driver.createInputTopic('one', S, S);
      const two = driver.createInputTopic('two', S, I);
      one.pipeInput('k1', '1', 0);
      one.pipeInput('k2', '1', 1);
      one.pipeInput('k1', '1', 10);
      one.pipeInput('k2', '1', 100);
      two.pipeInput('k2', 2, 100);
      two.pipeInput('k2', 2, 200);
      two.pipeInput('k1', 2, 1);
      two.pipeInput('k2', 2, 500);
      two.pipeInput('k1', 2, 500);
      two.pipeInput('k2', 3, 500);
      two.pipeInput('k3', 2, 500);
      two.pipeInput('k2', 2, 100);
    }, [
      ['k1', 1, 0], ['k2', 1, 1], ['k1', 2, 10], ['k2', 2, 100], ['k2', 4, 100], ['k2', 6, 200],
      ['k1', 4, 10], ['k2', 8, 500], ['k1', 6, 500], ['k2', 11, 500], ['k3', 2, 500],
      // Kafka stops reading here; the record left:
      ['k2', 13, 500],
    ]);
  });

  it('testCogroupKeyMixedAggregators', () => {
    const builder = new StreamsBuilder();
    const grouped1 = builder.stream('one', stringConsumed).groupByKey();
    const grouped2 = builder.stream('two', stringConsumed).groupByKey();
    grouped1
      .cogroup(TOSTRING_REMOVER)
      .cogroup(grouped2, TOSTRING_ADDER)
      .aggregate(STRING_INIT, Materialized.as<string, string>('store1').withValueSerde(S))
      .toStream()
      .to(OUTPUT);
    run(builder, S, (driver) => {
      const one = driver.createInputTopic('one', S, S);
      const two = driver.createInputTopic('two', S, S);
      one.pipeInput('k1', '1', 0);
      one.pipeInput('k2', '1', 1);
      one.pipeInput('k1', '1', 10);
      one.pipeInput('k2', '1', 100);
      two.pipeInput('k1', '2', 500);
      two.pipeInput('k2', '2', 500);
      two.pipeInput('k1', '2', 500);
      two.pipeInput('k2', '2', 100);
    }, [
      ['k1', '0-1', 0], ['k2', '0-1', 1], ['k1', '0-1-1', 10], ['k2', '0-1-1', 100],
      ['k1', '0-1-1+2', 500], ['k2', '0-1-1+2', 500], ['k1', '0-1-1+2+2', 500], ['k2', '0-1-1+2+2', 500],
    ]);
  });

  it('testCogroupWithThreeGroupedStreams', () => {
    const builder = new StreamsBuilder();
    const grouped1 = builder.stream('one', stringConsumed).groupByKey();
    const grouped2 = builder.stream('two', stringConsumed).groupByKey();
    const grouped3 = builder.stream('three', stringConsumed).groupByKey();
    grouped1
      .cogroup(STRING_AGGREGATOR)
      .cogroup(grouped2, STRING_AGGREGATOR)
      .cogroup(grouped3, STRING_AGGREGATOR)
      .aggregate(STRING_INITIALIZER)
      .toStream()
      .to(OUTPUT);
    run(builder, J, (driver) => {
      const one = driver.createInputTopic('one', S, S);
      const two = driver.createInputTopic('two', S, S);
      const three = driver.createInputTopic('three', S, S);
      one.pipeInput('k1', 'A', 0);
      one.pipeInput('k2', 'A', 1);
      one.pipeInput('k1', 'A', 10);
      one.pipeInput('k2', 'A', 100);
      two.pipeInput('k2', 'B', 100);
      two.pipeInput('k2', 'B', 200);
      two.pipeInput('k1', 'B', 1);
      two.pipeInput('k2', 'B', 500);
      three.pipeInput('k1', 'B', 500);
      three.pipeInput('k2', 'B', 500);
      three.pipeInput('k3', 'B', 500);
      three.pipeInput('k2', 'B', 100);
    }, [
      ['k1', 'A', 0], ['k2', 'A', 1], ['k1', 'AA', 10], ['k2', 'AA', 100], ['k2', 'AAB', 100], ['k2', 'AABB', 200],
      ['k1', 'AAB', 10], ['k2', 'AABBB', 500], ['k1', 'AABB', 500], ['k2', 'AABBBB', 500], ['k3', 'B', 500],
      // Kafka stops reading here; the record left:
      ['k2', 'AABBBBB', 500],
    ]);
  });

  it('testCogroupWithKTableKTableInnerJoin', () => {
    const builder = new StreamsBuilder();
    const grouped1 = builder.stream('one', stringConsumed).groupByKey();
    const grouped2 = builder.stream('two', stringConsumed).groupByKey();
    const table1 = grouped1.cogroup(STRING_AGGREGATOR).cogroup(grouped2, STRING_AGGREGATOR).aggregate(STRING_INITIALIZER, Named.as('name'), Materialized.as('store'));
    const table2 = builder.table('three', stringConsumed);
    // MockValueJoiner.TOSTRING_JOINER
    const joined = table1.join(table2, (v1: string, v2: string) => `${v1}+${v2}`, Materialized.with(S, S));
    joined.toStream().to(OUTPUT);
    run(builder, S, (driver) => {
      const one = driver.createInputTopic('one', S, S);
      const two = driver.createInputTopic('two', S, S);
      const three = driver.createInputTopic('three', S, S);
      one.pipeInput('k1', 'A', 5);
      two.pipeInput('k2', 'B', 6);
      expect(driver.createOutputTopic(OUTPUT, S, S).isEmpty()).toBe(true);
      three.pipeInput('k1', 'C', 0);
      three.pipeInput('k2', 'D', 10);
    }, [['k1', 'A+C', 5], ['k2', 'B+D', 10]]);
  });
});
