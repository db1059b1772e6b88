/**
 * The value a KTable processor forwards to its children: the new value of a
 * key and, when a downstream node asked for it (`enableSendingOldValues`),
 * the value it replaced (Kafka's `kstream.internals.Change`). `null` means
 * "no value": a `newValue` of `null` is a delete (tombstone).
 */
export interface Change<V> {
  readonly newValue: V | null;
  readonly oldValue: V | null;
  /**
   * False when the update is not the newest version of its key: an
   * out-of-order update of a table materialized on a versioned store
   * (KIP-914; the store's `put` answered a `validTo`). Timestamped tables
   * forward only latest changes.
   */
  readonly isLatest: boolean;
}

/** Kafka's reason for dropping an out-of-order change of a versioned table in a table-table join (KIP-914). */
export const OUT_OF_ORDER_VERSIONED = 'out-of-order record from versioned table while performing table-table join';

/** Factories of {@link Change}. */
export const Change = {
  /** `(newValue <- oldValue)`. Undefined is read as null. */
  of<V>(newValue: V | null | undefined, oldValue: V | null | undefined, isLatest = true): Change<V> {
    return { newValue: newValue ?? null, oldValue: oldValue ?? null, isLatest };
  },
  /** Kafka's `Change.toString()`: `(new<-old)`, e.g. `(1<-null)`. */
  format(change: Change<unknown>): string {
    return `(${String(change.newValue)}<-${String(change.oldValue)})`;
  },
  /** True when `value` has the shape of a Change (used by toStream and sinks after a table). */
  is(value: unknown): value is Change<unknown> {
    return typeof value === 'object' && value !== null && 'newValue' in value && 'oldValue' in value && 'isLatest' in value;
  },
} as const;
