/**
 * Ported from Kafka Streams' `KStreamSlidingWindowAggregateTest` (inputs
 * and expected outputs unchanged), the window creation cases, under each of
 * Kafka's parameter sets (emit strategy x in-order iterator x cache) and
 * two more with a persistent store (see `sliding-variants.ts`). The join,
 * logging and random-input cases are in
 * `kstream-sliding-window-aggregate-more.test.ts`.
 *
 * sluice differences: `aggregate` without a value serde stores JSON (Kafka:
 * the config's default serde), invisible here (the records are compared as
 * values); Kafka's `Map<Long, Set<ValueAndTimestamp>>` is a map of sorted
 * arrays. The driver sets the windowed-aggregation emit interval to 0, as
 * Kafka's `TopologyTestDriver` does.
 */
import { describe, expect, it } from 'vitest';
import { Grouped, Materialized, Serdes, SlidingWindows, StreamsBuilder, type Windowed } from '../../../../../src/index.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import { SLIDING_VARIANTS, slidingSetup } from '../../../../helpers/ktable/sliding-variants.js';
import { vt, windowedRecorder, type WindowedRecord } from '../../../../helpers/ktable/windowed-recorder.js';

const stringSerde = Serdes.String();
const consumed = { keySerde: stringSerde, valueSerde: stringSerde };

// MockInitializer.STRING_INIT, MockAggregator.TOSTRING_ADDER, MockReducer.STRING_ADDER
const STRING_INIT = (): string => '0';
const TOSTRING_ADDER = (_k: string, value: string, aggregate: string): string => `${aggregate}+${value}`;
const STRING_ADDER = (aggregate: string, value: string): string => `${aggregate}+${value}`;

/** `new Windowed<>(key, new TimeWindow(start, end))`. */
function w(key: string, start: number, end: number): Windowed<string> {
  return { key, window: { start, end } };
}

/** `new KeyValueTimestamp<>(windowedKey, value, timestamp)`. */
function kvt(key: Windowed<string>, value: string, timestamp: number): WindowedRecord<string, string> {
  return { key, value, timestamp };
}

function assertEquals<T>(expected: T, actual: T): void {
  expect(actual).toEqual(expected);
}

/** A Java `Set` of ValueAndTimestamps as a sorted array (as the recorder's `byWindowStart`). */
function sortedValues(values: Array<{ value: string; timestamp: number }>): Array<{ value: string; timestamp: number }> {
  return [...new Map(values.map((v) => [JSON.stringify([v.value, v.timestamp]), v])).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}

/** Kafka's comparator: by key, then window start (a stable sort, as Java's `List.sort`). */
function sortedByKeyAndStart(records: Array<WindowedRecord<string, string>>): Array<WindowedRecord<string, string>> {
  return [...records].sort((a, b) => (a.key.key < b.key.key ? -1 : a.key.key > b.key.key ? 1 : a.key.window.start - b.key.window.start));
}

function withDriver(builder: StreamsBuilder, run: (driver: TopologyTestDriver) => void): void {
  const driver = new TopologyTestDriver(builder.build(), { applicationId: 'kstream-sliding-window-aggregate-test' });
  try {
    run(driver);
  } finally {
    driver.close();
  }
}

describe.each(SLIDING_VARIANTS)('KStreamSlidingWindowAggregateTest (%o)', (variant) => {
  const { emitFinal, emitStrategy, setupWindowBytesStoreSupplier, setupMaterialized } = slidingSetup(variant);

  /** KStreamSlidingWindowAggregateTest.testAggregateSmallInput */
  it('testAggregateSmallInput', () => {
    const builder = new StreamsBuilder();
    const materialized = setupMaterialized(emitFinal ? Materialized.as<string, string>('store-name') : Materialized.as<string, string>(setupWindowBytesStoreSupplier(1)));
    const table = builder
      .stream('topic', consumed)
      .groupByKey(Grouped.with(stringSerde, stringSerde))
      .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 5))
      .emitStrategy(emitStrategy)
      .aggregate(STRING_INIT, TOSTRING_ADDER, materialized);
    const supplier = windowedRecorder<string, string>();
    table.toStream().process(supplier.supplier);
    withDriver(builder, (driver) => {
      const inputTopic = driver.createInputTopic('topic', stringSerde, stringSerde);
      inputTopic.pipeInput('A', '1', 10);
      inputTopic.pipeInput('A', '2', 10);
      inputTopic.pipeInput('A', '3', 14);
      inputTopic.pipeInput('A', '4', 15);
      inputTopic.pipeInput('A', '5', 20);
      inputTopic.pipeInput('A', '6', 22);
      inputTopic.pipeInput('A', '7', 30);
    });
    const actual = supplier.byWindowStart();
    const expected = new Map<number, Array<{ value: string; timestamp: number }>>();
    const put = (start: number, values: Array<{ value: string; timestamp: number }>): void => void expected.set(start, sortedValues(values));
    if (emitFinal) {
      put(0, [
          vt('0+1+2', 10)
      ]);
      put(4, [
          vt('0+1+2+3', 14)
      ]);
      put(5, [
          vt('0+1+2+3+4', 15)
      ]);
      put(10, [
          vt('0+1+2+3+4+5', 20)
      ]);
      put(11, [
          vt('0+3+4+5', 20)
      ]);
      put(12, [
          vt('0+3+4+5+6', 22)
      ]);
    } else {
      put(0, [
          vt('0+1', 10),
          vt('0+1+2', 10)
      ]);
      put(4, [
          vt('0+1+2+3', 14)
      ]);
      put(5, [
          vt('0+1+2+3+4', 15)
      ]);
      put(10, [
          vt('0+1+2+3+4+5', 20)
      ]);
      put(11, [
          vt('0+3', 14),
          vt('0+3+4', 15),
          vt('0+3+4+5', 20)
      ]);
      put(12, [
          vt('0+3+4+5+6', 22)
      ]);
      put(15, [
          vt('0+4', 15),
          vt('0+4+5', 20),
          vt('0+4+5+6', 22)
      ]);
      put(16, [
          vt('0+5', 20),
          vt('0+5+6', 22)
      ]);
      put(20, [
          vt('0+5+6+7', 30)
      ]);
      put(21, [
          vt('0+6', 22),
          vt('0+6+7', 30)
      ]);
      put(23, [
          vt('0+7', 30)
      ]);
    }
    assertEquals(expected, actual);
  });

  /** KStreamSlidingWindowAggregateTest.testReduceSmallInput */
  it('testReduceSmallInput', () => {
    const builder = new StreamsBuilder();
    const materialized = setupMaterialized(emitFinal ? Materialized.as<string, string>('store-name') : Materialized.as<string, string>(setupWindowBytesStoreSupplier(1)));
    const table = builder
      .stream('topic', consumed)
      .groupByKey(Grouped.with(stringSerde, stringSerde))
      .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 5))
      .emitStrategy(emitStrategy)
      .reduce(STRING_ADDER, materialized);
    const supplier = windowedRecorder<string, string>();
    table.toStream().process(supplier.supplier);
    withDriver(builder, (driver) => {
      const inputTopic = driver.createInputTopic('topic', stringSerde, stringSerde);
      inputTopic.pipeInput('A', '1', 10);
      inputTopic.pipeInput('A', '2', 14);
      inputTopic.pipeInput('A', '3', 15);
      inputTopic.pipeInput('A', '4', 22);
      inputTopic.pipeInput('A', '5', 26);
      inputTopic.pipeInput('A', '6', 30);
    });
    const actual = supplier.byWindowStart();
    const expected = new Map<number, Array<{ value: string; timestamp: number }>>();
    const put = (start: number, values: Array<{ value: string; timestamp: number }>): void => void expected.set(start, sortedValues(values));
    if (emitFinal) {
      put(0, [vt('1', 10)]);
      put(4, [vt('1+2', 14)]);
      put(5, [vt('1+2+3', 15)]);
      put(11, [vt('2+3', 15)]);
      put(12, [vt('2+3+4', 22)]);
    } else {
      put(0, [vt('1', 10)]);
      put(4, [vt('1+2', 14)]);
      put(5, [vt('1+2+3', 15)]);
      put(11, [
          vt('2', 14),
          vt('2+3', 15)
      ]);
      put(12, [vt('2+3+4', 22)]);
      put(15, [
          vt('3', 15),
          vt('3+4', 22)
      ]);
      put(16, [
          vt('4', 22),
          vt('4+5', 26)
      ]);
      put(20, [vt('4+5+6', 30)]);
      put(23, [
          vt('5', 26),
          vt('5+6', 30)
      ]);
      put(27, [vt('6', 30)]);
    }
    assertEquals(expected, actual);
  });

  /** KStreamSlidingWindowAggregateTest.testAggregateLargeInput */
  it('testAggregateLargeInput', () => {
    const builder = new StreamsBuilder();
    const materialized = setupMaterialized(emitFinal ? Materialized.as<string, string>('store-name') : Materialized.as<string, string>(setupWindowBytesStoreSupplier(1)));
    const table = builder
      .stream('topic', consumed)
      .groupByKey(Grouped.with(stringSerde, stringSerde))
      .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, emitFinal ? 10 : 50))
      .emitStrategy(emitStrategy)
      .aggregate(STRING_INIT, TOSTRING_ADDER, materialized);
    const supplier = windowedRecorder<string, string>();
    table.toStream().process(supplier.supplier);
    withDriver(builder, (driver) => {
      const inputTopic = driver.createInputTopic('topic', stringSerde, stringSerde);
      inputTopic.pipeInput('A', '1', 10);
      inputTopic.pipeInput('A', '2', 20);
      inputTopic.pipeInput('A', '3', 22);
      inputTopic.pipeInput('A', '4', 15);
      inputTopic.pipeInput('B', '1', 12);
      inputTopic.pipeInput('B', '2', 13);
      inputTopic.pipeInput('B', '3', 18);
      inputTopic.pipeInput('B', '4', 19);
      inputTopic.pipeInput('B', '5', 25);
      inputTopic.pipeInput('B', '6', 14); // skip for emit final [4, 14], close time 15
      inputTopic.pipeInput('C', '1', 11); // skip for emit final [1, 11], close time 15
      inputTopic.pipeInput('C', '2', 15);
      inputTopic.pipeInput('C', '3', 16);
      inputTopic.pipeInput('C', '4', 21);
      inputTopic.pipeInput('C', '5', 23);
      inputTopic.pipeInput('D', '4', 11); // skip for emit final [1, 11], close time 15
      inputTopic.pipeInput('D', '2', 12); // skip for emit final [2, 12], close time 15
      inputTopic.pipeInput('D', '3', 29);
      inputTopic.pipeInput('D', '5', 16); // skip for emit final [6, 16], close time: 19
    });
    const actual = sortedByKeyAndStart(supplier.processed);
    if (emitFinal) {
      assertEquals(
        [
          kvt(w('A', 0, 10), '0+1', 10),
          kvt(w('A', 5, 15), '0+1+4',
            15),
          kvt(w('B', 2, 12), '0+1', 12),
          kvt(w('B', 3, 13), '0+1+2',
            13),
          kvt(w('B', 8, 18), '0+1+2+3+6',
            18),
          kvt(w('C', 5, 15), '0+2',
            15),
          kvt(w('C', 6, 16), '0+2+3',
            16)],
        actual
      );
    } else {
      assertEquals(
        [
          kvt(w('A', 0, 10), '0+1', 10),
          kvt(w('A', 5, 15), '0+1+4',
            15),
          kvt(w('A', 10, 20), '0+1+2',
            20),
          kvt(w('A', 10, 20), '0+1+2+4',
            20),
          kvt(w('A', 11, 21), '0+2', 20),
          kvt(w('A', 11, 21), '0+2+4',
            20),
          kvt(w('A', 12, 22), '0+2+3',
            22),
          kvt(w('A', 12, 22), '0+2+3+4',
            22),
          kvt(w('A', 16, 26), '0+2+3',
            22),
          kvt(w('A', 21, 31), '0+3', 22),
          kvt(w('B', 2, 12), '0+1', 12),
          kvt(w('B', 3, 13), '0+1+2',
            13),
          kvt(w('B', 4, 14), '0+1+2+6',
            14),
          kvt(w('B', 8, 18), '0+1+2+3',
            18),
          kvt(w('B', 8, 18), '0+1+2+3+6',
            18),
          kvt(w('B', 9, 19), '0+1+2+3+4',
            19),
          kvt(w('B', 9, 19),
            '0+1+2+3+4+6', 19),
          kvt(w('B', 13, 23), '0+2', 13),
          kvt(w('B', 13, 23), '0+2+3',
            18),
          kvt(w('B', 13, 23), '0+2+3+4',
            19),
          kvt(w('B', 13, 23),
            '0+2+3+4+6', 19),
          kvt(w('B', 14, 24), '0+3', 18),
          kvt(w('B', 14, 24), '0+3+4',
            19),
          kvt(w('B', 14, 24), '0+3+4+6',
            19),
          kvt(w('B', 15, 25), '0+3+4+5',
            25),
          kvt(w('B', 19, 29), '0+4', 19),
          kvt(w('B', 19, 29), '0+4+5',
            25),
          kvt(w('B', 20, 30), '0+5', 25),
          kvt(w('C', 1, 11), '0+1', 11),
          kvt(w('C', 5, 15), '0+1+2',
            15),
          kvt(w('C', 6, 16), '0+1+2+3',
            16),
          kvt(w('C', 11, 21),
            '0+1+2+3+4', 21),
          kvt(w('C', 12, 22), '0+2', 15),
          kvt(w('C', 12, 22), '0+2+3',
            16),
          kvt(w('C', 12, 22), '0+2+3+4',
            21),
          kvt(w('C', 13, 23),
            '0+2+3+4+5', 23),
          kvt(w('C', 16, 26), '0+3', 16),
          kvt(w('C', 16, 26), '0+3+4',
            21),
          kvt(w('C', 16, 26), '0+3+4+5',
            23),
          kvt(w('C', 17, 27), '0+4', 21),
          kvt(w('C', 17, 27), '0+4+5',
            23),
          kvt(w('C', 22, 32), '0+5', 23),
          kvt(w('D', 1, 11), '0+4', 11),
          kvt(w('D', 2, 12), '0+4+2',
            12),
          kvt(w('D', 6, 16), '0+4+2+5',
            16),
          kvt(w('D', 12, 22), '0+2', 12),
          kvt(w('D', 12, 22), '0+2+5',
            16),
          kvt(w('D', 13, 23), '0+5', 16),
          kvt(w('D', 19, 29), '0+3',
            29)],
        actual
      );
    }
  });

  /** KStreamSlidingWindowAggregateTest.testEarlyRecordsSmallInput */
  it('testEarlyRecordsSmallInput', () => {
    const builder = new StreamsBuilder();
    const materialized = setupMaterialized(Materialized.as<string, string>('topic-Canonized').withValueSerde(stringSerde));
    const table = builder
      .stream('topic', consumed)
      .groupByKey(Grouped.with(stringSerde, stringSerde))
      .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(50, 0))
      .emitStrategy(emitStrategy)
      .aggregate(STRING_INIT, TOSTRING_ADDER, materialized);
    const supplier = windowedRecorder<string, string>();
    table.toStream().process(supplier.supplier);
    withDriver(builder, (driver) => {
      const inputTopic = driver.createInputTopic('topic', stringSerde, stringSerde);
      inputTopic.pipeInput('A', '1', 0);
      inputTopic.pipeInput('A', '2', 5);
      inputTopic.pipeInput('A', '3', 6);
      inputTopic.pipeInput('A', '4', 3);
      inputTopic.pipeInput('A', '5', 13);
      inputTopic.pipeInput('A', '6', 10);
      inputTopic.pipeInput('A', '7', 70);
    });
    const actual = supplier.byWindowStart();
    const expected = new Map<number, Array<{ value: string; timestamp: number }>>();
    const put = (start: number, values: Array<{ value: string; timestamp: number }>): void => void expected.set(start, sortedValues(values));
    if (emitFinal) {
      put(0,
        [
          vt('0+1+2+3+4+5+6', 13)
        ]
      );
      put(1,
        [
          vt('0+2+3+4+5+6', 13)
        ]
      );
      put(4,
        [
          vt('0+2+3+5+6', 13)
        ]
      );
      put(6,
        [
          vt('0+3+5+6', 13)
        ]
      );
      put(7,
        [
          vt('0+5+6', 13)
        ]
      );
      put(11,
        [
          vt('0+5', 13)
        ]
      );
    } else {
      put(0,
        [
          vt('0+1', 0),
          vt('0+1+2', 5),
          vt('0+1+2+3', 6),
          vt('0+1+2+3+4', 6),
          vt('0+1+2+3+4+5', 13),
          vt('0+1+2+3+4+5+6', 13)
        ]
      );
      put(1,
        [
          vt('0+2', 5),
          vt('0+2+3', 6),
          vt('0+2+3+4', 6),
          vt('0+2+3+4+5', 13),
          vt('0+2+3+4+5+6', 13)
        ]
      );
      put(4,
        [
          vt('0+2+3', 6),
          vt('0+2+3+5', 13),
          vt('0+2+3+5+6', 13)
        ]
      );
      put(6,
        [
          vt('0+3', 6),
          vt('0+3+5', 13),
          vt('0+3+5+6', 13)
        ]
      );
      put(7,
        [
          vt('0+5', 13),
          vt('0+5+6', 13)
        ]
      );
      put(11,
        [
          vt('0+5', 13)
        ]
      );
      put(20,
        [
          vt('0+7', 70)
        ]
      );
    }
    assertEquals(expected, actual);
  });

  /** KStreamSlidingWindowAggregateTest.testEarlyRecordsRepeatedInput */
  it('testEarlyRecordsRepeatedInput', () => {
    const builder = new StreamsBuilder();
    const materialized = setupMaterialized(Materialized.as<string, string>('topic-Canonized').withValueSerde(stringSerde));
    const table = builder
      .stream('topic', consumed)
      .groupByKey(Grouped.with(stringSerde, stringSerde))
      .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(5, 0))
      .emitStrategy(emitStrategy)
      .aggregate(STRING_INIT, TOSTRING_ADDER, materialized);
    const supplier = windowedRecorder<string, string>();
    table.toStream().process(supplier.supplier);
    withDriver(builder, (driver) => {
      const inputTopic = driver.createInputTopic('topic', stringSerde, stringSerde);
      inputTopic.pipeInput('A', '1', 0);
      inputTopic.pipeInput('A', '2', 2);
      inputTopic.pipeInput('A', '3', 4);
      inputTopic.pipeInput('A', '4', 0);
      inputTopic.pipeInput('A', '5', 2);
      inputTopic.pipeInput('A', '6', 2);
      inputTopic.pipeInput('A', '7', 0);
      inputTopic.pipeInput('A', '8', 7);
    });
    const actual = supplier.byWindowStart();
    const expected = new Map<number, Array<{ value: string; timestamp: number }>>();
    const put = (start: number, values: Array<{ value: string; timestamp: number }>): void => void expected.set(start, sortedValues(values));
    if (emitFinal) {
      put(0, [
          vt('0+1+2+3+4+5+6+7', 4)
      ]);
      put(1, [
          vt('0+2+3+5+6', 4)
      ]);
    } else {
      put(0, [
          vt('0+1', 0),
          vt('0+1+2', 2),
          vt('0+1+2+3+4+5', 4),
          vt('0+1+2+3+4+5+6', 4),
          vt('0+1+2+3', 4),
          vt('0+1+2+3+4', 4),
          vt('0+1+2+3+4+5+6+7', 4)
      ]);
      put(1, [
          vt('0+2+3+5+6', 4),
          vt('0+2', 2),
          vt('0+2+3', 4),
          vt('0+2+3+5', 4)
      ]);
      put(2, [
          vt('0+2+3+5+6+8', 7)
      ]);
      put(3, [
          vt('0+3', 4),
          vt('0+3+8', 7)
      ]);
      put(5, [
          vt('0+8', 7)
      ]);
    }
    assertEquals(expected, actual);
  });

  /** KStreamSlidingWindowAggregateTest.testEarlyRecordsLargeInput */
  it('testEarlyRecordsLargeInput', () => {
    const builder = new StreamsBuilder();
    const materialized = setupMaterialized(emitFinal ? Materialized.as<string, string>('store-name') : Materialized.as<string, string>(setupWindowBytesStoreSupplier(1)));
    const table = builder
      .stream('topic', consumed)
      .groupByKey(Grouped.with(stringSerde, stringSerde))
      .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, emitFinal ? 1 : 50))
      .emitStrategy(emitStrategy)
      .aggregate(STRING_INIT, TOSTRING_ADDER, materialized);
    const supplier = windowedRecorder<string, string>();
    table.toStream().process(supplier.supplier);
    withDriver(builder, (driver) => {
      const inputTopic = driver.createInputTopic('topic', stringSerde, stringSerde);
      inputTopic.pipeInput('E', '1', 0);
      inputTopic.pipeInput('E', '3', 5);
      inputTopic.pipeInput('E', '4', 6);
      inputTopic.pipeInput('E', '2', 3);
      inputTopic.pipeInput('E', '6', 13);
      inputTopic.pipeInput('E', '5', 10);
      inputTopic.pipeInput('E', '7', 4);
      inputTopic.pipeInput('E', '8', 2);
      inputTopic.pipeInput('E', '9', 15);
    });
    const actual = sortedByKeyAndStart(supplier.processed);
    if (emitFinal) {
      assertEquals(
        [
          kvt(w('E', 0, 10), '0+1+3+4+2',
            6),
          kvt(w('E', 1, 11), '0+3+4+2',
            6),
          kvt(w('E', 3, 13),
            '0+3+4+2+6+5+7', 13)],
        actual
      );
    } else {
      assertEquals(
        [
          kvt(w('E', 0, 10), '0+1', 0),
          kvt(w('E', 0, 10), '0+1+3', 5),
          kvt(w('E', 0, 10), '0+1+3+4',
            6),
          kvt(w('E', 0, 10), '0+1+3+4+2',
            6),
          kvt(w('E', 0, 10),
            '0+1+3+4+2+5', 10),
          kvt(w('E', 0, 10),
            '0+1+3+4+2+5+7', 10),
          kvt(w('E', 0, 10),
            '0+1+3+4+2+5+7+8', 10),
          kvt(w('E', 1, 11), '0+3', 5),
          kvt(w('E', 1, 11), '0+3+4', 6),
          kvt(w('E', 1, 11), '0+3+4+2',
            6),
          kvt(w('E', 1, 11), '0+3+4+2+5',
            10),
          kvt(w('E', 1, 11),
            '0+3+4+2+5+7', 10),
          kvt(w('E', 1, 11),
            '0+3+4+2+5+7+8', 10),
          kvt(w('E', 3, 13), '0+3+4+2+6',
            13),
          kvt(w('E', 3, 13),
            '0+3+4+2+6+5', 13),
          kvt(w('E', 3, 13),
            '0+3+4+2+6+5+7', 13),
          kvt(w('E', 4, 14), '0+3+4', 6),
          kvt(w('E', 4, 14), '0+3+4+6',
            13),
          kvt(w('E', 4, 14), '0+3+4+6+5',
            13),
          kvt(w('E', 4, 14),
            '0+3+4+6+5+7', 13),
          kvt(w('E', 5, 15), '0+3+4+6+5',
            13),
          kvt(w('E', 5, 15),
            '0+3+4+6+5+9', 15),
          kvt(w('E', 6, 16), '0+4', 6),
          kvt(w('E', 6, 16), '0+4+6',
            13),
          kvt(w('E', 6, 16), '0+4+6+5',
            13),
          kvt(w('E', 6, 16), '0+4+6+5+9',
            15),
          kvt(w('E', 7, 17), '0+6', 13),
          kvt(w('E', 7, 17), '0+6+5',
            13),
          kvt(w('E', 7, 17), '0+6+5+9',
            15),
          kvt(w('E', 11, 21), '0+6', 13),
          kvt(w('E', 11, 21), '0+6+9',
            15),
          kvt(w('E', 14, 24), '0+9',
            15)],
        actual
      );
    }
  });

  /** KStreamSlidingWindowAggregateTest.testEarlyNoGracePeriodSmallInput */
  it('testEarlyNoGracePeriodSmallInput', () => {
    const builder = new StreamsBuilder();
    const materialized = setupMaterialized(Materialized.as<string, string>('topic-Canonized').withValueSerde(stringSerde));
    const table = builder
      .stream('topic', consumed)
      .groupByKey(Grouped.with(stringSerde, stringSerde))
      .windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(50))
      .emitStrategy(emitStrategy)
      .aggregate(STRING_INIT, TOSTRING_ADDER, materialized);
    const supplier = windowedRecorder<string, string>();
    table.toStream().process(supplier.supplier);
    withDriver(builder, (driver) => {
      const inputTopic = driver.createInputTopic('topic', stringSerde, stringSerde);
      inputTopic.pipeInput('A', '1', 0);
      inputTopic.pipeInput('A', '2', 5);
      inputTopic.pipeInput('A', '3', 6);
      inputTopic.pipeInput('A', '4', 3);
      inputTopic.pipeInput('A', '5', 13);
      inputTopic.pipeInput('A', '6', 10);
      inputTopic.pipeInput('A', '6', 70);
    });
    const actual = supplier.byWindowStart();
    const expected = new Map<number, Array<{ value: string; timestamp: number }>>();
    const put = (start: number, values: Array<{ value: string; timestamp: number }>): void => void expected.set(start, sortedValues(values));
    if (emitFinal) {
      put(0, [
          vt('0+1+2+3+4+5+6', 13)
      ]);
      put(1, [
          vt('0+2+3+4+5+6', 13)
      ]);
      put(4, [
          vt('0+2+3+5+6', 13)
      ]);
      put(6, [
          vt('0+3+5+6', 13)
      ]);
      put(7, [
          vt('0+5+6', 13)
      ]);
      put(11, [
          vt('0+5', 13)
      ]);
    } else {
      put(0, [
          vt('0+1', 0),
          vt('0+1+2', 5),
          vt('0+1+2+3', 6),
          vt('0+1+2+3+4', 6),
          vt('0+1+2+3+4+5', 13),
          vt('0+1+2+3+4+5+6', 13)
      ]);
      put(1, [
          vt('0+2', 5),
          vt('0+2+3', 6),
          vt('0+2+3+4', 6),
          vt('0+2+3+4+5', 13),
          vt('0+2+3+4+5+6', 13)
      ]);
      put(4, [
          vt('0+2+3', 6),
          vt('0+2+3+5', 13),
          vt('0+2+3+5+6', 13)
      ]);
      put(6, [
          vt('0+3', 6),
          vt('0+3+5', 13),
          vt('0+3+5+6', 13)
      ]);
      put(7, [
          vt('0+5', 13),
          vt('0+5+6', 13)
      ]);
      put(11, [
          vt('0+5', 13)
      ]);
      put(20, [
          vt('0+6', 70)
      ]);
    }
    assertEquals(expected, actual);
  });

  /** KStreamSlidingWindowAggregateTest.testNoGracePeriodSmallInput */
  it('testNoGracePeriodSmallInput', () => {
    const builder = new StreamsBuilder();
    const materialized = setupMaterialized(Materialized.as<string, string>('topic-Canonized').withValueSerde(stringSerde));
    const table = builder
      .stream('topic', consumed)
      .groupByKey(Grouped.with(stringSerde, stringSerde))
      .windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(50))
      .emitStrategy(emitStrategy)
      .aggregate(STRING_INIT, TOSTRING_ADDER, materialized);
    const supplier = windowedRecorder<string, string>();
    table.toStream().process(supplier.supplier);
    withDriver(builder, (driver) => {
      const inputTopic = driver.createInputTopic('topic', stringSerde, stringSerde);
      inputTopic.pipeInput('A', '1', 100);
      inputTopic.pipeInput('A', '2', 105);
      inputTopic.pipeInput('A', '3', 106);
      inputTopic.pipeInput('A', '4', 103);
      inputTopic.pipeInput('A', '5', 113);
      inputTopic.pipeInput('A', '6', 110);
    });
    const actual = supplier.byWindowStart();
    const expected = new Map<number, Array<{ value: string; timestamp: number }>>();
    const put = (start: number, values: Array<{ value: string; timestamp: number }>): void => void expected.set(start, sortedValues(values));
    if (emitFinal) {
      put(50, [
          vt('0+1', 100)
      ]);
      put(55, [
          vt('0+1+2', 105)
      ]);
      put(56, [
          vt('0+1+2+3+4', 106)
      ]);
    } else {
      put(50, [
          vt('0+1', 100)
      ]);
      put(55, [
          vt('0+1+2', 105)
      ]);
      put(56, [
          vt('0+1+2+3', 106),
          vt('0+1+2+3+4', 106)
      ]);
      put(63, [
          vt('0+1+2+3+4+5', 113),
          vt('0+1+2+3+4+5+6', 113)
      ]);
      put(101, [
          vt('0+2', 105),
          vt('0+2+3', 106),
          vt('0+2+3+4', 106),
          vt('0+2+3+4+5', 113),
          vt('0+2+3+4+5+6', 113)
      ]);
      put(104, [
          vt('0+2+3', 106),
          vt('0+2+3+5', 113),
          vt('0+2+3+5+6', 113)
      ]);
      put(106, [
          vt('0+3', 106),
          vt('0+3+5', 113),
          vt('0+3+5+6', 113)
      ]);
      put(107, [
          vt('0+5', 113),
          vt('0+5+6', 113)
      ]);
      put(111, [
          vt('0+5', 113)
      ]);
    }
    assertEquals(expected, actual);
  });

  /** KStreamSlidingWindowAggregateTest.testEarlyNoGracePeriodLargeInput */
  it('testEarlyNoGracePeriodLargeInput', () => {
    const builder = new StreamsBuilder();
    const materialized = setupMaterialized(emitFinal ? Materialized.as<string, string>('store-name') : Materialized.as<string, string>(setupWindowBytesStoreSupplier(1)));
    const table = builder
      .stream('topic', consumed)
      .groupByKey(Grouped.with(stringSerde, stringSerde))
      .windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(10))
      .emitStrategy(emitStrategy)
      .aggregate(STRING_INIT, TOSTRING_ADDER, materialized);
    const supplier = windowedRecorder<string, string>();
    table.toStream().process(supplier.supplier);
    withDriver(builder, (driver) => {
      const inputTopic = driver.createInputTopic('topic', stringSerde, stringSerde);
      inputTopic.pipeInput('E', '1', 0);
      inputTopic.pipeInput('E', '3', 5);
      inputTopic.pipeInput('E', '4', 6);
      inputTopic.pipeInput('E', '2', 3);
      inputTopic.pipeInput('E', '6', 13);
      inputTopic.pipeInput('E', '5', 10);
      inputTopic.pipeInput('E', '7', 4);
      inputTopic.pipeInput('E', '8', 2);
      inputTopic.pipeInput('E', '9', 15);
    });
    const actual = sortedByKeyAndStart(supplier.processed);
    if (emitFinal) {
      assertEquals(
        [
          kvt(w('E', 0, 10), '0+1+3+4+2', 6),
          kvt(w('E', 1, 11), '0+3+4+2', 6),
          kvt(w('E', 3, 13), '0+3+4+2+6+5+7', 13),
          kvt(w('E', 4, 14), '0+3+4+6+5+7', 13)],
        actual
      );
    } else {
      assertEquals(
        [
          kvt(w('E', 0, 10), '0+1', 0),
          kvt(w('E', 0, 10), '0+1+3', 5),
          kvt(w('E', 0, 10), '0+1+3+4', 6),
          kvt(w('E', 0, 10), '0+1+3+4+2', 6),
          kvt(w('E', 1, 11), '0+3', 5),
          kvt(w('E', 1, 11), '0+3+4', 6),
          kvt(w('E', 1, 11), '0+3+4+2', 6),
          kvt(w('E', 3, 13), '0+3+4+2+6', 13),
          kvt(w('E', 3, 13), '0+3+4+2+6+5', 13),
          kvt(w('E', 3, 13), '0+3+4+2+6+5+7', 13),
          kvt(w('E', 4, 14), '0+3+4', 6),
          kvt(w('E', 4, 14), '0+3+4+6', 13),
          kvt(w('E', 4, 14), '0+3+4+6+5', 13),
          kvt(w('E', 4, 14), '0+3+4+6+5+7', 13),
          kvt(w('E', 5, 15), '0+3+4+6+5', 13),
          kvt(w('E', 5, 15), '0+3+4+6+5+9', 15),
          kvt(w('E', 6, 16), '0+4', 6),
          kvt(w('E', 6, 16), '0+4+6', 13),
          kvt(w('E', 6, 16), '0+4+6+5', 13),
          kvt(w('E', 6, 16), '0+4+6+5+9', 15),
          kvt(w('E', 7, 17), '0+6', 13),
          kvt(w('E', 7, 17), '0+6+5', 13),
          kvt(w('E', 7, 17), '0+6+5+9', 15),
          kvt(w('E', 11, 21), '0+6', 13),
          kvt(w('E', 11, 21), '0+6+9', 15),
          kvt(w('E', 14, 24), '0+9', 15)],
        actual
      );
    }
  });

  /** KStreamSlidingWindowAggregateTest.testNoGracePeriodLargeInput */
  it('testNoGracePeriodLargeInput', () => {
    const builder = new StreamsBuilder();
    const materialized = setupMaterialized(emitFinal ? Materialized.as<string, string>('store-name') : Materialized.as<string, string>(setupWindowBytesStoreSupplier(1)));
    const table = builder
      .stream('topic', consumed)
      .groupByKey(Grouped.with(stringSerde, stringSerde))
      .windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(10))
      .emitStrategy(emitStrategy)
      .aggregate(STRING_INIT, TOSTRING_ADDER, materialized);
    const supplier = windowedRecorder<string, string>();
    table.toStream().process(supplier.supplier);
    withDriver(builder, (driver) => {
      const inputTopic = driver.createInputTopic('topic', stringSerde, stringSerde);
      inputTopic.pipeInput('E', '1', 100);
      inputTopic.pipeInput('E', '3', 105);
      inputTopic.pipeInput('E', '4', 106);
      inputTopic.pipeInput('E', '2', 103);
      inputTopic.pipeInput('E', '6', 113);
      inputTopic.pipeInput('E', '5', 110);
      inputTopic.pipeInput('E', '7', 104);
      inputTopic.pipeInput('E', '8', 102);
      inputTopic.pipeInput('E', '9', 115);
    });
    const actual = sortedByKeyAndStart(supplier.processed);
    if (emitFinal) {
      assertEquals(
        [
          kvt(w('E', 90, 100), '0+1', 100),
          kvt(w('E', 95, 105), '0+1+3', 105),
          kvt(w('E', 96, 106), '0+1+3+4+2', 106),
          kvt(w('E', 101, 111), '0+3+4+2', 106),
          kvt(w('E', 103, 113), '0+3+4+2+6+5+7', 113),
          kvt(w('E', 104, 114), '0+3+4+6+5+7', 113)],
        actual
      );
    } else {
      assertEquals(
        [
          kvt(w('E', 90, 100), '0+1', 100),
          kvt(w('E', 95, 105), '0+1+3', 105),
          kvt(w('E', 96, 106), '0+1+3+4', 106),
          kvt(w('E', 96, 106), '0+1+3+4+2', 106),
          kvt(w('E', 101, 111), '0+3', 105),
          kvt(w('E', 101, 111), '0+3+4', 106),
          kvt(w('E', 101, 111), '0+3+4+2', 106),
          kvt(w('E', 103, 113), '0+3+4+2+6', 113),
          kvt(w('E', 103, 113), '0+3+4+2+6+5', 113),
          kvt(w('E', 103, 113), '0+3+4+2+6+5+7', 113),
          kvt(w('E', 104, 114), '0+3+4', 106),
          kvt(w('E', 104, 114), '0+3+4+6', 113),
          kvt(w('E', 104, 114), '0+3+4+6+5', 113),
          kvt(w('E', 104, 114), '0+3+4+6+5+7', 113),
          kvt(w('E', 105, 115), '0+3+4+6+5', 113),
          kvt(w('E', 105, 115), '0+3+4+6+5+9', 115),
          kvt(w('E', 106, 116), '0+4', 106),
          kvt(w('E', 106, 116), '0+4+6', 113),
          kvt(w('E', 106, 116), '0+4+6+5', 113),
          kvt(w('E', 106, 116), '0+4+6+5+9', 115),
          kvt(w('E', 107, 117), '0+6', 113),
          kvt(w('E', 107, 117), '0+6+5', 113),
          kvt(w('E', 107, 117), '0+6+5+9', 115),
          kvt(w('E', 111, 121), '0+6', 113),
          kvt(w('E', 111, 121), '0+6+9', 115),
          kvt(w('E', 114, 124), '0+9', 115)],
        actual
      );
    }
  });
});
