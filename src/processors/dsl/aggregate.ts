/**
 * The processor behind count / reduce / aggregate of a grouped stream: keeps
 * the aggregate per key in a key-value store and forwards every update (no
 * caching). Records with a null key or value are dropped as Kafka Streams
 * does: one WARN "Skipping record due to null key or value" (throttled) and the
 * input record counts in metric `recordsSkipped`. Initializer, aggregator and
 * reducer must be synchronous.
 *
 * Each update is stamped, as Kafka Streams stamps it, with the maximum
 * timestamp seen for its key (the first record's own timestamp, then
 * `max(record, previous)`). sluice's stores hold values only, so the per-key
 * maximum is kept beside the store in the task's memory: after the store is
 * restored (a restart or a task move) it starts again from the next record.
 */
import type { ProcessorContext, ProcessorSupplier } from '../processor.js';
import type { KeyValueStore } from '../state/state-store.js';
import type { ProcessorContextImpl } from '../internal/processor-context-impl.js';
import { syncResult } from './sync-result.js';

const NULL_KEY_OR_VALUE = 'null key or value';

/** Kafka Streams' rule: a null key or value cannot be aggregated; the record is dropped, logged and counted. */
function dropsNull(context: ProcessorContext<unknown, unknown>, key: unknown, value: unknown): boolean {
  if (key !== null && key !== undefined && value !== null && value !== undefined) return false;
  (context as unknown as ProcessorContextImpl).recordDropped(NULL_KEY_OR_VALUE);
  return true;
}

/** The maximum timestamp per key, keyed by an identity of the key (primitives as is, else JSON or hex). */
class MaxTimestamps {
  private readonly byKey = new Map<unknown, number>();

  /** Step: `max(timestamp, previous)` when the key had an aggregate, else `timestamp`; remembered. */
  next(key: unknown, timestamp: number, hadAggregate: boolean): number {
    const id = identity(key);
    const previous = hadAggregate ? this.byKey.get(id) : undefined;
    const next = previous === undefined ? timestamp : Math.max(previous, timestamp);
    this.byKey.set(id, next);
    return next;
  }
}

function identity(key: unknown): unknown {
  if (typeof key !== 'object' || key === null) return key;
  if (Buffer.isBuffer(key)) return `buffer:${key.toString('hex')}`;
  return `json:${JSON.stringify(key)}`;
}

/** Aggregates into `storeName`: `aggregator(key, value, previous ?? initializer())`. */
export function aggregateSupplier<K, V, A>(
  storeName: string,
  initializer: () => A,
  aggregator: (key: K, value: V, aggregate: A) => A,
): ProcessorSupplier<K, V, K, A> {
  return () => {
    let context: ProcessorContext<K, A>;
    let store: KeyValueStore<K, A>;
    const timestamps = new MaxTimestamps();
    return {
      init(c) {
        context = c;
        store = c.getStateStore<KeyValueStore<K, A>>(storeName);
      },
      process(record) {
        if (dropsNull(context as ProcessorContext<unknown, unknown>, record.key, record.value)) return;
        const previous = store.get(record.key);
        const initial = previous === null ? syncResult('aggregate', 'initializer', initializer()) : previous;
        const next = syncResult('aggregate', 'aggregator', aggregator(record.key, record.value, initial));
        store.put(record.key, next);
        context.forward(record.withValue(next).withTimestamp(timestamps.next(record.key, record.timestamp, previous !== null)));
      },
    };
  };
}

/** Reduces into `storeName`: the first value as is, then `reducer(previous, value)`. */
export function reduceSupplier<K, V>(storeName: string, reducer: (aggregate: V, value: V) => V): ProcessorSupplier<K, V, K, V> {
  return () => {
    let context: ProcessorContext<K, V>;
    let store: KeyValueStore<K, V>;
    const timestamps = new MaxTimestamps();
    return {
      init(c) {
        context = c;
        store = c.getStateStore<KeyValueStore<K, V>>(storeName);
      },
      process(record) {
        if (dropsNull(context as ProcessorContext<unknown, unknown>, record.key, record.value)) return;
        const previous = store.get(record.key);
        const next = previous === null ? record.value : syncResult('reduce', 'reducer', reducer(previous, record.value));
        store.put(record.key, next);
        context.forward(record.withValue(next).withTimestamp(timestamps.next(record.key, record.timestamp, previous !== null)));
      },
    };
  };
}
