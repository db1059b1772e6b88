import { afterEach, describe, expect, it } from 'vitest';
import {
  SerializationError,
  Serdes,
  StreamsBuilder,
  StreamsError,
  type ErrorHandlerContext,
  type Serde,
  type Topology,
} from '../../../src/index.js';
import { TopologyTestDriver, type TopologyTestDriverConfig } from '../../../src/testing.js';

const S = Serdes.String();
const J = Serdes.Json<{ n: number }>();
let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

/** in (json values) -> mapValues (throws on n < 0) -> out */
function topology(valueSerde: Serde<{ n: number }> = J): Topology {
  const b = new StreamsBuilder();
  b.stream<string, { n: number }>('in', { keySerde: S, valueSerde: J })
    .mapValues((v) => {
      if (v.n < 0) throw new Error(`negative ${v.n}`);
      return { n: v.n * 2 };
    }, 'double')
    .to('out', { keySerde: S, valueSerde });
  return b.build();
}

function start(config: TopologyTestDriverConfig = {}, t = topology()) {
  driver = new TopologyTestDriver(t, config);
  return {
    raw: driver.createInputTopic('in', S, Serdes.Buffer()),
    json: driver.createInputTopic('in', S, J),
    out: driver.createOutputTopic('out', S, J),
  };
}

function thrown(fn: () => void): StreamsError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(StreamsError);
    return error as StreamsError;
  }
  throw new Error('expected an error');
}

describe('exception handlers in the TopologyTestDriver', () => {
  it('deserialization failure with the default handler: FAIL, StreamsError DESERIALIZATION_FAILED with the SerializationError as cause', () => {
    const { raw } = start();
    const error = thrown(() => raw.pipeInput('k', Buffer.from('{not json'), 1));
    expect(error.code).toBe('DESERIALIZATION_FAILED');
    expect(error.kind).toBe('fatal');
    expect(error.cause).toBeInstanceOf(SerializationError);
    const cause = error.cause as SerializationError;
    expect(cause.origin).toBe('VALUE');
    expect(cause.topic).toBe('in');
    expect(cause.message).toMatch(/Failed to deserialize value for topic 'in' with serde Json/);
  });

  it('deserialization handler CONTINUE skips the record and sees the raw record and context', () => {
    const seen: Array<{ ctx: ErrorHandlerContext; value: Buffer | null }> = [];
    const { raw, json, out } = start({
      deserializationExceptionHandler: {
        handle: (ctx, record) => {
          seen.push({ ctx, value: record.value });
          return 'CONTINUE';
        },
      },
    });
    raw.pipeInput('k', Buffer.from('{bad'), 7);
    json.pipeInput('k', { n: 2 }, 8);
    expect(out.readKeyValuesToList()).toEqual([{ key: 'k', value: { n: 4 } }]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.value?.toString()).toBe('{bad');
    expect(seen[0]!.ctx).toMatchObject({ topic: 'in', partition: 0, offset: 0, timestamp: 7, processorNodeId: 'KSTREAM-SOURCE-0000000000', taskId: '0_0' });
  });

  it('processing failure with the default handler: FAIL, StreamsError PROCESSING_FAILED naming the processor, cause kept', () => {
    const { json, out } = start();
    const error = thrown(() => json.pipeInput('k', { n: -1 }));
    expect(error.code).toBe('PROCESSING_FAILED');
    expect(error.message).toMatch(/Processor 'double' failed in task 0_0 on record in-0@0/);
    expect((error.cause as Error).message).toBe('negative -1');
    expect(out.isEmpty()).toBe(true);
  });

  it('processing handler CONTINUE drops the record at the failing node; later records go on', () => {
    const contexts: ErrorHandlerContext[] = [];
    const { json, out } = start({
      processingExceptionHandler: {
        handle: (ctx, record, error) => {
          contexts.push(ctx);
          expect(record.value).toEqual({ n: -5 });
          expect(error.message).toBe('negative -5');
          return 'CONTINUE';
        },
      },
    });
    json.pipeInput('a', { n: -5 });
    json.pipeInput('b', { n: 1 });
    expect(out.readKeyValuesToList()).toEqual([{ key: 'b', value: { n: 2 } }]);
    expect(contexts.map((c) => c.processorNodeId)).toEqual(['double']);
  });

  it('a handler that throws is fatal, with the handler error as cause', () => {
    const boom = new Error('handler broke');
    const { json } = start({
      processingExceptionHandler: {
        handle: () => {
          throw boom;
        },
      },
    });
    const error = thrown(() => json.pipeInput('a', { n: -1 }));
    expect(error.kind).toBe('fatal');
    expect(error.code).toBe('HANDLER_THREW');
    expect(error.cause).toBe(boom);
  });

  it('a handler answering something else than CONTINUE/FAIL is fatal', () => {
    const { json } = start({ processingExceptionHandler: { handle: () => 'MAYBE' as unknown as 'FAIL' } });
    const error = thrown(() => json.pipeInput('a', { n: -1 }));
    expect(error.kind).toBe('fatal');
    expect(error.code).toBe('INVALID_HANDLER_ANSWER');
  });

  it('a handler may answer with dead-letter records, written in place of the skipped one', () => {
    const { raw } = start({
      deserializationExceptionHandler: {
        handle: (_ctx, record) => ({ response: 'CONTINUE', deadLetterRecords: [{ topic: 'dlq', key: record.key, value: record.value }] }),
      },
    });
    raw.pipeInput('k', Buffer.from('oops'), 3);
    const dlq = driver!.createOutputTopic('dlq', S, S).readRecord();
    expect(dlq).toMatchObject({ key: 'k', value: 'oops', timestamp: 3 });
  });

  it('output serialization failure goes to the production handler (FAIL by default; CONTINUE drops only that record)', () => {
    const failing = Serdes.from<{ n: number }>(
      (_t, v) => {
        if (v.n > 100) throw new Error('too big');
        return Buffer.from(JSON.stringify(v));
      },
      (_t, b) => JSON.parse(b.toString()) as { n: number },
      'Picky',
    );
    let s = start({}, topology(failing));
    const error = thrown(() => s.json.pipeInput('k', { n: 60 }));
    expect(error.code).toBe('PRODUCTION_FAILED');
    expect((error.cause as SerializationError).message).toMatch(/Failed to serialize value for topic 'out' with serde Picky: too big/);
    driver!.close();
    const origins: string[] = [];
    s = start(
      {
        productionExceptionHandler: {
          handle: () => 'FAIL',
          handleSerializationException: (ctx, _record, _error, origin) => {
            origins.push(`${origin}@${ctx.processorNodeId}`);
            return 'CONTINUE';
          },
        },
      },
      topology(failing),
    );
    s.json.pipeInput('a', { n: 60 });
    s.json.pipeInput('b', { n: 1 });
    expect(s.out.readKeyValuesToList()).toEqual([{ key: 'b', value: { n: 2 } }]);
    expect(origins).toEqual(['VALUE@KSTREAM-SINK-0000000001']);
  });

  it('a failing punctuator goes to the processing handler', () => {
    const b = new StreamsBuilder();
    b.stream<string, string>('in', { keySerde: S, valueSerde: S }).process(() => ({
      init(c) {
        c.schedule(10, 'WALL_CLOCK_TIME', () => {
          throw new Error('tick failed');
        });
      },
      process() {},
    }));
    driver = new TopologyTestDriver(b.build(), { initialWallClockTimeMs: 0 });
    const error = thrown(() => driver!.advanceWallClockTime(10));
    expect(error.code).toBe('PROCESSING_FAILED');
    expect(error.message).toMatch(/in a punctuation/);
    driver.close();
    const contexts: ErrorHandlerContext[] = [];
    driver = new TopologyTestDriver(b.build(), { initialWallClockTimeMs: 0, processingExceptionHandler: { handle: (ctx) => (contexts.push(ctx), 'CONTINUE') } });
    driver.advanceWallClockTime(10);
    expect(contexts).toEqual([{ topic: '', partition: -1, offset: -1, headers: {}, timestamp: 10, processorNodeId: 'KSTREAM-PROCESSOR-0000000001', taskId: '0_0' }]);
  });

  it('the driver refuses work after close', () => {
    const { json } = start();
    driver!.close();
    expect(() => json.pipeInput('k', { n: 1 })).toThrow(/cannot pipeInput in state CLOSED; allowed in: RUNNING/);
    driver = undefined;
  });
});

describe('handler context carries the raw input', () => {
  it('a processing handler sees the input record coordinates and its raw key and value bytes', () => {
    const seen: ErrorHandlerContext[] = [];
    const { json } = start({
      processingExceptionHandler: {
        handle: (context) => {
          seen.push(context);
          return 'CONTINUE';
        },
      },
    });
    json.pipeInput('k1', { n: -1 }, 5);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ topic: 'in', processorNodeId: 'double', timestamp: 5 });
    expect(seen[0]!.sourceRawKey?.toString()).toBe('k1');
    expect(JSON.parse(seen[0]!.sourceRawValue!.toString())).toEqual({ n: -1 });
  });
});
