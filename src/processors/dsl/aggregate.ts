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
 * otherwise `process()` forwards each update at once. What is forwarded is a
 * `Change` (the new aggregate, and the old one when a downstream node asked
 * for old values): the aggregation is a KTable node.
 *
 * The store may be versioned (KIP-914, as Kafka's `KStreamAggregate` through
 * its `KeyValueStoreWrapper`): each aggregate is put as a new version at its
 * timestamp; an update the store does not put (older than its history
 * retention) is not forwarded either.
 */
import type { Processor } from '../processor.js';
import type { Record } from '../record.js';
import { dslContext, type DslProcessorContext } from '../dsl-context.js';
import type { StateStore } from '../../state/state-store.js';
import type { ValueAndTimestamp } from '../../state/value-and-timestamp.js';
import { VersionedKeyValueStore } from '../../state/versioned/versioned-key-value-store.js';
import { Change } from './change.js';
import {
  materializedValueGetterSupplier,
  PUT_IS_LATEST,
  tableStore,
  TableTupleForwarder,
  type KTableProcessorSupplier,
  type KTableValueGetterSupplier,
  type TableStore,
} from './ktable-contract.js';
import { syncResult } from './sync-result.js';

const NULL_KEY_OR_VALUE = 'null key or value';

/** The store an aggregation needs: a timestamped key-value store (Kafka's `TimestampedKeyValueStore`). */
export interface TimestampedAggregateStore<K, A> extends StateStore {
  get(key: K): ValueAndTimestamp<A> | null;
  put(key: K, value: ValueAndTimestamp<A> | null): void;
}

/** Kafka Streams' rule: a null key or value cannot be aggregated; the record is dropped, logged and counted. */
function dropsNull(context: DslProcessorContext<unknown, unknown>, key: unknown, value: unknown): boolean {
  if (key !== null && key !== undefined && value !== null && value !== undefined) return false;
  context.recordDropped(NULL_KEY_OR_VALUE);
  return true;
}

/**
 * One update step: 1. the previous aggregate and timestamp of the key; 2. the
 * new aggregate, stamped with the max timestamp; 3. store it; 4. forward
 * `Change(new, old)` unless the store did not put it (a versioned store's
 * `isLatest` with it).
 */
function update<K, V, A>(
  store: TableStore<K, A>,
  forwarder: TableTupleForwarder<K, A>,
  sendOldValues: boolean,
  record: Record<K, V>,
  next: (previous: A | null) => A,
): void {
  const previous = store.get(record.key);
  const aggregate = next(previous === null ? null : previous.value);
  const timestamp = previous === null ? record.timestamp : Math.max(record.timestamp, previous.timestamp);
  const put = store.put(record.key, aggregate, timestamp);
  if (put === VersionedKeyValueStore.PUT_RETURN_CODE_NOT_PUT) return;
  forwarder.maybeForward(record.withValue(Change.of<A>(aggregate, sendOldValues ? previous?.value : null, put === PUT_IS_LATEST)).withTimestamp(timestamp));
}

/**
 * A stream aggregation as a KTable node (Kafka's `KStreamAggProcessorSupplier`):
 * its view is its store; it sends old values once asked.
 */
export class StreamAggregationSupplier<K, V, A> implements KTableProcessorSupplier<K, V, K, A> {
  private sendOldValues = false;
  /** True when the store is versioned (set by the wiring, as Kafka's `setOutputVersioned`). */
  outputVersioned = false;

  constructor(
    private readonly storeName: string,
    private readonly step: (record: Record<K, V>, previous: A | null) => A,
  ) {}

  enableSendingOldValues(): boolean {
    this.sendOldValues = true;
    return true;
  }

  view(): KTableValueGetterSupplier<K, A> {
    return materializedValueGetterSupplier<K, A>(this.storeName);
  }

  isOutputVersioned(): boolean {
    return this.outputVersioned;
  }

  get(): Processor<K, V, K, Change<A>> {
    const { storeName, sendOldValues, step } = this;
    let context: DslProcessorContext<K, Change<A>>;
    let store: TableStore<K, A>;
    let forwarder: TableTupleForwarder<K, A>;
    return {
      init(c) {
        context = dslContext(c);
        store = tableStore<K, A>(c, storeName);
        forwarder = new TableTupleForwarder(store.store, context, sendOldValues);
      },
      process(record) {
        if (dropsNull(context, record.key, record.value)) return;
        update(store, forwarder, sendOldValues, record, (previous) => step(record, previous));
      },
    };
  }
}

/** Aggregates into `storeName`: `aggregator(key, value, previous ?? initializer())`. */
export function aggregateSupplier<K, V, A>(
  storeName: string,
  initializer: () => A,
  aggregator: (key: K, value: V, aggregate: A) => A,
): StreamAggregationSupplier<K, V, A> {
  return new StreamAggregationSupplier<K, V, A>(storeName, (record, previous) => {
    const initial = previous === null ? syncResult('aggregate', 'initializer', initializer()) : previous;
    return syncResult('aggregate', 'aggregator', aggregator(record.key, record.value, initial));
  });
}

/** Reduces into `storeName`: the first value as is, then `reducer(previous, value)`. */
export function reduceSupplier<K, V>(storeName: string, reducer: (aggregate: V, value: V) => V): StreamAggregationSupplier<K, V, V> {
  return new StreamAggregationSupplier<K, V, V>(storeName, (record, previous) =>
    previous === null ? record.value : syncResult('reduce', 'reducer', reducer(previous, record.value)),
  );
}
