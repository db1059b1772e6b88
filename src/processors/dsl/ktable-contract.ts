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
import { MeteredVersionedKeyValueStore, VersionedKeyValueStore, type VersionedRecord } from '../../state/versioned/versioned-key-value-store.js';
import { Change } from './change.js';

/** Looks up a table's current value of a key (Kafka's `KTableValueGetter`). */
export interface KTableValueGetter<K, V> {
  /** Called from the `init` of the processor using the getter; reach stores through `context`. */
  init(context: ProcessorContext<unknown, unknown>): void;
  /** The value and its timestamp, or `null` when the key has none. */
  get(key: K): ValueAndTimestamp<V> | null;
  /** Optional (a versioned table's view): the value valid at `asOf` (Kafka's `KTableValueGetter.get(key, asOfTimestamp)`). */
  getAsOf?(key: K, asOf: number): ValueAndTimestamp<V> | null;
  /** Optional: true when the view reads a versioned store (after `init`). */
  isVersioned?(): boolean;
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
  /**
   * Optional (Kafka's `GraphNode.isOutputVersioned()`, resolved as
   * `InternalStreamsBuilder.isVersionedOrVersionedUpstream`): true when the
   * node's changes come from a versioned store, its own or, for a node
   * without a store, its parents' (all of them versioned). Absent: false.
   */
  isOutputVersioned?(): boolean;
}

/**
 * True when `table`'s changes are versioned (see
 * {@link KTableNodeSupplier.isOutputVersioned}): the downstream KTable
 * processors then use Kafka's versioned semantics (KIP-914: an out-of-order
 * change, `isLatest` false, is not joined, grouped or aggregated).
 */
export function isOutputVersioned(table: { readonly supplier?: { isOutputVersioned?(): boolean } } | undefined): boolean {
  return table?.supplier?.isOutputVersioned?.() ?? false;
}

/** A timestamped key-value store as KTable processors use it. */
export interface TimestampedTableStore<K, V> extends StateStore {
  get(key: K): ValueAndTimestamp<V> | null;
  put(key: K, value: ValueAndTimestamp<V> | null): void;
}

/** Kafka's `KeyValueStoreWrapper.PUT_RETURN_CODE_IS_LATEST`: the put is the key's latest value. */
export const PUT_IS_LATEST = VersionedKeyValueStore.PUT_RETURN_CODE_VALID_TO_UNDEFINED;

/**
 * A table's store as its processors write and read it, timestamped or
 * versioned (Kafka's `KeyValueStoreWrapper`): `put` returns
 * {@link PUT_IS_LATEST}, a versioned store's `validTo` for an out-of-order
 * update (not the latest), or `PUT_RETURN_CODE_NOT_PUT` when the update was
 * older than the history retention; `getAsOf` answers the value valid at a
 * time (a timestamped store only knows its latest).
 */
export interface TableStore<K, V> {
  readonly versioned: boolean;
  get(key: K): ValueAndTimestamp<V> | null;
  getAsOf(key: K, asOf: number): ValueAndTimestamp<V> | null;
  put(key: K, value: V | null, timestamp: number): number;
  /** The store itself (for the cache's flush listener). */
  readonly store: StateStore;
}

/** The {@link TableStore} over the table store `storeName` of `context`. */
export function tableStore<K, V>(context: ProcessorContext<unknown, unknown>, storeName: string): TableStore<K, V> {
  const store = context.getStateStore<StateStore>(storeName);
  if (store instanceof MeteredVersionedKeyValueStore) {
    const versioned = store as MeteredVersionedKeyValueStore<K, V>;
    return {
      versioned: true,
      store,
      get: (key) => plain(versioned.get(key)),
      getAsOf: (key, asOf) => plain(versioned.get(key, asOf)),
      put: (key, value, timestamp) => versioned.put(key, value, timestamp),
    };
  }
  const timestamped = store as TimestampedTableStore<K, V>;
  return {
    versioned: false,
    store,
    get: (key) => timestamped.get(key),
    getAsOf: (key) => timestamped.get(key),
    put: (key, value, timestamp) => {
      timestamped.put(key, value === null ? null : { value, timestamp });
      return PUT_IS_LATEST;
    },
  };
}

function plain<V>(record: VersionedRecord<V> | null): ValueAndTimestamp<V> | null {
  return record === null ? null : { value: record.value, timestamp: record.timestamp };
}

/** The view of a materialized table: reads its store (Kafka's `KTableMaterializedValueGetterSupplier`). */
export function materializedValueGetterSupplier<K, V>(storeName: string): KTableValueGetterSupplier<K, V> {
  return {
    get() {
      let store: TableStore<K, V>;
      return {
        init(context) {
          store = tableStore<K, V>(context, storeName);
        },
        get(key) {
          return store.get(key);
        },
        getAsOf(key, asOf) {
          return store.getAsOf(key, asOf);
        },
        isVersioned: () => store.versioned,
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
  store: TableStore<K, V> | undefined;

  constructor(
    private readonly queryableName: string | undefined,
    private readonly sendOldValues: boolean,
  ) {}

  /** Call from the processor's `init`. */
  init(context: ProcessorContext<K, Change<V>>): void {
    this.context = dslContext(context);
    if (this.queryableName === undefined) return;
    this.store = tableStore<K, V>(context, this.queryableName);
    this.forwarder = new TableTupleForwarder(this.store.store, this.context, this.sendOldValues);
  }

  /**
   * Stores (when materialized) and forwards `record`, whose value is the
   * node's change; on a versioned store (Kafka's KTableFilter and others), an
   * update older than its history retention is neither stored nor forwarded,
   * and an out-of-order one is forwarded with `isLatest` false.
   */
  emit(record: Record<K, Change<V>>): void {
    if (this.store === undefined || this.forwarder === undefined) {
      this.context?.forward(record);
      return;
    }
    const { newValue } = record.value;
    const put = this.store.put(record.key, newValue, record.timestamp);
    if (put === VersionedKeyValueStore.PUT_RETURN_CODE_NOT_PUT) return;
    // Kafka: `new Change<>(newValue, oldValue, putReturnCode == PUT_RETURN_CODE_IS_LATEST)`: the node's own store answers
    const isLatest = put === PUT_IS_LATEST;
    this.forwarder.maybeForward(record.value.isLatest === isLatest ? record : record.withValue(Change.of<V>(newValue, record.value.oldValue, isLatest)));
  }
}

/** True when `supplier` is a KTable processor supplier (has a view). */
export function isKTableProcessorSupplier(supplier: unknown): supplier is KTableProcessorSupplier<unknown, unknown, unknown, unknown> {
  return typeof (supplier as { view?: unknown } | null)?.view === 'function';
}
