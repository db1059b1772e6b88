/**
 * The key-value pair of the DSL.
 */

/** A key and a value: `{ key, value }`. */
export interface KeyValue<K, V> {
  key: K;
  value: V;
}

/** Helpers for {@link KeyValue}. */
export const KeyValue = {
  /** `{ key, value }`. */
  pair<K, V>(key: K, value: V): KeyValue<K, V> {
    return { key, value };
  },
};
