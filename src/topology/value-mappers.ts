/**
 * The value-mapper function types of `mapValues`/`flatMapValues`, as Kafka's
 * `ValueMapper` (the value only) and `ValueMapperWithKey` (key first).
 *
 * A plain function is the value-only form and is typed to take one
 * parameter, so `(value, key) => …` does not compile: the key-taking form is
 * `ValueMapperWithKey.of((readOnlyKey, value) => …)`, key first as in Java.
 */

/** Kafka's `ValueMapper`: maps a value to a new value (it is given the value only). */
export type ValueMapper<V, VR> = (value: V) => VR;

/**
 * Kafka's `ValueMapperWithKey`: maps a value to a new value, given the
 * record's key first (read-only: the operation never changes the key).
 * Made by {@link ValueMapperWithKey.of}; accepted wherever a
 * {@link ValueMapper} is (mapValues, flatMapValues, KTable.mapValues, the
 * foreign-key extractor of a foreign-key join).
 */
export interface ValueMapperWithKey<K, V, VR> {
  /** The mapper, key first: `(readOnlyKey, value) => result`. */
  readonly keyFirst: (readOnlyKey: K, value: V) => VR;
}

/** Makes a {@link ValueMapperWithKey} (Kafka's `ValueMapperWithKey` interface). */
export const ValueMapperWithKey = {
  /**
   * The key-first mapper form: `stream.mapValues(ValueMapperWithKey.of((readOnlyKey, value) => …))`
   * calls `mapper(key, value)` for each record, as Java's `ValueMapperWithKey.apply(readOnlyKey, value)`.
   */
  of<K, V, VR>(mapper: (readOnlyKey: K, value: V) => VR): ValueMapperWithKey<K, V, VR> {
    return Object.freeze({ keyFirst: mapper });
  },
};
