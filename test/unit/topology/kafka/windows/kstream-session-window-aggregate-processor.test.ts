/**
 * Ported from Kafka Streams' `KStreamSessionWindowAggregateProcessorTest`
 * (inputs and expected outputs unchanged), each case for both emit
 * strategies as Kafka's `@EnumSource(EmitStrategy.StrategyType.class)`. The
 * processor runs on a real `ProcessorContextImpl` over a test host (Kafka's
 * `InternalMockProcessorContext`, test/helpers/ktable/session-aggregate-host.ts)
 * with the emit interval 0, as Kafka's setup.
 *
 * Differences, named where they apply:
 * - as Kafka's setup, ON_WINDOW_UPDATE stores cache (a record cache of
 *   100000 bytes, Kafka's `ThreadCache`), ON_WINDOW_CLOSE ones do not;
 * - the null-key WARN is sluice's drop-log line ("Skipping record due to
 *   null key (processor …, input topic-partition@offset) …") with topic,
 *   partition and offset as fields; the expired-window line is Kafka's, at
 *   DEBUG (Kafka logs it at WARN); only `dropped-records-total` is checked
 *   (sluice has no rate metric).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SessionWindowAggregateSupplier, type SessionAggregation } from '../../../../../src/processors/dsl/session-window-aggregate.js';
import type { Processor, ProcessorContext } from '../../../../../src/processors/processor.js';
import { Record } from '../../../../../src/processors/record.js';
import type { SessionStore } from '../../../../../src/state/session-store.js';
import type { ManagedStateStore } from '../../../../../src/state/store-contract.js';
import { RecordCache } from '../../../../../src/state/record-cache.js';
import { Stores } from '../../../../../src/state/stores.js';
import type { Windowed } from '../../../../../src/state/window-types.js';
import { Serdes, SessionWindows } from '../../../../../src/index.js';
import { SessionAggregateHost, sessionKvt } from '../../../../helpers/ktable/session-aggregate-host.js';

const GAP_MS = 5 * 60 * 1000;
const STORE_NAME = 'session-store';
const aggregation: SessionAggregation<string, string, number> = {
  operation: 'aggregate',
  initializer: () => 0,
  aggregator: (_aggKey, _value, aggregate) => aggregate + 1,
  merger: (_aggKey, aggOne, aggTwo) => aggOne + aggTwo,
};

type Store = SessionStore<string, number> & ManagedStateStore;
let store: Store | undefined;
afterEach(() => {
  store?.close();
  store = undefined;
});

describe.each(['ON_WINDOW_UPDATE', 'ON_WINDOW_CLOSE'] as const)('KStreamSessionWindowAggregateProcessorTest (%s)', (type) => {
  const emitFinal = type === 'ON_WINDOW_CLOSE';
  let host: SessionAggregateHost;
  let sessionAggregator: SessionWindowAggregateSupplier<string, string, number>;
  let processor: Processor<string, string, Windowed<string>, unknown>;
  let sessionStore: Store;
  let context: ProcessorContext<unknown, unknown>;

  /** KStreamSessionWindowAggregateProcessorTest.setup */
  function setup(enableCaching = true): void {
    host = new SessionAggregateHost(0);
    sessionAggregator = new SessionWindowAggregateSupplier(SessionWindows.ofInactivityGapWithNoGrace(GAP_MS), STORE_NAME, emitFinal, aggregation);
    processor = sessionAggregator.get() as Processor<string, string, Windowed<string>, unknown>;
    initStore(enableCaching);
    context = host.context() as unknown as ProcessorContext<unknown, unknown>;
    processor.init?.(context as ProcessorContext<Windowed<string>, never>);
  }

  /** KStreamSessionWindowAggregateProcessorTest.initStore (logging disabled) */
  function initStore(enableCaching: boolean): void {
    store?.close();
    const builder = Stores.sessionStoreBuilder(Stores.persistentSessionStore(STORE_NAME, GAP_MS * 3), Serdes.String(), Serdes.Long()).withLoggingDisabled();
    const caching = enableCaching && !emitFinal;
    if (caching) builder.withCachingEnabled();
    sessionStore = builder.build() as unknown as Store;
    store = sessionStore;
    host.addStore(sessionStore, caching ? new RecordCache(100000) : undefined);
  }

  const process = (key: string | null, value: string, ts: number) => void processor.process(new Record(key as string, value, ts));

  // KStreamSessionWindowAggregateProcessorTest.shouldCreateSingleSessionWhenWithinGap
  it('shouldCreateSingleSessionWhenWithinGap', () => {
    setup();
    process('john', 'first', 0);
    process('john', 'second', 500);
    const values = sessionStore.findSessions('john', 0, 2000);
    expect(values.length).toBeGreaterThan(0);
    expect(values[0]!.value).toBe(2);
  });

  // KStreamSessionWindowAggregateProcessorTest.shouldMergeSessions
  it('shouldMergeSessions', () => {
    setup();
    const sessionId = 'mel';
    process(sessionId, 'first', 0);
    expect(sessionStore.findSessions(sessionId, 0, 0).length).toBeGreaterThan(0);
    // move time beyond gap
    process(sessionId, 'second', GAP_MS + 1);
    expect(sessionStore.findSessions(sessionId, GAP_MS + 1, GAP_MS + 1).length).toBeGreaterThan(0);
    // should still exist as not within gap
    expect(sessionStore.findSessions(sessionId, 0, 0).length).toBeGreaterThan(0);
    // move time back
    process(sessionId, 'third', GAP_MS / 2);
    const iterator = sessionStore.findSessions(sessionId, 0, GAP_MS + 1);
    expect(iterator[0]!.value).toBe(3);
    expect(iterator).toHaveLength(1);
  });

  // KStreamSessionWindowAggregateProcessorTest.shouldUpdateSessionIfTheSameTime
  it('shouldUpdateSessionIfTheSameTime', () => {
    setup();
    process('mel', 'first', 0);
    process('mel', 'second', 0);
    const iterator = sessionStore.findSessions('mel', 0, 0);
    expect(iterator[0]!.value).toBe(2);
    expect(iterator).toHaveLength(1);
  });

  // KStreamSessionWindowAggregateProcessorTest.shouldHaveMultipleSessionsForSameIdWhenTimestampApartBySessionGap
  it('shouldHaveMultipleSessionsForSameIdWhenTimestampApartBySessionGap', () => {
    setup();
    const sessionId = 'mel';
    let now = 0;
    process(sessionId, 'first', now);
    now += GAP_MS + 1;
    process(sessionId, 'second', now);
    process(sessionId, 'second', now);
    now += GAP_MS + 1;
    process(sessionId, 'third', now);
    process(sessionId, 'third', now);
    process(sessionId, 'third', now);
    sessionStore.flush();
    if (emitFinal) {
      expect(host.results).toEqual([sessionKvt(sessionId, 0, 0, 1, null, 0), sessionKvt(sessionId, GAP_MS + 1, GAP_MS + 1, 2, null, GAP_MS + 1)]);
    } else {
      expect(host.results).toEqual([
        sessionKvt(sessionId, 0, 0, 1, null, 0),
        sessionKvt(sessionId, GAP_MS + 1, GAP_MS + 1, 2, null, GAP_MS + 1),
        sessionKvt(sessionId, now, now, 3, null, now),
      ]);
    }
  });

  // KStreamSessionWindowAggregateProcessorTest.shouldRemoveMergedSessionsFromStateStore
  it('shouldRemoveMergedSessionsFromStateStore', () => {
    setup();
    process('a', '1', 0);
    // first ensure it is in the store
    expect(sessionStore.findSessions('a', 0, 0)[0]).toEqual({ key: { key: 'a', window: { start: 0, end: 0 } }, value: 1 });
    process('a', '2', 100);
    // a1 from above should have been removed; should have merged session in store
    const a2 = sessionStore.findSessions('a', 0, 100);
    expect(a2[0]).toEqual({ key: { key: 'a', window: { start: 0, end: 100 } }, value: 2 });
    expect(a2).toHaveLength(1);
  });

  // KStreamSessionWindowAggregateProcessorTest.shouldHandleMultipleSessionsAndMerging
  it('shouldHandleMultipleSessionsAndMerging', () => {
    setup();
    process('a', '1', 0);
    process('b', '1', 0);
    process('c', '1', 0);
    process('d', '1', 0);
    process('d', '2', GAP_MS / 2);
    process('a', '2', GAP_MS + 1);
    process('b', '2', GAP_MS + 1);
    process('a', '3', GAP_MS + 1 + GAP_MS / 2);
    process('c', '3', GAP_MS + 1 + GAP_MS / 2);
    sessionStore.flush();
    if (emitFinal) {
      expect(host.results).toEqual([
        sessionKvt('a', 0, 0, 1, null, 0),
        sessionKvt('b', 0, 0, 1, null, 0),
        sessionKvt('c', 0, 0, 1, null, 0),
        sessionKvt('d', 0, GAP_MS / 2, 2, null, GAP_MS / 2),
      ]);
    } else {
      expect(host.results).toEqual([
        sessionKvt('a', 0, 0, 1, null, 0),
        sessionKvt('b', 0, 0, 1, null, 0),
        sessionKvt('c', 0, 0, 1, null, 0),
        sessionKvt('d', 0, GAP_MS / 2, 2, null, GAP_MS / 2),
        sessionKvt('b', GAP_MS + 1, GAP_MS + 1, 1, null, GAP_MS + 1),
        sessionKvt('a', GAP_MS + 1, GAP_MS + 1 + GAP_MS / 2, 2, null, GAP_MS + 1 + GAP_MS / 2),
        sessionKvt('c', GAP_MS + 1 + GAP_MS / 2, GAP_MS + 1 + GAP_MS / 2, 1, null, GAP_MS + 1 + GAP_MS / 2),
      ]);
    }
  });

  // KStreamSessionWindowAggregateProcessorTest.shouldGetAggregatedValuesFromValueGetter
  it('shouldGetAggregatedValuesFromValueGetter', () => {
    setup();
    const getter = sessionAggregator.view().get();
    getter.init(context);
    process('a', '1', 0);
    process('a', '1', GAP_MS + 1);
    process('a', '2', GAP_MS + 1);
    const t0 = getter.get({ key: 'a', window: { start: 0, end: 0 } })!.value;
    const t1 = getter.get({ key: 'a', window: { start: GAP_MS + 1, end: GAP_MS + 1 } })!.value;
    expect(t0).toBe(1);
    expect(t1).toBe(2);
  });

  // KStreamSessionWindowAggregateProcessorTest.shouldImmediatelyForwardNewSessionWhenNonCachedStore
  it('shouldImmediatelyForwardNewSessionWhenNonCachedStore', () => {
    setup();
    if (emitFinal) return;
    initStore(false);
    processor.init?.(host.context() as unknown as ProcessorContext<Windowed<string>, never>);
    process('a', '1', 0);
    process('b', '1', 0);
    process('c', '1', 0);
    expect(host.results).toEqual([sessionKvt('a', 0, 0, 1, null, 0), sessionKvt('b', 0, 0, 1, null, 0), sessionKvt('c', 0, 0, 1, null, 0)]);
  });

  // KStreamSessionWindowAggregateProcessorTest.shouldImmediatelyForwardRemovedSessionsWhenMerging
  it('shouldImmediatelyForwardRemovedSessionsWhenMerging', () => {
    setup();
    if (emitFinal) return;
    initStore(false);
    processor.init?.(host.context() as unknown as ProcessorContext<Windowed<string>, never>);
    process('a', '1', 0);
    process('a', '1', 5);
    expect(host.results).toEqual([sessionKvt('a', 0, 0, 1, null, 0), sessionKvt('a', 0, 0, null, null, 0), sessionKvt('a', 0, 5, 2, null, 5)]);
  });

  // KStreamSessionWindowAggregateProcessorTest.shouldLogAndMeterWhenSkippingNullKeyWithBuiltInMetrics
  it('shouldLogAndMeterWhenSkippingNullKeyWithBuiltInMetrics', () => {
    setup(false);
    host.setRecordContext(-2, -3, 'topic');
    process(null, '1', 0);
    const warns = host.lines.filter((l) => l.level === 40);
    expect(warns).toHaveLength(1);
    expect(warns[0]!.msg).toMatch(/^Skipping record due to null key \(processor .*input topic--3@-2\)/);
    expect(warns[0]).toMatchObject({ topic: 'topic', partition: -3, offset: -2 });
    expect(host.droppedRecords).toBe(1);
  });

  /** The late-record cases: a second processor of 10 ms gap and `graceMs` grace, updates emitted. */
  function lateProcessor(graceMs: number): (key: string, value: string, ts: number) => void {
    const late = new SessionWindowAggregateSupplier(SessionWindows.ofInactivityGapAndGrace(10, graceMs), STORE_NAME, false, aggregation).get();
    late.init?.(host.context() as unknown as ProcessorContext<Windowed<string>, never>);
    return (key, value, ts) => {
      host.setRecordContext(-2, -3, 'topic');
      void late.process(new Record(key, value, ts));
    };
  }

  // KStreamSessionWindowAggregateProcessorTest.shouldLogAndMeterWhenSkippingLateRecordWithZeroGrace
  it('shouldLogAndMeterWhenSkippingLateRecordWithZeroGrace', () => {
    setup(false);
    const p = lateProcessor(0);
    // dummy record to establish stream time = 0
    p('dummy', 'dummy', 0);
    // record arrives on time, should not be skipped
    p('OnTime1', '1', 0);
    // dummy record to advance stream time = 11, 10 for gap time plus 1 to place outside window
    p('dummy', 'dummy', 11);
    // record is late
    p('Late1', '1', 0);
    expect(host.messages(20)).toContain('Skipping record for expired window. topic=[topic] partition=[-3] offset=[-2] timestamp=[0] window=[0,0] expiration=[1] streamTime=[11]');
    expect(host.droppedRecords).toBe(1);
  });

  // KStreamSessionWindowAggregateProcessorTest.shouldLogAndMeterWhenSkippingLateRecordWithNonzeroGrace
  it('shouldLogAndMeterWhenSkippingLateRecordWithNonzeroGrace', () => {
    setup(false);
    const p = lateProcessor(1);
    // dummy record to establish stream time = 0
    p('dummy', 'dummy', 0);
    // record arrives on time, should not be skipped
    p('OnTime1', '1', 0);
    // dummy record to advance stream time = 11, 10 for gap time plus 1 to place at edge of window
    p('dummy', 'dummy', 11);
    // delayed record arrives on time, should not be skipped
    p('OnTime2', '1', 0);
    // dummy record to advance stream time = 12, 10 for gap time plus 2 to place outside window
    p('dummy', 'dummy', 12);
    // delayed record arrives late
    p('Late1', '1', 0);
    expect(host.messages(20)).toContain('Skipping record for expired window. topic=[topic] partition=[-3] offset=[-2] timestamp=[0] window=[0,0] expiration=[1] streamTime=[12]');
    expect(host.droppedRecords).toBe(1);
  });
});

describe('KStreamSessionWindowAggregate as a windowed aggregation', () => {
  // sluice: Kafka's emit throttle (`__emit.interval.ms.kstreams.windowed.aggregation__`) when a task sets one
  it('onWindowClose() looks for closed sessions at most once per emit interval of wall-clock time', () => {
    const host = new SessionAggregateHost(1000);
    const sessions = Stores.sessionStoreBuilder(Stores.inMemorySessionStore(STORE_NAME, 100), Serdes.String(), Serdes.Long()).withLoggingDisabled().build() as unknown as Store;
    store = sessions;
    host.addStore(sessions);
    const p = new SessionWindowAggregateSupplier(SessionWindows.ofInactivityGapWithNoGrace(10), STORE_NAME, true, aggregation).get();
    p.init?.(host.context() as unknown as ProcessorContext<Windowed<string>, never>);
    const send = (key: string, ts: number) => void p.process(new Record(key, 'v', ts));
    host.now = 5_000;
    send('a', 0); // first look (nothing closed yet); the next one is due at 6_000
    send('b', 50); // [0,0] of a closed, but not looked for before 6_000
    expect(host.results).toEqual([]);
    host.now = 6_000;
    send('c', 60);
    expect(host.results).toEqual([sessionKvt('a', 0, 0, 1, null, 0)]);
  });

  // sluice: suppression finds the close delay (Kafka's GraphGraceSearchUtil: gap + grace for sessions)
  it('closes a session gap + grace after its end', () => {
    const supplier = new SessionWindowAggregateSupplier(SessionWindows.ofInactivityGapAndGrace(10, 3), STORE_NAME, false, aggregation);
    expect(supplier.windowCloseDelayMs()).toBe(13);
    expect(supplier.enableSendingOldValues()).toBe(true);
    expect(supplier.view().storeNames()).toEqual([STORE_NAME]);
  });
});
