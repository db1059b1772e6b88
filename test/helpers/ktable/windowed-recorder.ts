/**
 * Records what a windowed table's `toStream()` forwards, as Kafka's
 * `MockApiProcessorSupplier<Windowed<K>, V>` in the windowed-aggregation
 * tests: windowed keys compare by value (key and window bounds), so the
 * per-key views are keyed by Kafka's `Windowed.toString()` (`[key@start/end]`).
 */
import { Windowed } from '../../../src/index.js';
import type { Processor } from '../../../src/processors/processor.js';

/** One record as received (Kafka's `KeyValueTimestamp<Windowed<K>, V>`). */
export interface WindowedRecord<K, V> {
  key: Windowed<K>;
  value: V;
  timestamp: number;
}

/** Kafka's `ValueAndTimestamp.make(value, timestamp)`. */
export function vt<V>(value: V, timestamp: number): { value: V; timestamp: number } {
  return { value, timestamp };
}

/** A recording supplier and views of what it received. */
export interface WindowedRecorder<K, V> {
  readonly supplier: () => Processor<Windowed<K>, V>;
  readonly processed: Array<WindowedRecord<K, V>>;
  /** Kafka's `lastValueAndTimestampPerKey().get(new Windowed<>(key, new TimeWindow(start, end)))`. */
  last(key: K, start: number, end: number): { value: V; timestamp: number } | undefined;
  /**
   * Kafka's `gatherOutput`: per window start, the set of `ValueAndTimestamp`s
   * received (as a sorted array of `{ value, timestamp }`).
   */
  byWindowStart(): Map<number, Array<{ value: V; timestamp: number }>>;
  /** Kafka's random test's `results`: per window start, the last value and timestamp. */
  lastByWindowStart(): Map<number, { value: V; timestamp: number }>;
}

function sortedUnique<V>(entries: Array<{ value: V; timestamp: number }>): Array<{ value: V; timestamp: number }> {
  const unique = new Map(entries.map((e) => [JSON.stringify([e.value, e.timestamp]), e]));
  return [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, e]) => e);
}

/** A new recorder. */
export function windowedRecorder<K, V>(): WindowedRecorder<K, V> {
  const processed: Array<WindowedRecord<K, V>> = [];
  return {
    supplier: () => ({
      process(record) {
        processed.push({ key: record.key, value: record.value, timestamp: record.timestamp });
      },
    }),
    processed,
    last(key, start, end) {
      const wanted = Windowed.toString(Windowed.of(key, { start, end }));
      const found = processed.filter((r) => Windowed.toString(r.key) === wanted).at(-1);
      return found === undefined ? undefined : vt(found.value, found.timestamp);
    },
    byWindowStart() {
      const grouped = new Map<number, Array<{ value: V; timestamp: number }>>();
      for (const r of processed) grouped.set(r.key.window.start, [...(grouped.get(r.key.window.start) ?? []), vt(r.value, r.timestamp)]);
      return new Map([...grouped.entries()].map(([start, entries]) => [start, sortedUnique(entries)]));
    },
    lastByWindowStart() {
      return new Map(processed.map((r) => [r.key.window.start, vt(r.value, r.timestamp)]));
    },
  };
}

/** Kafka's expected `Map<Long, Set<ValueAndTimestamp>>` in the form {@link WindowedRecorder.byWindowStart} returns. */
export function expectedByWindowStart<V>(entries: Array<[number, Array<{ value: V; timestamp: number }>]>): Map<number, Array<{ value: V; timestamp: number }>> {
  return new Map(entries.map(([start, values]) => [start, sortedUnique(values)]));
}
