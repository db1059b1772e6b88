/**
 * The optional layers a store builder puts between the typed store and the
 * bytes engine (see `bytes-store-contract.ts` for the stack):
 *
 *   typed store → wrapCaching(…) → wrapChangeLogging(…) → bytes engine
 *
 * Both start as identity wrappers; the caching and change-logging layers
 * replace their bodies.
 */
import type { KeyValueBytesStore } from './bytes-store-contract.js';

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
  void options;
  return inner;
}

/** Wraps `inner` with the record cache (Kafka's `CachingKeyValueStore`). */
export function wrapCaching(inner: KeyValueBytesStore, options: CachingOptions): KeyValueBytesStore {
  void options;
  return inner;
}
