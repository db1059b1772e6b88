/**
 * KTable filter / filterNot and mapValues (Kafka's `KTableFilter`,
 * `KTableMapValues`): computed on the new and (when sent) old value of each
 * change; materialized when a store name is given, else computed on the fly
 * through the parent's view.
 *
 * Versioned (KIP-914): over a versioned parent the filter forwards every
 * change, a delete of a key already without value too (Kafka's
 * `useVersionedSemantics` turns the skip off); the `isLatest` flag is passed
 * on (a materialized node: its own store's put answers it), and the view
 * answers as of a time through the parent's view.
 *
 * Null rule: the mapper and predicate are never called for a missing value
 * (null); a mapper returning `undefined` or `null` makes the key's value
 * `null` (a delete), so changes and views carry `null`, never `undefined`.
 */
import type { ProcessorContext } from '../processor.js';
import type { Record } from '../record.js';
import type { ValueAndTimestamp } from '../../state/value-and-timestamp.js';
import { Change } from './change.js';
import {
  isOutputVersioned,
  materializedValueGetterSupplier,
  TableNodeOutput,
  type KTableNodeSupplier,
  type KTableProcessorSupplier,
  type KTableValueGetterSupplier,
} from './ktable-contract.js';
import { syncResult } from './sync-result.js';

/** The parent a KTable node computes from: its view and its old-values switch. */
export interface KTableParent<K, V> {
  valueGetterSupplier(): KTableValueGetterSupplier<K, V>;
  enableSendingOldValues(forceMaterialization: boolean): boolean;
  /** The parent's own supplier (read only for {@link isOutputVersioned}; a KTable has it). */
  readonly supplier?: KTableNodeSupplier<K, V>;
}

/**
 * A KTable node computing `compute(key, value)` per value (null: no value).
 * Base of filter and mapValues; `queryableName` set: materialized.
 */
abstract class ComputedTable<K, V, VR> implements KTableProcessorSupplier<K, Change<V>, K, VR> {
  protected sendOldValues = false;
  /** Kafka's `useVersionedSemantics`: the parent's changes are versioned (KIP-914). */
  readonly useVersionedSemantics: boolean;

  constructor(
    protected readonly parent: KTableParent<K, V>,
    protected readonly queryableName: string | undefined,
    /**
     * Kafka's `maybeSetOutputVersioned`: with a `Materialized` (named or not),
     * whether its store supplier is versioned; undefined without one (the
     * node's output is then versioned when its parent's is).
     */
    private readonly materializedVersioned: boolean | undefined,
  ) {
    this.useVersionedSemantics = isOutputVersioned(parent);
  }

  isOutputVersioned(): boolean {
    return this.materializedVersioned ?? this.useVersionedSemantics;
  }

  /** The node's value of `key` from the parent's value (null: none). */
  protected abstract compute(key: K, value: V | null): VR | null;

  /** Skip a change whose new and old results are both null (filter only, when old values are sent). */
  protected skipEmpty(): boolean {
    return false;
  }

  enableSendingOldValues(forceMaterialization: boolean): boolean {
    if (this.queryableName !== undefined) {
      this.sendOldValues = true;
      return true;
    }
    if (this.parent.enableSendingOldValues(forceMaterialization)) this.sendOldValues = true;
    return this.sendOldValues;
  }

  view(): KTableValueGetterSupplier<K, VR> {
    if (this.queryableName !== undefined) return materializedValueGetterSupplier<K, VR>(this.queryableName);
    const parentView = this.parent.valueGetterSupplier();
    return {
      get: () => {
        const getter = parentView.get();
        return {
          init: (c) => getter.init(c),
          get: (key) => this.computeRow(key, getter.get(key)),
          // a versioned parent's view answers as of a time; so does this node's (Kafka's get(key, asOfTimestamp))
          getAsOf: (key, asOf) => this.computeRow(key, getter.getAsOf !== undefined ? getter.getAsOf(key, asOf) : getter.get(key)),
          isVersioned: () => getter.isVersioned?.() ?? false,
          close: () => getter.close?.(),
        };
      },
      storeNames: () => parentView.storeNames(),
    };
  }

  /** The node's row computed from the parent's row (null: none). */
  private computeRow(key: K, vt: ValueAndTimestamp<V> | null): ValueAndTimestamp<VR> | null {
    if (vt === null) return null;
    const value = this.compute(key, vt.value);
    return value === null ? null : { value, timestamp: vt.timestamp };
  }

  get() {
    const compute = (key: K, value: V | null): VR | null => this.compute(key, value);
    // Kafka's KTableFilter: over a versioned parent, duplicate deletes are forwarded too (the optimization is off)
    const skipEmpty = this.skipEmpty() && !this.useVersionedSemantics;
    const { sendOldValues } = this;
    const output = new TableNodeOutput<K, VR>(this.queryableName, sendOldValues);
    return {
      init(c: ProcessorContext<K, Change<VR>>) {
        output.init(c);
      },
      process(record: Record<K, Change<V>>) {
        const key = record.key;
        const change = record.value;
        const newValue = compute(key, change.newValue);
        let oldValue: VR | null = null;
        if (sendOldValues) oldValue = output.store !== undefined ? (output.store.get(key)?.value ?? null) : compute(key, change.oldValue);
        if (sendOldValues && oldValue === null && newValue === null && skipEmpty) return;
        // materialized: the store's put answers isLatest (TableNodeOutput.emit); unmaterialized: the input's flag
        output.emit(record.withValue(Change.of<VR>(newValue, oldValue, change.isLatest)));
      },
    };
  }
}

/** `filter` / `filterNot` of a table: a value failing the predicate is forwarded as a delete. */
export class KTableFilterSupplier<K, V> extends ComputedTable<K, V, V> {
  constructor(
    parent: KTableParent<K, V>,
    private readonly predicate: (key: K, value: V) => boolean,
    private readonly filterNot: boolean,
    queryableName: string | undefined,
    materializedVersioned?: boolean,
  ) {
    super(parent, queryableName, materializedVersioned);
    // If upstream is already materialized, send old values to avoid unnecessary tombstones (as Kafka).
    this.sendOldValues = parent.enableSendingOldValues(false);
  }

  protected compute(key: K, value: V | null): V | null {
    if (value === null) return null;
    const pass = Boolean(syncResult(this.filterNot ? 'filterNot' : 'filter', 'predicate', this.predicate(key, value)));
    return pass !== this.filterNot ? value : null;
  }

  protected override skipEmpty(): boolean {
    return true;
  }
}

/** `mapValues` of a table: `mapper(value, key)` per non-null value. */
export class KTableMapValuesSupplier<K, V, VR> extends ComputedTable<K, V, VR> {
  constructor(
    parent: KTableParent<K, V>,
    private readonly mapper: (value: V, key: K) => VR,
    queryableName: string | undefined,
    materializedVersioned?: boolean,
  ) {
    super(parent, queryableName, materializedVersioned);
  }

  protected compute(key: K, value: V | null): VR | null {
    if (value === null) return null;
    return syncResult('mapValues', 'mapper', this.mapper(value, key)) ?? null;
  }
}
