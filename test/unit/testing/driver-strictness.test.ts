/**
 * Issue 12 item 9: the TopologyTestDriver is not kinder than production. Bad
 * serializer output, header values and timestamps get the runtime's errors (to
 * the production handler for outputs, thrown for piped input); a topology
 * feeding its own input gets a TopologyError naming the topic instead of a hang.
 * Minor item: a serializer returning undefined is a SerializationError, also
 * for the runtime's collector (sinks hand it checked serializers).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  InvalidRecordError,
  InvalidTimestampError,
  Record,
  SerializationError,
  Serdes,
  StreamsBuilder,
  StreamsError,
  Topology,
  TopologyError,
  type Headers,
  type ProductionExceptionHandler,
  type Serializer,
} from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';
import { toRuntime } from '../../../src/topology/topology-runtime.js';

const S = Serdes.String();
let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

const returning = (name: string, out: unknown): Serializer<string> & { name: string } => ({ name, serialize: () => out as Buffer });

/** in -> (optional record rewrite) -> out with `valueSerializer`. */
function topology(valueSerializer: Serializer<string>, rewrite: (r: Record<string, string>) => Record<string, string> = (r) => r): Topology {
  return new Topology()
    .addSource('src', 'in', { keySerde: S, valueSerde: S })
    .addProcessor(
      'rewrite',
      () => {
        let forward: (r: Record<string, string>) => void;
        return { init: (c) => void (forward = (r) => c.forward(r)), process: (r: Record<string, string>) => forward(rewrite(r)) };
      },
      'src',
    )
    .addSink('sink', 'out', { keySerializer: S, valueSerializer }, 'rewrite');
}

function continuing(): { handler: ProductionExceptionHandler; errors: Error[] } {
  const errors: Error[] = [];
  return { handler: { handle: (_c, _r, e) => (errors.push(e), 'CONTINUE') }, errors };
}

describe('TopologyTestDriver outputs are checked as in production', () => {
  const BAD_OUTPUTS: Array<[string, unknown, RegExp]> = [
    ['a Uint8Array', new Uint8Array([1, 2, 3]), /returned a Uint8Array, not a Buffer/],
    ['an object', { a: 1 }, /returned an object \(Object\), not a Buffer/],
    ['a number', 7, /returned a number \(7\), not a Buffer/],
    ['a string', 'text', /returned a string \(text\), not a Buffer/],
    ['undefined', undefined, /returned undefined \(it would be written as null, a tombstone/],
  ];
  for (const [what, out, message] of BAD_OUTPUTS) {
    it(`a value serializer returning ${what} is a SerializationError naming serde and topic (FAIL by default; CONTINUE drops it)`, () => {
      driver = new TopologyTestDriver(topology(returning('Odd', out)));
      let error: unknown;
      try {
        driver.createInputTopic('in', S, S).pipeInput('k', 'v');
      } catch (e) {
        error = e;
      }
      expect((error as StreamsError).code).toBe('PRODUCTION_FAILED');
      const cause = (error as { cause?: unknown }).cause as SerializationError;
      expect(cause).toBeInstanceOf(SerializationError);
      expect(cause.message).toMatch(/^Failed to serialize value for topic 'out' with serde Odd: /);
      expect(cause.message).toMatch(message);
      driver.close();
      const { handler, errors } = continuing();
      driver = new TopologyTestDriver(topology(returning('Odd', out)), { productionExceptionHandler: handler });
      driver.createInputTopic('in', S, S).pipeInput('k', 'v');
      expect(errors).toHaveLength(1);
      expect(driver.createOutputTopic('out', S, S).isEmpty()).toBe(true);
    });
  }

  it('a null value stays a tombstone (the serializer is not asked)', () => {
    driver = new TopologyTestDriver(topology(returning('Odd', undefined)));
    driver.createInputTopic('in', S, S).pipeInput('k', null);
    const out = driver.createOutputTopic('out', S, S).readRecord();
    expect(out.value).toBeNull();
  });

  const BAD_RECORDS: Array<[string, (r: Record<string, string>) => Record<string, string>, new (...a: never[]) => Error, RegExp]> = [
    ['a fractional timestamp', (r) => r.withTimestamp(r.timestamp + 0.5), InvalidTimestampError, /Record timestamp 1000.5 for topic 'out' is not a non-negative whole number/],
    ['a negative timestamp', (r) => r.withTimestamp(-5), InvalidTimestampError, /Record timestamp -5 for topic 'out'/],
    ['a number header value', (r) => r.withHeaders({ n: 5 } as unknown as Headers), InvalidRecordError, /Header 'n' of a record for topic 'out' is number 5; header values must be a string, a Buffer or null/],
    ['an object header value', (r) => r.withHeaders({ o: { a: 1 } } as unknown as Headers), InvalidRecordError, /Header 'o' .* is an object \(Object\)/],
  ];
  for (const [what, rewrite, errorClass, message] of BAD_RECORDS) {
    it(`an output with ${what} goes to the production handler as ${errorClass.name}, as the produce path has it`, () => {
      const { handler, errors } = continuing();
      driver = new TopologyTestDriver(topology(S, rewrite), { productionExceptionHandler: handler });
      driver.createInputTopic('in', S, S).pipeInput('k', 'v', 1000);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeInstanceOf(errorClass);
      expect(errors[0]!.message).toMatch(message);
      expect(driver.createOutputTopic('out', S, S).isEmpty()).toBe(true);
    });
  }

  it('a partitioner choosing a partition the (one-partition) topic lacks is an InvalidRecordError for that record', () => {
    const t = new Topology()
      .addSource('src', 'in', { keySerde: S, valueSerde: S })
      .addSink('sink', 'out', { keySerde: S, valueSerde: S, partitioner: () => 3 }, 'src');
    const { handler, errors } = continuing();
    driver = new TopologyTestDriver(t, { productionExceptionHandler: handler });
    driver.createInputTopic('in', S, S).pipeInput('k', 'v');
    expect(errors[0]).toBeInstanceOf(InvalidRecordError);
    expect(errors[0]!.message).toMatch(/Partition 3 of topic 'out' does not exist: the topic has 1 partition/);
  });

  it('the runtime collector gets checked serializers too: undefined from a serializer is a SerializationError, not a tombstone', () => {
    const seen: unknown[] = [];
    const collector = {
      send(o: { topic: string; value: unknown; valueSerializer: Serializer<unknown>; headers: Headers }) {
        try {
          seen.push(o.valueSerializer.serialize(o.topic, o.value, o.headers));
        } catch (error) {
          seen.push(error);
        }
      },
    };
    const task = toRuntime(topology(returning('Forgetful', undefined))).createTask({ subtopology: 0, partition: 0 }, collector, {
      deserialization: { handle: () => 'FAIL' },
      processing: { handle: () => 'FAIL' },
    });
    task.init();
    task.process({ topic: 'in', partition: 0, offset: 0, key: Buffer.from('k'), value: Buffer.from('v'), headers: {}, timestamp: 0 });
    expect(seen[0]).toBeInstanceOf(SerializationError);
    expect((seen[0] as Error).message).toMatch(/Failed to serialize value for topic 'out' with serde Forgetful: the serializer returned undefined/);
    task.close();
  });
});

describe('TopologyTestDriver input is what Kafka could deliver', () => {
  function passThrough(): Topology {
    const b = new StreamsBuilder();
    b.stream<string, string>('in', { keySerde: S, valueSerde: S }).to('out', { keySerde: S, valueSerde: S });
    return b.build();
  }

  it('refuses fractional or negative timestamps and non-string/Buffer header values, naming the field', () => {
    driver = new TopologyTestDriver(passThrough());
    const input = driver.createInputTopic('in', S, S);
    expect(() => input.pipeInput('k', 'v', 1.5)).toThrow(InvalidTimestampError);
    expect(() => input.pipeInput('k', 'v', -1)).toThrow(/Record timestamp -1 for topic 'in'/);
    expect(() => input.pipeInput('k', 'v', 1, { h: 5 } as unknown as Headers)).toThrow(InvalidRecordError);
    expect(driver.createOutputTopic('out', S, S).isEmpty()).toBe(true);
  });

  it('an input serializer returning a Uint8Array is a SerializationError, not "1,2,3"', () => {
    driver = new TopologyTestDriver(passThrough());
    const input = driver.createInputTopic('in', S, returning('Bytes', new Uint8Array([1, 2, 3])));
    expect(() => input.pipeInput('k', 'v')).toThrow(/Failed to serialize value for topic 'in' with serde Bytes: the serializer returned a Uint8Array/);
  });
});

describe('TopologyTestDriver and a topology that feeds its own input', () => {
  it('a sink writing to its own source topic is a TopologyError naming topic and sink, not a hang', () => {
    const b = new StreamsBuilder();
    b.stream<string, string>('loop', { keySerde: S, valueSerde: S }).to('loop', { keySerde: S, valueSerde: S });
    driver = new TopologyTestDriver(b.build());
    const input = driver.createInputTopic('loop', S, S);
    expect(() => input.pipeInput('k', 'v')).toThrow(TopologyError);
    expect(() => input.pipeInput('k', 'v')).toThrow(
      /The topology feeds its own input: sink 'KSTREAM-SINK-\d+' writes to topic 'loop', which the topology reads, and a record came back 101 times in a row/,
    );
  });

  it('a loop that ends (a countdown) still works', () => {
    const b = new StreamsBuilder();
    const s = b.stream<string, string>('count', { keySerde: S, valueSerde: S });
    s.filter((_k, v) => Number(v) > 0)
      .mapValues((v) => String(Number(v) - 1))
      .to('count', { keySerde: S, valueSerde: S });
    driver = new TopologyTestDriver(b.build());
    driver.createInputTopic('count', S, S).pipeInput('k', '5');
    expect(driver.createOutputTopic('count', S, S).readValuesToList()).toEqual(['4', '3', '2', '1', '0']);
  });
});
