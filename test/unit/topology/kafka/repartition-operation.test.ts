/**
 * `KStream.repartition()`, ported from Kafka Streams' `KStreamRepartitionTest`,
 * `KStreamImplTest` (repartition cases) and `StreamsBuilderTest.shouldProcessViaRepartitionTopic`.
 * Kafka's `props` with default Integer/String (or String/String) serdes are the
 * driver's `defaultKeySerde` / `defaultValueSerde`.
 */
import { describe, expect, it } from 'vitest';
import {
  IllegalArgumentError,
  Repartitioned,
  Serdes,
  StreamsBuilder,
  type Processor,
  type ProcessorContext,
  type ProcessorSupplier,
  type StreamPartitioner,
} from '../../../../src/index.js';
import { TopologyTestDriver } from '../../../../src/testing.js';

const S = Serdes.String();
const stringConsumed = { keySerde: S, valueSerde: S };

/** Kafka's MockApiProcessorSupplier: what the processor instances processed. */
function mockProcessorSupplier<K, V>(): ProcessorSupplier<K, V, K, V> & { processed: Array<{ key: K; value: V; timestamp: number }> } {
  const processed: Array<{ key: K; value: V; timestamp: number }> = [];
  const supplier = (): Processor<K, V, K, V> => {
    let ctx: ProcessorContext<K, V>;
    return {
      init(c) {
        ctx = c;
      },
      process(r) {
        processed.push({ key: r.key, value: r.value, timestamp: r.timestamp });
        ctx.forward(r);
      },
    };
  };
  return Object.assign(supplier, { processed });
}

describe('KStreamRepartitionTest', () => {
  /**
   * KStreamRepartitionTest.shouldInvokePartitionerWhenSet (the mock partitioner: a recording function; it returns
   * partition 0, not Kafka's 1: sluice's driver gives each topic one partition and refuses an out-of-range one, as a broker would)
   */
  it('shouldInvokePartitionerWhenSet', () => {
    const expectedKeys = [0, 1];
    const calls: Array<{ key: number; value: string }> = [];
    const streamPartitionerMock: StreamPartitioner<number, string> = (_topic, key, value) => {
      calls.push({ key, value });
      return 0;
    };
    const repartitionOperationName = 'test';
    const repartitioned = Repartitioned.streamPartitioner(streamPartitionerMock).withName(repartitionOperationName);
    const builder = new StreamsBuilder<number, string>();
    builder.stream('input-topic').repartition(repartitioned);

    const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: Serdes.Integer(), defaultValueSerde: S });
    try {
      const testInputTopic = driver.createInputTopic('input-topic', Serdes.Integer(), S);
      const topicName = `test-driver-${repartitionOperationName}-repartition`;
      const testOutputTopic = driver.createOutputTopic(topicName, Serdes.Integer(), S);
      for (let i = 0; i < 2; i++) testInputTopic.pipeInput(expectedKeys[i]!, `X${expectedKeys[i]}`, i + 10);
      expect(testOutputTopic.readRecord()).toMatchObject({ key: 0, value: 'X0', timestamp: 10 });
      expect(testOutputTopic.readRecord()).toMatchObject({ key: 1, value: 'X1', timestamp: 11 });
      expect(testOutputTopic.readRecordsToList()).toEqual([]);
    } finally {
      driver.close();
    }
    expect(calls).toEqual([
      { key: 0, value: 'X0' },
      { key: 1, value: 'X1' },
    ]);
  });
});

describe('KStreamImplTest (repartition)', () => {
  /** KStreamImplTest.shouldNotAllowNullRepartitionedOnRepartition */
  it('shouldNotAllowNullRepartitionedOnRepartition', () => {
    const testStream = new StreamsBuilder().stream('source', stringConsumed);
    expect(() => testStream.repartition(null as never)).toThrow(new IllegalArgumentError("repartitioned can't be null"));
  });

  /** KStreamImplTest.shouldSendDataThroughRepartitionTopicUsingRepartitioned */
  it('shouldSendDataThroughRepartitionTopicUsingRepartitioned', () => {
    const builder = new StreamsBuilder();
    const processorSupplier = mockProcessorSupplier<string, string>();
    const input = 'topic';
    const stream = builder.stream(input, stringConsumed);
    stream.repartition(Repartitioned.with(S, S)).process(processorSupplier);
    const driver = new TopologyTestDriver(builder.build());
    try {
      driver.createInputTopic(input, S, S, { startTimestampMs: 0, autoAdvanceMs: 0 }).pipeInput('a', 'b');
    } finally {
      driver.close();
    }
    expect(processorSupplier.processed).toEqual([{ key: 'a', value: 'b', timestamp: 0 }]);
  });
});

describe('StreamsBuilderTest (repartition)', () => {
  /** StreamsBuilderTest.shouldProcessViaRepartitionTopic */
  it('shouldProcessViaRepartitionTopic', () => {
    const builder = new StreamsBuilder<string, string>();
    const source = builder.stream('topic-source');
    const through = source.repartition();
    const sourceProcessorSupplier = mockProcessorSupplier<string, string>();
    source.process(sourceProcessorSupplier);
    const throughProcessorSupplier = mockProcessorSupplier<string, string>();
    through.process(throughProcessorSupplier);
    const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: S, defaultValueSerde: S });
    try {
      driver.createInputTopic('topic-source', S, S, { startTimestampMs: 0, autoAdvanceMs: 0 }).pipeInput('A', 'aa');
    } finally {
      driver.close();
    }
    expect(sourceProcessorSupplier.processed).toEqual([{ key: 'A', value: 'aa', timestamp: 0 }]);
    expect(throughProcessorSupplier.processed).toEqual([{ key: 'A', value: 'aa', timestamp: 0 }]);
  });
});
