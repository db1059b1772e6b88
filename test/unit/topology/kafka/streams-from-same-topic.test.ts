/**
 * Several `builder.stream()` calls on the same topic(s) share one source node,
 * as Kafka's `InternalStreamsBuilder.mergeDuplicateSourceNodes` (issue 29).
 * Ported from Kafka Streams' `StreamsBuilderTest` (shouldAllowStreamsFromSameTopic,
 * shouldAllowSubscribingToSamePattern, shouldAllowReadingFromSameCollectionOfTopics,
 * shouldNotAllowReadingFromOverlappingAndUnequalCollectionOfTopics) and
 * `KStreamKStreamSelfJoinTest.shouldMatchInnerJoinWithSelfJoinWithTwoStreams`
 * (inputs and expected outputs unchanged; sluice refuses `single.store.self.join`,
 * so the self-join runs unoptimized, which Kafka's test compares to the same result).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Consumed, JoinWindows, Serdes, StreamJoined, StreamsBuilder, TopologyError } from '../../../../src/index.js';
import type { TopologyTestDriver } from '../../../../src/testing.js';
import { driverFor, MockApiProcessorSupplier } from '../../../helpers/ktable/stream-join-capture.js';

const S = Serdes.String();
let drivers: TopologyTestDriver[] = [];
afterEach(() => {
  for (const d of drivers) d.close();
  drivers = [];
});

describe('StreamsBuilderTest: streams from the same topic', () => {
  /** StreamsBuilderTest.shouldAllowStreamsFromSameTopic */
  it('shouldAllowStreamsFromSameTopic', () => {
    const builder = new StreamsBuilder();
    builder.stream('topic');
    builder.stream('topic');
    expect(() => builder.build()).not.toThrow();
  });

  /** StreamsBuilderTest.shouldAllowSubscribingToSamePattern */
  it('shouldAllowSubscribingToSamePattern', () => {
    const builder = new StreamsBuilder();
    builder.stream(/some-regex/);
    builder.stream(/some-regex/);
    expect(() => builder.build()).not.toThrow();
    expect(builder.build().describe().subtopologies[0]?.nodes.filter((n) => n.type === 'source')).toHaveLength(1);
  });

  /** StreamsBuilderTest.shouldAllowReadingFromSameCollectionOfTopics */
  it('shouldAllowReadingFromSameCollectionOfTopics', () => {
    const builder = new StreamsBuilder();
    builder.stream(['topic1', 'topic2']);
    builder.stream(['topic2', 'topic1']);
    expect(() => builder.build()).not.toThrow();
  });

  /** StreamsBuilderTest.shouldNotAllowReadingFromOverlappingAndUnequalCollectionOfTopics (sluice throws at stream(), Kafka at build()) */
  it('shouldNotAllowReadingFromOverlappingAndUnequalCollectionOfTopics', () => {
    const builder = new StreamsBuilder();
    builder.stream(['topic']);
    expect(() => {
      builder.stream(['topic', 'anotherTopic']);
      builder.build();
    }).toThrow(TopologyError);
  });

  it('both streams hang off one source node (Kafka merges the duplicate; its generated name stays unused)', () => {
    const builder = new StreamsBuilder();
    builder.stream('topic').filter(() => true);
    builder.stream('topic').mapValues((v) => v);
    expect(builder.build().describe().toString()).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [topic])\n' +
        '      --> KSTREAM-FILTER-0000000001, KSTREAM-MAPVALUES-0000000003\n' +
        '    Processor: KSTREAM-FILTER-0000000001 (stores: [])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: KSTREAM-MAPVALUES-0000000003 (stores: [])\n' +
        '      --> none\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n\n',
    );
  });
});

describe('KStreamKStreamSelfJoinTest', () => {
  /** KStreamKStreamSelfJoinTest.shouldMatchInnerJoinWithSelfJoinWithTwoStreams */
  it('shouldMatchInnerJoinWithSelfJoinWithTwoStreams', () => {
    const valueJoiner = (v: string, v2: string): string => v + v2;
    const pipe = (builder: StreamsBuilder, topic: string, supplier: MockApiProcessorSupplier): unknown[] => {
      const { driver } = driverFor(builder);
      drivers.push(driver);
      const inputTopic = driver.createInputTopic(topic, S, S);
      inputTopic.pipeInput('A', '1', 1);
      inputTopic.pipeInput('B', '1', 2);
      inputTopic.pipeInput('A', '2', 3);
      inputTopic.pipeInput('B', '2', 4);
      inputTopic.pipeInput('B', '3', 5);
      return [...supplier.theCapturedProcessor().processed];
    };
    // Inner join topology
    const builder1 = new StreamsBuilder();
    const innerJoinSupplier = new MockApiProcessorSupplier();
    const stream3 = builder1.stream('topic2', Consumed.with(S, S));
    const stream4 = builder1.stream('topic2', Consumed.with(S, S));
    stream3.join(stream4, valueJoiner, JoinWindows.ofTimeDifferenceWithNoGrace(100), StreamJoined.with(S, S, S)).process(innerJoinSupplier);
    const expected = pipe(builder1, 'topic2', innerJoinSupplier);
    // Self join topology
    const builder2 = new StreamsBuilder();
    const selfJoinSupplier = new MockApiProcessorSupplier();
    const stream1 = builder2.stream('topic1', Consumed.with(S, S));
    const stream2 = builder2.stream('topic1', Consumed.with(S, S));
    stream1.join(stream2, valueJoiner, JoinWindows.ofTimeDifferenceWithNoGrace(100), StreamJoined.with(S, S, S)).process(selfJoinSupplier);
    expect(pipe(builder2, 'topic1', selfJoinSupplier)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
  });
});
