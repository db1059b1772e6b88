/**
 * The function types of joins. Kafka has `ValueJoiner` (two values) and
 * `ValueJoinerWithKey` (key first); in sluice one type takes the key as its
 * third argument, so `(left, right) => ...` and `(left, right, key) => ...`
 * are both valid joiners. Joiners must be synchronous.
 */

/** Joins two values into a result (`key`: the join key, read-only). */
export type ValueJoiner<V1, V2, VR, K = unknown> = (value1: V1, value2: V2, key: K) => VR;

/** Extracts the foreign key of a foreign-key join from a left-table value (and key). */
export type ForeignKeyExtractor<V, KO, K = unknown> = (value: V, key: K) => KO;
