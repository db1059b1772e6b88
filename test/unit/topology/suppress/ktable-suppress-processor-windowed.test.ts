/**
 * Ports of Kafka's `KTableSuppressProcessorTest`: the cases on windowed keys
 * (final results, and untilTimeLimit on windowed keys), inputs and expected
 * forwards unchanged. The harness is Kafka's: the supplier's processor over
 * an unlogged buffer 'test-store', node 'testNode'; Kafka's
 * `finalResults(grace)` (`buildFinalResultsSuppression(grace)` of
 * `untilWindowCloses(unbounded())`) is `finalResultsSettings(unbounded(), grace)`.
 * Where Kafka sets headers on the mock context, the sluice record carries
 * them (a sluice processor's record context is its record).
 */
import { describe, expect, it } from 'vitest';
import { Change } from '../../../../src/processors/dsl/change.js';
import { InMemoryTimeOrderedChangeBuffer } from '../../../../src/processors/dsl/suppress-buffer.js';
import { KTableSuppressSupplier, type SuppressSettings } from '../../../../src/processors/dsl/suppress-processor.js';
import type { KTableParent } from '../../../../src/processors/dsl/ktable-ops.js';
import { Record } from '../../../../src/processors/record.js';
import { finalResultsSettings, timeLimitSettings } from '../../../../src/topology/internal/suppress.js';
import { BufferConfig, Serdes, SessionWindow, StreamsError, Suppressed, TimeWindow, Windowed, WindowedSerdes } from '../../../../src/index.js';
import type { Serde } from '../../../../src/index.js';
import { MockProcessorContext } from '../../../../src/testing.js';
import { storeContext } from '../../state/helpers.js';

type WKey = Windowed<string>;
const ARBITRARY_LONG = 5;
const ARBITRARY_CHANGE = Change.of<number>(7, 14);
const S = Serdes.String();
const L = Serdes.Long() as unknown as Serde<number>;
const { unbounded, maxRecords } = BufferConfig;

const parent: KTableParent<WKey, number> = {
  valueGetterSupplier: () => ({ get: () => ({ init: () => undefined, get: () => null }), storeNames: () => [] }),
  enableSendingOldValues: () => true,
};

/** Kafka's `finalResults(grace)`. */
const finalResults = (graceMs: number) => finalResultsSettings(unbounded(), graceMs);
const untilTimeLimit = (ms: number, config: BufferConfig) => timeLimitSettings(Suppressed.untilTimeLimit(ms, config));
const timeWindowedSerdeFrom = (sizeMs: number) => WindowedSerdes.timeWindowedSerdeFrom(S, sizeMs);
const sessionWindowedSerdeFrom = () => WindowedSerdes.sessionWindowedSerdeFrom(S);

function harness(settings: Omit<SuppressSettings, 'storeName'>, keySerde: Serde<WKey>) {
  const storeName = 'test-store';
  const buffer = new InMemoryTimeOrderedChangeBuffer<WKey, number>(storeName, keySerde, L, false, {});
  const processor = new KTableSuppressSupplier<WKey, number>(parent, { storeName, ...settings }).get();
  const context = new MockProcessorContext<WKey, Change<number>>({ processorName: 'testNode' });
  buffer.init(storeContext(''));
  context.addStateStore(buffer);
  processor.init(context);
  return { processor, context };
}

const forwarded = (context: MockProcessorContext<WKey, Change<number>>) => context.forwarded().map((f) => f.record);

describe('KTableSuppressProcessorTest, windowed cases (ported)', () => {
  // KTableSuppressProcessorTest.windowedZeroTimeLimitShouldImmediatelyEmit
  it('windowedZeroTimeLimitShouldImmediatelyEmit', () => {
    const { processor, context } = harness(untilTimeLimit(0, unbounded()), timeWindowedSerdeFrom(100));
    const timestamp = ARBITRARY_LONG;
    context.setRecordMetadata('', 0, 0);
    const key = Windowed.of('hey', TimeWindow.of(0, 100));
    processor.process(new Record(key, ARBITRARY_CHANGE, timestamp));
    expect(forwarded(context)).toEqual([new Record(key, ARBITRARY_CHANGE, timestamp)]);
  });

  // KTableSuppressProcessorTest.finalResultsSuppressionShouldBufferAndEmitAtGraceExpiration
  it('finalResultsSuppressionShouldBufferAndEmitAtGraceExpiration', () => {
    const { processor, context } = harness(finalResults(1), timeWindowedSerdeFrom(1));
    const [windowStart, recordTime, windowEnd] = [99, 99, 100];
    context.setRecordMetadata('topic', 0, 0);
    const key = Windowed.of('hey', TimeWindow.of(windowStart, windowEnd));
    const value = ARBITRARY_CHANGE;
    processor.process(new Record(key, value, recordTime));
    expect(context.forwarded()).toHaveLength(0);

    // although the stream time is now 100, we have to wait 1 ms after the window *end* before we
    // emit "hey", so we don't emit yet.
    const [windowStart2, recordTime2, windowEnd2] = [100, 100, 101];
    context.setRecordMetadata('topic', 0, 1);
    processor.process(new Record(Windowed.of('dummyKey1', TimeWindow.of(windowStart2, windowEnd2)), ARBITRARY_CHANGE, recordTime2));
    expect(context.forwarded()).toHaveLength(0);

    // ok, now it's time to emit "hey"
    const [windowStart3, recordTime3, windowEnd3] = [101, 101, 102];
    context.setRecordMetadata('topic', 0, 1);
    processor.process(new Record(Windowed.of('dummyKey2', TimeWindow.of(windowStart3, windowEnd3)), ARBITRARY_CHANGE, recordTime3));
    expect(forwarded(context)).toEqual([new Record(key, value, recordTime)]);
  });

  // KTableSuppressProcessorTest.finalResultsWithZeroGraceShouldStillBufferUntilTheWindowEnd
  it('finalResultsWithZeroGraceShouldStillBufferUntilTheWindowEnd', () => {
    const { processor, context } = harness(finalResults(0), timeWindowedSerdeFrom(100));
    // note the record is in the past, but the window end is in the future, so we still have to buffer,
    // even though the grace period is 0.
    const timestamp = 5;
    const windowEnd = 100;
    context.setRecordMetadata('', 0, 0);
    const key = Windowed.of('hey', TimeWindow.of(0, windowEnd));
    const value = ARBITRARY_CHANGE;
    processor.process(new Record(key, value, timestamp));
    expect(context.forwarded()).toHaveLength(0);

    context.setRecordMetadata('', 0, 1);
    processor.process(new Record(Windowed.of('dummyKey', TimeWindow.of(windowEnd, windowEnd + 100)), ARBITRARY_CHANGE, windowEnd));
    expect(forwarded(context)).toEqual([new Record(key, value, timestamp)]);
  });

  // KTableSuppressProcessorTest.finalResultsWithZeroGraceAtWindowEndShouldImmediatelyEmit
  it('finalResultsWithZeroGraceAtWindowEndShouldImmediatelyEmit', () => {
    const { processor, context } = harness(finalResults(0), timeWindowedSerdeFrom(100));
    const timestamp = 100;
    context.setRecordMetadata('', 0, 0);
    const key = Windowed.of('hey', TimeWindow.of(0, 100));
    const value = ARBITRARY_CHANGE;
    processor.process(new Record(key, value, timestamp));
    expect(forwarded(context)).toEqual([new Record(key, value, timestamp)]);
  });

  // KTableSuppressProcessorTest.finalResultsShouldDropTombstonesForTimeWindows
  it('finalResultsShouldDropTombstonesForTimeWindows', () => {
    const { processor, context } = harness(finalResults(0), timeWindowedSerdeFrom(100));
    const timestamp = 100;
    context.setRecordMetadata('', 0, 0);
    const key = Windowed.of('hey', TimeWindow.of(0, 100));
    const value = Change.of<number>(null, ARBITRARY_LONG);
    processor.process(new Record(key, value, timestamp));
    expect(context.forwarded()).toHaveLength(0);
  });

  // KTableSuppressProcessorTest.finalResultsShouldDropTombstonesForSessionWindows
  it('finalResultsShouldDropTombstonesForSessionWindows', () => {
    const { processor, context } = harness(finalResults(0), sessionWindowedSerdeFrom());
    const timestamp = 100;
    context.setRecordMetadata('', 0, 0);
    const key = Windowed.of('hey', SessionWindow.of(0, 0));
    const value = Change.of<number>(null, ARBITRARY_LONG);
    processor.process(new Record(key, value, timestamp));
    expect(context.forwarded()).toHaveLength(0);
  });

  // KTableSuppressProcessorTest.suppressShouldNotDropTombstonesForTimeWindows
  it('suppressShouldNotDropTombstonesForTimeWindows', () => {
    const { processor, context } = harness(untilTimeLimit(0, maxRecords(0)), timeWindowedSerdeFrom(100));
    const timestamp = 100;
    const headers = { k: Buffer.from('v', 'utf8') };
    context.setRecordMetadata('', 0, 0);
    const key = Windowed.of('hey', TimeWindow.of(0, 100));
    const value = Change.of<number>(null, ARBITRARY_LONG);
    processor.process(new Record(key, value, timestamp, headers));
    expect(forwarded(context)).toEqual([new Record(key, value, timestamp, headers)]);
  });

  // KTableSuppressProcessorTest.suppressShouldNotDropTombstonesForSessionWindows
  it('suppressShouldNotDropTombstonesForSessionWindows', () => {
    const { processor, context } = harness(untilTimeLimit(0, maxRecords(0)), sessionWindowedSerdeFrom());
    const timestamp = 100;
    context.setRecordMetadata('', 0, 0);
    const key = Windowed.of('hey', SessionWindow.of(0, 0));
    const value = Change.of<number>(null, ARBITRARY_LONG);
    processor.process(new Record(key, value, timestamp));
    expect(forwarded(context)).toEqual([new Record(key, value, timestamp)]);
  });
});

describe('final results: window end as buffer time, tombstones, strict bounds', () => {
  it('a window re-updated keeps its place; only its latest change is emitted, once, when the window closes', () => {
    const { processor, context } = harness(finalResults(10), timeWindowedSerdeFrom(100));
    const a = Windowed.of('a', TimeWindow.of(0, 100));
    const b = Windowed.of('b', TimeWindow.of(0, 100));
    processor.process(new Record(a, Change.of<number>(1, null), 10));
    processor.process(new Record(b, Change.of<number>(1, null), 20));
    processor.process(new Record(a, Change.of<number>(2, 1), 30));
    // stream time 109 < 100 + 10: still open
    processor.process(new Record(Windowed.of('c', TimeWindow.of(100, 200)), Change.of<number>(1, null), 109));
    expect(context.forwarded()).toHaveLength(0);
    processor.process(new Record(Windowed.of('c', TimeWindow.of(100, 200)), Change.of<number>(2, 1), 110));
    expect(forwarded(context)).toEqual([new Record(a, Change.of<number>(2, 1), 30), new Record(b, Change.of<number>(1, null), 20)]);
  });

  it('a window whose latest change is a delete emits nothing, though earlier changes were held', () => {
    const { processor, context } = harness(finalResults(0), timeWindowedSerdeFrom(100));
    const a = Windowed.of('a', TimeWindow.of(0, 100));
    processor.process(new Record(a, Change.of<number>(1, null), 10));
    processor.process(new Record(a, Change.of<number>(null, 1), 20));
    processor.process(new Record(Windowed.of('tick', TimeWindow.of(100, 200)), Change.of<number>(1, null), 100));
    expect(context.forwarded()).toHaveLength(0);
  });

  it('a strict bounded buffer fails the task with Kafka’s message when full (never emits early)', () => {
    const { processor, context } = harness(finalResultsSettings(maxRecords(1).shutDownWhenFull(), 0), timeWindowedSerdeFrom(100));
    processor.process(new Record(Windowed.of('a', TimeWindow.of(0, 100)), Change.of<number>(1, null), 10));
    let error: unknown;
    try {
      processor.process(new Record(Windowed.of('b', TimeWindow.of(0, 100)), Change.of<number>(1, null), 11));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StreamsError);
    expect((error as StreamsError).code).toBe('SUPPRESSION_BUFFER_FULL');
    expect((error as Error).message).toMatch(/^testNode buffer exceeded its max capacity\. Currently \[2\/1\] records/);
    expect(context.forwarded()).toHaveLength(0);
  });

  it('a key that is not windowed gets a clear record-level error naming the fix', () => {
    const { processor } = harness(finalResults(0), timeWindowedSerdeFrom(100));
    let error: unknown;
    try {
      processor.process(new Record('plain' as unknown as WKey, Change.of<number>(1, null), 10));
    } catch (e) {
      error = e;
    }
    expect((error as StreamsError).code).toBe('SUPPRESSION_NOT_WINDOWED');
    expect((error as Error).message).toContain('Suppressed.untilTimeLimit');
  });
});
