/**
 * Ports of Kafka's `KTableSuppressProcessorTest` (untilTimeLimit cases on
 * non-windowed keys; the windowed and final-results cases belong to the
 * windows work). The harness: the supplier's processor over an unlogged
 * buffer named 'test-store', in a MockProcessorContext.
 */
import { describe, expect, it } from 'vitest';
import { Change } from '../../../../src/processors/dsl/change.js';
import { InMemoryTimeOrderedChangeBuffer } from '../../../../src/processors/dsl/suppress-buffer.js';
import { KTableSuppressSupplier } from '../../../../src/processors/dsl/suppress-processor.js';
import type { KTableParent } from '../../../../src/processors/dsl/ktable-ops.js';
import { Record } from '../../../../src/processors/record.js';
import { BufferConfig, Serdes, StreamsError, Suppressed } from '../../../../src/index.js';
import { MockProcessorContext } from '../../../../src/testing.js';
import { storeContext } from '../../state/helpers.js';

const ARBITRARY_LONG = 5;
const ARBITRARY_CHANGE = Change.of<number>(7, 14);
const DAYS_100 = 100 * 24 * 3600 * 1000;

const parent: KTableParent<string, number> = {
  valueGetterSupplier: () => ({ get: () => ({ init: () => undefined, get: () => null }), storeNames: () => [] }),
  enableSendingOldValues: () => true,
};

function harness(suppressed: Suppressed<string>) {
  const storeName = 'test-store';
  const buffer = new InMemoryTimeOrderedChangeBuffer<string, number>(storeName, Serdes.String(), Serdes.Long() as never, false, {});
  const cfg = suppressed.bufferConfig;
  const processor = new KTableSuppressSupplier<string, number>(parent, {
    storeName,
    timeToWaitMs: suppressed.timeToWaitForMoreEventsMs ?? Number.MAX_SAFE_INTEGER,
    maxRecords: cfg.maxRecords,
    maxBytes: cfg.maxBytes,
    whenFull: cfg.whenFull,
    safeToDropTombstones: false,
  }).get();
  const context = new MockProcessorContext<string, Change<number>>({ processorName: 'testNode' });
  buffer.init(storeContext(''));
  context.addStateStore(buffer);
  processor.init(context);
  return { processor, context, buffer };
}

const forwardedRecords = (context: MockProcessorContext<string, Change<number>>) => context.forwarded().map((f) => f.record);

describe('KTableSuppressProcessorTest (ported)', () => {
  // KTableSuppressProcessorTest.zeroTimeLimitShouldImmediatelyEmit
  it('zeroTimeLimitShouldImmediatelyEmit', () => {
    const { processor, context } = harness(Suppressed.untilTimeLimit(0, BufferConfig.unbounded()));
    const timestamp = ARBITRARY_LONG;
    context.setRecordMetadata('', 0, 0);
    processor.process(new Record('hey', ARBITRARY_CHANGE, timestamp));
    expect(forwardedRecords(context)).toEqual([new Record('hey', ARBITRARY_CHANGE, timestamp)]);
  });

  // KTableSuppressProcessorTest.intermediateSuppressionShouldBufferAndEmitLater
  it('intermediateSuppressionShouldBufferAndEmitLater', () => {
    const { processor, context } = harness(Suppressed.untilTimeLimit(1, BufferConfig.unbounded()));
    const timestamp = 0;
    context.setRecordMetadata('topic', 0, 0);
    const value = Change.of<number>(null, 1);
    processor.process(new Record('hey', value, timestamp));
    expect(context.forwarded()).toHaveLength(0);
    context.setRecordMetadata('topic', 0, 1);
    processor.process(new Record('tick', Change.of<number>(null, null), 1));
    expect(forwardedRecords(context)).toEqual([new Record('hey', value, timestamp)]);
  });

  // KTableSuppressProcessorTest.suppressShouldNotDropTombstonesForKTable
  it('suppressShouldNotDropTombstonesForKTable', () => {
    const { processor, context } = harness(Suppressed.untilTimeLimit(0, BufferConfig.maxRecords(0)));
    const timestamp = 100;
    context.setRecordMetadata('', 0, 0);
    const value = Change.of<number>(null, ARBITRARY_LONG);
    processor.process(new Record('hey', value, timestamp));
    expect(forwardedRecords(context)).toEqual([new Record('hey', value, timestamp)]);
  });

  // KTableSuppressProcessorTest.suppressShouldEmitWhenOverRecordCapacity
  it('suppressShouldEmitWhenOverRecordCapacity', () => {
    const { processor, context } = harness(Suppressed.untilTimeLimit(DAYS_100, BufferConfig.maxRecords(1)));
    const timestamp = 100;
    context.setRecordMetadata('', 0, 0);
    const value = Change.of<number>(null, ARBITRARY_LONG);
    processor.process(new Record('hey', value, timestamp));
    context.setRecordMetadata('', 0, 1);
    processor.process(new Record('dummyKey', value, timestamp + 1));
    expect(forwardedRecords(context)).toEqual([new Record('hey', value, timestamp)]);
  });

  // KTableSuppressProcessorTest.suppressShouldEmitWhenOverByteCapacity
  it('suppressShouldEmitWhenOverByteCapacity', () => {
    const { processor, context } = harness(Suppressed.untilTimeLimit(DAYS_100, BufferConfig.maxBytes(60)));
    const timestamp = 100;
    context.setRecordMetadata('', 0, 0);
    const value = Change.of<number>(null, ARBITRARY_LONG);
    processor.process(new Record('hey', value, timestamp));
    context.setRecordMetadata('', 0, 1);
    processor.process(new Record('dummyKey', value, timestamp + 1));
    expect(forwardedRecords(context)).toEqual([new Record('hey', value, timestamp)]);
  });

  // KTableSuppressProcessorTest.suppressShouldShutDownWhenOverRecordCapacity
  it('suppressShouldShutDownWhenOverRecordCapacity', () => {
    const { processor, context } = harness(Suppressed.untilTimeLimit(DAYS_100, BufferConfig.maxRecords(1).shutDownWhenFull()));
    const timestamp = 100;
    context.setRecordMetadata('', 0, 0);
    const value = Change.of<number>(null, ARBITRARY_LONG);
    processor.process(new Record('hey', value, timestamp));
    context.setRecordMetadata('', 0, 1);
    let error: unknown;
    try {
      processor.process(new Record('dummyKey', value, timestamp));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StreamsError);
    expect((error as Error).message).toContain('buffer exceeded its max capacity');
    expect((error as Error).message).toBe('testNode buffer exceeded its max capacity. Currently [2/1] records and [83/Infinity] bytes.');
  });

  // KTableSuppressProcessorTest.suppressShouldShutDownWhenOverByteCapacity
  it('suppressShouldShutDownWhenOverByteCapacity', () => {
    const { processor, context } = harness(Suppressed.untilTimeLimit(DAYS_100, BufferConfig.maxBytes(60).shutDownWhenFull()));
    const timestamp = 100;
    context.setRecordMetadata('', 0, 0);
    const value = Change.of<number>(null, ARBITRARY_LONG);
    processor.process(new Record('hey', value, timestamp));
    context.setRecordMetadata('', 0, 1);
    expect(() => processor.process(new Record('dummyKey', value, timestamp))).toThrow(/buffer exceeded its max capacity/);
  });
});

describe('suppression buffer', () => {
  it('keeps a re-updated key at its first buffer time and logs entries and tombstones at flush', () => {
    const sent: Array<{ key: string; value: Buffer | null }> = [];
    const buffer = new InMemoryTimeOrderedChangeBuffer<string, number>('b', Serdes.String(), Serdes.Long() as never, true, {});
    buffer.init({ ...storeContext(''), changelog: { send: (_s, key, value) => sent.push({ key: key.toString(), value }) } });
    const ctx = { timestamp: 0, headers: {}, topic: 't', partition: 0, offset: 0 };
    buffer.put(5, 'a', Change.of(1, null), ctx);
    buffer.put(7, 'b', Change.of(1, null), ctx);
    buffer.put(9, 'a', Change.of(2, 1), ctx);
    expect(buffer.minTimestamp()).toBe(5);
    expect(buffer.priorValueForBuffered('a')).toEqual({ value: null });
    const evicted: string[] = [];
    buffer.evictWhile(() => buffer.numRecords() > 1, (e) => evicted.push(`${e.key}:${Change.format(e.value)}`));
    expect(evicted).toEqual(['a:(2<-1)']);
    buffer.flush();
    expect(sent.map((s) => [s.key, s.value === null])).toEqual([
      ['a', true],
      ['b', false],
    ]);
    // A second buffer restored from what was logged holds 'b' again.
    const restored = new InMemoryTimeOrderedChangeBuffer<string, number>('b', Serdes.String(), Serdes.Long() as never, true, {});
    restored.init(storeContext(''));
    restored.restoreBatch(sent.map((s, offset) => ({ key: Buffer.from(s.key), value: s.value, timestamp: 0, offset })));
    expect(restored.numRecords()).toBe(1);
    expect(restored.minTimestamp()).toBe(7);
    expect(restored.bufferSize()).toBe(buffer.bufferSize());
  });
});
