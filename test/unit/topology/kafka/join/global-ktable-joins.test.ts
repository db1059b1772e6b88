/**
 * Ported from Kafka Streams' `GlobalKTableJoinsTest` (inputs and expected
 * results unchanged): the global table is written first, then the stream
 * joins it by its value; the last result per key is checked with its
 * timestamp (the stream record's).
 */
import { describe, expect, it } from 'vitest';
import { Serdes, StreamsBuilder, type GlobalKTable, type KStream } from '../../../../../src/index.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import { CapturingProcessor, TOSTRING_JOINER } from '../../../../helpers/ktable/global-join-capture.js';

const S = Serdes.String();
const streamTopic = 'stream';
const globalTopic = 'global';

function setUp(): { builder: StreamsBuilder; global: GlobalKTable<string, string>; stream: KStream<string, string> } {
  const builder = new StreamsBuilder();
  const consumed = { keySerde: S, valueSerde: S };
  const global = builder.globalTable(globalTopic, consumed);
  const stream = builder.stream(streamTopic, consumed);
  return { builder, global, stream };
}

const keyValueMapper = (_key: string, value: string): string => value;

function verifyJoin(builder: StreamsBuilder, expected: Map<string, { value: string; timestamp: number }>, supplier: CapturingProcessor<string, string>): void {
  const driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: S, defaultValueSerde: S });
  try {
    const globalInputTopic = driver.createInputTopic(globalTopic, S, S);
    // write some data to the global table
    globalInputTopic.pipeInput('a', 'A', 1);
    globalInputTopic.pipeInput('b', 'B', 5);
    const streamInputTopic = driver.createInputTopic(streamTopic, S, S);
    // write some data to the stream
    streamInputTopic.pipeInput('1', 'a', 2);
    streamInputTopic.pipeInput('2', 'b', 10);
    streamInputTopic.pipeInput('3', 'c', 3);
  } finally {
    driver.close();
  }
  expect(supplier.lastValueAndTimestampPerKey()).toEqual(expected);
}

describe('GlobalKTableJoinsTest', () => {
  // GlobalKTableJoinsTest.shouldLeftJoinWithStream
  it('shouldLeftJoinWithStream', () => {
    const { builder, global, stream } = setUp();
    const supplier = new CapturingProcessor<string, string>();
    stream.leftJoin(global, keyValueMapper, TOSTRING_JOINER).process(supplier.supplier);
    const expected = new Map([
      ['1', { value: 'a+A', timestamp: 2 }],
      ['2', { value: 'b+B', timestamp: 10 }],
      ['3', { value: 'c+null', timestamp: 3 }],
    ]);
    verifyJoin(builder, expected, supplier);
  });

  // GlobalKTableJoinsTest.shouldInnerJoinWithStream
  it('shouldInnerJoinWithStream', () => {
    const { builder, global, stream } = setUp();
    const supplier = new CapturingProcessor<string, string>();
    stream.join(global, keyValueMapper, TOSTRING_JOINER).process(supplier.supplier);
    const expected = new Map([
      ['1', { value: 'a+A', timestamp: 2 }],
      ['2', { value: 'b+B', timestamp: 10 }],
    ]);
    verifyJoin(builder, expected, supplier);
  });
});
