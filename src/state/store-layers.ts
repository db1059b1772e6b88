/**
 * The optional layers a store builder puts between the typed store and the
 * bytes engine (see `bytes-store-contract.ts` for the stack):
 *
 *   typed store → wrapCaching(…) → wrapChangeLogging(…) → bytes engine
 *
 * The caching layer is `./caching-key-value-store.ts` (over the record cache
 * of `./record-cache.ts`), the change-logging layer
 * `./change-logging-key-value-bytes-store.ts`.
 */
import type { KeyValueBytesStore } from './bytes-store-contract.js';
import { CachingKeyValueStore } from './caching-key-value-store.js';
import { ChangeLoggingKeyValueBytesStore } from './change-logging-key-value-bytes-store.js';

/** Options of the change-logging layer. */
export interface ChangeLoggingOptions {
  /** True when the values carry an 8-byte timestamp prefix (timestamped stores). */
  timestamped: boolean;
  /** The changelog topic configs (`cleanup.policy` etc., merged with the user's `withLoggingEnabled(config)`). */
  logConfig: Readonly<Record<string, string>>;
}

/** Options of the caching layer. */
export interface CachingOptions {
  /** True when the values carry an 8-byte timestamp prefix (timestamped stores). */
  timestamped: boolean;
}

/** Wraps `inner` so every write is sent to the store's changelog (Kafka's `ChangeLoggingKeyValueBytesStore`). */
export function wrapChangeLogging(inner: KeyValueBytesStore, options: ChangeLoggingOptions): KeyValueBytesStore {
  return new ChangeLoggingKeyValueBytesStore(inner, { timestamped: options.timestamped });
}

/** Wraps `inner` with the record cache (Kafka's `CachingKeyValueStore`). */
export function wrapCaching(inner: KeyValueBytesStore, options: CachingOptions): KeyValueBytesStore {
  return new CachingKeyValueStore(inner, { timestamped: options.timestamped });
}
