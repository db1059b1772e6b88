/**
 * Options of a foreign-key join (Kafka's `TableJoined`): the partitioners of
 * the two tables' topics (when they are not partitioned by the default
 * murmur2 of the key bytes) and the base name of the join's processors,
 * store and internal topics. Built fluently as Java's:
 * `TableJoined.with(partitioner, otherPartitioner).withName('orders-customers')`.
 */
import type { StreamPartitioner } from '../processors/processor.js';
import { requireFunction, requireNonNull, validateName } from './internal/checks.js';
import { fluent, withChanges } from './internal/fluent.js';

/** See the file comment. Reads as the plain fields; the setters return a new object. */
export interface TableJoined<K, KO> {
  /**
   * Partitioner of this table's topic, if it is not the default: the join's
   * responses are written back with it (called with a null value), so they
   * reach the task holding the left row. Default: the partition the left
   * record was read from.
   */
  readonly partitioner?: StreamPartitioner<K, unknown>;
  /** Partitioner of the other table's topic, if it is not the default: subscriptions are written with it (called with a null value). */
  readonly otherPartitioner?: StreamPartitioner<KO, unknown>;
  /** Base name: nodes `<name>-subscription-registration-processor`, ..., topics `<name>-subscription-registration-topic` and `<name>-subscription-response-topic`. */
  readonly name?: string;
}

/** A {@link TableJoined} built fluently (what the `TableJoined` helpers return). */
export interface FluentTableJoined<K, KO> extends TableJoined<K, KO> {
  /** The same options with this table's partitioner. */
  withPartitioner(partitioner: StreamPartitioner<K, unknown> | null | undefined): FluentTableJoined<K, KO>;
  /** The same options with the other table's partitioner. */
  withOtherPartitioner(otherPartitioner: StreamPartitioner<KO, unknown> | null | undefined): FluentTableJoined<K, KO>;
  /** The same options with base name `name` (validated at once, as Kafka's `Named.validate`). */
  withName(name: string): FluentTableJoined<K, KO>;
}

/** A partitioner argument: null and undefined mean the default; anything else must be a function. */
function partitionerOrUnset<T>(partitioner: T | null | undefined, argument: string): T | undefined {
  return partitioner === null || partitioner === undefined ? undefined : requireFunction(partitioner, argument);
}

const setters = {
  withPartitioner(this: object, partitioner: StreamPartitioner | null | undefined) {
    return withChanges(this, { partitioner: partitionerOrUnset(partitioner, 'partitioner') });
  },
  withOtherPartitioner(this: object, otherPartitioner: StreamPartitioner | null | undefined) {
    return withChanges(this, { otherPartitioner: partitionerOrUnset(otherPartitioner, 'otherPartitioner') });
  },
  withName(this: object, name: string) {
    return withChanges(this, { name: validateName(requireNonNull(name, 'name')) });
  },
};

/** Helpers for {@link TableJoined}. */
export const TableJoined = {
  /** With these partitioners (null or undefined: the default one). */
  with<K, KO>(partitioner: StreamPartitioner<K, unknown> | null | undefined, otherPartitioner: StreamPartitioner<KO, unknown> | null | undefined): FluentTableJoined<K, KO> {
    return fluent(setters, { partitioner: partitionerOrUnset(partitioner, 'partitioner'), otherPartitioner: partitionerOrUnset(otherPartitioner, 'otherPartitioner') });
  },
  /** Named `name`: the base of the join's node, store and topic names. */
  as<K, KO>(name: string): FluentTableJoined<K, KO> {
    return fluent(setters, { name: validateName(requireNonNull(name, 'name')) });
  },
};

const FIELDS = new Set(['partitioner', 'otherPartitioner', 'name']);

/**
 * True when `value` is a TableJoined (or a `Named`, which reads the same:
 * only `partitioner`, `otherPartitioner` and `name` fields) rather than a
 * `Materialized`.
 */
export function isTableJoined(value: unknown): value is TableJoined<unknown, unknown> {
  return typeof value === 'object' && value !== null && Object.keys(value).every((key) => FIELDS.has(key));
}
