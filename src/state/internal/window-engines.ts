/**
 * The bytes engines window and session stores are created on: the in-memory
 * and the lmdb key-value engines of the state layer.
 */
import type { KeyValueBytesStore } from '../bytes-store-contract.js';
import { InMemoryKeyValueBytesStore } from '../in-memory/in-memory-key-value-bytes-store.js';
import { LmdbKeyValueBytesStore } from '../lmdb/lmdb-key-value-bytes-store.js';

/** The engine of in-memory window and session stores: the in-memory key-value engine. */
export function inMemoryWindowEngine(name: string): KeyValueBytesStore {
  return new InMemoryKeyValueBytesStore(name);
}

/** The engine of persistent window and session stores: the lmdb engine (uncommitted writes buffered, checkpoint atomic with the data). */
export function persistentWindowEngine(name: string): KeyValueBytesStore {
  return new LmdbKeyValueBytesStore(name);
}
