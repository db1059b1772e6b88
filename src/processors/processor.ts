/**
 * The Processor API: processors, their context, punctuation.
 */
import type { Headers } from '../records/types.js';
import type { TaskId } from './task-contract.js';
import type { Record } from './record.js';
import type { StateStore } from './state/state-store.js';

/** Which clock drives a punctuator: the task's stream time or the wall clock. */
export type PunctuationType = 'STREAM_TIME' | 'WALL_CLOCK_TIME';

/** Called by a schedule with the current stream time (or wall-clock time). */
export type Punctuator = (timestamp: number) => void;

/** Returned by `schedule`: cancels the punctuation. */
export interface Cancellable {
  cancel(): void;
}

/**
 * Where the record being processed came from (Kafka Streams'
 * `processor.api.RecordMetadata`); public as `ProcessorRecordMetadata`.
 * Not the producer's `RecordMetadata` (Java's `clients.producer.RecordMetadata`,
 * where a sent record landed, with its timestamp): as in Kafka the two stay
 * distinct types, and every producer `RecordMetadata` is also one of these.
 */
export interface RecordMetadata {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
}

/** The record context handed to a topic-name extractor. */
export interface RecordContext {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly timestamp: number;
  readonly headers: Headers;
}

/**
 * What a processor can do besides receiving records: forward records to its
 * children, schedule punctuations, reach its connected state stores.
 */
export interface ProcessorContext<KForward = unknown, VForward = unknown> {
  /** The task running this processor instance. */
  readonly taskId: TaskId;
  /** The name of the processor node. */
  readonly processorName: string;
  /** Forwards `record` to every child, or only to the child named `childName`. */
  forward<K extends KForward, V extends VForward>(record: Record<K, V>, childName?: string): void;
  /**
   * Schedules `punctuator` every `intervalMs`.
   * `STREAM_TIME` punctuations fire while processing, when stream time (the
   * largest record timestamp seen by the task) passes their schedule; the first
   * fires on the first record. `WALL_CLOCK_TIME` ones fire when the executor
   * asks for due punctuations, first at `now + intervalMs`.
   */
  schedule(intervalMs: number, type: PunctuationType, punctuator: Punctuator): Cancellable;
  /**
   * A state store connected to this processor. Asking for a store that is not
   * connected throws a TopologyError naming the fix.
   */
  getStateStore<S extends StateStore = StateStore>(name: string): S;
  /** Topic, partition and offset of the record being processed; `null` inside a punctuation. */
  recordMetadata(): RecordMetadata | null;
  /** Asks the executor to commit as soon as possible. */
  commit(): void;
  /** The task's stream time (largest timestamp seen), -1 before the first record. */
  currentStreamTimeMs(): number;
  /** The wall-clock time of the executor. */
  currentSystemTimeMs(): number;
}

/**
 * A processor. `init` is called once before the first record, `process` for
 * each record in offset order, `close` when the task closes.
 */
export interface Processor<KIn, VIn, KOut = never, VOut = never> {
  init?(context: ProcessorContext<KOut, VOut>): void;
  process(record: Record<KIn, VIn>): void;
  close?(): void;
}

/** Creates a new processor instance per task: a function or an object with `get()`. */
export type ProcessorSupplier<KIn, VIn, KOut = never, VOut = never> =
  | (() => Processor<KIn, VIn, KOut, VOut>)
  | { get(): Processor<KIn, VIn, KOut, VOut> };

/** Chooses the topic of an output record from its key, value and input record context. */
export type TopicNameExtractor<K = unknown, V = unknown> = (key: K, value: V, recordContext: RecordContext) => string;

/**
 * Chooses the partition of an output record; `undefined` lets the collector
 * partition (murmur2 on the serialized key).
 */
export type StreamPartitioner<K = unknown, V = unknown> = (
  topic: string,
  key: K,
  value: V,
  numPartitions: number,
) => number | undefined;

/** Instantiates a processor from a supplier of either form. */
export function supplyProcessor<KIn, VIn, KOut, VOut>(
  supplier: ProcessorSupplier<KIn, VIn, KOut, VOut>,
): Processor<KIn, VIn, KOut, VOut> {
  return typeof supplier === 'function' ? supplier() : supplier.get();
}
