/**
 * Records what a node forwards, as Kafka's `MockApiProcessorSupplier` /
 * `MockApiProcessor` in the KTable tests: `table.toStream().process(rec.supplier)`
 * captures `KeyValueTimestamp`s; `table`'s own node as a child
 * (`topology.addProcessor(name, rec.supplier, tableNode)`) captures the
 * `Change`s, printed as Kafka's `(new<-old)` by {@link formatted}.
 */
import { Change } from '../../../src/processors/dsl/change.js';
import type { Processor } from '../../../src/processors/processor.js';

/** Kafka's `KeyValueTimestamp`. */
export interface KeyValueTimestamp<K, V> {
  key: K;
  value: V;
  timestamp: number;
}

/** `new KeyValueTimestamp<>(key, value, timestamp)`. */
export function kvt<K, V>(key: K, value: V, timestamp: number): KeyValueTimestamp<K, V> {
  return { key, value, timestamp };
}

/** A recording processor supplier and what its processors saw. */
export interface Recorder<K, V> {
  readonly supplier: () => Processor<K, V>;
  /** Every processed record, in order (Kafka's `processed()`). */
  readonly processed: KeyValueTimestamp<K, V>[];
  /** The last value and timestamp per key (Kafka's `lastValueAndTimestampPerKey()`). */
  lastValueAndTimestampPerKey(): Map<K, { value: V; timestamp: number }>;
  /** Processed records as Kafka's `KeyValueTimestamp.toString()` of Changes: `A:(1<-null) (ts: 10)`. */
  formatted(): string[];
}

/** A new recorder. */
export function recorder<K, V>(): Recorder<K, V> {
  const processed: KeyValueTimestamp<K, V>[] = [];
  return {
    supplier: () => ({
      process(record) {
        processed.push({ key: record.key, value: record.value, timestamp: record.timestamp });
      },
    }),
    processed,
    lastValueAndTimestampPerKey() {
      return new Map(processed.map((r) => [r.key, { value: r.value, timestamp: r.timestamp }]));
    },
    formatted() {
      return processed.map((r) => `${String(r.key)}:${Change.is(r.value) ? Change.format(r.value) : String(r.value)} (ts: ${r.timestamp})`);
    },
  };
}
