/**
 * The typed window store (Kafka's `MeteredWindowStore`, without metrics):
 * serializes keys and values with the store's serdes and reads the bytes stack.
 */
import type { KeyValue } from '../records/key-value.js';
import { TypedStoreBase } from './internal/window-typed-base.js';
import { LONG_MAX_VALUE } from './internal/window-bytes.js';
import { WindowKeySchema } from './window-key-schema.js';
import type { WindowBytesEntry, WindowBytesStore, WindowStore } from './window-store.js';
import type { Windowed } from './window-types.js';
import type { TypedFlushListener } from './caching-flush-listener.js';

/** A {@link WindowStore} over a {@link WindowBytesStore} stack. */
export class TypedWindowStore<K, V> extends TypedStoreBase<K, V, WindowBytesStore> implements WindowStore<K, V> {
  /** Puts dropped because their window had expired. */
  get droppedRecords(): number {
    return this.inner.droppedRecords;
  }

  /**
   * Kafka's `CachedStateStore.setFlushListener`: true when a caching layer
   * below will call `listener` for each window it writes down (key: the
   * windowed key; then the caller must not forward itself); false without one.
   */
  setFlushListener(listener: TypedFlushListener<Windowed<K>, V>, sendOldValues: boolean): boolean {
    return (
      this.inner.setFlushListener?.((storeKey, newValue, oldValue, context) => {
        const windowedKey = { key: this.keyOf(WindowKeySchema.extractStoreKeyBytes(storeKey)), window: WindowKeySchema.extractStoreWindow(storeKey, this.inner.windowSize) };
        listener(windowedKey, newValue === null ? null : this.valueOf(newValue), oldValue === null ? null : this.valueOf(oldValue), context);
      }, sendOldValues) ?? false
    );
  }

  put(key: K, value: V | null, windowStartTimestamp: number): void {
    this.inner.put(this.keyBytes(key), this.valueBytes(value), windowStartTimestamp);
  }

  fetch(key: K, windowStartTimestamp: number): V | null;
  fetch(key: K, timeFrom: number, timeTo: number): KeyValue<number, V>[];
  fetch(keyFrom: K | null, keyTo: K | null, timeFrom: number, timeTo: number): KeyValue<Windowed<K>, V>[];
  fetch(...args: unknown[]): V | null | KeyValue<number, V>[] | KeyValue<Windowed<K>, V>[] {
    if (args.length === 2) {
      const bytes = this.inner.fetchAt(this.keyBytes(args[0] as K), args[1] as number);
      return bytes === null ? null : this.valueOf(bytes);
    }
    return this.fetchBy(args, true);
  }

  backwardFetch(key: K, timeFrom: number, timeTo: number): KeyValue<number, V>[];
  backwardFetch(keyFrom: K | null, keyTo: K | null, timeFrom: number, timeTo: number): KeyValue<Windowed<K>, V>[];
  backwardFetch(...args: unknown[]): KeyValue<number, V>[] | KeyValue<Windowed<K>, V>[] {
    return this.fetchBy(args, false);
  }

  fetchAll(timeFrom: number, timeTo: number): KeyValue<Windowed<K>, V>[] {
    return this.windowed(this.inner.fetchAll(timeFrom, timeTo, true));
  }

  backwardFetchAll(timeFrom: number, timeTo: number): KeyValue<Windowed<K>, V>[] {
    return this.windowed(this.inner.fetchAll(timeFrom, timeTo, false));
  }

  all(): KeyValue<Windowed<K>, V>[] {
    return this.fetchAll(0, LONG_MAX_VALUE);
  }

  backwardAll(): KeyValue<Windowed<K>, V>[] {
    return this.backwardFetchAll(0, LONG_MAX_VALUE);
  }

  private fetchBy(args: unknown[], forward: boolean): KeyValue<number, V>[] | KeyValue<Windowed<K>, V>[] {
    if (args.length === 3) {
      const entries = this.inner.fetchKey(this.keyBytes(args[0] as K), args[1] as number, args[2] as number, forward);
      return entries.map((e) => ({ key: e.windowStart, value: this.valueOf(e.value) }));
    }
    const keyFrom = this.optionalKeyBytes(args[0] as K | null, 'keyFrom');
    const keyTo = this.optionalKeyBytes(args[1] as K | null, 'keyTo');
    return this.windowed(this.inner.fetchKeyRange(keyFrom, keyTo, args[2] as number, args[3] as number, forward));
  }

  private windowed(entries: WindowBytesEntry[]): KeyValue<Windowed<K>, V>[] {
    return entries.map((e) => ({
      key: { key: this.keyOf(e.key), window: WindowKeySchema.timeWindowForSize(e.windowStart, this.inner.windowSize) },
      value: this.valueOf(e.value),
    }));
  }
}

/** A {@link TypedWindowStore} of timestamped values (built by `TimestampedWindowStoreBuilder`; the TopologyTestDriver tells it apart). */
export class TimestampedTypedWindowStore<K, V> extends TypedWindowStore<K, { value: V; timestamp: number }> {}
