/**
 * How the query API answers the errors of the app's query methods: an
 * unknown store is a 404 naming the topology's stores, a store that cannot be
 * read now a 503 (retry), a store read by a route of another kind (a window
 * store's key without `/windows`, a buffer) a 400 naming how to read it and the
 * kinds served, a key that cannot be parsed or serialized a 400.
 */
import { InvalidStateStoreError, QUERYABLE_KINDS } from '../interactive-queries.js';
import { UnknownStateStoreError } from '../streams-metadata.js';
import { unavailable, type Reply } from './query-http.js';

/** The answer for `error` thrown by an app query method, or undefined when it is not one of those (a 500 then). */
export function replyForQueryError(error: unknown, store: string): Reply | undefined {
  if (error instanceof UnknownStateStoreError) return { status: 404, body: { error: error.message, store } };
  if (error instanceof InvalidStateStoreError) {
    return error.reason === 'wrong-type' ? { status: 400, body: { error: error.message, store, servedStoreTypes: QUERYABLE_KINDS } } : unavailable(error.message, { store });
  }
  return undefined;
}

/** A 400 for a key (or range bound) that cannot be turned into a store key. */
export function badKey(what: string, text: string, error: unknown): Reply {
  return { status: 400, body: { error: `${what} '${text}' cannot be used as a key of the store: ${String((error as Error)?.message ?? error)}; check the key (and the server's keySerde / parseKey)` } };
}
