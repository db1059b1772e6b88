/**
 * What kind of state store a builder makes, or a store is: how interactive
 * queries may read it. Key-value stores are read with `get`/`range`, versioned
 * stores with `get(key, asOf)`, window stores with `fetch(key, from, to)`,
 * session stores with `fetch(key)`; a
 * suppression buffer (and any store sluice does not know) is internal and
 * never queried.
 */
import { SuppressBufferBuilder, InMemoryTimeOrderedChangeBuffer } from './dsl/suppress-buffer.js';
import { MeteredKeyValueStore } from '../state/metered-key-value-store.js';
import type { StateStore, StoreBuilder } from '../state/state-store.js';
import { KeyValueStoreBuilder, TimestampedKeyValueStoreBuilder } from '../state/store-builders.js';
import { MeteredTimestampedKeyValueStore } from '../state/timestamped-key-value-store.js';
import { SessionStoreBuilder, TimestampedWindowStoreBuilder, WindowStoreBuilder } from '../state/window-store-builders.js';
import { TimestampedTypedWindowStore, TypedWindowStore } from '../state/window-typed-store.js';
import { TypedSessionStore } from '../state/session-typed-store.js';
import { MeteredVersionedKeyValueStore } from '../state/versioned/versioned-key-value-store.js';
import { VersionedKeyValueStoreBuilder } from '../state/versioned/versioned-store-builder.js';

/** The kind of a state store, as interactive queries see it. */
export type StoreKind = 'keyValue' | 'timestampedKeyValue' | 'versioned' | 'window' | 'timestampedWindow' | 'session' | 'buffer' | 'other';

/** The kinds the key-value query views read. */
export const KEY_VALUE_KINDS: readonly StoreKind[] = ['keyValue', 'timestampedKeyValue'];

/** The kind of the stores `builder` builds. */
export function storeKindOfBuilder(builder: StoreBuilder<StateStore>): StoreKind {
  if (builder instanceof VersionedKeyValueStoreBuilder) return 'versioned';
  if (builder instanceof TimestampedKeyValueStoreBuilder) return 'timestampedKeyValue';
  if (builder instanceof KeyValueStoreBuilder) return 'keyValue';
  if (builder instanceof TimestampedWindowStoreBuilder) return 'timestampedWindow';
  if (builder instanceof WindowStoreBuilder) return 'window';
  if (builder instanceof SessionStoreBuilder) return 'session';
  if (builder instanceof SuppressBufferBuilder) return 'buffer';
  return 'other';
}

/** The kind of a store instance (the outer, typed layer a task holds). */
export function storeKindOf(store: unknown): StoreKind {
  if (store instanceof MeteredVersionedKeyValueStore) return 'versioned';
  if (store instanceof MeteredTimestampedKeyValueStore) return 'timestampedKeyValue';
  if (store instanceof MeteredKeyValueStore) return 'keyValue';
  if (store instanceof TimestampedTypedWindowStore) return 'timestampedWindow';
  if (store instanceof TypedWindowStore) return 'window';
  if (store instanceof TypedSessionStore) return 'session';
  if (store instanceof InMemoryTimeOrderedChangeBuffer) return 'buffer';
  return 'other';
}
