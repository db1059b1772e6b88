/**
 * The timestamped key-value store (Kafka's `TimestampedKeyValueStore`): a
 * key-value store of {@link ValueAndTimestamp}, whose stored bytes are the
 * 8-byte big-endian timestamp followed by the value's bytes.
 */
import type { Serde } from '../serdes/serde.js';
import type { KeyValueBytesStore } from './bytes-store-contract.js';
import { MeteredKeyValueStore, type TypedStoreOptions } from './metered-key-value-store.js';
import type { KeyValueStore } from './state-store.js';
import { valueAndTimestampSerde, type ValueAndTimestamp } from './value-and-timestamp.js';

/** A key-value store whose values carry the timestamp of the record that wrote them. */
export type TimestampedKeyValueStore<K, V> = KeyValueStore<K, ValueAndTimestamp<V>>;

/** The typed timestamped store over a bytes stack (Kafka's `MeteredTimestampedKeyValueStore`). */
export class MeteredTimestampedKeyValueStore<K, V> extends MeteredKeyValueStore<K, ValueAndTimestamp<V>> implements TimestampedKeyValueStore<K, V> {
  constructor(inner: KeyValueBytesStore, keySerde: Serde<K>, private readonly plainValueSerde: Serde<V>, options?: TypedStoreOptions) {
    super(inner, keySerde, valueAndTimestampSerde(plainValueSerde), options);
  }

  /** The changelog of a timestamped store carries the plain value (the timestamp is the record's). */
  protected override readChangelogValue(value: Buffer): void {
    this.plainValueSerde.deserialize(this.name, value);
  }
}
