/**
 * The processor of `builder.table()` / `stream.toTable()` (Kafka's
 * `KTableSource`): turns each input record into a `Change` of its key. A
 * null key is dropped (logged, counted as skipped). When materialized, the
 * value is stored with the record's timestamp and the previous value becomes
 * the change's old value (sent only when a downstream node asked for old
 * values); a null value deletes the key (a tombstone).
 *
 * One "no value": a record value of `undefined` (a deserializer returning
 * it) is read as `null`, a delete; the changes forwarded never hold
 * `undefined`.
 *
 * Materialization is decided while the topology is built: a `Materialized`
 * with a store name, or a downstream node that needs to look values up (a
 * join, a filter asked for old values) calls `materialize()`, which makes
 * the KTable add the store (`onMaterialize`).
 */
import type { ProcessorContext } from '../processor.js';
import { dslContext, type DslProcessorContext } from '../dsl-context.js';
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

/** The supplier of a table source; see the file comment. */
export class KTableSourceSupplier<K, V> implements KTableProcessorSupplier<K, V, K, V> {
  private materializedFlag = false;
  private sendOldValues = false;

  constructor(
    /** The store's name (generated when the user named none). */
    readonly storeName: string,
    /** Called once, when the table becomes materialized: adds the store to the topology. */
    private readonly onMaterialize: () => void,
    /** True when the store is versioned (a versioned supplier in the `Materialized`): the table's changes are versioned. */
    private readonly versioned = false,
  ) {}

  /** Kafka's `TableSourceNode.setOutputVersioned(storeSupplier instanceof VersionedBytesStoreSupplier)`. */
  isOutputVersioned(): boolean {
    return this.versioned;
  }

  /** True when the table keeps a store. */
  get materialized(): boolean {
    return this.materializedFlag;
  }

  /** Makes the table keep its store (once). */
  materialize(): void {
    if (this.materializedFlag) return;
    this.materializedFlag = true;
    this.onMaterialize();
  }

  enableSendingOldValues(forceMaterialization: boolean): boolean {
    if (!forceMaterialization && !this.materializedFlag) return false;
    this.materialize();
    this.sendOldValues = true;
    return true;
  }

  view(): KTableValueGetterSupplier<K, V> {
    this.materialize();
    return materializedValueGetterSupplier<K, V>(this.storeName);
  }

  get() {
    const { storeName, sendOldValues } = this;
    const materialized = this.materializedFlag;
    let context: DslProcessorContext<K, Change<V>>;
    let store: TableStore<K, V> | undefined;
    let forwarder: TableTupleForwarder<K, V> | undefined;
    return {
      init(c: ProcessorContext<K, Change<V>>) {
        context = dslContext(c);
        if (materialized) {
          store = tableStore<K, V>(c, storeName);
          forwarder = new TableTupleForwarder(store.store, context, sendOldValues);
        }
      },
      process(record: import('../record.js').Record<K, V>) {
        if (record.key === null || record.key === undefined) {
          context.recordDropped('null key');
          return;
        }
        const value = record.value ?? null;
        if (store === undefined || forwarder === undefined) {
          context.forward(record.withValue(Change.of<V>(value, null)));
          return;
        }
        // Kafka's KTableSource over its KeyValueStoreWrapper: on a versioned store an update older than
        // the history retention is not put and not forwarded; an out-of-order one is forwarded with isLatest false
        const old = store.get(record.key);
        const put = store.put(record.key, value, record.timestamp);
        if (put === VersionedKeyValueStore.PUT_RETURN_CODE_NOT_PUT) return;
        forwarder.maybeForward(record.withValue(Change.of<V>(value, sendOldValues ? old?.value : null, put === PUT_IS_LATEST)));
      },
    };
  }
}
