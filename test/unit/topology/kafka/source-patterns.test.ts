/**
 * Regex sources, ported from Kafka Streams' `TopologyTest` (pattern cases),
 * `KStreamImplTest.shouldProcessFromSource(s)ThatMatch(Multiple)Pattern` and
 * the test-utils `TopologyTestDriverTest` pattern cases. Java's
 * `Pattern.compile("topic[0-9]")` is `/topic[0-9]/` here; the description
 * equality of `TopologyTest` is checked on the text Kafka prints for it.
 */
import { describe, expect, it } from 'vitest';
import { Serdes, StreamsBuilder, Topology, TopologyError, type Processor, type ProcessorContext, type ProcessorSupplier } from '../../../../src/index.js';
import { TopologyTestDriver } from '../../../../src/testing.js';

const S = Serdes.String();

interface Processed {
  topic: string | undefined;
  key: unknown;
  value: unknown;
  timestamp: number;
}

/** Kafka's MockApiProcessorSupplier: captures what each processor instance processed (and forwards it). */
function mockProcessorSupplier(): ProcessorSupplier<unknown, unknown, unknown, unknown> & { processed: Processed[] } {
  const processed: Processed[] = [];
  const supplier = (): Processor<unknown, unknown, unknown, unknown> => {
    let ctx: ProcessorContext<unknown, unknown>;
    return {
      init(c) {
        ctx = c;
      },
      process(r) {
        processed.push({ topic: ctx.recordMetadata()?.topic, key: r.key, value: r.value, timestamp: r.timestamp });
        ctx.forward(r);
      },
    };
  };
  return Object.assign(supplier, { processed });
}

describe('TopologyTest (pattern sources)', () => {
  /** TopologyTest.shouldNotAllowNullNameWhenAddingSourceWithPattern */
  it('shouldNotAllowNullNameWhenAddingSourceWithPattern', () => {
    expect(() => new Topology().addSource(null as unknown as string, /.*/)).toThrow();
  });

  /** TopologyTest.shouldNotAllowNullTopicsWhenAddingSourceWithPattern */
  it('shouldNotAllowNullTopicsWhenAddingSourceWithPattern', () => {
    expect(() => new Topology().addSource('source', null as unknown as RegExp)).toThrow(TopologyError);
  });

  /** TopologyTest.testPatternMatchesAlreadyProvidedTopicSource */
  it('testPatternMatchesAlreadyProvidedTopicSource', () => {
    const topology = new Topology();
    topology.addSource('source-1', 'foo');
    expect(() => topology.addSource('source-2', /f.*/)).toThrow(new TopologyError('Pattern f.* will match a topic that has already been registered by another source.'));
  });

  /** TopologyTest.testNamedTopicMatchesAlreadyProvidedPattern */
  it('testNamedTopicMatchesAlreadyProvidedPattern', () => {
    const topology = new Topology();
    topology.addSource('source-1', /f.*/);
    expect(() => topology.addSource('source-2', 'foo')).toThrow(new TopologyError('Topic foo matches a Pattern already registered by another source.'));
  });

  /** TopologyTest.singleSourcePatternShouldHaveSingleSubtopology */
  it('singleSourcePatternShouldHaveSingleSubtopology', () => {
    const topology = new Topology().addSource('source', /topic[0-9]/);
    const description = topology.describe();
    expect(description.subtopologies).toHaveLength(1);
    expect(description.subtopologies[0]!.nodes[0]).toMatchObject({ type: 'source', name: 'source', topics: [], topicPattern: 'topic[0-9]' });
    expect(description.toString()).toBe('Topologies:\n   Sub-topology: 0\n    Source: source (topics: topic[0-9])\n      --> none\n\n');
  });

  /** TopologyTest.processorWithMultipleSourcesShouldHaveSingleSubtopology */
  it('processorWithMultipleSourcesShouldHaveSingleSubtopology', () => {
    const topology = new Topology()
      .addSource('source1', 'topic0')
      .addSource('source2', /topic[1-9]/)
      .addProcessor('processor', mockProcessorSupplier(), 'source1', 'source2');
    expect(topology.describe().toString()).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: source1 (topics: [topic0])\n' +
        '      --> processor\n' +
        '    Source: source2 (topics: topic[1-9])\n' +
        '      --> processor\n' +
        '    Processor: processor (stores: [])\n' +
        '      --> none\n' +
        '      <-- source1, source2\n\n',
    );
  });
});

describe('KStreamImplTest (pattern sources)', () => {
  /** KStreamImplTest.shouldProcessFromSourceThatMatchPattern */
  it('shouldProcessFromSourceThatMatchPattern', () => {
    const builder = new StreamsBuilder();
    const processorSupplier = mockProcessorSupplier();
    const pattern2Source = builder.stream(/topic-\d/, { keySerde: S, valueSerde: S });
    pattern2Source.process(processorSupplier);
    const driver = new TopologyTestDriver(builder.build());
    try {
      const opts = { startTimestampMs: 0, autoAdvanceMs: 0 };
      const inputTopic3 = driver.createInputTopic('topic-3', S, S, opts);
      const inputTopic4 = driver.createInputTopic('topic-4', S, S, opts);
      const inputTopic5 = driver.createInputTopic('topic-5', S, S, opts);
      const inputTopic6 = driver.createInputTopic('topic-6', S, S, opts);
      const inputTopic7 = driver.createInputTopic('topic-7', S, S, opts);
      inputTopic3.pipeInput('A', 'aa', 1);
      inputTopic4.pipeInput('B', 'bb', 5);
      inputTopic5.pipeInput('C', 'cc', 10);
      inputTopic6.pipeInput('D', 'dd', 8);
      inputTopic7.pipeInput('E', 'ee', 3);
    } finally {
      driver.close();
    }
    expect(processorSupplier.processed.map(({ key, value, timestamp }) => ({ key, value, timestamp }))).toEqual([
      { key: 'A', value: 'aa', timestamp: 1 },
      { key: 'B', value: 'bb', timestamp: 5 },
      { key: 'C', value: 'cc', timestamp: 10 },
      { key: 'D', value: 'dd', timestamp: 8 },
      { key: 'E', value: 'ee', timestamp: 3 },
    ]);
  });

  /** KStreamImplTest.shouldProcessFromSourcesThatMatchMultiplePattern */
  it('shouldProcessFromSourcesThatMatchMultiplePattern', () => {
    const builder = new StreamsBuilder();
    const processorSupplier = mockProcessorSupplier();
    const topic3 = 'topic-without-pattern';
    const pattern2Source1 = builder.stream(/topic-\d/, { keySerde: S, valueSerde: S });
    const pattern2Source2 = builder.stream(/topic-[A-Z]/, { keySerde: S, valueSerde: S });
    const source3 = builder.stream(topic3, { keySerde: S, valueSerde: S });
    const merged = pattern2Source1.merge(pattern2Source2).merge(source3);
    merged.process(processorSupplier);
    const driver = new TopologyTestDriver(builder.build());
    try {
      const opts = { startTimestampMs: 0, autoAdvanceMs: 0 };
      const inputTopic3 = driver.createInputTopic('topic-3', S, S, opts);
      const inputTopic4 = driver.createInputTopic('topic-4', S, S, opts);
      const inputTopicA = driver.createInputTopic('topic-A', S, S, opts);
      const inputTopicZ = driver.createInputTopic('topic-Z', S, S, opts);
      const inputTopic = driver.createInputTopic(topic3, S, S, opts);
      inputTopic3.pipeInput('A', 'aa', 1);
      inputTopic4.pipeInput('B', 'bb', 5);
      inputTopicA.pipeInput('C', 'cc', 10);
      inputTopicZ.pipeInput('D', 'dd', 8);
      inputTopic.pipeInput('E', 'ee', 3);
    } finally {
      driver.close();
    }
    expect(processorSupplier.processed.map(({ key, value, timestamp }) => ({ key, value, timestamp }))).toEqual([
      { key: 'A', value: 'aa', timestamp: 1 },
      { key: 'B', value: 'bb', timestamp: 5 },
      { key: 'C', value: 'cc', timestamp: 10 },
      { key: 'D', value: 'dd', timestamp: 8 },
      { key: 'E', value: 'ee', timestamp: 3 },
    ]);
  });
});

describe('TopologyTestDriverTest (pattern sources)', () => {
  const key1 = Buffer.alloc(0);
  const value1 = Buffer.alloc(0);
  const timestamp1 = 42;
  const key2 = Buffer.alloc(0);
  const value2 = Buffer.alloc(0);
  const timestamp2 = 43;
  const SOURCE_TOPIC_1 = 'source-topic-1';
  const SINK_TOPIC_1 = 'sink-topic-1';
  const B = Serdes.Buffer();

  /** TopologyTestDriverTest.shouldProcessFromSourcesThatMatchMultiplePattern (node names by index: sluice's names may not hold `\`) */
  it('shouldProcessFromSourcesThatMatchMultiplePattern', () => {
    const pattern2Source1 = /source-topic-\d/;
    const pattern2Source2 = /source-topic-[A-Z]/;
    const consumerTopic2 = 'source-topic-Z';
    const mockProcessors = [mockProcessorSupplier(), mockProcessorSupplier()];
    const topology = new Topology();
    [pattern2Source1, pattern2Source2].forEach((pattern, i) => {
      topology.addSource(`pattern-${i}-source`, pattern);
      topology.addProcessor(`pattern-${i}-processor`, mockProcessors[i]!, `pattern-${i}-source`);
    });
    topology.addSink('sink-topic', SINK_TOPIC_1, 'pattern-0-processor', 'pattern-1-processor');
    const testDriver = new TopologyTestDriver(topology);
    const [processedRecords1, processedRecords2] = [mockProcessors[0]!.processed, mockProcessors[1]!.processed];

    testDriver.createInputTopic(SOURCE_TOPIC_1, B, B).pipeInput(key1, value1, timestamp1);
    expect(processedRecords1).toHaveLength(1);
    expect(processedRecords2).toHaveLength(0);
    expect(processedRecords1[0]).toEqual({ topic: SOURCE_TOPIC_1, key: key1, value: value1, timestamp: timestamp1 });

    testDriver.createInputTopic(consumerTopic2, B, B).pipeInput(key2, value2, timestamp2);
    expect(processedRecords1).toHaveLength(1);
    expect(processedRecords2).toHaveLength(1);
    expect(processedRecords2[0]).toEqual({ topic: consumerTopic2, key: key2, value: value2, timestamp: timestamp2 });
    testDriver.close();
  });

  /** TopologyTestDriverTest.shouldProcessFromSourceThatMatchPattern */
  it('shouldProcessFromSourceThatMatchPattern', () => {
    const sourceName = 'source';
    const pattern2Source1 = /source-topic-\d/;
    const topology = new Topology();
    topology.addSource(sourceName, pattern2Source1);
    topology.addSink('sink', SINK_TOPIC_1, sourceName);
    const testDriver = new TopologyTestDriver(topology);
    testDriver.createInputTopic(SOURCE_TOPIC_1, B, B).pipeInput(key1, value1, timestamp1);
    const outputRecord = testDriver.createOutputTopic(SINK_TOPIC_1, B, B).readRecord();
    expect(outputRecord.key).toEqual(key1);
    expect(outputRecord.value).toEqual(value1);
    expect(testDriver.producedTopicNames()).toEqual([SINK_TOPIC_1]);
    testDriver.close();
  });
});
