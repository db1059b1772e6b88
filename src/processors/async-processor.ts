/**
 * Asynchronous steps (issue 33): a processor whose `process()` calls
 * something slow (a database, an HTTP service, a model) runs its calls for
 * different keys at the same time, up to `concurrency` per task, with
 * exactly-once kept. The Processor API's {@link asyncProcessor} and the DSL's
 * `KStream.mapValuesAsync`, `flatMapValuesAsync`, `filterAsync` and
 * `foreachAsync` (whose processors are built here) share one engine
 * (`internal/async-calls.ts`, `internal/async-nodes.ts`).
 */
import { IllegalArgumentError } from '../errors.js';
import type { Processor, ProcessorContext, ProcessorSupplier } from './processor.js';
import { supplyProcessor } from './processor.js';
import type { Record } from './record.js';
import { AsyncProcessor } from './internal/async-processor.js';
import { ASYNC_CONCURRENCY, type FixedKeyProcessor, type FixedKeyProcessorSupplier } from './fixed-key-processor.js';

/** The default `concurrency` of an async step. */
export const DEFAULT_ASYNC_CONCURRENCY = 16;

/**
 * Options of an async Processor API step ({@link asyncProcessor}).
 */
export interface AsyncProcessorOptions {
  /**
   * Records of this step in flight per task at most (running, or waiting
   * behind an earlier record of their key); when reached, the task takes no
   * more input (its fetching pauses) until one finishes. A whole number
   * from 1; default 16.
   */
  concurrency?: number;
}

/**
 * Options of the DSL's async steps (`KStream.mapValuesAsync`, ...): the
 * {@link AsyncProcessorOptions} and the processor's name.
 */
export interface AsyncOptions extends AsyncProcessorOptions {
  /** The processor node's name (as `Named.as`); default a generated `KSTREAM-...ASYNC-<n>`. */
  named?: string;
}

/**
 * Wraps a processor supplier so that each record's `process()` runs as an
 * asynchronous call:
 *
 * - calls for different keys run concurrently, up to `concurrency` per task;
 *   calls for the same key run one after another, in input order;
 * - what a call forwards (through the context kept from `init`, also after
 *   an `await`) goes downstream once the call finished, per key in input
 *   order, each output with its own input record's context (timestamp,
 *   headers, topic, partition, offset);
 * - exactly-once: before every commit (and clean close) the task waits for
 *   the calls in flight (at most `asyncCallTimeoutMs`), so no offset passes
 *   an unfinished record; a crash with calls in flight commits nothing of
 *   them, and they run again;
 * - a rejection (or throw) goes to the processing exception handler like a
 *   synchronous throw: CONTINUE drops only that record (what it forwarded
 *   before failing is dropped too), FAIL fails the task; a call that does not
 *   settle within `asyncCallTimeoutMs` fails with `ASYNC_CALL_TIMEOUT` (what
 *   it forwards later is dropped).
 *
 * State stores inside a call: a call may read and write its own key's
 * entries (calls of one key never overlap); other keys' entries may be
 * changed by concurrent calls meanwhile (reading them gives no consistent
 * view). Punctuators of the task see in-flight records as not processed yet.
 * Inside a call, `recordMetadata()` is the call's input record's.
 *
 * @example
 * ```ts
 * builder.stream('orders').process(asyncProcessor(() => new EnrichProcessor(db), { concurrency: 64 }));
 * ```
 */
export function asyncProcessor<KIn, VIn, KOut = never, VOut = never>(
  supplier: ProcessorSupplier<KIn, VIn, KOut, VOut>,
  options: AsyncProcessorOptions = {},
): ProcessorSupplier<KIn, VIn, KOut, VOut> {
  if (supplier === null || (typeof supplier !== 'function' && typeof supplier?.get !== 'function')) {
    throw new IllegalArgumentError('asyncProcessor needs a processor supplier (a function returning a processor, or an object with get())');
  }
  const concurrency = checkedConcurrency(options);
  const wrapped = {
    get: (): Processor<KIn, VIn, KOut, VOut> =>
      new AsyncProcessor(supplyProcessor(supplier) as Processor<unknown, unknown, unknown, unknown>, concurrency) as unknown as Processor<KIn, VIn, KOut, VOut>,
  };
  return typeof supplier.stores === 'function' ? { ...wrapped, stores: supplier.stores.bind(supplier) } : wrapped;
}

/**
 * The fixed-key form of {@link asyncProcessor}, for `KStream.processValues`:
 * the supplier's processors run as an async step (per key in input order,
 * across keys concurrently, up to `concurrency` per task), with the same
 * rules; what they forward keeps the input's key.
 *
 * @example
 * ```ts
 * stream.processValues(asyncFixedKeyProcessor(() => new EnrichValues(db), { concurrency: 64 }));
 * ```
 */
export function asyncFixedKeyProcessor<KIn, VIn, VOut = never>(
  supplier: FixedKeyProcessorSupplier<KIn, VIn, VOut>,
  options: AsyncProcessorOptions = {},
): FixedKeyProcessorSupplier<KIn, VIn, VOut> {
  if (supplier === null || (typeof supplier !== 'function' && typeof supplier?.get !== 'function')) {
    throw new IllegalArgumentError('asyncFixedKeyProcessor needs a fixed-key processor supplier (a function returning a processor, or an object with get())');
  }
  const concurrency = checkedConcurrency(options);
  const get = (): FixedKeyProcessor<KIn, VIn, VOut> => (typeof supplier === 'function' ? supplier() : supplier.get());
  const wrapped = { get, [ASYNC_CONCURRENCY]: concurrency };
  return typeof supplier.stores === 'function' ? { ...wrapped, stores: supplier.stores.bind(supplier) } : wrapped;
}

/** The `concurrency` of `options`, checked (an IllegalArgumentError naming the option). */
export function checkedConcurrency(options: AsyncProcessorOptions | undefined): number {
  const concurrency = options?.concurrency ?? DEFAULT_ASYNC_CONCURRENCY;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new IllegalArgumentError(`Async step option 'concurrency' must be a whole number >= 1 (records in flight per task), got ${String(concurrency)}`);
  }
  return concurrency;
}

/** A processor running `step` on each record (with the context kept from `init`). */
function stepSupplier<K, V, KOut, VOut>(
  concurrency: number,
  step: (record: Record<K, V>, context: ProcessorContext<KOut, VOut>) => Promise<void>,
): ProcessorSupplier<K, V, KOut, VOut> {
  return asyncProcessor<K, V, KOut, VOut>(() => {
    let ctx: ProcessorContext<KOut, VOut> | undefined;
    return {
      init: (context) => void (ctx = context),
      process: (record) => step(record, ctx as ProcessorContext<KOut, VOut>),
    };
  }, { concurrency });
}

/** The processor of `KStream.mapValuesAsync`. */
export function mapValuesAsyncSupplier<K, V, VR>(mapper: (value: V, key: K) => VR | PromiseLike<VR>, concurrency: number): ProcessorSupplier<K, V, K, VR> {
  return stepSupplier<K, V, K, VR>(concurrency, async (r, c) => c.forward(r.withValue(await mapper(r.value, r.key))));
}

/** The processor of `KStream.flatMapValuesAsync`. */
export function flatMapValuesAsyncSupplier<K, V, VR>(mapper: (value: V, key: K) => Iterable<VR> | PromiseLike<Iterable<VR>>, concurrency: number): ProcessorSupplier<K, V, K, VR> {
  return stepSupplier<K, V, K, VR>(concurrency, async (r, c) => {
    const values = await mapper(r.value, r.key);
    if (values === null || values === undefined) throw new IllegalArgumentError('flatMapValuesAsync: the mapper returned null; return an empty array for no output');
    for (const v of values) c.forward(r.withValue(v));
  });
}

/** The processor of `KStream.filterAsync`. */
export function filterAsyncSupplier<K, V>(predicate: (key: K, value: V) => boolean | PromiseLike<boolean>, concurrency: number): ProcessorSupplier<K, V, K, V> {
  return stepSupplier<K, V, K, V>(concurrency, async (r, c) => {
    if (await predicate(r.key, r.value)) c.forward(r);
  });
}

/** The processor of `KStream.foreachAsync`. */
export function foreachAsyncSupplier<K, V>(action: (key: K, value: V) => unknown, concurrency: number): ProcessorSupplier<K, V, never, never> {
  return stepSupplier<K, V, never, never>(concurrency, async (r) => {
    await action(r.key, r.value);
  });
}
