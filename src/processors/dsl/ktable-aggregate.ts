/**
 * The aggregations of a grouped table (Kafka's `KTableAggregate` and
 * `KTableReduce`, nodes `KTABLE-AGGREGATE-<n>` / `KTABLE-REDUCE-<n>`): each
 * input is a `Change` of the grouping key from the repartition topic; the
 * old value (a row leaving the group, or the row's previous value) is taken
 * out of the aggregate with the subtractor first, then the new value is put
 * in with the adder. The aggregate is stored in a timestamped store (or a
 * versioned one, KIP-914: an aggregate older than the latest is kept as
 * history and forwarded with `isLatest` false) and
 * forwarded as `Change(newAggregate, oldAggregate)` through the
 * {@link TableTupleForwarder} (old aggregate only when a downstream node
 * asked for old values).
 *
 * As Kafka: a count that drops to 0 stays in the store and is forwarded as
 * 0; an adder or subtractor (or reducer) returning null deletes the key and
 * forwards `(null<-old)`. The timestamp of the new aggregate is the
 * record's, or `max(record, previous aggregate)` once the previous aggregate
 * took part (the exact rules of the two Kafka classes are kept, see
 * `aggregateStep` and `reduceStep`). A record without a key is dropped
 * (logged, counted as skipped) instead of failing the task as Kafka does.
 * The functions must be synchronous.
 */
import type { Processor } from '../processor.js';
import { dslContext, type DslProcessorContext } from '../dsl-context.js';
import type { Record } from '../record.js';
import type { ValueAndTimestamp } from '../../state/value-and-timestamp.js';
import { Change } from './change.js';
import {
  materializedValueGetterSupplier,
  PUT_IS_LATEST,
  TableTupleForwarder,
  tableStore,
  type KTableProcessorSupplier,
  type KTableValueGetterSupplier,
  type TableStore,
} from './ktable-contract.js';
import { VersionedKeyValueStore } from '../../state/versioned/versioned-key-value-store.js';
import { syncResult } from './sync-result.js';

/** The new aggregate and its timestamp, from the stored one and the change. */
type Step<K, V, A> = (record: Record<K, Change<V>>, previous: ValueAndTimestamp<A> | null) => { aggregate: A | null; timestamp: number };

const orNull = <T>(value: T | null | undefined): T | null => value ?? null;

/** Kafka's `KTableAggregate.process`: subtract the old value (when there is an aggregate), then add the new one. */
export function aggregateStep<K, V, A>(
  initializer: () => A,
  adder: (key: K, value: V, aggregate: A) => A,
  subtractor: (key: K, value: V, aggregate: A) => A,
): Step<K, V, A> {
  return (record, previous) => {
    const { oldValue, newValue } = record.value;
    const oldAgg = previous === null ? null : orNull(previous.value);
    let timestamp = record.timestamp;
    // 1. take the old value out
    let intermediate: A | null = oldAgg;
    if (oldValue !== null && oldAgg !== null && previous !== null) {
      intermediate = orNull(syncResult('aggregate', 'subtractor', subtractor(record.key, oldValue, oldAgg)));
      timestamp = Math.max(record.timestamp, previous.timestamp);
    }
    // 2. put the new value in
    if (newValue === null) return { aggregate: intermediate, timestamp };
    const initialized = intermediate ?? syncResult('aggregate', 'initializer', initializer());
    const aggregate = orNull(syncResult('aggregate', 'adder', adder(record.key, newValue, initialized)));
    if (previous !== null) timestamp = Math.max(record.timestamp, previous.timestamp);
    return { aggregate, timestamp };
  };
}

/** Kafka's `KTableReduce.process`: subtract the old value (when there is an aggregate), then add the new one (the first value as is). */
export function reduceStep<K, V>(adder: (aggregate: V, value: V) => V, subtractor: (aggregate: V, value: V) => V): Step<K, V, V> {
  return (record, previous) => {
    const { oldValue, newValue } = record.value;
    const oldAgg = previous === null ? null : orNull(previous.value);
    let timestamp = record.timestamp;
    // 1. take the old value out
    let intermediate: V | null = oldAgg;
    if (oldValue !== null && oldAgg !== null && previous !== null) {
      intermediate = orNull(syncResult('reduce', 'subtractor', subtractor(oldAgg, oldValue)));
      timestamp = Math.max(record.timestamp, previous.timestamp);
    }
    // 2. put the new value in
    if (newValue === null) return { aggregate: intermediate, timestamp };
    if (intermediate === null) return { aggregate: newValue, timestamp };
    const aggregate = orNull(syncResult('reduce', 'adder', adder(intermediate, newValue)));
    if (previous !== null) timestamp = Math.max(record.timestamp, previous.timestamp);
    return { aggregate, timestamp };
  };
}

/**
 * The supplier of a grouped-table aggregation over store `storeName`
 * (always materialized: its view is its store; it sends old values once asked).
 */
export class KTableAggregateSupplier<K, V, A> implements KTableProcessorSupplier<K, Change<V>, K, A> {
  private sendOldValues = false;
  /** True when the store is versioned (set by the wiring, as Kafka's `setOutputVersioned`). */
  outputVersioned = false;

  constructor(
    readonly storeName: string,
    private readonly step: Step<K, V, A>,
  ) {}

  enableSendingOldValues(): boolean {
    this.sendOldValues = true;
    return true;
  }

  isOutputVersioned(): boolean {
    return this.outputVersioned;
  }

  view(): KTableValueGetterSupplier<K, A> {
    return materializedValueGetterSupplier<K, A>(this.storeName);
  }

  get(): Processor<K, Change<V>, K, Change<A>> {
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
        if (record.key === null || record.key === undefined) {
          context.recordDropped('null key');
          return;
        }
        // 1. the stored aggregate; 2. the new one; 3. store it; 4. forward (new <- old)
        // (a versioned store, Kafka's KeyValueStoreWrapper: not put, not forwarded either; not the latest: isLatest false)
        const previous = store.get(record.key);
        const { aggregate, timestamp } = step(record, previous);
        const put = store.put(record.key, aggregate, timestamp);
        if (put === VersionedKeyValueStore.PUT_RETURN_CODE_NOT_PUT) return;
        const oldAgg = sendOldValues && previous !== null ? previous.value : null;
        forwarder.maybeForward(record.withValue(Change.of<A>(aggregate, oldAgg, put === PUT_IS_LATEST)).withTimestamp(timestamp));
      },
    };
  }
}

/** `KGroupedTable.aggregate` (and `count`) into `storeName`. */
export function tableAggregateSupplier<K, V, A>(
  storeName: string,
  initializer: () => A,
  adder: (key: K, value: V, aggregate: A) => A,
  subtractor: (key: K, value: V, aggregate: A) => A,
): KTableAggregateSupplier<K, V, A> {
  return new KTableAggregateSupplier<K, V, A>(storeName, aggregateStep(initializer, adder, subtractor));
}

/** `KGroupedTable.reduce` into `storeName`. */
export function tableReduceSupplier<K, V>(storeName: string, adder: (aggregate: V, value: V) => V, subtractor: (aggregate: V, value: V) => V): KTableAggregateSupplier<K, V, V> {
  return new KTableAggregateSupplier<K, V, V>(storeName, reduceStep(adder, subtractor));
}
