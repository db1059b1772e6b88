/**
 * The typed session store (Kafka's `MeteredSessionStore`, without metrics):
 * serializes keys and aggregates with the store's serdes.
 */
import type { KeyValue } from '../records/key-value.js';
import { TypedStoreBase } from './internal/window-typed-base.js';
import { LONG_MAX_VALUE } from './internal/window-bytes.js';
import type { SessionBytesEntry, SessionBytesStore, SessionStore } from './session-store.js';
import type { Windowed } from './window-types.js';
import type { TypedFlushListener } from './caching-flush-listener.js';
import { SessionKeySchema } from './session-key-schema.js';
import { IllegalArgumentError } from '../errors.js';

/** A {@link SessionStore} over a {@link SessionBytesStore} stack. */
export class TypedSessionStore<K, AGG> extends TypedStoreBase<K, AGG, SessionBytesStore> implements SessionStore<K, AGG> {
  /** Puts dropped because their session had expired. */
  get droppedRecords(): number {
    return this.inner.droppedRecords;
  }

  /** The store's stream time: the largest session end put or restored, or -1. */
  get streamTime(): number {
    return this.inner.streamTime ?? -1;
  }

  /**
   * Kafka's `CachedStateStore.setFlushListener`: true when a caching layer
   * below will call `listener` for each session it writes down (then the
   * caller must not forward itself); false without one.
   */
  setFlushListener(listener: TypedFlushListener<Windowed<K>, AGG>, sendOldValues: boolean): boolean {
    return (
      this.inner.setFlushListener?.((storeKey, newValue, oldValue, context) => {
        const sessionKey = { key: this.keyOf(SessionKeySchema.extractKeyBytes(storeKey)), window: SessionKeySchema.extractWindow(storeKey) };
        listener(sessionKey, newValue === null ? null : this.valueOf(newValue), oldValue === null ? null : this.valueOf(oldValue), context);
      }, sendOldValues) ?? false
    );
  }

  put(sessionKey: Windowed<K>, aggregate: AGG | null): void {
    const { key, start, end } = this.sessionOf(sessionKey);
    this.inner.put(key, start, end, this.valueBytes(aggregate));
  }

  remove(sessionKey: Windowed<K>): void {
    const { key, start, end } = this.sessionOf(sessionKey);
    this.inner.remove(key, start, end);
  }

  fetchSession(key: K, sessionStartTime: number, sessionEndTime: number): AGG | null {
    const bytes = this.inner.fetchSession(this.keyBytes(key), sessionStartTime, sessionEndTime);
    return bytes === null ? null : this.valueOf(bytes);
  }

  findSessions(key: K, earliestSessionEndTime: number, latestSessionStartTime: number): KeyValue<Windowed<K>, AGG>[];
  findSessions(keyFrom: K | null, keyTo: K | null, earliestSessionEndTime: number, latestSessionStartTime: number): KeyValue<Windowed<K>, AGG>[];
  findSessions(earliestSessionEndTime: number, latestSessionEndTime: number): KeyValue<Windowed<K>, AGG>[];
  findSessions(...args: unknown[]): KeyValue<Windowed<K>, AGG>[] {
    if (args.length === 2) return this.typed(this.inner.findSessionsByEndTime(args[0] as number, args[1] as number, true));
    return this.find(args, true);
  }

  backwardFindSessions(key: K, earliestSessionEndTime: number, latestSessionStartTime: number): KeyValue<Windowed<K>, AGG>[];
  backwardFindSessions(keyFrom: K | null, keyTo: K | null, earliestSessionEndTime: number, latestSessionStartTime: number): KeyValue<Windowed<K>, AGG>[];
  backwardFindSessions(...args: unknown[]): KeyValue<Windowed<K>, AGG>[] {
    return this.find(args, false);
  }

  fetch(key: K): KeyValue<Windowed<K>, AGG>[];
  fetch(keyFrom: K | null, keyTo: K | null): KeyValue<Windowed<K>, AGG>[];
  fetch(...args: unknown[]): KeyValue<Windowed<K>, AGG>[] {
    return this.find(args.length === 1 ? [args[0], 0, LONG_MAX_VALUE] : [args[0], args[1], 0, LONG_MAX_VALUE], true);
  }

  backwardFetch(key: K): KeyValue<Windowed<K>, AGG>[];
  backwardFetch(keyFrom: K | null, keyTo: K | null): KeyValue<Windowed<K>, AGG>[];
  backwardFetch(...args: unknown[]): KeyValue<Windowed<K>, AGG>[] {
    return this.find(args.length === 1 ? [args[0], 0, LONG_MAX_VALUE] : [args[0], args[1], 0, LONG_MAX_VALUE], false);
  }

  private find(args: unknown[], forward: boolean): KeyValue<Windowed<K>, AGG>[] {
    if (args.length === 3) {
      const key = this.keyBytes(args[0] as K);
      return this.typed(this.inner.findSessions(key, key, args[1] as number, args[2] as number, forward));
    }
    const keyFrom = this.optionalKeyBytes(args[0] as K | null, 'keyFrom');
    const keyTo = this.optionalKeyBytes(args[1] as K | null, 'keyTo');
    return this.typed(this.inner.findSessions(keyFrom, keyTo, args[2] as number, args[3] as number, forward));
  }

  private sessionOf(sessionKey: Windowed<K> | null | undefined): { key: Buffer; start: number; end: number } {
    if (sessionKey === null || sessionKey === undefined) throw new IllegalArgumentError(`Session store '${this.name}': sessionKey cannot be null`);
    return { key: this.keyBytes(sessionKey.key), start: sessionKey.window.start, end: sessionKey.window.end };
  }

  private typed(entries: SessionBytesEntry[]): KeyValue<Windowed<K>, AGG>[] {
    return entries.map((e) => ({ key: { key: this.keyOf(e.key), window: { start: e.start, end: e.end } }, value: this.valueOf(e.value) }));
  }
}
