/**
 * The processor behind count / reduce / aggregate of a grouped stream: keeps
 * the aggregate per key in a timestamped key-value store and forwards every
 * update. Records with a null key or value are dropped as Kafka Streams does:
 * one WARN "Skipping record due to null key or value" (throttled) and the
 * input record counts in metric `recordsSkipped`. Initializer, aggregator and
 * reducer must be synchronous.
 *
 * Each update is stamped, as Kafka Streams stamps it, with the maximum
 * timestamp seen for its key (the first record's own timestamp, then
 * `max(record, previous)`); the store keeps that timestamp with the aggregate
 * (`ValueAndTimestamp`), so it survives a restore.
 *
 * Forwarding follows Kafka's `TimestampedTupleForwarder`: when the store
 * caches (its `setFlushListener` answers true) the updates are forwarded by
 * the store's flush listener when the cache writes them down (at the commit's
 * flush, or an eviction), with the timestamp and headers of the entry;
 * otherwise `process()` forwards each update at once.
 */
import type { ProcessorContext, ProcessorSupplier } from '../processor.js';
import { Record } from '../record.js';
import type { ProcessorContextImpl } from '../internal/processor-context-impl.js';
import { isCachedStateStore } from '../state/caching-flush-listener.js';
import type { StateStore } from '../state/state-store.js';
import type { StoreRecordContext } from '../state/store-contract.js';
import type { ValueAndTimestamp } from '../state/value-and-timestamp.js';
import { syncResult } from './sync-result.js';

const NULL_KEY_OR_VALUE = 'null key or value';

/** The store an aggregation needs: a timestamped key-value store (Kafka's `TimestampedKeyValueStore`). */
export interface TimestampedAggregateStore<K, A> extends StateStore {
  get(key: K): ValueAndTimestamp<A> | null;
  put(key: K, value: ValueAndTimestamp<A> | null): void;
}

/** Kafka Streams' rule: a null key or value cannot be aggregated; the record is dropped, logged and counted. */
function dropsNull(context: ProcessorContext<unknown, unknown>, key: unknown, value: unknown): boolean {
  if (key !== null && key !== undefined && value !== null && value !== undefined) return false;
  (context as unknown as ProcessorContextImpl).recordDropped(NULL_KEY_OR_VALUE);
  return true;
}

/**
 * Kafka's `TimestampedTupleForwarder`: registers the flush listener on a
 * caching store (which then forwards), else forwards from `process()`.
 */
class TupleForwarder<K, A> {
  private readonly cached: boolean;

  constructor(
    store: TimestampedAggregateStore<K, A>,
    private readonly context: ProcessorContext<K, A>,
  ) {
    const impl = context as unknown as ProcessorContextImpl;
    this.cached =
      isCachedStateStore<K, ValueAndTimestamp<A>>(store) &&
      store.setFlushListener((key, newValue, _old, recordContext: StoreRecordContext) => {
        if (newValue === null) return; // an aggregation never deletes
        impl.forwardFromCache(new Record(key, newValue.value, newValue.timestamp, recordContext.headers), recordContext);
      }, false);
  }

  /** Forwards `record` unless the store's flush listener will. */
  maybeForward(record: Record<K, A>): void {
    if (!this.cached) this.context.forward(record);
  }
}

/** One update step: the previous aggregate and timestamp of the key, the new aggregate; stores and forwards it stamped with the max timestamp. */
function update<K, V, A>(
  store: TimestampedAggregateStore<K, A>,
  forwarder: TupleForwarder<K, A>,
  record: Record<K, V>,
  next: (previous: A | null) => A,
): void {
  const previous = store.get(record.key);
  const aggregate = next(previous === null ? null : previous.value);
  const timestamp = previous === null ? record.timestamp : Math.max(record.timestamp, previous.timestamp);
  store.put(record.key, { value: aggregate, timestamp });
  forwarder.maybeForward(record.withValue(aggregate).withTimestamp(timestamp));
}

/** Aggregates into `storeName`: `aggregator(key, value, previous ?? initializer())`. */
export function aggregateSupplier<K, V, A>(
  storeName: string,
  initializer: () => A,
  aggregator: (key: K, value: V, aggregate: A) => A,
): ProcessorSupplier<K, V, K, A> {
  return () => {
    let context: ProcessorContext<K, A>;
    let store: TimestampedAggregateStore<K, A>;
    let forwarder: TupleForwarder<K, A>;
    return {
      init(c) {
        context = c;
        store = c.getStateStore<TimestampedAggregateStore<K, A>>(storeName);
        forwarder = new TupleForwarder(store, c);
      },
      process(record) {
        if (dropsNull(context as ProcessorContext<unknown, unknown>, record.key, record.value)) return;
        update(store, forwarder, record, (previous) => {
          const initial = previous === null ? syncResult('aggregate', 'initializer', initializer()) : previous;
          return syncResult('aggregate', 'aggregator', aggregator(record.key, record.value, initial));
        });
      },
    };
  };
}

/** Reduces into `storeName`: the first value as is, then `reducer(previous, value)`. */
export function reduceSupplier<K, V>(storeName: string, reducer: (aggregate: V, value: V) => V): ProcessorSupplier<K, V, K, V> {
  return () => {
    let context: ProcessorContext<K, V>;
    let store: TimestampedAggregateStore<K, V>;
    let forwarder: TupleForwarder<K, V>;
    return {
      init(c) {
        context = c;
        store = c.getStateStore<TimestampedAggregateStore<K, V>>(storeName);
        forwarder = new TupleForwarder(store, c);
      },
      process(record) {
        if (dropsNull(context as ProcessorContext<unknown, unknown>, record.key, record.value)) return;
        update(store, forwarder, record, (previous) =>
          previous === null ? record.value : syncResult('reduce', 'reducer', reducer(previous, record.value)),
        );
      },
    };
  };
}
