/**
 * The name earlier versions gave the in-memory typed store, kept for existing
 * imports: it is the typed layer ({@link MeteredKeyValueStore}) over an
 * in-memory bytes engine.
 */
import type { Serde } from '../../serdes/serde.js';
import { InMemoryKeyValueBytesStore } from './in-memory-key-value-bytes-store.js';
import { MeteredKeyValueStore, type TypedStoreOptions } from '../metered-key-value-store.js';

export type { FlushListener, PendingWrite } from '../metered-key-value-store.js';

/** A typed key-value store kept in memory (`new InMemoryKeyValueStore(name, keySerde, valueSerde)`); not logged unless options say so. */
export class InMemoryKeyValueStore<K, V> extends MeteredKeyValueStore<K, V> {
  constructor(name: string, keySerde: Serde<K>, valueSerde: Serde<V>, options?: TypedStoreOptions) {
    super(new InMemoryKeyValueBytesStore(name), keySerde, valueSerde, options);
  }
}
