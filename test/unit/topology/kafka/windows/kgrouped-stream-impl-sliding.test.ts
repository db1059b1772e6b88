/**
 * Ported from Kafka Streams' `KGroupedStreamImplTest`: its sliding-window
 * cases (inputs and expected outputs unchanged; `Duration`s are ms). A null
 * argument fails with IllegalArgumentError (Kafka: NullPointerException), an
 * invalid store name with Kafka's `Named` check (Kafka: TopologyException).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { Grouped, Materialized, Serdes, SlidingWindows, StreamsBuilder, type KGroupedStream, type Windowed } from '../../../../../src/index.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import { windowedRecorder, type WindowedRecord, type WindowedRecorder } from '../../../../helpers/ktable/windowed-recorder.js';

const TOPIC = 'topic';
const INVALID_STORE_NAME = '~foo bar~';
const stringSerde = Serdes.String();

// MockInitializer.STRING_INIT, MockAggregator.TOSTRING_ADDER, MockReducer.STRING_ADDER
const STRING_INIT = (): string => '0';
const TOSTRING_ADDER = (_k: string, value: string, aggregate: string): string => `${aggregate}+${value}`;
const STRING_ADDER = (aggregate: string, value: string): string => `${aggregate}+${value}`;

let builder: StreamsBuilder;
let groupedStream: KGroupedStream<string, string>;

beforeEach(() => {
  builder = new StreamsBuilder();
  groupedStream = builder.stream(TOPIC, { keySerde: stringSerde, valueSerde: stringSerde }).groupByKey(Grouped.with(stringSerde, stringSerde));
});

/** `new Windowed<>(key, new TimeWindow(start, end))`. */
function w(key: string, start: number, end: number): Windowed<string> {
  return { key, window: { start, end } };
}

/** `new KeyValueTimestamp<>(windowedKey, value, timestamp)`. */
function kvt(key: Windowed<string>, value: number, timestamp: number): WindowedRecord<string, number> {
  return { key, value, timestamp };
}

function doCountSlidingWindows(supplier: WindowedRecorder<string, number>): void {
  const driver = new TopologyTestDriver(builder.build(), { applicationId: 'kgrouped-stream-impl-test' });
  try {
    const inputTopic = driver.createInputTopic(TOPIC, stringSerde, stringSerde);
    inputTopic.pipeInput('1', 'A', 500);
    inputTopic.pipeInput('1', 'A', 999);
    inputTopic.pipeInput('1', 'A', 600);
    inputTopic.pipeInput('2', 'B', 500);
    inputTopic.pipeInput('2', 'B', 600);
    inputTopic.pipeInput('2', 'B', 700);
    inputTopic.pipeInput('3', 'C', 501);
    inputTopic.pipeInput('1', 'A', 1000);
    inputTopic.pipeInput('1', 'A', 1000);
    inputTopic.pipeInput('2', 'B', 1000);
    inputTopic.pipeInput('2', 'B', 1000);
    inputTopic.pipeInput('3', 'C', 600);
  } finally {
    driver.close();
  }
  // Kafka's comparator: by key, then window start (a stable sort, as Java's List.sort)
  const actual = [...supplier.processed].sort((a, b) => (a.key.key < b.key.key ? -1 : a.key.key > b.key.key ? 1 : a.key.window.start - b.key.window.start));
  expect(actual).toEqual([
      // processing A@500
      kvt(w('1', 0, 500), 1, 500),
      // processing A@600
      kvt(w('1', 100, 600), 2, 600),
      // processing A@999
      kvt(w('1', 499, 999), 2, 999),
      // processing A@600
      kvt(w('1', 499, 999), 3, 999),
      // processing first A@1000
      kvt(w('1', 500, 1000), 4, 1000),
      // processing second A@1000
      kvt(w('1', 500, 1000), 5, 1000),
      // processing A@999
      kvt(w('1', 501, 1001), 1, 999),
      // processing A@600
      kvt(w('1', 501, 1001), 2, 999),
      // processing first A@1000
      kvt(w('1', 501, 1001), 3, 1000),
      // processing second A@1000
      kvt(w('1', 501, 1001), 4, 1000),
      // processing A@600
      kvt(w('1', 601, 1101), 1, 999),
      // processing first A@1000
      kvt(w('1', 601, 1101), 2, 1000),
      // processing second A@1000
      kvt(w('1', 601, 1101), 3, 1000),
      // processing first A@1000
      kvt(w('1', 1000, 1500), 1, 1000),
      // processing second A@1000
      kvt(w('1', 1000, 1500), 2, 1000),

      // processing B@500
      kvt(w('2', 0, 500), 1, 500),
      // processing B@600
      kvt(w('2', 100, 600), 2, 600),
      // processing B@700
      kvt(w('2', 200, 700), 3, 700),
      // processing first B@1000
      kvt(w('2', 500, 1000), 4, 1000),
      // processing second B@1000
      kvt(w('2', 500, 1000), 5, 1000),
      // processing B@600
      kvt(w('2', 501, 1001), 1, 600),
      // processing B@700
      kvt(w('2', 501, 1001), 2, 700),
      // processing first B@1000
      kvt(w('2', 501, 1001), 3, 1000),
      // processing second B@1000
      kvt(w('2', 501, 1001), 4, 1000),
      // processing B@700
      kvt(w('2', 601, 1101), 1, 700),
      // processing first B@1000
      kvt(w('2', 601, 1101), 2, 1000),
      // processing second B@1000
      kvt(w('2', 601, 1101), 3, 1000),
      // processing first B@1000
      kvt(w('2', 701, 1201), 1, 1000),
      // processing second B@1000
      kvt(w('2', 701, 1201), 2, 1000),

      // processing C@501
      kvt(w('3', 1, 501), 1, 501),
      // processing C@600
      kvt(w('3', 100, 600), 2, 600),
      // processing C@600
      kvt(w('3', 502, 1002), 1, 600)
  ]);
}

describe('KGroupedStreamImplTest (sliding windows)', () => {
  /** KGroupedStreamImplTest.shouldNotHaveNullReducerWithSlidingWindowedReduce */
  it('shouldNotHaveNullReducerWithSlidingWindowedReduce', () => {
    expect(() => groupedStream.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 100)).reduce(null as unknown as typeof STRING_ADDER, Materialized.as('store'))).toThrow('reducer');
  });

  /** KGroupedStreamImplTest.shouldNotHaveNullWindowsWithSlidingWindowedReduce */
  it('shouldNotHaveNullWindowsWithSlidingWindowedReduce', () => {
    expect(() => groupedStream.windowedBy(null as unknown as SlidingWindows)).toThrow('windows');
  });

  /** KGroupedStreamImplTest.shouldNotHaveInvalidStoreNameWithSlidingWindowedReduce */
  it('shouldNotHaveInvalidStoreNameWithSlidingWindowedReduce', () => {
    expect(() => groupedStream.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 100)).reduce(STRING_ADDER, Materialized.as(INVALID_STORE_NAME))).toThrow(INVALID_STORE_NAME);
  });

  /** KGroupedStreamImplTest.shouldNotHaveNullInitializerOnSlidingWindowedAggregate */
  it('shouldNotHaveNullInitializerOnSlidingWindowedAggregate', () => {
    expect(() => groupedStream.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 100)).aggregate(null as unknown as () => string, TOSTRING_ADDER, Materialized.as('store'))).toThrow('initializer');
  });

  /** KGroupedStreamImplTest.shouldNotHaveNullAdderOnSlidingWindowedAggregate */
  it('shouldNotHaveNullAdderOnSlidingWindowedAggregate', () => {
    expect(() => groupedStream.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 100)).aggregate(STRING_INIT, null as unknown as typeof TOSTRING_ADDER, Materialized.as('store'))).toThrow('aggregator');
  });

  /** KGroupedStreamImplTest.shouldNotHaveInvalidStoreNameOnSlidingWindowedAggregate */
  it('shouldNotHaveInvalidStoreNameOnSlidingWindowedAggregate', () => {
    expect(() =>
      groupedStream.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 100)).aggregate(STRING_INIT, TOSTRING_ADDER, Materialized.as(INVALID_STORE_NAME)),
    ).toThrow(INVALID_STORE_NAME);
  });

  /** KGroupedStreamImplTest.shouldCountSlidingWindows */
  it('shouldCountSlidingWindows', () => {
    const supplier = windowedRecorder<string, number>();
    groupedStream.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(500, 2000)).count(Materialized.as('aggregate-by-key-windowed')).toStream().process(supplier.supplier);
    doCountSlidingWindows(supplier);
  });

  /** KGroupedStreamImplTest.shouldCountSlidingWindowsWithInternalStoreName */
  it('shouldCountSlidingWindowsWithInternalStoreName', () => {
    const supplier = windowedRecorder<string, number>();
    groupedStream.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(500, 2000)).count().toStream().process(supplier.supplier);
    doCountSlidingWindows(supplier);
  });
});
