/**
 * Ported from Kafka Streams' `TimeWindowedKStreamImplTest` (inputs and
 * expected outputs unchanged): `groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(500))`
 * then count / reduce / aggregate, each under both emit strategies and with
 * and without caching (Kafka's `@MethodSource("data")`), plus the stores the
 * aggregations materialize and the null-argument checks.
 *
 * The forwarded records are the same with and without caching (the driver
 * flushes after every record); reading a store differs: the caching store
 * still returns windows the underlying store expired (Kafka's `withCache`
 * expectations of the `shouldMaterialize*` cases).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  EmitStrategy,
  Grouped,
  Materialized,
  Named,
  Serdes,
  StreamsBuilder,
  TimeWindows,
  Windowed,
  type EmitStrategyType,
  type TimeWindowedKStream,
} from '../../../../../src/index.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import { kvt, recorder } from '../../../../helpers/ktable/t-group.js';
import { storeOf } from '../../../../helpers/store-of.js';

const TOPIC = 'input';
const str = Serdes.String();
const KEY_1_WINDOW_0 = Windowed.of('1', { start: 0, end: 500 });
const KEY_1_WINDOW_1 = Windowed.of('1', { start: 500, end: 1000 });
const KEY_2_WINDOW_1 = Windowed.of('2', { start: 500, end: 1000 });
const KEY_2_WINDOW_2 = Windowed.of('2', { start: 1000, end: 1500 });

// MockInitializer.STRING_INIT, MockAggregator.TOSTRING_ADDER, MockReducer.STRING_ADDER
const STRING_INIT = (): string => '0';
const TOSTRING_ADDER = (_k: string, value: string, aggregate: string): string => `${aggregate}+${value}`;
const STRING_ADDER = (aggregate: string, value: string): string => `${aggregate}+${value}`;

let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

function processData(builder: StreamsBuilder): TopologyTestDriver {
  driver = new TopologyTestDriver(builder.build(), { applicationId: 'time-windowed-kstream-impl-test' });
  const inputTopic = driver.createInputTopic(TOPIC, str, str);
  inputTopic.pipeInput('1', '1', 10);
  inputTopic.pipeInput('1', '2', 15);
  inputTopic.pipeInput('1', '3', 500);
  inputTopic.pipeInput('2', '10', 550);
  inputTopic.pipeInput('2', '20', 500);
  inputTopic.pipeInput('2', '30', 1000);
  return driver;
}

const data: Array<[EmitStrategyType, boolean]> = [
  ['ON_WINDOW_UPDATE', true],
  ['ON_WINDOW_UPDATE', false],
  ['ON_WINDOW_CLOSE', true],
  ['ON_WINDOW_CLOSE', false],
];

function strategyOf(type: EmitStrategyType): EmitStrategy {
  return type === 'ON_WINDOW_CLOSE' ? EmitStrategy.onWindowClose() : EmitStrategy.onWindowUpdate();
}

describe.each(data)('TimeWindowedKStreamImplTest [%s, withCache=%s]', (type, withCache) => {
  const emitFinal = type === 'ON_WINDOW_CLOSE';
  let builder: StreamsBuilder;
  let windowedStream: TimeWindowedKStream<string, string>;
  const setMaterializedCache = <M extends { withCachingEnabled(): M; withCachingDisabled(): M }>(m: M): M =>
    withCache ? m.withCachingEnabled() : m.withCachingDisabled();

  function setup(): void {
    builder = new StreamsBuilder();
    windowedStream = builder
      .stream(TOPIC, { keySerde: str, valueSerde: str })
      .groupByKey(Grouped.with(str, str))
      .windowedBy(TimeWindows.ofSizeWithNoGrace(500));
  }

  // TimeWindowedKStreamImplTest.shouldCountWindowed
  it('shouldCountWindowed', () => {
    setup();
    const supplier = recorder<Windowed<string>, number>();
    windowedStream.emitStrategy(strategyOf(type)).count().toStream().process(supplier.supplier);
    processData(builder);
    if (emitFinal) {
      expect(supplier.processed).toEqual([kvt(KEY_1_WINDOW_0, 2, 15), kvt(KEY_1_WINDOW_1, 1, 500), kvt(KEY_2_WINDOW_1, 2, 550)]);
    } else {
      expect(supplier.processed).toEqual([
        kvt(KEY_1_WINDOW_0, 1, 10),
        kvt(KEY_1_WINDOW_0, 2, 15),
        kvt(KEY_1_WINDOW_1, 1, 500),
        kvt(KEY_2_WINDOW_1, 1, 550),
        kvt(KEY_2_WINDOW_1, 2, 550),
        kvt(KEY_2_WINDOW_2, 1, 1000),
      ]);
    }
  });

  // TimeWindowedKStreamImplTest.shouldReduceWindowed
  it('shouldReduceWindowed', () => {
    setup();
    const supplier = recorder<Windowed<string>, string>();
    windowedStream.emitStrategy(strategyOf(type)).reduce(STRING_ADDER).toStream().process(supplier.supplier);
    processData(builder);
    if (emitFinal) {
      expect(supplier.processed).toEqual([kvt(KEY_1_WINDOW_0, '1+2', 15), kvt(KEY_1_WINDOW_1, '3', 500), kvt(KEY_2_WINDOW_1, '10+20', 550)]);
    } else {
      expect(supplier.processed).toEqual([
        kvt(KEY_1_WINDOW_0, '1', 10),
        kvt(KEY_1_WINDOW_0, '1+2', 15),
        kvt(KEY_1_WINDOW_1, '3', 500),
        kvt(KEY_2_WINDOW_1, '10', 550),
        kvt(KEY_2_WINDOW_1, '10+20', 550),
        kvt(KEY_2_WINDOW_2, '30', 1000),
      ]);
    }
  });

  // TimeWindowedKStreamImplTest.shouldAggregateWindowed
  it('shouldAggregateWindowed', () => {
    setup();
    const supplier = recorder<Windowed<string>, string>();
    windowedStream
      .emitStrategy(strategyOf(type))
      .aggregate(STRING_INIT, TOSTRING_ADDER, setMaterializedCache(Materialized.with(str, str)))
      .toStream()
      .process(supplier.supplier);
    processData(builder);
    if (emitFinal) {
      expect(supplier.processed).toEqual([kvt(KEY_1_WINDOW_0, '0+1+2', 15), kvt(KEY_1_WINDOW_1, '0+3', 500), kvt(KEY_2_WINDOW_1, '0+10+20', 550)]);
    } else {
      expect(supplier.processed).toEqual([
        kvt(KEY_1_WINDOW_0, '0+1', 10),
        kvt(KEY_1_WINDOW_0, '0+1+2', 15),
        kvt(KEY_1_WINDOW_1, '0+3', 500),
        kvt(KEY_2_WINDOW_1, '0+10', 550),
        kvt(KEY_2_WINDOW_1, '0+10+20', 550),
        kvt(KEY_2_WINDOW_2, '0+30', 1000),
      ]);
    }
  });

  // TimeWindowedKStreamImplTest.shouldMaterializeCount
  it('shouldMaterializeCount', () => {
    setup();
    windowedStream.emitStrategy(strategyOf(type)).count(setMaterializedCache(Materialized.as<string, number>('count-store').withKeySerde(str).withValueSerde(Serdes.Long())));
    const d = processData(builder);
    const data = storeOf(d.getWindowStore<string, number>('count-store')).fetch('1', '2', 0, 1000);
    const timestamped = storeOf(d.getTimestampedWindowStore<string, number>('count-store')).fetch('1', '2', 0, 1000);
    if (withCache) {
      // with cache returns all records (expired from underneath as well) as part of the merge process
      expect(data).toEqual([
        { key: KEY_1_WINDOW_0, value: 2 },
        { key: KEY_1_WINDOW_1, value: 1 },
        { key: KEY_2_WINDOW_1, value: 2 },
        { key: KEY_2_WINDOW_2, value: 1 },
      ]);
      expect(timestamped).toEqual([
        { key: KEY_1_WINDOW_0, value: { value: 2, timestamp: 15 } },
        { key: KEY_1_WINDOW_1, value: { value: 1, timestamp: 500 } },
        { key: KEY_2_WINDOW_1, value: { value: 2, timestamp: 550 } },
        { key: KEY_2_WINDOW_2, value: { value: 1, timestamp: 1000 } },
      ]);
    } else if (!emitFinal) {
      // without cache, we get only non-expired record from underlying store.
      expect(data).toEqual([{ key: KEY_2_WINDOW_2, value: 1 }]);
      expect(timestamped).toEqual([{ key: KEY_2_WINDOW_2, value: { value: 1, timestamp: 1000 } }]);
    } else {
      expect(data).toEqual([
        { key: KEY_1_WINDOW_1, value: 1 },
        { key: KEY_2_WINDOW_1, value: 2 },
        { key: KEY_2_WINDOW_2, value: 1 },
      ]);
      expect(timestamped).toEqual([
        { key: KEY_1_WINDOW_1, value: { value: 1, timestamp: 500 } },
        { key: KEY_2_WINDOW_1, value: { value: 2, timestamp: 550 } },
        { key: KEY_2_WINDOW_2, value: { value: 1, timestamp: 1000 } },
      ]);
    }
  });

  // TimeWindowedKStreamImplTest.shouldMaterializeReduced
  it('shouldMaterializeReduced', () => {
    setup();
    windowedStream.reduce(STRING_ADDER, setMaterializedCache(Materialized.as<string, string>('reduced').withKeySerde(str).withValueSerde(str)));
    const d = processData(builder);
    const data = storeOf(d.getWindowStore<string, string>('reduced')).fetch('1', '2', 0, 1000);
    const timestamped = storeOf(d.getTimestampedWindowStore<string, string>('reduced')).fetch('1', '2', 0, 1000);
    if (withCache) {
      // with cache returns all records (expired from underneath as well) as part of the merge process
      expect(data).toEqual([
        { key: KEY_1_WINDOW_0, value: '1+2' },
        { key: KEY_1_WINDOW_1, value: '3' },
        { key: KEY_2_WINDOW_1, value: '10+20' },
        { key: KEY_2_WINDOW_2, value: '30' },
      ]);
      expect(timestamped).toEqual([
        { key: KEY_1_WINDOW_0, value: { value: '1+2', timestamp: 15 } },
        { key: KEY_1_WINDOW_1, value: { value: '3', timestamp: 500 } },
        { key: KEY_2_WINDOW_1, value: { value: '10+20', timestamp: 550 } },
        { key: KEY_2_WINDOW_2, value: { value: '30', timestamp: 1000 } },
      ]);
    } else {
      // actualFrom = observedStreamTime(1500) - retentionPeriod(1000) + 1 = 501: only 1 record is non expired
      expect(data).toEqual([{ key: KEY_2_WINDOW_2, value: '30' }]);
      expect(timestamped).toEqual([{ key: KEY_2_WINDOW_2, value: { value: '30', timestamp: 1000 } }]);
    }
  });

  // TimeWindowedKStreamImplTest.shouldMaterializeAggregated
  it('shouldMaterializeAggregated', () => {
    setup();
    windowedStream.aggregate(STRING_INIT, TOSTRING_ADDER, setMaterializedCache(Materialized.as<string, string>('aggregated').withKeySerde(str).withValueSerde(str)));
    const d = processData(builder);
    const data = storeOf(d.getWindowStore<string, string>('aggregated')).fetch('1', '2', 0, 1000);
    const timestamped = storeOf(d.getTimestampedWindowStore<string, string>('aggregated')).fetch('1', '2', 0, 1000);
    if (withCache) {
      expect(data).toEqual([
        { key: KEY_1_WINDOW_0, value: '0+1+2' },
        { key: KEY_1_WINDOW_1, value: '0+3' },
        { key: KEY_2_WINDOW_1, value: '0+10+20' },
        { key: KEY_2_WINDOW_2, value: '0+30' },
      ]);
      expect(timestamped).toEqual([
        { key: KEY_1_WINDOW_0, value: { value: '0+1+2', timestamp: 15 } },
        { key: KEY_1_WINDOW_1, value: { value: '0+3', timestamp: 500 } },
        { key: KEY_2_WINDOW_1, value: { value: '0+10+20', timestamp: 550 } },
        { key: KEY_2_WINDOW_2, value: { value: '0+30', timestamp: 1000 } },
      ]);
    } else {
      expect(data).toEqual([{ key: KEY_2_WINDOW_2, value: '0+30' }]);
      expect(timestamped).toEqual([{ key: KEY_2_WINDOW_2, value: { value: '0+30', timestamp: 1000 } }]);
    }
  });

  // TimeWindowedKStreamImplTest.shouldThrowNullPointerOnAggregateIfInitializerIsNull
  it('shouldThrowNullPointerOnAggregateIfInitializerIsNull', () => {
    setup();
    expect(() => windowedStream.aggregate(null as never, TOSTRING_ADDER)).toThrow("initializer can't be null");
  });

  // TimeWindowedKStreamImplTest.shouldThrowNullPointerOnAggregateIfAggregatorIsNull
  it('shouldThrowNullPointerOnAggregateIfAggregatorIsNull', () => {
    setup();
    expect(() => windowedStream.aggregate(STRING_INIT, null as never)).toThrow("aggregator can't be null");
  });

  // TimeWindowedKStreamImplTest.shouldThrowNullPointerOnReduceIfReducerIsNull
  it('shouldThrowNullPointerOnReduceIfReducerIsNull', () => {
    setup();
    expect(() => windowedStream.reduce(null as never)).toThrow("reducer can't be null");
  });

  // TimeWindowedKStreamImplTest.shouldThrowNullPointerOnMaterializedAggregateIfInitializerIsNull
  it('shouldThrowNullPointerOnMaterializedAggregateIfInitializerIsNull', () => {
    setup();
    expect(() => windowedStream.aggregate(null as never, TOSTRING_ADDER, setMaterializedCache(Materialized.as<string, string>('store')))).toThrow("initializer can't be null");
  });

  // TimeWindowedKStreamImplTest.shouldThrowNullPointerOnMaterializedAggregateIfAggregatorIsNull
  it('shouldThrowNullPointerOnMaterializedAggregateIfAggregatorIsNull', () => {
    setup();
    expect(() => windowedStream.aggregate(STRING_INIT, null as never, setMaterializedCache(Materialized.as<string, string>('store')))).toThrow("aggregator can't be null");
  });

  // TimeWindowedKStreamImplTest.shouldThrowNullPointerOnMaterializedAggregateIfMaterializedIsNull
  it('shouldThrowNullPointerOnMaterializedAggregateIfMaterializedIsNull', () => {
    setup();
    expect(() => windowedStream.aggregate(STRING_INIT, TOSTRING_ADDER, Named.as('n'), null as never)).toThrow("materialized can't be null");
  });

  // TimeWindowedKStreamImplTest.shouldThrowNullPointerOnMaterializedReduceIfReducerIsNull
  it('shouldThrowNullPointerOnMaterializedReduceIfReducerIsNull', () => {
    setup();
    expect(() => windowedStream.reduce(null as never, setMaterializedCache(Materialized.as<string, string>('store')))).toThrow("reducer can't be null");
  });

  // TimeWindowedKStreamImplTest.shouldThrowNullPointerOnMaterializedReduceIfMaterializedIsNull
  it('shouldThrowNullPointerOnMaterializedReduceIfMaterializedIsNull', () => {
    setup();
    expect(() => windowedStream.reduce(STRING_ADDER, Named.as('n'), null as never)).toThrow("materialized can't be null");
  });

  // TimeWindowedKStreamImplTest.shouldThrowNullPointerOnMaterializedReduceIfNamedIsNull
  it('shouldThrowNullPointerOnMaterializedReduceIfNamedIsNull', () => {
    setup();
    expect(() => windowedStream.reduce(STRING_ADDER, null as never)).toThrow("named can't be null");
  });

  // TimeWindowedKStreamImplTest.shouldThrowNullPointerOnCountIfMaterializedIsNull
  it('shouldThrowNullPointerOnCountIfMaterializedIsNull', () => {
    setup();
    expect(() => windowedStream.count(Named.as('n'), null as never)).toThrow("materialized can't be null");
  });
});
