/**
 * Processors behind the stateless KStream operations. Each forwards
 * synchronously to its children. The user functions they call must be
 * synchronous ({@link syncResult}); only `foreach` / `peek` actions may return
 * a promise, which the task awaits like an async processor's.
 */
import type { Processor, ProcessorContext, ProcessorSupplier } from '../processor.js';
import type { Record } from '../record.js';
import type { KeyValue } from '../key-value.js';
import { isThenable } from '../internal/pending.js';
import { syncResult } from './sync-result.js';

type Any = unknown;
type Supplier = ProcessorSupplier<Any, Any, Any, Any>;

/** A processor whose body is `(record, context) => void` (or a promise, for peek/foreach). */
function simple(body: (record: Record<Any, Any>, context: ProcessorContext<Any, Any>) => void | Promise<void>): Supplier {
  return (): Processor<Any, Any, Any, Any> => {
    let context: ProcessorContext<Any, Any>;
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
export function filterSupplier(predicate: (key: Any, value: Any) => boolean, negate: boolean): Supplier {
  return simple((r, c) => {
    if (Boolean(syncResult(negate ? 'filterNot' : 'filter', 'predicate', predicate(r.key, r.value))) !== negate) c.forward(r);
  });
}

/** Replaces key and value. */
export function mapSupplier(mapper: (key: Any, value: Any) => KeyValue<Any, Any>): Supplier {
  return simple((r, c) => {
    const kv = syncResult('map', 'mapper', mapper(r.key, r.value));
    c.forward(r.withKey(kv.key).withValue(kv.value));
  });
}

/** Replaces the value. */
export function mapValuesSupplier(mapper: (value: Any, key: Any) => Any): Supplier {
  return simple((r, c) => c.forward(r.withValue(syncResult('mapValues', 'mapper', mapper(r.value, r.key)))));
}

/** Replaces the key. */
export function selectKeySupplier(mapper: (key: Any, value: Any) => Any): Supplier {
  return simple((r, c) => c.forward(r.withKey(syncResult('selectKey', 'mapper', mapper(r.key, r.value)))));
}

/** One record in, any number of records out. */
export function flatMapSupplier(mapper: (key: Any, value: Any) => Iterable<KeyValue<Any, Any>>): Supplier {
  return simple((r, c) => {
    for (const kv of syncResult('flatMap', 'mapper', mapper(r.key, r.value))) c.forward(r.withKey(kv.key).withValue(kv.value));
  });
}

/** One value in, any number of values out, same key. */
export function flatMapValuesSupplier(mapper: (value: Any, key: Any) => Iterable<Any>): Supplier {
  return simple((r, c) => {
    for (const v of syncResult('flatMapValues', 'mapper', mapper(r.value, r.key))) c.forward(r.withValue(v));
  });
}

/**
 * Calls `action` and forwards (peek) or not (foreach). An action returning a
 * promise is awaited (the task waits, a rejection goes to the processing
 * handler); peek forwards once it resolved.
 */
export function peekSupplier(action: (key: Any, value: Any) => unknown, forward: boolean): Supplier {
  return simple((r, c) => {
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
export function passThroughSupplier(): Supplier {
  return simple((r, c) => c.forward(r));
}

/**
 * The splitter of `split()`: forwards each record to the child of the first
 * matching predicate, else to the default child when there is one, else drops it.
 * The arrays are read when records flow, so branches added later count.
 */
export function branchSupplier(
  branches: ReadonlyArray<{ predicate: (key: Any, value: Any) => boolean; child: string }>,
  defaultChild: { name: string | null },
): Supplier {
  return simple((r, c) => {
    for (const b of branches) {
      if (syncResult('split', 'branch predicate', b.predicate(r.key, r.value))) return c.forward(r, b.child);
    }
    if (defaultChild.name !== null) c.forward(r, defaultChild.name);
  });
}
