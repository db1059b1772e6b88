/**
 * Ported from Kafka Streams' `KStreamSlidingWindowAggregateTest` (inputs
 * and expected outputs unchanged): `testJoin`, the log and drop cases and
 * `testAggregateRandomInput`, under each parameter set of
 * `sliding-variants.ts`. The window creation cases are in
 * `kstream-sliding-window-aggregate.test.ts`.
 *
 * sluice differences: the TopologyTestDriver has no metrics; what Kafka
 * reads from `dropped-records-total` (7) is checked as the DEBUG lines of
 * the skipped windows; sluice counts in `recordsSkipped` only the records
 * that fit no open window (here k@15), checked by the contract test. The null-key line is the task's
 * drop log (WARN, `Skipping record due to null key or value (...)`).
 * `aggregate` without a value serde writes JSON (Kafka: the default
 * serde), so the output topic is read with `Serdes.Json()`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Grouped, Materialized, Serdes, SlidingWindows, StreamsBuilder, WindowedSerdes, type Windowed } from '../../../../../src/index.js';
import { TopologyTestDriver } from '../../../../../src/testing.js';
import { defaultLogger, setRootLogger } from '../../../../../src/internal/logger.js';
import { captureLogger } from '../../../handlers/capture-logger.js';
import { RecordingProcessorSupplier } from '../../../../helpers/ktable/recording-processor.js';
import { SLIDING_VARIANTS, inOrderMemoryWindowStoreSupplier, slidingSetup } from '../../../../helpers/ktable/sliding-variants.js';
import { vt, windowedRecorder } from '../../../../helpers/ktable/windowed-recorder.js';

const stringSerde = Serdes.String();
const consumed = { keySerde: stringSerde, valueSerde: stringSerde };

// MockInitializer.STRING_INIT, MockAggregator.TOSTRING_ADDER
const STRING_INIT = (): string => '0';
const TOSTRING_ADDER = (_k: string, value: string, aggregate: string): string => `${aggregate}+${value}`;

/** `new Windowed<>(key, new TimeWindow(start, end))`. */
function w(key: string, start: number, end: number): Windowed<string> {
  return { key, window: { start, end } };
}

/** `new KeyValueTimestamp<>(windowedKey, value, timestamp)`. */
function kvt(key: Windowed<string>, value: string, timestamp: number): { key: Windowed<string>; value: string; timestamp: number } {
  return { key, value, timestamp };
}

function withDriver(builder: StreamsBuilder, run: (driver: TopologyTestDriver) => void): void {
  const driver = new TopologyTestDriver(builder.build(), { applicationId: 'kstream-sliding-window-aggregate-test' });
  try {
    run(driver);
  } finally {
    driver.close();
  }
}

/** A seeded PRNG (mulberry32) for Java's `new Random(seed)` + `Collections.shuffle`. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

let logs: ReturnType<typeof captureLogger>;
beforeEach(() => {
  logs = captureLogger();
  setRootLogger(logs.logger);
});
afterEach(() => {
  setRootLogger(defaultLogger());
});

describe.each(SLIDING_VARIANTS)('KStreamSlidingWindowAggregateTest (%o)', (variant) => {
  const { emitFinal, emitStrategy, setupWindowBytesStoreSupplier, setupMaterialized } = slidingSetup(variant);

  /** KStreamSlidingWindowAggregateTest.testJoin */
  it('testJoin', () => {
    const builder = new StreamsBuilder();
    const materialized1 = setupMaterialized(emitFinal ? Materialized.as<string, string>('store-name1') : Materialized.as<string, string>(setupWindowBytesStoreSupplier(1)));
    const materialized2 = setupMaterialized(emitFinal ? Materialized.as<string, string>('store-name2') : Materialized.as<string, string>(setupWindowBytesStoreSupplier(2)));
    const grace = emitFinal ? 0 : 100;
    const table1 = builder
      .stream('topic1', consumed)
      .groupByKey(Grouped.with(stringSerde, stringSerde))
      .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, grace))
      .emitStrategy(emitStrategy)
      .aggregate(STRING_INIT, TOSTRING_ADDER, materialized1);
    const table2 = builder
      .stream('topic2', consumed)
      .groupByKey(Grouped.with(stringSerde, stringSerde))
      .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, grace))
      .emitStrategy(emitStrategy)
      .aggregate(STRING_INIT, TOSTRING_ADDER, materialized2);
    const supplier = new RecordingProcessorSupplier<Windowed<string>, string>();
    table1.toStream().process(supplier);
    table2.toStream().process(supplier);
    table1.join(table2, (p1, p2) => `${p1}%${p2}`).toStream().process(supplier);
    withDriver(builder, (driver) => {
      const inputTopic1 = driver.createInputTopic('topic1', stringSerde, stringSerde);
      const inputTopic2 = driver.createInputTopic('topic2', stringSerde, stringSerde);
      inputTopic1.pipeInput('A', '1', 10);
      inputTopic1.pipeInput('B', '2', 11);
      inputTopic1.pipeInput('C', '3', 12);
      const processors = supplier.capturedProcessors(3);
      if (emitFinal) {
        processors[0]!.checkAndClearProcessResult(
          kvt(w('A', 0, 10), '0+1', 10),
          kvt(w('B', 1, 11), '0+2', 11)
        );
      } else {
        processors[0]!.checkAndClearProcessResult(
          kvt(w('A', 0, 10), '0+1', 10),
          kvt(w('B', 1, 11), '0+2', 11),
          kvt(w('C', 2, 12), '0+3', 12)
        );
      }
      processors[1]!.checkAndClearProcessResult();
      processors[2]!.checkAndClearProcessResult();
      inputTopic1.pipeInput('A', '1', 15);
      inputTopic1.pipeInput('B', '2', 16);
      inputTopic1.pipeInput('C', '3', 19);
      if (emitFinal) {
        processors[0]!.checkAndClearProcessResult(
          kvt(w('C', 2, 12), '0+3', 12),
          kvt(w('A', 5, 15), '0+1+1', 15),
          kvt(w('B', 6, 16), '0+2+2', 16)
        );
      } else {
        processors[0]!.checkAndClearProcessResult(
          kvt(w('A', 11, 21), '0+1', 15),
          kvt(w('A', 5, 15), '0+1+1', 15),
          kvt(w('B', 12, 22), '0+2', 16),
          kvt(w('B', 6, 16), '0+2+2', 16),
          kvt(w('C', 13, 23), '0+3', 19),
          kvt(w('C', 9, 19), '0+3+3', 19)
        );
      }
      processors[1]!.checkAndClearProcessResult();
      processors[2]!.checkAndClearProcessResult();
      inputTopic2.pipeInput('A', 'a', 10);
      inputTopic2.pipeInput('C', 'c', 12);
      processors[0]!.checkAndClearProcessResult();
      if (emitFinal) {
        processors[1]!.checkAndClearProcessResult(
          kvt(w('A', 0, 10), '0+a', 10)
        );
        processors[2]!.checkAndClearProcessResult(
          kvt(w('A', 0, 10), '0+1%0+a', 10)
        );
      } else {
        processors[1]!.checkAndClearProcessResult(
          kvt(w('A', 0, 10), '0+a', 10),
          kvt(w('C', 2, 12), '0+c', 12)
        );
        processors[2]!.checkAndClearProcessResult(
          kvt(w('A', 0, 10), '0+1%0+a', 10),
          kvt(w('C', 2, 12), '0+3%0+c', 12)
        );
      }
      inputTopic2.pipeInput('A', 'a', 15);
      inputTopic2.pipeInput('B', 'b', 16);
      inputTopic2.pipeInput('C', 'c', 17);
      processors[0]!.checkAndClearProcessResult();
      if (emitFinal) {
        processors[1]!.checkAndClearProcessResult(
          kvt(w('C', 2, 12), '0+c', 12),
          kvt(w('A', 5, 15), '0+a+a', 15),
          kvt(w('B', 6, 16), '0+b', 16)
        );
        processors[2]!.checkAndClearProcessResult(
          kvt(w('C', 2, 12), '0+3%0+c', 12),
          kvt(w('A', 5, 15), '0+1+1%0+a+a', 15),
          kvt(w('B', 6, 16), '0+2+2%0+b', 16)
        );
      } else {
        processors[1]!.checkAndClearProcessResult(
          kvt(w('A', 11, 21), '0+a', 15),
          kvt(w('A', 5, 15), '0+a+a', 15),
          kvt(w('B', 6, 16), '0+b', 16),
          kvt(w('C', 13, 23), '0+c', 17),
          kvt(w('C', 7, 17), '0+c+c', 17)
        );
        processors[2]!.checkAndClearProcessResult(
          kvt(w('A', 11, 21), '0+1%0+a', 15),
          kvt(w('A', 5, 15), '0+1+1%0+a+a', 15),
          kvt(w('B', 6, 16), '0+2+2%0+b', 16),
          kvt(w('C', 13, 23), '0+3%0+c', 19)
        );
      }
    });
  });

  /** KStreamSlidingWindowAggregateTest.shouldLogAndMeterWhenSkippingNullKey */
  it('shouldLogAndMeterWhenSkippingNullKey', () => {
    const builder = new StreamsBuilder();
    const materialized = setupMaterialized(Materialized.as<string, string>('topic1-Canonized').withValueSerde(stringSerde));
    builder
      .stream('topic', consumed)
      .groupByKey(Grouped.with(stringSerde, stringSerde))
      .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 100))
      .emitStrategy(emitStrategy)
      .aggregate(STRING_INIT, TOSTRING_ADDER, materialized);
    withDriver(builder, (driver) => {
      const inputTopic = driver.createInputTopic('topic', stringSerde, stringSerde);
      inputTopic.pipeInput(null, '1');
      const warnings = logs.lines.filter((line) => line.level === 40);
      expect(warnings).toContainEqual(
        expect.objectContaining({ reason: 'null key or value', topic: 'topic', partition: 0, offset: 0, msg: expect.stringMatching(/^Skipping record due to null key or value/) }),
      );
    });
  });

  /** KStreamSlidingWindowAggregateTest.shouldLogAndMeterWhenSkippingExpiredWindowByGrace */
  it('shouldLogAndMeterWhenSkippingExpiredWindowByGrace', () => {
    const builder = new StreamsBuilder();
    const materialized = setupMaterialized(emitFinal ? Materialized.as<string, string>('store-name') : Materialized.as<string, string>(setupWindowBytesStoreSupplier(1)));
    builder
      .stream('topic', consumed)
      .groupByKey(Grouped.with(stringSerde, stringSerde))
      .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 90))
      .emitStrategy(emitStrategy)
      .aggregate(STRING_INIT, TOSTRING_ADDER, materialized)
      .toStream()
      .to('output');
    withDriver(builder, (driver) => {
      const inputTopic = driver.createInputTopic('topic', stringSerde, stringSerde);
      inputTopic.pipeInput('k', '100', 200);
      inputTopic.pipeInput('k', '0', 100);
      inputTopic.pipeInput('k', '1', 101);
      inputTopic.pipeInput('k', '2', 102);
      inputTopic.pipeInput('k', '3', 103);
      inputTopic.pipeInput('k', '4', 104);
      inputTopic.pipeInput('k', '5', 105);
      inputTopic.pipeInput('k', '6', 15);
      inputTopic.pipeInput('k', '101', 300);
      inputTopic.pipeInput('k', '102', 400);

      // assertLatenessMetrics(driver, is(7.0), ...): seven skipped windows, each logged once
      const skipped = logs.lines.filter((line) => typeof line.msg === 'string' && line.msg.startsWith('Skipping record for expired window.'));
      expect(skipped.every((line) => line.level === 20)).toBe(true);
      expect(skipped).toHaveLength(7);
      expect(skipped.map((line) => line.msg)).toEqual(
        expect.arrayContaining([
          // left window for k@100
          'Skipping record for expired window. topic=[topic] partition=[0] offset=[1] timestamp=[100] window=[90,100] expiration=[110] streamTime=[200]',
          // left window for k@101
          'Skipping record for expired window. topic=[topic] partition=[0] offset=[2] timestamp=[101] window=[91,101] expiration=[110] streamTime=[200]',
          // left window for k@102
          'Skipping record for expired window. topic=[topic] partition=[0] offset=[3] timestamp=[102] window=[92,102] expiration=[110] streamTime=[200]',
          // left window for k@103
          'Skipping record for expired window. topic=[topic] partition=[0] offset=[4] timestamp=[103] window=[93,103] expiration=[110] streamTime=[200]',
          // left window for k@104
          'Skipping record for expired window. topic=[topic] partition=[0] offset=[5] timestamp=[104] window=[94,104] expiration=[110] streamTime=[200]',
          // left window for k@105
          'Skipping record for expired window. topic=[topic] partition=[0] offset=[6] timestamp=[105] window=[95,105] expiration=[110] streamTime=[200]',
          // left window for k@15
          'Skipping record for expired window. topic=[topic] partition=[0] offset=[7] timestamp=[15] window=[15,25] expiration=[110] streamTime=[200]',
        ]),
      );
      const outputTopic = driver.createOutputTopic('output', WindowedSerdes.timeWindowedSerdeFrom(stringSerde, 10), Serdes.Json<string>());
      const read = (): { key: unknown; value: unknown; timestamp: number } => {
        const { key, value, timestamp } = outputTopic.readRecord();
        return { key, value, timestamp };
      };
      if (emitFinal) {
        expect(read()).toEqual(kvt(w('k', 190, 200), '0+100', 200));
        expect(read()).toEqual(kvt(w('k', 290, 300), '0+101', 300));
        expect(outputTopic.isEmpty()).toBe(true);
      } else {
        expect(read()).toEqual(kvt(w('k', 190, 200), '0+100', 200));
        expect(read()).toEqual(kvt(w('k', 290, 300), '0+101', 300));
        expect(read()).toEqual(kvt(w('k', 390, 400), '0+102', 400));
        expect(outputTopic.isEmpty()).toBe(true);
      }
    });
  });

  /** KStreamSlidingWindowAggregateTest.testAggregateRandomInput (and verifyRandomTestResults) */
  it('testAggregateRandomInput', () => {
    const builder = new StreamsBuilder();
    const storeSupplier = variant.persistent
      ? setupWindowBytesStoreSupplier(1)
      : variant.inOrderIterator
        ? inOrderMemoryWindowStoreSupplier('InOrder', 50000, 10, false)
        : setupWindowBytesStoreSupplier(1);
    const materialized = setupMaterialized(emitFinal ? Materialized.as<string, string>('store-name') : Materialized.as<string, string>(storeSupplier));
    const table = builder
      .stream('topic1', consumed)
      .groupByKey(Grouped.with(stringSerde, stringSerde))
      .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 100))
      .emitStrategy(emitStrategy)
      // The aggregator sorts the strings so the window value is the same for the final windows even when records are processed in a different order.
      .aggregate(
        () => '',
        (_key, value, aggregate) => [...(aggregate + value)].sort().join(''),
        materialized,
      );
    const supplier = windowedRecorder<string, string>();
    table.toStream().process(supplier.supplier);
    const seed = Math.floor(Math.random() * 2 ** 32);
    const input = [
      vt('A', 10), vt('B', 15), vt('C', 16), vt('D', 18), vt('E', 30), vt('F', 40), vt('G', 55), vt('H', 56), vt('I', 58), vt('J', 58), vt('K', 62),
      vt('L', 63), vt('M', 63), vt('N', 63), vt('O', 76), vt('P', 77), vt('Q', 80), vt('R', 2), vt('S', 3), vt('T', 5), vt('U', 8),
    ];
    withDriver(builder, (driver) => {
      const inputTopic1 = driver.createInputTopic('topic1', stringSerde, stringSerde);
      for (const i of shuffled(input, seed)) inputTopic1.pipeInput('A', i.value, i.timestamp);
      inputTopic1.pipeInput('A', 'V', 181);
    });
    const expected = new Map<number, { value: string; timestamp: number }>();
    const put = (start: number, value: { value: string; timestamp: number }): void => void expected.set(start, value);
    if (emitFinal) {
      // only non-expired records
      put(52, vt('GHIJK', 62));
      put(53, vt('GHIJKLMN', 63));
      put(56, vt('HIJKLMN', 63));
      put(57, vt('IJKLMN', 63));
      put(59, vt('KLMN', 63));
      put(63, vt('LMN', 63));
      put(66, vt('O', 76));
      put(67, vt('OP', 77));
      put(70, vt('OPQ', 80));
    } else {
      put(0, vt('ARSTU', 10));
      put(3, vt('ASTU', 10));
      put(4, vt('ATU', 10));
      put(5, vt('ABTU', 15));
      put(6, vt('ABCU', 16));
      put(8, vt('ABCDU', 18));
      put(9, vt('ABCD', 18));
      put(11, vt('BCD', 18));
      put(16, vt('CD', 18));
      put(17, vt('D', 18));
      put(20, vt('E', 30));
      put(30, vt('EF', 40));
      put(31, vt('F', 40));
      put(45, vt('G', 55));
      put(46, vt('GH', 56));
      put(48, vt('GHIJ', 58));
      put(52, vt('GHIJK', 62));
      put(53, vt('GHIJKLMN', 63));
      put(56, vt('HIJKLMN', 63));
      put(57, vt('IJKLMN', 63));
      put(59, vt('KLMN', 63));
      put(63, vt('LMN', 63));
      put(66, vt('O', 76));
      put(67, vt('OP', 77));
      put(70, vt('OPQ', 80));
      put(77, vt('PQ', 80));
      put(78, vt('Q', 80));
      put(171, vt('V', 181));
    }
    expect(supplier.lastByWindowStart(), `Assertion failed in randomized test. Reproduce with seed: ${seed}.`).toEqual(expected);
  });
});
