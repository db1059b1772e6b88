/**
 * Ported from Kafka Streams' `KStreamMapTest.testKeyValueMapperResultNotNull`
 * and `KStreamFlatMapTest.testKeyValueMapperResultNotNull`: a mapper returning
 * null fails with Kafka's message, as a processing error the processing
 * exception handler decides on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Record, Serdes, StreamsBuilder, StreamsError } from '../../../../src/index.js';
import { flatMapSupplier, mapSupplier } from '../../../../src/processors/dsl/stateless.js';
import type { Processor, ProcessorContext, ProcessorSupplier } from '../../../../src/processors/processor.js';
import { TopologyTestDriver } from '../../../../src/testing.js';

const MESSAGE = 'The provided KeyValueMapper returned null which is not allowed.';
const S = Serdes.String();

function processOne(supplier: ProcessorSupplier<string, number, string, number>): unknown {
  const processor = (supplier as () => Processor<string, number, string, number>)();
  processor.init?.({} as ProcessorContext<string, number>);
  try {
    processor.process(new Record<string, number>('K', 0, 0));
  } catch (e) {
    return e;
  }
  return undefined;
}

let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

describe('KeyValueMapper returning null', () => {
  /** KStreamMapTest.testKeyValueMapperResultNotNull */
  it('KStreamMapTest.testKeyValueMapperResultNotNull', () => {
    const throwable = processOne(mapSupplier<string, number, string, number>(() => null as never));
    expect(throwable).toBeInstanceOf(StreamsError);
    expect((throwable as Error).message).toBe(MESSAGE);
  });

  /** KStreamFlatMapTest.testKeyValueMapperResultNotNull */
  it('KStreamFlatMapTest.testKeyValueMapperResultNotNull', () => {
    const throwable = processOne(flatMapSupplier<string, number, string, number>(() => null as never));
    expect(throwable).toBeInstanceOf(StreamsError);
    expect((throwable as Error).message).toBe(MESSAGE);
  });

  it('goes to the processing exception handler, which can CONTINUE past the record', () => {
    const b = new StreamsBuilder();
    b.stream('in', { keySerde: S, valueSerde: S })
      .map((key, value) => (value === 'bad' ? (null as never) : { key, value }))
      .to('out', { keySerde: S, valueSerde: S });
    const errors: string[] = [];
    driver = new TopologyTestDriver(b.build(), {
      initialWallClockTimeMs: 0,
      processingExceptionHandler: { handle: (_ctx, _record, error) => (errors.push(error.message), 'CONTINUE') },
    });
    const input = driver.createInputTopic('in', S, S);
    input.pipeInput('a', 'bad');
    input.pipeInput('b', 'good');
    expect(errors).toEqual([MESSAGE]);
    expect(driver.createOutputTopic('out', S, S).readKeyValuesToList()).toEqual([{ key: 'b', value: 'good' }]);
  });
});
