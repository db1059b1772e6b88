/**
 * The topology and input plan of the exception-handler contract cases
 * (issue #7). Every input record `{ i, kind }` (JSON) produces at most one
 * output carrying its input coordinates (`src: "<partition>:<offset>"`), so a
 * test can check the exactly-once invariant from what is visible.
 *
 * Input kinds and what they do:
 * - `good`: one output, to `out` (even i) or to the compacted `compact` topic (odd i, keyed);
 * - `big`: an output padded over `out`'s max.message.bytes (2048) — RecordTooLargeError;
 * - `nokey`: an output with a null key to the compacted topic — InvalidRecordError;
 * - `throw`: an output whose value serializer throws — SerializationError;
 * - `badjson`: an input value that is not JSON — fails deserialization;
 * - `boom`: the processor throws on it — processing error.
 */
import { Record } from '../../../src/processors/record.js';
import type { ProcessorContext } from '../../../src/processors/processor.js';
import type { Serde } from '../../../src/serdes/serde.js';
import { Serdes } from '../../../src/serdes/serdes.js';
import { Branched } from '../../../src/topology/dsl-interfaces.js';
import { Named } from '../../../src/topology/options.js';
import { StreamsBuilder } from '../../../src/topology/streams-builder.js';
import type { Topology } from '../../../src/topology/topology.js';

export type Kind = 'good' | 'big' | 'nokey' | 'throw' | 'badjson' | 'boom';

/** The kinds that make a poison output (handed to the production exception handler). */
export const OUTPUT_POISON: readonly Kind[] = ['big', 'nokey', 'throw'];

/** The JSON value of an input record. */
export interface InputValue {
  i: number;
  kind: Kind;
}

/** The value of an output record. */
export interface OutputValue extends InputValue {
  /** `<partition>:<offset>` of the input record. */
  src: string;
  pad?: string;
}

/** Max message size of the `out` topic; `big` outputs exceed it. */
export const OUT_MAX_BYTES = 2048;

/** Name of the processor node that stamps the input coordinates (and throws on `boom`). */
export const STAMP_NODE = 'stamp';

/** Thrown by the value serializer for `throw` outputs. */
export class MarkedValueError extends Error {
  override name = 'MarkedValueError';
}

/** Thrown by the processor for `boom` inputs. */
export class BoomError extends Error {
  override name = 'BoomError';
}

/** A JSON serde that throws when asked to serialize a value of kind `throw`. */
export function throwingOutputSerde(): Serde<OutputValue> {
  const json = Serdes.Json<OutputValue>();
  return {
    name: 'ThrowingJson',
    serialize(topic, data, headers) {
      if (data?.kind === 'throw') throw new MarkedValueError(`refusing to serialize marked value i=${data.i}`);
      return json.serialize(topic, data, headers);
    },
    deserialize: (topic, data, headers) => json.deserialize(topic, data, headers),
  };
}

/** Topics of one case. */
export interface HandlerTopics {
  input: string;
  /** max.message.bytes = {@link OUT_MAX_BYTES}. */
  out: string;
  /** cleanup.policy = compact. */
  compact: string;
}

/** The case topology: source (JSON) → stamp → split: nokey or odd good → compact, else → out. */
export function handlerTopology(topics: HandlerTopics): Topology {
  const builder = new StreamsBuilder();
  const stamped = builder
    .stream<string, InputValue>(topics.input, { keySerde: Serdes.String(), valueSerde: Serdes.Json<InputValue>() })
    .process<string | null, OutputValue>(
      () => {
        let context: ProcessorContext<string | null, OutputValue>;
        return {
          init(c) {
            context = c;
          },
          process(record) {
            const { i, kind } = record.value;
            if (kind === 'boom') throw new BoomError(`boom on i=${i}`);
            const meta = context.recordMetadata()!;
            const value: OutputValue = { i, kind, src: `${meta.partition}:${meta.offset}` };
            if (kind === 'big') value.pad = 'x'.repeat(OUT_MAX_BYTES + 1000);
            context.forward(new Record(kind === 'nokey' ? null : record.key, value, record.timestamp, record.headers));
          },
        };
      },
      Named.as(STAMP_NODE),
    );
  const produced = { keySerde: Serdes.String() as Serde<string | null>, valueSerde: throwingOutputSerde() };
  stamped
    .split('route-')
    .branch((_k, v) => v.kind === 'nokey' || (v.kind === 'good' && v.i % 2 === 1), Branched.withConsumer((s) => s.to(topics.compact, produced), 'compact'))
    .defaultBranch(Branched.withConsumer((s) => s.to(topics.out, produced), 'out'));
  return builder.build();
}

/** Which output topic the output of input `i` of `kind` goes to (undefined: no output expected). */
export function outputTopicOf(topics: HandlerTopics, i: number, kind: Kind): string | undefined {
  if (kind === 'badjson' || kind === 'boom') return undefined;
  if (kind === 'nokey' || (kind === 'good' && i % 2 === 1)) return topics.compact;
  return topics.out;
}

/**
 * Kinds for inputs `from .. from+count-1`: every `every` records one `big`,
 * one `nokey` and one `throw` (offsets 3, 7, 11 within the cycle), the rest good.
 */
export function mixedKinds(from: number, count: number, poison: readonly Kind[] = OUTPUT_POISON, every = 20): Kind[] {
  return Array.from({ length: count }, (_, n) => {
    const slot = (from + n) % every;
    const at = [3, 7, 11].indexOf(slot);
    return at >= 0 && at < poison.length ? poison[at]! : 'good';
  });
}

type AnyHandler = {
  handle(context: never, record: never, error: Error): unknown;
  handleSerializationException?(context: never, record: never, error: Error, origin: 'KEY' | 'VALUE'): unknown;
};

/** Wraps a handler, recording the class name (and message) of every error it is asked about, then delegating. */
export function recording<H extends AnyHandler>(inner: H): H & { errors: string[]; messages: string[] } {
  const errors: string[] = [];
  const messages: string[] = [];
  const wrapped = Object.create(inner) as H & { errors: string[]; messages: string[] };
  wrapped.errors = errors;
  wrapped.messages = messages;
  wrapped.handle = (context, record, error) => {
    errors.push(error.constructor.name);
    messages.push(error.message);
    return inner.handle(context, record, error);
  };
  const serialization = inner.handleSerializationException?.bind(inner);
  if (serialization) {
    wrapped.handleSerializationException = (context, record, error, origin) => {
      errors.push(error.constructor.name);
      messages.push(error.message);
      return serialization(context, record, error, origin);
    };
  }
  return wrapped;
}
