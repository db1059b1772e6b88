/**
 * The node after the two sides of a KTable–KTable join (Kafka's
 * `KTableKTableJoinMerger`): the joined table. It receives the changes of
 * both join sides and forwards them as the table's changes; materialized
 * (`queryableName` set) it first writes each new value into its store, and the
 * store's cache decides when they are forwarded. Its view is the store, or,
 * unmaterialized, the join computed through both parents' views.
 */
import type { ProcessorContext } from '../processor.js';
import type { Record } from '../record.js';
import { Change } from './change.js';
import { materializedValueGetterSupplier, TableNodeOutput, type KTableProcessorSupplier, type KTableValueGetterSupplier } from './ktable-contract.js';

/** The merger of a join's sides; see the file comment. */
export class KTableKTableJoinMerger<K, V> implements KTableProcessorSupplier<K, Change<V>, K, V> {
  /** True once a downstream node asked for old values. */
  sendOldValues = false;

  constructor(
    private readonly parent1: KTableProcessorSupplier<K, unknown, K, V>,
    private readonly parent2: KTableProcessorSupplier<K, unknown, K, V>,
    /** The store of the joined table, when it is materialized. */
    readonly queryableName: string | undefined,
    /** True when that store is versioned (Kafka: the join's output is versioned only then). */
    private readonly versionedStore = false,
  ) {}

  /** Kafka's `kTableKTableJoinNode.setOutputVersioned(materialized with a versioned supplier)`. */
  isOutputVersioned(): boolean {
    return this.queryableName !== undefined && this.versionedStore;
  }

  view(): KTableValueGetterSupplier<K, V> {
    // if the result KTable is materialized, use the materialized store to return getter value;
    // otherwise rely on the parent getter and apply join on-the-fly
    if (this.queryableName !== undefined) return materializedValueGetterSupplier<K, V>(this.queryableName);
    return {
      get: () => this.parent1.view().get(),
      storeNames: () => [...new Set([...this.parent1.view().storeNames(), ...this.parent2.view().storeNames()])],
    };
  }

  enableSendingOldValues(_forceMaterialization: boolean): boolean {
    // Table-table joins require upstream materialization:
    this.parent1.enableSendingOldValues(true);
    this.parent2.enableSendingOldValues(true);
    this.sendOldValues = true;
    return true;
  }

  get() {
    const output = new TableNodeOutput<K, V>(this.queryableName, this.sendOldValues);
    const { sendOldValues } = this;
    return {
      init(c: ProcessorContext<K, Change<V>>) {
        output.init(c);
      },
      process(record: Record<K, Change<V>>) {
        const change = record.value;
        output.emit(sendOldValues ? record : record.withValue(Change.of<V>(change.newValue, null, change.isLatest)));
      },
    };
  }
}
