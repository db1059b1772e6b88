/**
 * The function types of joins, as Kafka's `ValueJoiner` (the two values) and
 * `ValueJoinerWithKey` (key first). A plain function is the values-only form
 * and is typed to take two parameters, so `(value1, value2, key) => …` does
 * not compile: the key-taking form is
 * `ValueJoinerWithKey.of((readOnlyKey, value1, value2) => …)`, key first as in
 * Java. Joiners must be synchronous.
 */

/** Kafka's `ValueJoiner`: joins two values into a result (it is given the values only). */
export type ValueJoiner<V1, V2, VR> = (value1: V1, value2: V2) => VR;

/**
 * Kafka's `ValueJoinerWithKey`: joins two values into a result, given the
 * join key first (read-only). Made by {@link ValueJoinerWithKey.of};
 * accepted by every join wherever a {@link ValueJoiner} is.
 */
export interface ValueJoinerWithKey<K, V1, V2, VR> {
  /** The joiner, key first: `(readOnlyKey, value1, value2) => result`. */
  readonly keyFirst: (readOnlyKey: K, value1: V1, value2: V2) => VR;
}

/** Makes a {@link ValueJoinerWithKey} (Kafka's `ValueJoinerWithKey` interface). */
export const ValueJoinerWithKey = {
  /**
   * The key-first joiner form: `stream.join(other, ValueJoinerWithKey.of((readOnlyKey, value, otherValue) => …), windows)`
   * calls `joiner(key, value, otherValue)`, as Java's `ValueJoinerWithKey.apply(readOnlyKey, value1, value2)`.
   */
  of<K, V1, V2, VR>(joiner: (readOnlyKey: K, value1: V1, value2: V2) => VR): ValueJoinerWithKey<K, V1, V2, VR> {
    return Object.freeze({ keyFirst: joiner });
  },
};

/** A joiner argument: the values-only form or the key-first {@link ValueJoinerWithKey}. */
export type AnyValueJoiner<K, V1, V2, VR> = ValueJoiner<V1, V2, VR> | ValueJoinerWithKey<K, V1, V2, VR>;

/**
 * Extracts the foreign key of a foreign-key join from a left-table value
 * (Kafka's `Function<V, KO>`); the key-taking form is
 * `ValueMapperWithKey.of((readOnlyKey, value) => foreignKey)` (Kafka's `BiFunction<K, V, KO>`).
 */
export type ForeignKeyExtractor<V, KO> = (value: V) => KO;
