/**
 * The re-keying node of `KTable.groupBy` (Kafka's `KTableRepartitionMap`,
 * node `KTABLE-SELECT-<n>`): maps the old and the new value of each change
 * with the selector to a `(key, value)` pair of the new grouping. The old
 * pair is a subtraction from its group, the new pair an addition to its
 * group. As Kafka ≥ 3.5 (`upgrade.from` unset), when both pairs have equal
 * keys one record `Change(new, old)` is forwarded, so the aggregation never
 * shows the transient state between subtraction and addition; otherwise the
 * subtraction `Change(null, old)` first, then the addition
 * `Change(new, null)`. A pair that is null, or has a null key or value, is
 * skipped. Keys are equal when `===` (Object.is) holds, as Java's `equals`
 * for strings and numbers and its identity for objects without `equals`.
 *
 * The parent must send old values: `KTable.groupBy` turns them on. Over a
 * versioned table (KIP-914) an out-of-order change (`isLatest` false) is
 * skipped: the aggregate holds the latest-by-timestamp rows only.
 */
import { IllegalStateError, TopologyError } from '../../errors.js';
import type { KeyValue } from '../../records/key-value.js';
import type { Processor } from '../processor.js';
import { dslContext, type DslProcessorContext } from '../dsl-context.js';
import type { Record } from '../record.js';
import { Change } from './change.js';
import { isOutputVersioned, type KTableValueGetterSupplier } from './ktable-contract.js';
import type { KTableParent } from './ktable-ops.js';
import { syncResult } from './sync-result.js';

/** The selector of `KTable.groupBy`: the new grouping's key and value, or null to leave the row out. */
export type TableGroupSelector<K, V, KR, VR> = (key: K, value: V) => KeyValue<KR, VR> | null;

function isAbsent(value: unknown): value is null | undefined {
  return value === null || value === undefined;
}

/** Runs the selector on `value`; null when there is no value or the pair is to be skipped. */
function selectPair<K, V, KR, VR>(selector: TableGroupSelector<K, V, KR, VR>, key: K, value: V | null): KeyValue<KR, VR> | null {
  if (value === null) return null;
  const pair = syncResult('groupBy', 'selector', selector(key, value));
  if (isAbsent(pair)) return null;
  if (typeof pair !== 'object' || !('key' in pair) || !('value' in pair)) {
    throw new TopologyError(
      `KTable.groupBy(): the selector must return { key, value } (KeyValue.pair(newKey, newValue)) or null; for key ${String(key)} it returned ${String(pair)}`,
    );
  }
  return isAbsent(pair.key) || isAbsent(pair.value) ? null : pair;
}

/**
 * The supplier of the `KTABLE-SELECT-` node; see the file comment. Its view
 * is keyed by the table's key (Kafka's `KTableRepartitionMapSupplier`), so it
 * is no `KTableProcessorSupplier`: a grouped table is not a table.
 */
export class KTableRepartitionMapSupplier<K, V, KR, VR> {
  /** Kafka's `useVersionedSemantics`: the parent table is versioned (KIP-914). */
  readonly useVersionedSemantics: boolean;

  constructor(
    private readonly parent: KTableParent<K, V>,
    private readonly selector: TableGroupSelector<K, V, KR, VR>,
  ) {
    this.useVersionedSemantics = isOutputVersioned(parent);
  }

  /** Kafka: "KTableRepartitionMap should always require sending old values." */
  enableSendingOldValues(): boolean {
    throw new IllegalStateError('KTableRepartitionMap should always require sending old values.');
  }

  /** The parent's rows mapped with the selector (its stores are behind the repartition topic: `storeNames()` throws, as Kafka's). */
  view(): KTableValueGetterSupplier<K, KeyValue<KR, VR>> {
    const parentView = this.parent.valueGetterSupplier();
    const selector = this.selector;
    return {
      get: () => {
        const getter = parentView.get();
        return {
          init: (c) => getter.init(c),
          get: (key) => {
            const row = getter.get(key);
            if (row === null) return null;
            const pair = selectPair(selector, key, row.value);
            return pair === null ? null : { value: pair, timestamp: row.timestamp };
          },
          close: () => getter.close?.(),
        };
      },
      storeNames: () => {
        throw new TopologyError('Underlying state store not accessible due to repartitioning.');
      },
    };
  }

  get(): Processor<K, Change<V>, KR, Change<VR>> {
    const { selector, useVersionedSemantics } = this;
    let context: DslProcessorContext<KR, Change<VR>>;
    return {
      init(c) {
        context = dslContext(c);
      },
      process(record: Record<K, Change<V>>) {
        // 1. the table's key is never null (its source drops null keys); a record without one is dropped
        if (isAbsent(record.key)) {
          context.recordDropped('null key');
          return;
        }
        // 2. skip out-of-order records when aggregating a versioned table, since the aggregate should include
        //    latest-by-timestamp records only; as an optimization, they do not go to the repartition topic either
        const isLatest = record.value.isLatest;
        if (useVersionedSemantics && !isLatest) return;
        // 3. the pairs of the new and the old value
        const newPair = selectPair(selector, record.key, record.value.newValue);
        const oldPair = selectPair(selector, record.key, record.value.oldValue);
        // 4. one record when the grouping key is unchanged, else the subtraction first, then the addition
        if (oldPair !== null && newPair !== null && Object.is(oldPair.key, newPair.key)) {
          context.forward(record.withKey(oldPair.key).withValue(Change.of<VR>(newPair.value, oldPair.value, isLatest)));
          return;
        }
        if (oldPair !== null) context.forward(record.withKey(oldPair.key).withValue(Change.of<VR>(null, oldPair.value, isLatest)));
        if (newPair !== null) context.forward(record.withKey(newPair.key).withValue(Change.of<VR>(newPair.value, null, isLatest)));
      },
    };
  }
}
