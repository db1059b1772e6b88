/**
 * Fixed-key processors (Kafka Streams' `FixedKeyProcessor`, KIP-820): the
 * processors of `KStream.processValues`, which may change values,
 * timestamps and headers but never keys.
 */
import { IllegalArgumentError } from '../errors.js';
import { FixedKeyRecord } from './fixed-key-record.js';
import type { Cancellable, ConnectedStoreProvider, Processor, ProcessorContext, ProcessorSupplier, PunctuationType, Punctuator, RecordMetadata } from './processor.js';
import type { Record } from './record.js';
import { AsyncProcessor } from './internal/async-processor.js';
import type { StateStore } from '../state/state-store.js';
import type { TaskId } from './task-contract.js';

/**
 * The context of a {@link FixedKeyProcessor}: as `ProcessorContext`
 * (punctuation, state stores, record metadata, commit requests), but
 * `forward` takes a {@link FixedKeyRecord} only, so the key stays the input's.
 */
export interface FixedKeyProcessorContext<KForward = unknown, VForward = unknown> {
  /** The task running this processor instance. */
  readonly taskId: TaskId;
  /** The name of the processor node. */
  readonly processorName: string;
  /**
   * Forwards `record` (one derived from the record being processed, with
   * `withValue`/`withTimestamp`/`withHeaders`) to every child, or only to
   * the child named `childName`; the same rules as `ProcessorContext.forward`
   * (only while processing or punctuating).
   */
  forward<V extends VForward>(record: FixedKeyRecord<KForward, V>, childName?: string): void;
  /** As `ProcessorContext.schedule`: `STREAM_TIME` or `WALL_CLOCK_TIME` punctuation every `intervalMs`. */
  schedule(intervalMs: number, type: PunctuationType, punctuator: Punctuator): Cancellable;
  /** A state store connected to this processor (by name, or declared by the supplier's `stores()`). */
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
 * A processor whose outputs keep the input's key. `init`, `process` and
 * `close` are called as a `Processor`'s are (`process` may be `async`, with
 * the same rules); `process` forwards `record.withValue(...)` copies.
 */
export interface FixedKeyProcessor<KIn, VIn, VOut = never> {
  init?(context: FixedKeyProcessorContext<KIn, VOut>): void;
  /** Processes one record; a returned promise is awaited as a `Processor`'s. */
  process(record: FixedKeyRecord<KIn, VIn>): void | Promise<void>;
  close?(): void;
}

/**
 * Creates a new fixed-key processor per task: a function or an object with
 * `get()`; either may declare its stores with `stores()` (`ConnectedStoreProvider`).
 */
export type FixedKeyProcessorSupplier<KIn, VIn, VOut = never> = (
  | (() => FixedKeyProcessor<KIn, VIn, VOut>)
  | { get(): FixedKeyProcessor<KIn, VIn, VOut> }
) &
  ConnectedStoreProvider;

/** @internal Set by `asyncFixedKeyProcessor` on its supplier: the concurrency its processors run with as an async step. */
export const ASYNC_CONCURRENCY: unique symbol = Symbol('sluice.asyncConcurrency');

/** The fixed-key view of a processor's context. */
class FixedKeyContext<K, VOut> implements FixedKeyProcessorContext<K, VOut> {
  constructor(private readonly inner: ProcessorContext<K, VOut>) {}

  get taskId(): TaskId {
    return this.inner.taskId;
  }

  get processorName(): string {
    return this.inner.processorName;
  }

  forward<V extends VOut>(record: FixedKeyRecord<K, V>, childName?: string): void {
    if (!(record instanceof FixedKeyRecord)) {
      throw new IllegalArgumentError(
        `processValues processor '${this.inner.processorName}' forwarded ${record === null ? 'null' : 'a record that is not a FixedKeyRecord'}; forward record.withValue(...) of the record it received (the key cannot change: use process() to change keys)`,
      );
    }
    this.inner.forward(FixedKeyRecord.toRecord(record), childName);
  }

  schedule(intervalMs: number, type: PunctuationType, punctuator: Punctuator): Cancellable {
    return this.inner.schedule(intervalMs, type, punctuator);
  }

  getStateStore<S extends StateStore = StateStore>(name: string): S {
    return this.inner.getStateStore<S>(name);
  }

  recordMetadata(): RecordMetadata | null {
    return this.inner.recordMetadata();
  }

  commit(): void {
    this.inner.commit();
  }

  currentStreamTimeMs(): number {
    return this.inner.currentStreamTimeMs();
  }

  currentSystemTimeMs(): number {
    return this.inner.currentSystemTimeMs();
  }
}

/** Runs a fixed-key processor as a plain one: records in are wrapped, records out unwrapped. */
class FixedKeyProcessorAdapter<K, VIn, VOut> implements Processor<K, VIn, K, VOut> {
  constructor(private readonly processor: FixedKeyProcessor<K, VIn, VOut>) {}

  init(context: ProcessorContext<K, VOut>): void {
    this.processor.init?.(new FixedKeyContext<K, VOut>(context));
  }

  process(record: Record<K, VIn>): void | Promise<void> {
    return this.processor.process(FixedKeyRecord.fromRecord(record));
  }

  close(): void {
    this.processor.close?.();
  }
}

/**
 * @internal The plain `ProcessorSupplier` running `supplier`'s fixed-key
 * processors (used by `KStream.processValues`); its `stores()` are the
 * supplier's.
 */
export function adaptFixedKeySupplier<K, VIn, VOut>(supplier: FixedKeyProcessorSupplier<K, VIn, VOut>): ProcessorSupplier<K, VIn, K, VOut> {
  const supply = (): FixedKeyProcessor<K, VIn, VOut> => (typeof supplier === 'function' ? supplier() : supplier.get());
  const concurrency = (supplier as { [ASYNC_CONCURRENCY]?: number })[ASYNC_CONCURRENCY];
  const adapt = (): Processor<K, VIn, K, VOut> => new FixedKeyProcessorAdapter<K, VIn, VOut>(supply());
  return {
    // a supplier of `asyncFixedKeyProcessor`: its processors run as an async step
    get: concurrency === undefined ? adapt : () => new AsyncProcessor(adapt() as Processor<unknown, unknown, unknown, unknown>, concurrency) as unknown as Processor<K, VIn, K, VOut>,
    stores: () => (typeof supplier.stores === 'function' ? supplier.stores() : undefined),
  };
}
