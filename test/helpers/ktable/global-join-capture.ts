/**
 * A stand-in for Kafka's `MockApiProcessorSupplier` / `MockProcessor` in the
 * ported GlobalKTable join tests: records every (key, value, timestamp) a
 * node forwards, with `checkAndClearProcessResult`.
 */
import { expect } from 'vitest';
import type { ProcessorSupplier, Record } from '../../../src/index.js';

/** Kafka's `KeyValueTimestamp`. */
export interface KeyValueTimestamp<K, V> {
  key: K | null;
  value: V | null;
  timestamp: number;
}

/** Records what reaches it. */
export class CapturingProcessor<K, V> {
  readonly processed: KeyValueTimestamp<K, V>[] = [];

  /** The supplier to pass to `stream.process(...)`. */
  readonly supplier: ProcessorSupplier<K, V, void, void> = () => ({
    process: (record: Record<K, V>) => {
      this.processed.push({ key: record.key, value: record.value, timestamp: record.timestamp });
    },
  });

  /** Kafka's `MockProcessor.checkAndClearProcessResult`. */
  checkAndClearProcessResult(...expected: KeyValueTimestamp<K, V>[]): void {
    expect(this.processed).toEqual(expected);
    this.processed.length = 0;
  }

  /** Kafka's `lastValueAndTimestampPerKey`. */
  lastValueAndTimestampPerKey(): Map<K | null, { value: V | null; timestamp: number }> {
    return new Map(this.processed.map((r) => [r.key, { value: r.value, timestamp: r.timestamp }]));
  }
}

/** Kafka's `KeyValueTimestamp` constructor. */
export function kvt<K, V>(key: K | null, value: V | null, timestamp: number): KeyValueTimestamp<K, V> {
  return { key, value, timestamp };
}

/** Kafka's `MockValueJoiner.TOSTRING_JOINER`: `value1 + "+" + value2`. */
export const TOSTRING_JOINER = (v1: unknown, v2: unknown): string => `${String(v1)}+${String(v2)}`;
