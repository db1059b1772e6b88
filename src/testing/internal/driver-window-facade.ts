/**
 * The plain-value view of a timestamped window store (Kafka's
 * `WindowStoreFacade`, what `TopologyTestDriver.getWindowStore` gives for a
 * DSL window store): reads drop the timestamps; a write stores the value with
 * timestamp -1 (Kafka's `NO_TIMESTAMP`).
 */
import type { KeyValue } from '../../records/key-value.js';
import type { ValueAndTimestamp } from '../../state/value-and-timestamp.js';
import type { TimestampedWindowStore, WindowStore } from '../../state/window-store.js';
import type { Windowed } from '../../state/window-types.js';

/** `inner` with plain values. */
export function windowStoreFacade<K, V>(inner: TimestampedWindowStore<K, V>): WindowStore<K, V> {
  const plain = <T>(list: KeyValue<T, ValueAndTimestamp<V>>[]): KeyValue<T, V>[] => list.map((e) => ({ key: e.key, value: e.value.value }));
  function fetch(key: K, windowStartTimestamp: number): V | null;
  function fetch(key: K, timeFrom: number, timeTo: number): KeyValue<number, V>[];
  function fetch(keyFrom: K | null, keyTo: K | null, timeFrom: number, timeTo: number): KeyValue<Windowed<K>, V>[];
  function fetch(...args: unknown[]): V | null | KeyValue<number, V>[] | KeyValue<Windowed<K>, V>[] {
    if (args.length === 2) return inner.fetch(args[0] as K, args[1] as number)?.value ?? null;
    if (args.length === 3) return plain(inner.fetch(args[0] as K, args[1] as number, args[2] as number));
    return plain(inner.fetch(args[0] as K | null, args[1] as K | null, args[2] as number, args[3] as number));
  }
  function backwardFetch(key: K, timeFrom: number, timeTo: number): KeyValue<number, V>[];
  function backwardFetch(keyFrom: K | null, keyTo: K | null, timeFrom: number, timeTo: number): KeyValue<Windowed<K>, V>[];
  function backwardFetch(...args: unknown[]): KeyValue<number, V>[] | KeyValue<Windowed<K>, V>[] {
    if (args.length === 3) return plain(inner.backwardFetch(args[0] as K, args[1] as number, args[2] as number));
    return plain(inner.backwardFetch(args[0] as K | null, args[1] as K | null, args[2] as number, args[3] as number));
  }
  return {
    get name() {
      return inner.name;
    },
    flush: () => inner.flush(),
    close: () => inner.close(),
    isOpen: () => inner.isOpen(),
    put: (key, value, windowStart) => inner.put(key, value === null ? null : { value, timestamp: -1 }, windowStart),
    fetch,
    backwardFetch,
    fetchAll: (timeFrom, timeTo) => plain(inner.fetchAll(timeFrom, timeTo)),
    backwardFetchAll: (timeFrom, timeTo) => plain(inner.backwardFetchAll(timeFrom, timeTo)),
    all: () => plain(inner.all()),
    backwardAll: () => plain(inner.backwardAll()),
  };
}
