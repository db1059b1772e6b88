/**
 * Ported from Kafka Streams' `SlidingWindowedKStreamImplTest` (inputs and
 * expected outputs unchanged; `Duration`s are milliseconds).
 *
 * sluice differences: the driver's `getWindowStore` of a DSL window store
 * holds `{ value, timestamp }` (Kafka's `getTimestampedWindowStore`); the
 * plain-value reads (Kafka's `getWindowStore`) map the values. A null
 * argument fails with IllegalArgumentError (Kafka: NullPointerException).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  Grouped,
  Materialized,
  Named,
  Serdes,
  SlidingWindows,
  Stores,
  StreamsBuilder,
  type KeyValue,
  type TimeWindowedKStream,
  type Windowed,
} from '../../../../../src/index.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import { vt, windowedRecorder } from '../../../../helpers/ktable/windowed-recorder.js';
import { storeOf } from '../../../../helpers/store-of.js';
import { impl } from '../../../../helpers/dsl-impl.js';

const TOPIC = 'input';
const stringSerde = Serdes.String();

// MockInitializer.STRING_INIT, MockAggregator.TOSTRING_ADDER, MockReducer.STRING_ADDER
const STRING_INIT = (): string => '0';
const TOSTRING_ADDER = (_k: string, value: string, aggregate: string): string => `${aggregate}+${value}`;
const STRING_ADDER = (aggregate: string, value: string): string => `${aggregate}+${value}`;

let builder: StreamsBuilder;
let windowedStream: TimeWindowedKStream<string, string>;

beforeEach(() => {
  builder = new StreamsBuilder();
  windowedStream = builder
    .stream(TOPIC, { keySerde: stringSerde, valueSerde: stringSerde })
    .groupByKey(Grouped.with(stringSerde, stringSerde))
    .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(100, 1000));
});

function withDriver(run: (driver: TopologyTestDriver) => void): void {
  const driver = new TopologyTestDriver(builder.build(), { applicationId: 'sliding-windowed-kstream-impl-test' });
  try {
    run(driver);
  } finally {
    driver.close();
  }
}

function processData(driver: TopologyTestDriver): void {
  const inputTopic = driver.createInputTopic(TOPIC, stringSerde, stringSerde);
  inputTopic.pipeInput('1', '1', 100);
  inputTopic.pipeInput('1', '2', 150);
  inputTopic.pipeInput('1', '3', 500);
  inputTopic.pipeInput('2', '10', 200);
  inputTopic.pipeInput('2', '20', 150);
}

/** `new Windowed<>(key, new TimeWindow(start, end))`. */
function w(key: string, start: number, end: number): Windowed<string> {
  return { key, window: { start, end } };
}

function kv<V>(key: Windowed<string>, value: V): KeyValue<Windowed<string>, V> {
  return { key, value };
}

type Timestamped<V> = { value: V; timestamp: number };

/**
 * Kafka's `storeOf(driver.getTimestampedWindowStore(name)).fetch(keyFrom, keyTo, from, to)` as a list
 * (a driver without `getTimestampedWindowStore` gives the timestamped values from `getWindowStore`).
 */
function fetchTimestamped<V>(driver: TopologyTestDriver, store: string, keyFrom: string, keyTo: string, from: number, to: number): Array<KeyValue<Windowed<string>, Timestamped<V>>> {
  const withTimestamps = driver as unknown as { getTimestampedWindowStore?: TopologyTestDriver['getWindowStore'] };
  const windowStore = storeOf(withTimestamps.getTimestampedWindowStore?.call(driver, store) ?? driver.getWindowStore(store));
  return (windowStore as NonNullable<ReturnType<TopologyTestDriver['getWindowStore']>>).fetch(keyFrom, keyTo, from, to) as Array<KeyValue<Windowed<string>, Timestamped<V>>>;
}

/** Kafka's `storeOf(driver.getWindowStore(name)).fetch(...)`: the values without their timestamps. */
function fetchPlain<V>(driver: TopologyTestDriver, store: string, keyFrom: string, keyTo: string, from: number, to: number): Array<KeyValue<Windowed<string>, V>> {
  return fetchTimestamped<V>(driver, store, keyFrom, keyTo, from, to).map((e) => kv(e.key, e.value.value));
}

describe('SlidingWindowedKStreamImplTest', () => {
  /** SlidingWindowedKStreamImplTest.shouldCountSlidingWindows */
  it('shouldCountSlidingWindows', () => {
    const supplier = windowedRecorder<string, number>();
    windowedStream.count().toStream().process(supplier.supplier);
    withDriver(processData);
    expect(supplier.last('1', 0, 100)).toEqual(vt(1, 100));
    expect(supplier.last('1', 101, 201)).toEqual(vt(1, 150));
    expect(supplier.last('1', 50, 150)).toEqual(vt(2, 150));
    expect(supplier.last('1', 400, 500)).toEqual(vt(1, 500));
    expect(supplier.last('2', 100, 200)).toEqual(vt(2, 200));
    expect(supplier.last('2', 50, 150)).toEqual(vt(1, 150));
    expect(supplier.last('2', 151, 251)).toEqual(vt(1, 200));
  });

  /** SlidingWindowedKStreamImplTest.shouldReduceSlidingWindows */
  it('shouldReduceSlidingWindows', () => {
    const supplier = windowedRecorder<string, string>();
    windowedStream.reduce(STRING_ADDER).toStream().process(supplier.supplier);
    withDriver(processData);
    expect(supplier.last('1', 0, 100)).toEqual(vt('1', 100));
    expect(supplier.last('1', 101, 201)).toEqual(vt('2', 150));
    expect(supplier.last('1', 50, 150)).toEqual(vt('1+2', 150));
    expect(supplier.last('1', 400, 500)).toEqual(vt('3', 500));
    expect(supplier.last('2', 100, 200)).toEqual(vt('10+20', 200));
    expect(supplier.last('2', 50, 150)).toEqual(vt('20', 150));
    expect(supplier.last('2', 151, 251)).toEqual(vt('10', 200));
  });

  /** SlidingWindowedKStreamImplTest.shouldAggregateSlidingWindows */
  it('shouldAggregateSlidingWindows', () => {
    const supplier = windowedRecorder<string, string>();
    windowedStream.aggregate(STRING_INIT, TOSTRING_ADDER, Materialized.with(stringSerde, stringSerde)).toStream().process(supplier.supplier);
    withDriver(processData);
    expect(supplier.last('1', 0, 100)).toEqual(vt('0+1', 100));
    expect(supplier.last('1', 101, 201)).toEqual(vt('0+2', 150));
    expect(supplier.last('1', 50, 150)).toEqual(vt('0+1+2', 150));
    expect(supplier.last('1', 400, 500)).toEqual(vt('0+3', 500));
    expect(supplier.last('2', 100, 200)).toEqual(vt('0+10+20', 200));
    expect(supplier.last('2', 50, 150)).toEqual(vt('0+20', 150));
    expect(supplier.last('2', 151, 251)).toEqual(vt('0+10', 200));
  });

  /** SlidingWindowedKStreamImplTest.shouldMaterializeCount */
  it('shouldMaterializeCount', () => {
    windowedStream.count(Materialized.as<string, number>('count-store').withKeySerde(stringSerde).withValueSerde(Serdes.Long()));
    withDriver((driver) => {
      processData(driver);
      expect(fetchPlain<number>(driver, 'count-store', '1', '2', 0, 1000)).toEqual([
        kv(w('1', 0, 100), 1),
        kv(w('1', 50, 150), 2),
        kv(w('1', 101, 201), 1),
        kv(w('1', 400, 500), 1),
        kv(w('2', 50, 150), 1),
        kv(w('2', 100, 200), 2),
        kv(w('2', 151, 251), 1),
      ]);
      expect(fetchTimestamped<number>(driver, 'count-store', '1', '2', 0, 1000)).toEqual([
        kv(w('1', 0, 100), vt(1, 100)),
        kv(w('1', 50, 150), vt(2, 150)),
        kv(w('1', 101, 201), vt(1, 150)),
        kv(w('1', 400, 500), vt(1, 500)),
        kv(w('2', 50, 150), vt(1, 150)),
        kv(w('2', 100, 200), vt(2, 200)),
        kv(w('2', 151, 251), vt(1, 200)),
      ]);
    });
  });

  /** SlidingWindowedKStreamImplTest.shouldMaterializeReduced */
  it('shouldMaterializeReduced', () => {
    windowedStream.reduce(STRING_ADDER, Materialized.as<string, string>('reduced').withKeySerde(stringSerde).withValueSerde(stringSerde));
    withDriver((driver) => {
      processData(driver);
      expect(fetchPlain<string>(driver, 'reduced', '1', '2', 0, 1000)).toEqual([
        kv(w('1', 0, 100), '1'),
        kv(w('1', 50, 150), '1+2'),
        kv(w('1', 101, 201), '2'),
        kv(w('1', 400, 500), '3'),
        kv(w('2', 50, 150), '20'),
        kv(w('2', 100, 200), '10+20'),
        kv(w('2', 151, 251), '10'),
      ]);
      expect(fetchTimestamped<string>(driver, 'reduced', '1', '2', 0, 1000)).toEqual([
        kv(w('1', 0, 100), vt('1', 100)),
        kv(w('1', 50, 150), vt('1+2', 150)),
        kv(w('1', 101, 201), vt('2', 150)),
        kv(w('1', 400, 500), vt('3', 500)),
        kv(w('2', 50, 150), vt('20', 150)),
        kv(w('2', 100, 200), vt('10+20', 200)),
        kv(w('2', 151, 251), vt('10', 200)),
      ]);
    });
  });

  /** SlidingWindowedKStreamImplTest.shouldMaterializeAggregated */
  it('shouldMaterializeAggregated', () => {
    windowedStream.aggregate(STRING_INIT, TOSTRING_ADDER, Materialized.as<string, string>('aggregated').withKeySerde(stringSerde).withValueSerde(stringSerde));
    withDriver((driver) => {
      processData(driver);
      expect(fetchPlain<string>(driver, 'aggregated', '1', '2', 0, 1000)).toEqual([
        kv(w('1', 0, 100), '0+1'),
        kv(w('1', 50, 150), '0+1+2'),
        kv(w('1', 101, 201), '0+2'),
        kv(w('1', 400, 500), '0+3'),
        kv(w('2', 50, 150), '0+20'),
        kv(w('2', 100, 200), '0+10+20'),
        kv(w('2', 151, 251), '0+10'),
      ]);
      expect(fetchTimestamped<string>(driver, 'aggregated', '1', '2', 0, 1000)).toEqual([
        kv(w('1', 0, 100), vt('0+1', 100)),
        kv(w('1', 50, 150), vt('0+1+2', 150)),
        kv(w('1', 101, 201), vt('0+2', 150)),
        kv(w('1', 400, 500), vt('0+3', 500)),
        kv(w('2', 50, 150), vt('0+20', 150)),
        kv(w('2', 100, 200), vt('0+10+20', 200)),
        kv(w('2', 151, 251), vt('0+10', 200)),
      ]);
    });
  });

  /** SlidingWindowedKStreamImplTest.shouldThrowNullPointerOnAggregateIfInitializerIsNull */
  it('shouldThrowNullPointerOnAggregateIfInitializerIsNull', () => {
    expect(() => windowedStream.aggregate(null as unknown as () => string, TOSTRING_ADDER)).toThrow('initializer');
  });

  /** SlidingWindowedKStreamImplTest.shouldThrowNullPointerOnAggregateIfAggregatorIsNull */
  it('shouldThrowNullPointerOnAggregateIfAggregatorIsNull', () => {
    expect(() => windowedStream.aggregate(STRING_INIT, null as unknown as typeof TOSTRING_ADDER)).toThrow('aggregator');
  });

  /** SlidingWindowedKStreamImplTest.shouldThrowNullPointerOnReduceIfReducerIsNull */
  it('shouldThrowNullPointerOnReduceIfReducerIsNull', () => {
    expect(() => windowedStream.reduce(null as unknown as typeof STRING_ADDER)).toThrow('reducer');
  });

  /** SlidingWindowedKStreamImplTest.shouldThrowNullPointerOnMaterializedAggregateIfInitializerIsNull */
  it('shouldThrowNullPointerOnMaterializedAggregateIfInitializerIsNull', () => {
    expect(() => windowedStream.aggregate(null as unknown as () => string, TOSTRING_ADDER, Materialized.as('store'))).toThrow('initializer');
  });

  /** SlidingWindowedKStreamImplTest.shouldThrowNullPointerOnMaterializedAggregateIfAggregatorIsNull */
  it('shouldThrowNullPointerOnMaterializedAggregateIfAggregatorIsNull', () => {
    expect(() => windowedStream.aggregate(STRING_INIT, null as unknown as typeof TOSTRING_ADDER, Materialized.as('store'))).toThrow('aggregator');
  });

  /** SlidingWindowedKStreamImplTest.shouldThrowNullPointerOnMaterializedAggregateIfMaterializedIsNull */
  it('shouldThrowNullPointerOnMaterializedAggregateIfMaterializedIsNull', () => {
    expect(() => windowedStream.aggregate(STRING_INIT, TOSTRING_ADDER, undefined, null as unknown as Materialized<string, string>)).toThrow("materialized can't be null");
  });

  /** SlidingWindowedKStreamImplTest.shouldThrowNullPointerOnMaterializedReduceIfReducerIsNull */
  it('shouldThrowNullPointerOnMaterializedReduceIfReducerIsNull', () => {
    expect(() => windowedStream.reduce(null as unknown as typeof STRING_ADDER, Materialized.as('store'))).toThrow('reducer');
  });

  /** SlidingWindowedKStreamImplTest.shouldThrowNullPointerOnMaterializedReduceIfMaterializedIsNull */
  it('shouldThrowNullPointerOnMaterializedReduceIfMaterializedIsNull', () => {
    expect(() => windowedStream.reduce(STRING_ADDER, undefined, null as unknown as Materialized<string, string>)).toThrow("materialized can't be null");
  });

  /** SlidingWindowedKStreamImplTest.shouldThrowNullPointerOnMaterializedReduceIfNamedIsNull */
  it('shouldThrowNullPointerOnMaterializedReduceIfNamedIsNull', () => {
    expect(() => windowedStream.reduce(STRING_ADDER, null as unknown as Named)).toThrow("named can't be null");
  });

  /** SlidingWindowedKStreamImplTest.shouldThrowNullPointerOnCountIfMaterializedIsNull */
  it('shouldThrowNullPointerOnCountIfMaterializedIsNull', () => {
    expect(() => windowedStream.count(undefined, null as unknown as Materialized<string, number>)).toThrow("materialized can't be null");
  });

  /** SlidingWindowedKStreamImplTest.shouldThrowIllegalArgumentWhenRetentionIsTooSmall */
  it('shouldThrowIllegalArgumentWhenRetentionIsTooSmall', () => {
    expect(() =>
      windowedStream.aggregate(STRING_INIT, TOSTRING_ADDER, Materialized.as<string, string>('aggregated').withKeySerde(stringSerde).withValueSerde(stringSerde).withRetention(1)),
    ).toThrow(
      'The retention period of the window store aggregated must be no smaller than 2 * time difference plus the grace period. Got time difference=[100], grace=[1000], retention=[1]',
    );
  });

  /** SlidingWindowedKStreamImplTest.shouldDropWindowsOutsideOfRetention */
  it('shouldDropWindowsOutsideOfRetention', () => {
    const storeSupplier = Stores.inMemoryWindowStore('aggregated', 1200, 100, false);
    windowedStream.aggregate(
      STRING_INIT,
      TOSTRING_ADDER,
      Materialized.as<string, string>(storeSupplier).withKeySerde(stringSerde).withValueSerde(stringSerde).withCachingDisabled(),
    );
    withDriver((driver) => {
      const inputTopic = driver.createInputTopic(TOPIC, stringSerde, stringSerde);
      inputTopic.pipeInput('1', '2', 100);
      inputTopic.pipeInput('1', '3', 500);
      inputTopic.pipeInput('1', '4', 799);
      inputTopic.pipeInput('1', '4', 1000);
      inputTopic.pipeInput('1', '5', 2000);
      expect(fetchPlain<string>(driver, 'aggregated', '1', '1', 0, 10000)).toEqual([kv(w('1', 900, 1000), '0+4'), kv(w('1', 1900, 2000), '0+5')]);
      expect(fetchTimestamped<string>(driver, 'aggregated', '1', '1', 0, 2000)).toEqual([kv(w('1', 900, 1000), vt('0+4', 1000)), kv(w('1', 1900, 2000), vt('0+5', 2000))]);
    });
  });

  // sluice: the named overloads name the processor (Kafka's Named), the table reads its window store through its view
  it('names the aggregation after Named and keys the table by Kafka\'s time-windowed serde', () => {
    const table = windowedStream.count(Named.as('my-count'), Materialized.as<string, number>('my-store'));
    expect(table.nodeName).toBe('my-count');
    expect(table.queryableStoreName).toBe('my-store');
    const key = impl(table).serdes.key!.serialize('t', w('a', 5, 105));
    expect(key).toEqual(Buffer.concat([Buffer.from('a'), Buffer.from([0, 0, 0, 0, 0, 0, 0, 5])]));
    expect(impl(table).serdes.key!.deserialize('t', key)).toEqual(w('a', 5, 105));
  });
});

describe('windowedBy(SlidingWindows) (sluice)', () => {
  it('refuses a time difference of 0 with a message naming the fix, and a key-value store supplier', () => {
    const grouped = new StreamsBuilder().stream('in', { keySerde: stringSerde, valueSerde: stringSerde }).groupByKey();
    expect(() => grouped.windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(0))).toThrow('the time difference must be at least 1 ms');
    const windowed = grouped.windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(10));
    expect(() => windowed.count(Materialized.as<string, number>(Stores.inMemoryKeyValueStore('kv')))).toThrow('a windowed aggregation needs a window store supplier');
    // and the other way round: a window store supplier cannot back a key-value aggregation
    expect(() => grouped.count(Materialized.as<string, number>(Stores.inMemoryWindowStore('w', 100, 10, false)))).toThrow("Materialized.as(supplier) needs a key-value store supplier");
  });
});
