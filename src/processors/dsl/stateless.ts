/**
 * Processors behind the stateless KStream operations. Each forwards
 * synchronously to its children. The user functions they call must be
 * synchronous ({@link syncResult}); only `foreach` / `peek` actions may return
 * a promise, which the task awaits like an async processor's.
 */
import type { Processor, ProcessorContext, ProcessorSupplier } from '../processor.js';
import type { Record } from '../record.js';
import type { KeyValue } from '../../records/key-value.js';
import { isThenable } from '../internal/pending.js';
import { StreamsError } from '../../errors.js';
import { syncResult } from './sync-result.js';

/** Kafka's message when a map / flatMap mapper returns null. */
export const NULL_KEY_VALUE_MAPPER_RESULT = 'The provided KeyValueMapper returned null which is not allowed.';

/**
 * Returns `result`, or throws Kafka's "The provided KeyValueMapper returned
 * null ..." as a record-level processing error (the processing exception
 * handler decides) when it is null or undefined.
 */
function nonNullMapperResult<T>(result: T): NonNullable<T> {
  if (result === null || result === undefined) {
    throw new StreamsError(NULL_KEY_VALUE_MAPPER_RESULT, { code: 'NULL_MAPPER_RESULT', kind: 'record' });
  }
  return result as NonNullable<T>;
}

/** A processor whose body is `(record, context) => void` (or a promise, for peek/foreach). */
function simple<KIn, VIn, KOut, VOut>(
  body: (record: Record<KIn, VIn>, context: ProcessorContext<KOut, VOut>) => void | Promise<void>,
): ProcessorSupplier<KIn, VIn, KOut, VOut> {
  return (): Processor<KIn, VIn, KOut, VOut> => {
    let context: ProcessorContext<KOut, VOut>;
    return {
      init(c) {
        context = c;
      },
      process(record) {
        return body(record, context);
      },
    };
  };
}

/** Forwards records whose predicate result differs from `negate`. */
export function filterSupplier<K, V>(predicate: (key: K, value: V) => boolean, negate: boolean): ProcessorSupplier<K, V, K, V> {
  return simple<K, V, K, V>((r, c) => {
    if (Boolean(syncResult(negate ? 'filterNot' : 'filter', 'predicate', predicate(r.key, r.value))) !== negate) c.forward(r);
  });
}

/** Replaces key and value; a null result is a processing error with Kafka's message. */
export function mapSupplier<K, V, KR, VR>(mapper: (key: K, value: V) => KeyValue<KR, VR>): ProcessorSupplier<K, V, KR, VR> {
  return simple<K, V, KR, VR>((r, c) => {
    const kv = nonNullMapperResult(syncResult('map', 'mapper', mapper(r.key, r.value)));
    c.forward(r.withKey(kv.key).withValue(kv.value));
  });
}

/** Replaces the value. */
export function mapValuesSupplier<K, V, VR>(mapper: (value: V, key: K) => VR): ProcessorSupplier<K, V, K, VR> {
  return simple<K, V, K, VR>((r, c) => c.forward(r.withValue(syncResult('mapValues', 'mapper', mapper(r.value, r.key)))));
}

/** Replaces the key. */
export function selectKeySupplier<K, V, KR>(mapper: (key: K, value: V) => KR): ProcessorSupplier<K, V, KR, V> {
  return simple<K, V, KR, V>((r, c) => c.forward(r.withKey(syncResult('selectKey', 'mapper', mapper(r.key, r.value)))));
}

/** One record in, any number of records out; a null result is a processing error with Kafka's message. */
export function flatMapSupplier<K, V, KR, VR>(mapper: (key: K, value: V) => Iterable<KeyValue<KR, VR>>): ProcessorSupplier<K, V, KR, VR> {
  return simple<K, V, KR, VR>((r, c) => {
    for (const kv of nonNullMapperResult(syncResult('flatMap', 'mapper', mapper(r.key, r.value)))) c.forward(r.withKey(kv.key).withValue(kv.value));
  });
}

/** One value in, any number of values out, same key. */
export function flatMapValuesSupplier<K, V, VR>(mapper: (value: V, key: K) => Iterable<VR>): ProcessorSupplier<K, V, K, VR> {
  return simple<K, V, K, VR>((r, c) => {
    for (const v of syncResult('flatMapValues', 'mapper', mapper(r.value, r.key))) c.forward(r.withValue(v));
  });
}

/**
 * Calls `action` and forwards (peek) or not (foreach). An action returning a
 * promise is awaited (the task waits, a rejection goes to the processing
 * handler); peek forwards once it resolved.
 */
export function peekSupplier<K, V>(action: (key: K, value: V) => unknown, forward: boolean): ProcessorSupplier<K, V, K, V> {
  return simple<K, V, K, V>((r, c) => {
    const result = action(r.key, r.value);
    if (isThenable(result)) {
      return Promise.resolve(result).then(() => {
        if (forward) c.forward(r);
      });
    }
    if (forward) c.forward(r);
    return undefined;
  });
}

/** Forwards unchanged (merge, branch children, KTable.toStream). */
export function passThroughSupplier<K = unknown, V = unknown>(): ProcessorSupplier<K, V, K, V> {
  return simple<K, V, K, V>((r, c) => c.forward(r));
}

/**
 * The splitter of `split()`: forwards each record to the child of the first
 * matching predicate, else to the default child when there is one, else drops it.
 * The arrays are read when records flow, so branches added later count.
 */
export function branchSupplier<K, V>(
  branches: ReadonlyArray<{ predicate: (key: K, value: V) => boolean; child: string }>,
  defaultChild: { name: string | null },
): ProcessorSupplier<K, V, K, V> {
  return simple<K, V, K, V>((r, c) => {
    for (const b of branches) {
      if (syncResult('split', 'branch predicate', b.predicate(r.key, r.value))) return c.forward(r, b.child);
    }
    if (defaultChild.name !== null) c.forward(r, defaultChild.name);
  });
}
