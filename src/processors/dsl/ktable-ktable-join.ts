/**
 * One side of a KTable–KTable join on the key (Kafka's
 * `KTableKTableAbstractJoin` and its `KTableKTableInnerJoin`,
 * `KTableKTableLeftJoin`, `KTableKTableRightJoin`, `KTableKTableOuterJoin`,
 * with their value getters, `KTableKTableAbstractJoinValueGetterSupplier`).
 *
 * A join is two of these nodes and a merger (see
 * `ktable-ktable-join-merger.ts`): the *this* side processes the changes of
 * table 1 and looks table 2 up through table 2's view; the *other* side
 * processes the changes of table 2 with the joiner reversed and looks table 1
 * up. Kafka pairs the kinds as inner/inner, left/right and outer/outer.
 *
 * Each change of the processed table (`new`, `old`) joined with the other
 * table's current value gives the change forwarded:
 *   1. a null key is dropped (logged, counted as skipped); so is, when the
 *      processed table is versioned (KIP-914), an out-of-order change
 *      (`isLatest` false);
 *   2. the other table's current value of the key is read;
 *   3. the change is dropped when that value is missing and the kind needs it
 *      (inner, right), or when it is missing and the change carries no value
 *      at all (left, outer);
 *   4. the timestamp is the larger of the record's and the other value's;
 *   5. the new value is the joiner of the change's new value and the other
 *      value, null when the kind lets neither stand alone; the old value the
 *      same of the change's old value, computed only when old values are sent.
 */
import type { ProcessorContext } from '../processor.js';
import type { Record } from '../record.js';
import { dslContext, type DslProcessorContext } from '../dsl-context.js';
import { ValueAndTimestamp } from '../../state/value-and-timestamp.js';
import { Change, OUT_OF_ORDER_VERSIONED } from './change.js';
import { isOutputVersioned, type KTableProcessorSupplier, type KTableValueGetter, type KTableValueGetterSupplier } from './ktable-contract.js';
import type { KTableParent } from './ktable-ops.js';
import { syncResult } from './sync-result.js';

/** The kind of one join side: Kafka's `KTableKTable{Inner,Left,Right,Outer}Join`. */
export type KTableJoinSideKind = 'inner' | 'left' | 'right' | 'outer';

/** The joiner as a join side calls it: the processed table's value first (either may be null where the kind allows). */
export type SideJoiner<K, V1, V2, VOut> = (value1: V1 | null, value2: V2 | null, key: K) => VOut;

/** Which values a kind needs: a null `thisRequired` side yields no row, nor a null `otherRequired` side. */
interface JoinRule {
  readonly thisRequired: boolean;
  readonly otherRequired: boolean;
}

const RULES: { readonly [kind in KTableJoinSideKind]: JoinRule } = {
  inner: { thisRequired: true, otherRequired: true },
  left: { thisRequired: true, otherRequired: false },
  right: { thisRequired: false, otherRequired: true },
  outer: { thisRequired: false, otherRequired: false },
};

/** Kafka's `ConsumerRecord.NO_TIMESTAMP` / `UNKNOWN`: the timestamp of a missing side. */
const UNKNOWN = -1;

/** The supplier of one join side; see the file comment. */
export class KTableKTableJoinSide<K, V1, V2, VOut> implements KTableProcessorSupplier<K, Change<V1>, K, VOut> {
  private readonly rule: JoinRule;
  private readonly valueGetterSupplier1: KTableValueGetterSupplier<K, V1>;
  private readonly valueGetterSupplier2: KTableValueGetterSupplier<K, V2>;
  /** True once a downstream node asked for old values. */
  sendOldValues = false;
  /** Kafka's `useVersionedSemantics`: the processed table (this side's parent) is versioned (KIP-914). */
  readonly useVersionedSemantics: boolean;

  constructor(
    readonly kind: KTableJoinSideKind,
    private readonly table1: KTableParent<K, V1>,
    private readonly table2: KTableParent<K, V2>,
    private readonly joiner: SideJoiner<K, V1, V2, VOut>,
  ) {
    this.rule = RULES[kind];
    this.useVersionedSemantics = isOutputVersioned(table1);
    // As Kafka's constructor: the views are taken here, which materializes an unmaterialized source table.
    this.valueGetterSupplier1 = table1.valueGetterSupplier();
    this.valueGetterSupplier2 = table2.valueGetterSupplier();
  }

  /** Table-table joins need old values of both parents, so both are forced to materialize (as Kafka). */
  enableSendingOldValues(_forceMaterialization: boolean): boolean {
    this.table1.enableSendingOldValues(true);
    this.table2.enableSendingOldValues(true);
    this.sendOldValues = true;
    return true;
  }

  /** The joined table's current value of a key, through both parents' views. */
  view(): KTableValueGetterSupplier<K, VOut> {
    const [supplier1, supplier2] = [this.valueGetterSupplier1, this.valueGetterSupplier2];
    return {
      get: () => this.joinedGetter(supplier1.get(), supplier2.get()),
      storeNames: () => [...new Set([...supplier1.storeNames(), ...supplier2.storeNames()])],
    };
  }

  /** The processor of this side's table changes. */
  get() {
    const { rule, sendOldValues, useVersionedSemantics } = this;
    const join = (v1: V1 | null, v2: V2 | null, key: K): VOut | null => this.apply(v1, v2, key);
    const getter = this.valueGetterSupplier2.get();
    let context: DslProcessorContext<K, Change<VOut>>;
    return {
      init(c: ProcessorContext<K, Change<VOut>>) {
        context = dslContext(c);
        getter.init(c as ProcessorContext<unknown, unknown>);
      },
      process(record: Record<K, Change<V1>>) {
        // 1. we do join iff keys are equal, thus, if key is null we cannot join and just ignore the record
        if (record.key === null || record.key === undefined) {
          // a context without the task's drop log (e.g. MockProcessorContext) just drops
          context.recordDropped('null key');
          return;
        }
        // drop out-of-order records from versioned tables (cf. KIP-914)
        const change = record.value;
        if (useVersionedSemantics && !change.isLatest) {
          context.recordDropped(OUT_OF_ORDER_VERSIONED);
          return;
        }
        // 2. the other table's current value
        const other = getter.get(record.key);
        const value2 = ValueAndTimestamp.getValueOrNull(other);
        // 3. nothing to join
        if (value2 === null && (rule.otherRequired || (change.newValue === null && change.oldValue === null))) return;
        // 4. timestamp
        const timestamp = Math.max(record.timestamp, other === null ? UNKNOWN : other.timestamp);
        // 5. new and old joined values
        const newValue = join(change.newValue, value2, record.key);
        const oldValue = sendOldValues ? join(change.oldValue, value2, record.key) : null;
        context.forward(record.withValue(Change.of<VOut>(newValue, oldValue, change.isLatest)).withTimestamp(timestamp));
      },
      close() {
        getter.close?.();
      },
    };
  }

  /** The joiner of `v1` and `v2`, or null when the kind lets neither present value stand alone. */
  private apply(v1: V1 | null, v2: V2 | null, key: K): VOut | null {
    const { thisRequired, otherRequired } = this.rule;
    if ((v1 === null && thisRequired) || (v2 === null && otherRequired) || (v1 === null && v2 === null)) return null;
    return syncResult('join', 'joiner', this.joiner(v1, v2, key)) ?? null;
  }

  /** Kafka's `KTableKTable*JoinValueGetter`: both parents' values of the key joined, at the larger timestamp of those present. */
  private joinedGetter(getter1: KTableValueGetter<K, V1>, getter2: KTableValueGetter<K, V2>): KTableValueGetter<K, VOut> {
    return {
      init(context) {
        getter1.init(context);
        getter2.init(context);
      },
      get: (key) => {
        const vt1 = getter1.get(key);
        const vt2 = getter2.get(key);
        const value = this.apply(ValueAndTimestamp.getValueOrNull(vt1), ValueAndTimestamp.getValueOrNull(vt2), key);
        return ValueAndTimestamp.make(value, Math.max(vt1?.timestamp ?? UNKNOWN, vt2?.timestamp ?? UNKNOWN));
      },
      close() {
        getter1.close?.();
        getter2.close?.();
      },
    };
  }
}
