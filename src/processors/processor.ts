/**
 * The Processor API: processors, their context, punctuation.
 */
import { TopologyError } from '../errors.js';
import type { Headers } from '../records/types.js';
import type { TaskId } from './task-contract.js';
import type { Record } from './record.js';
import type { StateStore, StoreBuilder } from '../state/state-store.js';

/** Which clock drives a punctuator: the task's stream time or the wall clock. */
export type PunctuationType = 'STREAM_TIME' | 'WALL_CLOCK_TIME';

/**
 * Called by a schedule with the current stream time (or wall-clock time). It
 * may return a promise: the task then waits for it (nothing else of the task
 * runs meanwhile), a rejection goes to the processing exception handler, and
 * `forward()` works until it settles.
 */
export type Punctuator = (timestamp: number) => void | Promise<void>;

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
  /**
   * Forwards `record` to every child, or only to the child named `childName`.
   * Allowed only while the processor is processing: during `process()` (until
   * the promise it returned settles) and during one of its punctuators.
   * Anywhere else (after that promise settled, from a timer or callback not
   * awaited by `process()`, in `init`/`close`) it throws an
   * `IllegalStateError` naming the processor, because the output would
   * belong to no input record and could be lost while the offsets commit.
   */
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
 *
 * `process` may be `async` (return a promise), e.g. to enrich a record from
 * a database. The task then honours the promise:
 *
 * - it waits for it in order: the next record of the task is processed only
 *   after the promise settled (other tasks keep running);
 * - a rejection is handled exactly like a synchronous throw: the processing
 *   exception handler decides (`CONTINUE` skips the record, `FAIL` fails the
 *   task and its transaction is aborted), and the input offset commits only
 *   after the promise settled;
 * - `context.forward()` called before the promise settles works, and its
 *   outputs belong to that input record (same transaction, same offset);
 *   a `forward()` after it settled throws an `IllegalStateError`.
 *
 * A synchronous `process` (returning `undefined`) costs no promise. The DSL
 * functions (`mapValues`, `filter`, `map`, aggregators, ...) stay synchronous:
 * one returning a promise is a processing error naming the operation; only
 * `foreach` and `peek` actions may be async (their promise is awaited).
 */
export interface Processor<KIn, VIn, KOut = never, VOut = never> {
  init?(context: ProcessorContext<KOut, VOut>): void;
  /** Processes one record; see the interface comment for a returned promise. */
  process(record: Record<KIn, VIn>): void | Promise<void>;
  close?(): void;
}

/**
 * A processor supplier that declares the state stores its processors use
 * (Kafka's `ConnectedStoreProvider`): `Topology.addProcessor`,
 * `KStream.process` and `KStream.processValues` add each store `stores()`
 * returns (once per builder: the same builder given again is shared, a
 * different builder of an existing store's name is a TopologyError) and
 * connect it to the processor, so no store names need to be passed.
 */
export interface ConnectedStoreProvider {
  /** The builders of the stores to add and connect; `null`/`undefined` (the default) for none. */
  stores?(): Iterable<StoreBuilder<StateStore>> | null | undefined;
}

/**
 * Creates a new processor instance per task: a function or an object with
 * `get()`; either may declare its stores with `stores()` ({@link ConnectedStoreProvider}).
 */
export type ProcessorSupplier<KIn, VIn, KOut = never, VOut = never> = (
  | (() => Processor<KIn, VIn, KOut, VOut>)
  | { get(): Processor<KIn, VIn, KOut, VOut> }
) &
  ConnectedStoreProvider;

/** Chooses the topic of an output record from its key, value and input record context. */
export type TopicNameExtractor<K = unknown, V = unknown> = (key: K, value: V, recordContext: RecordContext) => string;

/**
 * Chooses the partition of an output record; `undefined` lets the collector
 * partition (murmur2 on the serialized key). An array multicasts (Kafka's
 * `StreamPartitioner.partitions`, KIP-837): the record is sent to each
 * partition in it once; an empty array drops the record (counted in the
 * task's `droppedRecords`).
 */
export type StreamPartitioner<K = unknown, V = unknown> = (
  topic: string,
  key: K,
  value: V,
  numPartitions: number,
) => number | readonly number[] | undefined;

/** Instantiates a processor from a supplier of either form. */
export function supplyProcessor<KIn, VIn, KOut, VOut>(
  supplier: ProcessorSupplier<KIn, VIn, KOut, VOut>,
): Processor<KIn, VIn, KOut, VOut> {
  return typeof supplier === 'function' ? supplier() : supplier.get();
}

/**
 * The store builders `supplier.stores()` declares (none when it has no
 * `stores`, or it returns `null`); a non-builder among them is a TopologyError
 * naming the processor.
 */
export function suppliedStores(supplier: ConnectedStoreProvider, processorName: string): StoreBuilder<StateStore>[] {
  if (typeof supplier.stores !== 'function') return [];
  const stores = supplier.stores();
  if (stores === null || stores === undefined) return [];
  const builders = [...stores];
  for (const b of builders) {
    if (b === null || typeof b !== 'object' || typeof b.build !== 'function' || typeof b.name !== 'string') {
      throw new TopologyError(`The supplier of processor '${processorName}' returned from stores() something that is not a StoreBuilder (${String(b)}); return builders such as Stores.keyValueStoreBuilder(...)`);
    }
  }
  return builders;
}
