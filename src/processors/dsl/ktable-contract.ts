/**
 * What KTable processors share (Kafka's `KTableProcessorSupplier`,
 * `KTableValueGetter(Supplier)`, `KTableMaterializedValueGetterSupplier`,
 * `TimestampedTupleForwarder` and `TimestampedCacheFlushListener`).
 *
 * A KTable node forwards `Record<K, Change<V>>`. Its *view* looks up the
 * table's current value of a key: from the node's store when it is
 * materialized, else through the parent's view with the node's own
 * computation applied (a filter's predicate, a mapper, a join's joiner).
 */
import type { Processor, ProcessorContext } from '../processor.js';
import { Record } from '../record.js';
import { dslContext, type DslProcessorContext } from '../dsl-context.js';
import { isCachedStateStore } from '../../state/caching-flush-listener.js';
import type { StateStore } from '../../state/state-store.js';
import type { StoreRecordContext } from '../../state/store-contract.js';
import type { ValueAndTimestamp } from '../../state/value-and-timestamp.js';
import { Change } from './change.js';

/** Looks up a table's current value of a key (Kafka's `KTableValueGetter`). */
export interface KTableValueGetter<K, V> {
  /** Called from the `init` of the processor using the getter; reach stores through `context`. */
  init(context: ProcessorContext<unknown, unknown>): void;
  /** The value and its timestamp, or `null` when the key has none. */
  get(key: K): ValueAndTimestamp<V> | null;
  close?(): void;
}

/** Creates value getters; `storeNames()` are the stores a getter reads (connect them to the processor using it). */
export interface KTableValueGetterSupplier<K, V> {
  get(): KTableValueGetter<K, V>;
  storeNames(): string[];
}

/**
 * The processor supplier of a KTable node: a processor of
 * `Record<KIn, Change<VIn>>` (a source: of plain values) forwarding
 * `Record<KOut, Change<VOut>>`, its view, and the switch that makes it send
 * old values (Kafka's `enableSendingOldValues(forceMaterialization)`: with
 * `force`, an unmaterialized upstream source materializes; without, old
 * values are sent only when some upstream node already is materialized;
 * returns whether they are sent).
 */
export interface KTableProcessorSupplier<KIn, VIn, KOut, VOut> extends KTableNodeSupplier<KOut, VOut> {
  get(): Processor<KIn, VIn, KOut, Change<VOut>>;
}

/**
 * What a KTable object keeps of its node's supplier: the view and the
 * old-values switch (any {@link KTableProcessorSupplier} is one, whatever
 * its input types).
 */
export interface KTableNodeSupplier<K, V> {
  view(): KTableValueGetterSupplier<K, V>;
  enableSendingOldValues(forceMaterialization: boolean): boolean;
}

/** A timestamped key-value store as KTable processors use it. */
export interface TimestampedTableStore<K, V> extends StateStore {
  get(key: K): ValueAndTimestamp<V> | null;
  put(key: K, value: ValueAndTimestamp<V> | null): void;
}

/** The view of a materialized table: reads its store (Kafka's `KTableMaterializedValueGetterSupplier`). */
export function materializedValueGetterSupplier<K, V>(storeName: string): KTableValueGetterSupplier<K, V> {
  return {
    get() {
      let store: TimestampedTableStore<K, V>;
      return {
        init(context) {
          store = context.getStateStore<TimestampedTableStore<K, V>>(storeName);
        },
        get(key) {
          return store.get(key);
        },
      };
    },
    storeNames: () => [storeName],
  };
}

/**
 * Kafka's `TimestampedTupleForwarder` for tables: when the store caches, the
 * store's flush listener forwards (`Change(new, old)`, the entry's timestamp,
 * old values only when `sendOldValues`); otherwise `maybeForward` forwards
 * at once.
 */
export class TableTupleForwarder<K, V> {
  private readonly cached: boolean;

  /** `store`: the node's store; only asked whether it caches (a table's key-value store, or a window store with windowed keys `K`). */
  constructor(
    store: StateStore,
    private readonly context: DslProcessorContext<K, Change<V>>,
    sendOldValues: boolean,
  ) {
    this.cached =
      isCachedStateStore<K, ValueAndTimestamp<V>>(store) &&
      store.setFlushListener((key, newValue, oldValue, recordContext: StoreRecordContext) => {
        const change = Change.of<V>(newValue?.value, sendOldValues ? oldValue?.value : null);
        context.forwardFromCache(new Record(key, change, newValue?.timestamp ?? recordContext.timestamp, recordContext.headers), recordContext);
      }, sendOldValues);
  }

  /** Forwards `record` unless the store's flush listener will. */
  maybeForward(record: Record<K, Change<V>>): void {
    if (!this.cached) this.context.forward(record);
  }
}

/**
 * The output of a KTable node that may keep its own store (Kafka's
 * `queryableName != null` branch, repeated in every KTable processor):
 * materialized, a change is written to the store (a null new value deletes)
 * and forwarded through the {@link TableTupleForwarder}; otherwise it is
 * forwarded at once.
 */
export class TableNodeOutput<K, V> {
  private context: DslProcessorContext<K, Change<V>> | undefined;
  private forwarder: TableTupleForwarder<K, V> | undefined;
  /** The node's store, once `init` ran on a materialized node. */
  store: TimestampedTableStore<K, V> | undefined;

  constructor(
    private readonly queryableName: string | undefined,
    private readonly sendOldValues: boolean,
  ) {}

  /** Call from the processor's `init`. */
  init(context: ProcessorContext<K, Change<V>>): void {
    this.context = dslContext(context);
    if (this.queryableName === undefined) return;
    this.store = context.getStateStore<TimestampedTableStore<K, V>>(this.queryableName);
    this.forwarder = new TableTupleForwarder(this.store, this.context, this.sendOldValues);
  }

  /** Stores (when materialized) and forwards `record`, whose value is the node's change. */
  emit(record: Record<K, Change<V>>): void {
    if (this.store === undefined || this.forwarder === undefined) {
      this.context?.forward(record);
      return;
    }
    const { newValue } = record.value;
    this.store.put(record.key, newValue === null ? null : { value: newValue, timestamp: record.timestamp });
    this.forwarder.maybeForward(record);
  }
}

/** True when `supplier` is a KTable processor supplier (has a view). */
export function isKTableProcessorSupplier(supplier: unknown): supplier is KTableProcessorSupplier<unknown, unknown, unknown, unknown> {
  return typeof (supplier as { view?: unknown } | null)?.view === 'function';
}
