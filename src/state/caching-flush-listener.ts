/**
 * The typed side of the caching layer's flush listener (what Kafka's
 * `MeteredKeyValueStore.setFlushListener` does): a typed store hands the bytes
 * stack a listener that deserializes key, new and old value with the store's
 * serdes before calling the processor's listener.
 *
 * A typed store forwards with three lines:
 *
 *     setFlushListener(listener, sendOldValues) {
 *       return this.inner.setFlushListener?.(typedFlushListener(this.name, this.keySerde, this.valueSerde, listener), sendOldValues) ?? false;
 *     }
 */
import type { Deserializer } from '../serdes/serde.js';
import { checkedDeserialize } from '../serdes/checked-serde.js';
import type { BytesFlushListener } from './bytes-store-contract.js';
import type { StoreRecordContext } from './store-contract.js';

/** A typed flush listener: key, new value (`null`: deleted), old value (when asked for, else `null`), the record context of the write. */
export type TypedFlushListener<K, V> = (key: K, newValue: V | null, oldValue: V | null, context: StoreRecordContext) => void;

/** A store that may forward its cached writes itself (Kafka's `CachedStateStore`). */
export interface CachedStateStore<K, V> {
  /** True when the store will call `listener` for what it writes down (then the caller must not forward itself). */
  setFlushListener(listener: TypedFlushListener<K, V>, sendOldValues: boolean): boolean;
}

/** Wraps a typed listener as the bytes listener of store `storeName`. */
export function typedFlushListener<K, V>(
  storeName: string,
  keySerde: Deserializer<K>,
  valueSerde: Deserializer<V>,
  listener: TypedFlushListener<K, V>,
): BytesFlushListener {
  return (key, newValue, oldValue, context) => {
    const k = checkedDeserialize(keySerde, storeName, key, undefined, 'KEY') as K;
    const value = (bytes: Buffer | null): V | null => (bytes === null ? null : checkedDeserialize(valueSerde, storeName, bytes, undefined, 'VALUE'));
    listener(k, value(newValue), value(oldValue), context);
  };
}

/** True when `store` has a `setFlushListener` (a typed store over a stack that may cache). */
export function isCachedStateStore<K, V>(store: unknown): store is CachedStateStore<K, V> {
  return typeof (store as { setFlushListener?: unknown } | null)?.setFlushListener === 'function';
}
