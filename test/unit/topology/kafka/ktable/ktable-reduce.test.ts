/**
 * Ported from Kafka Streams' `KTableReduceTest` (inputs and expected store
 * contents unchanged): the `KTableReduce` processor alone, with a mock
 * context and an in-memory timestamped store (Kafka's
 * `GenericInMemoryTimestampedKeyValueStore`; here a Map).
 */
import { describe, expect, it } from 'vitest';
import { Change } from '../../../../../src/processors/dsl/change.js';
import type { TimestampedTableStore } from '../../../../../src/processors/dsl/ktable-contract.js';
import { tableReduceSupplier } from '../../../../../src/processors/dsl/ktable-aggregate.js';
import { Record } from '../../../../../src/processors/record.js';
import type { ValueAndTimestamp } from '../../../../../src/state/value-and-timestamp.js';
import { MockProcessorContext } from '../../../../../src/testing.js';

/** Kafka's `GenericInMemoryTimestampedKeyValueStore`, reduced to what the processor uses. */
function inMemoryTimestampedStore<K, V>(name: string): TimestampedTableStore<K, V> {
  const rows = new Map<K, ValueAndTimestamp<V>>();
  return {
    name,
    get: (key) => rows.get(key) ?? null,
    put: (key, value) => void (value === null ? rows.delete(key) : rows.set(key, value)),
    flush: () => undefined,
    close: () => undefined,
    isOpen: () => true,
  };
}

function differenceNotNullArgs(left: Set<string>, right: Set<string>): Set<string> {
  expect(left).not.toBeNull();
  expect(right).not.toBeNull();
  const strings = new Set(left);
  for (const s of right) strings.delete(s);
  return strings;
}

function unionNotNullArgs(left: Set<string>, right: Set<string>): Set<string> {
  expect(left).not.toBeNull();
  expect(right).not.toBeNull();
  return new Set([...left, ...right]);
}

const singleton = (s: string): Set<string> => new Set([s]);

describe('KTableReduceTest', () => {
  /** KTableReduceTest.shouldAddAndSubtract */
  it('shouldAddAndSubtract', () => {
    const context = new MockProcessorContext<string, Change<Set<string>>>({ processorName: 'reduce' });
    const reduceProcessor = tableReduceSupplier<string, Set<string>>('myStore', unionNotNullArgs, differenceNotNullArgs).get();
    const myStore = inMemoryTimestampedStore<string, Set<string>>('myStore');
    context.addStateStore(myStore);
    reduceProcessor.init?.(context);

    reduceProcessor.process(new Record('A', Change.of(singleton('a'), null), 10));
    expect(myStore.get('A')).toEqual({ value: singleton('a'), timestamp: 10 });
    reduceProcessor.process(new Record('A', Change.of(singleton('b'), singleton('a')), 15));
    expect(myStore.get('A')).toEqual({ value: singleton('b'), timestamp: 15 });
    reduceProcessor.process(new Record('A', Change.of<Set<string>>(null, singleton('b')), 12));
    expect(myStore.get('A')).toEqual({ value: new Set(), timestamp: 15 });
  });

  /** Not in Kafka's test: what the processor forwards (old aggregates once asked for, as KTableReduce). */
  it('forwards (new<-old) aggregates once old values are enabled', () => {
    const context = new MockProcessorContext<string, Change<number>>({ processorName: 'reduce' });
    const supplier = tableReduceSupplier<string, number>('s', (a, b) => a + b, (a, b) => a - b);
    supplier.enableSendingOldValues();
    const processor = supplier.get();
    context.addStateStore(inMemoryTimestampedStore<string, number>('s'));
    processor.init?.(context);
    processor.process(new Record('A', Change.of(3, null), 10));
    processor.process(new Record('A', Change.of(5, 3), 11));
    processor.process(new Record('A', Change.of<number>(null, 5), 12));
    expect(context.forwarded().map((f) => `${f.record.key}:${Change.format(f.record.value)}@${f.record.timestamp}`)).toEqual([
      'A:(3<-null)@10',
      'A:(5<-3)@11',
      'A:(0<-5)@12',
    ]);
  });
});
