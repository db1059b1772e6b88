/**
 * Ported from Kafka Streams' `SessionWindowedKStreamImplTest` (inputs and
 * expected outputs unchanged), each case run for both emit strategies as
 * Kafka's `@EnumSource(EmitStrategy.StrategyType.class)`.
 *
 * Note `shouldMaterialize*` with ON_WINDOW_UPDATE: the expected contents
 * include the session `[10,15]` of key "1", expired in the store (stream
 * time 600, retention 500) and read from the record cache, which keeps
 * flushed entries, as Kafka's `CachingSessionStore`.
 *
 * Adapted: `shouldNotEnableCachingWithEmitFinal` asserts Kafka's store asserts Kafka's store
 * classes (`MeteredSessionStore` over `ChangeLoggingSessionBytesStore` over
 * `RocksDBTimeOrderedSessionStore`); here the same check is on sluice's
 * layers (typed store over the change-logging layer, no cache).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EmitStrategy, Grouped, Materialized, Serdes, SessionWindows, StreamsBuilder, type Named, type SessionWindowedKStream } from '../../../../../src/index.js';
import { ChangeLoggingSessionBytesStore } from '../../../../../src/state/window-change-logging.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import { kvt, recorder } from '../../../../helpers/ktable/t-group.js';
import { storeOf } from '../../../../helpers/store-of.js';

const TOPIC = 'input';
const S = Serdes.String();
const sessionMerger = (_k: string, one: string, two: string): string => `${one}+${two}`;
// MockInitializer.STRING_INIT, MockAggregator.TOSTRING_ADDER, MockReducer.STRING_ADDER
const STRING_INIT = (): string => '0';
const TOSTRING_ADDER = (_k: unknown, value: unknown, aggregate: string): string => `${aggregate}+${String(value)}`;
const STRING_ADDER = (aggregate: string, value: string): string => `${aggregate}+${value}`;
const w = (key: string, start: number, end: number) => ({ key, window: { start, end } });

let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

const STRATEGIES = ['ON_WINDOW_UPDATE', 'ON_WINDOW_CLOSE'] as const;

describe.each(STRATEGIES)('SessionWindowedKStreamImplTest (%s)', (type) => {
  const emitFinal = type === 'ON_WINDOW_CLOSE';
  let builder: StreamsBuilder;
  let stream: SessionWindowedKStream<string, string>;

  /** SessionWindowedKStreamImplTest.setup */
  function setup(): void {
    builder = new StreamsBuilder();
    stream = builder
      .stream<string, string>(TOPIC, { keySerde: S, valueSerde: S })
      .groupByKey(Grouped.with(S, S))
      .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(500))
      .emitStrategy(emitFinal ? EmitStrategy.onWindowClose() : EmitStrategy.onWindowUpdate());
  }

  function start(cacheMaxBytes?: number): TopologyTestDriver {
    driver = new TopologyTestDriver(builder.build(), { applicationId: 'session-windowed-test', ...(cacheMaxBytes === undefined ? {} : { statestoreCacheMaxBytes: cacheMaxBytes }) });
    return driver;
  }

  /** SessionWindowedKStreamImplTest.processData */
  function processData(d: TopologyTestDriver): void {
    const inputTopic = d.createInputTopic(TOPIC, S, S);
    inputTopic.pipeInput('1', '1', 10);
    inputTopic.pipeInput('1', '2', 15);
    inputTopic.pipeInput('1', '3', 600);
    inputTopic.pipeInput('2', '1', 600);
    inputTopic.pipeInput('2', '2', 599);
  }

  /** SessionWindowedKStreamImplTest.shouldCountSessionWindowed */
  function shouldCountSessionWindowed(cacheMaxBytes?: number): void {
    const supplier = recorder<unknown, unknown>();
    stream.count().toStream().process(supplier.supplier);
    processData(start(cacheMaxBytes));
    if (emitFinal) {
      expect(supplier.processed).toEqual([kvt(w('1', 10, 15), 2, 15)]);
    } else {
      expect(supplier.processed).toEqual([
        kvt(w('1', 10, 10), 1, 10),
        kvt(w('1', 10, 10), null, 10),
        kvt(w('1', 10, 15), 2, 15),
        kvt(w('1', 600, 600), 1, 600),
        kvt(w('2', 600, 600), 1, 600),
        kvt(w('2', 600, 600), null, 600),
        kvt(w('2', 599, 600), 2, 600),
      ]);
    }
  }

  // SessionWindowedKStreamImplTest.shouldCountSessionWindowedWithCachingDisabled
  it('shouldCountSessionWindowedWithCachingDisabled', () => {
    setup();
    shouldCountSessionWindowed(0);
  });

  // SessionWindowedKStreamImplTest.shouldCountSessionWindowedWithCachingEnabled
  it('shouldCountSessionWindowedWithCachingEnabled', () => {
    setup();
    shouldCountSessionWindowed();
  });

  // SessionWindowedKStreamImplTest.shouldReduceWindowed
  it('shouldReduceWindowed', () => {
    setup();
    const supplier = recorder<unknown, unknown>();
    stream.reduce(STRING_ADDER).toStream().process(supplier.supplier);
    processData(start());
    if (emitFinal) {
      expect(supplier.processed).toEqual([kvt(w('1', 10, 15), '1+2', 15)]);
    } else {
      expect(supplier.processed).toEqual([
        kvt(w('1', 10, 10), '1', 10),
        kvt(w('1', 10, 10), null, 10),
        kvt(w('1', 10, 15), '1+2', 15),
        kvt(w('1', 600, 600), '3', 600),
        kvt(w('2', 600, 600), '1', 600),
        kvt(w('2', 600, 600), null, 600),
        kvt(w('2', 599, 600), '1+2', 600),
      ]);
    }
  });

  // SessionWindowedKStreamImplTest.shouldAggregateSessionWindowed
  it('shouldAggregateSessionWindowed', () => {
    setup();
    const supplier = recorder<unknown, unknown>();
    stream.aggregate(STRING_INIT, TOSTRING_ADDER, sessionMerger, Materialized.with(S, S)).toStream().process(supplier.supplier);
    processData(start());
    if (emitFinal) {
      expect(supplier.processed).toEqual([kvt(w('1', 10, 15), '0+0+1+2', 15)]);
    } else {
      expect(supplier.processed).toEqual([
        kvt(w('1', 10, 10), '0+1', 10),
        kvt(w('1', 10, 10), null, 10),
        kvt(w('1', 10, 15), '0+0+1+2', 15),
        kvt(w('1', 600, 600), '0+3', 600),
        kvt(w('2', 600, 600), '0+1', 600),
        kvt(w('2', 600, 600), null, 600),
        kvt(w('2', 599, 600), '0+0+1+2', 600),
      ]);
    }
  });

  // SessionWindowedKStreamImplTest.shouldMaterializeCount
  it('shouldMaterializeCount', () => {
    setup();
    stream.count(Materialized.as('count-store'));
    const d = start();
    processData(d);
    const data = storeOf(d.getSessionStore<string, number>('count-store')).fetch('1', '2');
    if (!emitFinal) {
      expect(data).toEqual([
        { key: w('1', 10, 15), value: 2 },
        { key: w('1', 600, 600), value: 1 },
        { key: w('2', 599, 600), value: 2 },
      ]);
    } else {
      expect(data).toEqual([
        { key: w('1', 600, 600), value: 1 },
        { key: w('2', 599, 600), value: 2 },
      ]);
    }
  });

  // SessionWindowedKStreamImplTest.shouldMaterializeReduced
  it('shouldMaterializeReduced', () => {
    setup();
    stream.reduce(STRING_ADDER, Materialized.as('reduced'));
    const d = start();
    processData(d);
    const data = storeOf(d.getSessionStore<string, string>('reduced')).fetch('1', '2');
    if (!emitFinal) {
      expect(data).toEqual([
        { key: w('1', 10, 15), value: '1+2' },
        { key: w('1', 600, 600), value: '3' },
        { key: w('2', 599, 600), value: '1+2' },
      ]);
    } else {
      expect(data).toEqual([
        { key: w('1', 600, 600), value: '3' },
        { key: w('2', 599, 600), value: '1+2' },
      ]);
    }
  });

  // SessionWindowedKStreamImplTest.shouldMaterializeAggregated
  it('shouldMaterializeAggregated', () => {
    setup();
    stream.aggregate(STRING_INIT, TOSTRING_ADDER, sessionMerger, Materialized.as<string, string>('aggregated').withValueSerde(S));
    const d = start();
    processData(d);
    const data = storeOf(d.getSessionStore<string, string>('aggregated')).fetch('1', '2');
    if (!emitFinal) {
      expect(data).toEqual([
        { key: w('1', 10, 15), value: '0+0+1+2' },
        { key: w('1', 600, 600), value: '0+3' },
        { key: w('2', 599, 600), value: '0+0+1+2' },
      ]);
    } else {
      expect(data).toEqual([
        { key: w('1', 600, 600), value: '0+3' },
        { key: w('2', 599, 600), value: '0+0+1+2' },
      ]);
    }
  });

  const nullArg = null as never;
  const cases: Array<[string, () => unknown]> = [
    ['shouldThrowNullPointerOnAggregateIfInitializerIsNull', () => stream.aggregate(nullArg, TOSTRING_ADDER, sessionMerger)],
    ['shouldThrowNullPointerOnAggregateIfAggregatorIsNull', () => stream.aggregate(STRING_INIT, nullArg, sessionMerger)],
    ['shouldThrowNullPointerOnAggregateIfMergerIsNull', () => stream.aggregate(STRING_INIT, TOSTRING_ADDER, nullArg)],
    ['shouldThrowNullPointerOnReduceIfReducerIsNull', () => stream.reduce(nullArg)],
    ['shouldThrowNullPointerOnMaterializedAggregateIfInitializerIsNull', () => stream.aggregate(nullArg, TOSTRING_ADDER, sessionMerger, Materialized.as('store'))],
    ['shouldThrowNullPointerOnMaterializedAggregateIfAggregatorIsNull', () => stream.aggregate(STRING_INIT, nullArg, sessionMerger, Materialized.as('store'))],
    ['shouldThrowNullPointerOnMaterializedAggregateIfMergerIsNull', () => stream.aggregate(STRING_INIT, TOSTRING_ADDER, nullArg, Materialized.as('store'))],
    ['shouldThrowNullPointerOnMaterializedAggregateIfMaterializedIsNull', () => stream.aggregate(STRING_INIT, TOSTRING_ADDER, sessionMerger, null as unknown as Materialized<string, string>)],
    ['shouldThrowNullPointerOnMaterializedReduceIfReducerIsNull', () => stream.reduce(nullArg, Materialized.as('store'))],
    ['shouldThrowNullPointerOnMaterializedReduceIfMaterializedIsNull', () => stream.reduce(STRING_ADDER, null as unknown as Materialized<string, string>)],
    ['shouldThrowNullPointerOnMaterializedReduceIfNamedIsNull', () => stream.reduce(STRING_ADDER, null as unknown as Named)],
    ['shouldThrowNullPointerOnCountIfMaterializedIsNull', () => stream.count(null as unknown as Materialized<string, number>)],
  ];
  for (const [name, call] of cases) {
    // SessionWindowedKStreamImplTest.<name> (Java's NullPointerException is an IllegalArgumentError "... can't be null")
    it(name, () => {
      setup();
      expect(call).toThrow(/can't be null/);
    });
  }

  // SessionWindowedKStreamImplTest.shouldNotEnableCachingWithEmitFinal (sluice's layers: typed store over the change-logging layer, no cache)
  it('shouldNotEnableCachingWithEmitFinal', () => {
    setup();
    if (!emitFinal) return;
    stream.aggregate(STRING_INIT, TOSTRING_ADDER, sessionMerger, Materialized.as<string, string>('aggregated').withValueSerde(S));
    const store = start().getSessionStore<string, string>('aggregated') as unknown as { inner: unknown };
    expect(store.inner).toBeInstanceOf(ChangeLoggingSessionBytesStore);
  });
});
