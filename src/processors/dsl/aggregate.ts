/**
 * The processor behind count / reduce / aggregate of a grouped stream: keeps
 * the aggregate per key in a key-value store and forwards every update (no
 * caching). Records with a null key or value are skipped, as Kafka Streams does.
 */
import type { ProcessorContext, ProcessorSupplier } from '../processor.js';
import type { KeyValueStore } from '../state/state-store.js';

/** Aggregates into `storeName`: `aggregator(key, value, previous ?? initializer())`. */
export function aggregateSupplier<K, V, A>(
  storeName: string,
  initializer: () => A,
  aggregator: (key: K, value: V, aggregate: A) => A,
): ProcessorSupplier<K, V, K, A> {
  return () => {
    let context: ProcessorContext<K, A>;
    let store: KeyValueStore<K, A>;
    return {
      init(c) {
        context = c;
        store = c.getStateStore<KeyValueStore<K, A>>(storeName);
      },
      process(record) {
        if (record.key === null || record.key === undefined || record.value === null || record.value === undefined) return;
        const previous = store.get(record.key);
        const next = aggregator(record.key, record.value, previous === null ? initializer() : previous);
        store.put(record.key, next);
        context.forward(record.withValue(next));
      },
    };
  };
}

/** Reduces into `storeName`: the first value as is, then `reducer(previous, value)`. */
export function reduceSupplier<K, V>(storeName: string, reducer: (aggregate: V, value: V) => V): ProcessorSupplier<K, V, K, V> {
  return () => {
    let context: ProcessorContext<K, V>;
    let store: KeyValueStore<K, V>;
    return {
      init(c) {
        context = c;
        store = c.getStateStore<KeyValueStore<K, V>>(storeName);
      },
      process(record) {
        if (record.key === null || record.key === undefined || record.value === null || record.value === undefined) return;
        const previous = store.get(record.key);
        const next = previous === null ? record.value : reducer(previous, record.value);
        store.put(record.key, next);
        context.forward(record.withValue(next));
      },
    };
  };
}
