/**
 * Ported from Kafka Streams' `KStreamWindowAggregateTest`, the cases driving
 * `KStreamWindowAggregate`'s processor with a mock context (inputs and
 * expected outputs unchanged): emitting final results on window close,
 * throttled by the emit interval, resumed from the last emit close time by a
 * new processor of the same task; and the strategy check of the supplier.
 * Each case runs for Kafka's four parameters (`getEmitStrategy`); the mock
 * context's store has caching disabled, as Kafka's.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TimeWindows, UnlimitedWindows, type EmitStrategyType } from '../../../../../src/index.js';
import { Record } from '../../../../../src/processors/record.js';
import { KStreamWindowAggregate } from '../../../../../src/processors/dsl/window-aggregate.js';
import { captured, makeContext, type MockWindowContext } from '../../../../helpers/windows/mock-window-context.js';

const WINDOW_STORE_NAME = 'dummy-store-name';
// MockInitializer.STRING_INIT, MockAggregator.TOSTRING_ADDER
const STRING_INIT = (): string => '0';
const TOSTRING_ADDER = (_k: string, value: string, aggregate: string | null): string => `${String(aggregate)}+${value}`;

const getEmitStrategy: Array<[EmitStrategyType, boolean]> = [
  ['ON_WINDOW_UPDATE', true],
  ['ON_WINDOW_UPDATE', false],
  ['ON_WINDOW_CLOSE', true],
  ['ON_WINDOW_CLOSE', false],
];

let mock: MockWindowContext | undefined;
afterEach(() => {
  mock?.close();
  mock = undefined;
});

describe.each(getEmitStrategy)('KStreamWindowAggregateTest [%s, withCache=%s]', (type) => {
  const emitFinal = type === 'ON_WINDOW_CLOSE';
  const windowSize = 10;
  const windows = TimeWindows.ofSizeAndGrace(windowSize, 5).advanceBy(5);
  const supplierOf = () => new KStreamWindowAggregate<string, string, string>(windows, WINDOW_STORE_NAME, type, STRING_INIT, TOSTRING_ADDER);

  // KStreamWindowAggregateTest.shouldNotEmitFinalIfNotProgressEnough
  it('shouldNotEmitFinalIfNotProgressEnough', () => {
    // Always process
    mock = makeContext(WINDOW_STORE_NAME, windowSize, 0);
    const processor = supplierOf().get();
    processor.init?.(mock.context);

    mock.setSystemTimeMs(0);
    processor.process(new Record('A', '1', 0));
    processor.process(new Record('B', '2', 5));
    processor.process(new Record('C', '3', 15));
    if (emitFinal) {
      expect(mock.forwarded()).toEqual([captured('A', 0, 10, '0+1', null, 0), captured('B', 0, 10, '0+2', null, 5)]);
    } else {
      expect(mock.forwarded()).toEqual([
        captured('A', 0, 10, '0+1', null, 0),
        captured('B', 0, 10, '0+2', null, 5),
        captured('B', 5, 15, '0+2', null, 5),
        captured('C', 10, 20, '0+3', null, 15),
        captured('C', 15, 25, '0+3', null, 15),
      ]);
    }
    mock.resetForwards();

    processor.process(new Record('D', '4', 15));
    if (emitFinal) {
      // None emitted because observedTime doesn't progress
      expect(mock.forwarded()).toEqual([]);
    } else {
      expect(mock.forwarded()).toEqual([captured('D', 10, 20, '0+4', null, 15), captured('D', 15, 25, '0+4', null, 15)]);
    }
    mock.resetForwards();

    processor.process(new Record('E', '5', 19));
    if (emitFinal) {
      // None emitted because observedTime doesn't progress enough to cover new windows
      expect(mock.forwarded()).toEqual([]);
    } else {
      expect(mock.forwarded()).toEqual([captured('E', 10, 20, '0+5', null, 19), captured('E', 15, 25, '0+5', null, 19)]);
    }
  });

  // KStreamWindowAggregateTest.shouldEmitWithInterval0
  it('shouldEmitWithInterval0', () => {
    // Always process
    mock = makeContext(WINDOW_STORE_NAME, windowSize, 0);
    const processor = supplierOf().get();
    processor.init?.(mock.context);

    mock.setSystemTimeMs(0);
    processor.process(new Record('A', '1', 0));
    processor.process(new Record('A', '1', 5));
    processor.process(new Record('B', '2', 10));
    processor.process(new Record('C', '3', 15));
    processor.process(new Record('D', '4', 20));
    if (emitFinal) {
      expect(mock.forwarded()).toEqual([captured('A', 0, 10, '0+1+1', null, 5), captured('A', 5, 15, '0+1', null, 5), captured('B', 5, 15, '0+2', null, 10)]);
    } else {
      expect(mock.forwarded()).toEqual([
        captured('A', 0, 10, '0+1', null, 0),
        captured('A', 0, 10, '0+1+1', null, 5),
        captured('A', 5, 15, '0+1', null, 5),
        captured('B', 5, 15, '0+2', null, 10),
        captured('B', 10, 20, '0+2', null, 10),
        captured('C', 10, 20, '0+3', null, 15),
        captured('C', 15, 25, '0+3', null, 15),
        captured('D', 15, 25, '0+4', null, 20),
        captured('D', 20, 30, '0+4', null, 20),
      ]);
    }
  });

  // KStreamWindowAggregateTest.shouldEmitWithLargeInterval
  it('shouldEmitWithLargeInterval', () => {
    // Emit final every second
    mock = makeContext(WINDOW_STORE_NAME, windowSize, 1000);
    const processor = supplierOf().get();
    processor.init?.(mock.context);

    mock.setSystemTimeMs(0);
    processor.process(new Record('A', '1', 0));
    processor.process(new Record('A', '1', 5));
    processor.process(new Record('B', '2', 10));
    processor.process(new Record('C', '3', 15));
    if (emitFinal) {
      expect(mock.forwarded()).toEqual([]);
    } else {
      expect(mock.forwarded()).toEqual([
        captured('A', 0, 10, '0+1', null, 0),
        captured('A', 0, 10, '0+1+1', null, 5),
        captured('A', 5, 15, '0+1', null, 5),
        captured('B', 5, 15, '0+2', null, 10),
        captured('B', 10, 20, '0+2', null, 10),
        captured('C', 10, 20, '0+3', null, 15),
        captured('C', 15, 25, '0+3', null, 15),
      ]);
    }
    mock.resetForwards();

    // Progress
    mock.setSystemTimeMs(10000);
    processor.process(new Record('D', '4', 20));
    if (emitFinal) {
      expect(mock.forwarded()).toEqual([captured('A', 0, 10, '0+1+1', null, 5), captured('A', 5, 15, '0+1', null, 5), captured('B', 5, 15, '0+2', null, 10)]);
    } else {
      expect(mock.forwarded()).toEqual([captured('D', 15, 25, '0+4', null, 20), captured('D', 20, 30, '0+4', null, 20)]);
    }
    mock.resetForwards();

    // Progress
    mock.setSystemTimeMs(10100);
    processor.process(new Record('E', '5', 40));
    if (emitFinal) {
      expect(mock.forwarded()).toEqual([]);
    } else {
      expect(mock.forwarded()).toEqual([captured('E', 35, 45, '0+5', null, 40), captured('E', 40, 50, '0+5', null, 40)]);
    }
  });

  // KStreamWindowAggregateTest.shouldEmitFromLastEmitTime
  it('shouldEmitFromLastEmitTime', () => {
    // Always process
    mock = makeContext(WINDOW_STORE_NAME, windowSize, 0);
    const supplier = supplierOf();
    const processor = supplier.get();
    processor.init?.(mock.context);

    mock.setSystemTimeMs(0);
    processor.process(new Record('A', '1', 0));
    processor.process(new Record('B', '2', 5));
    processor.process(new Record('C', '3', 15));
    if (emitFinal) {
      expect(mock.forwarded()).toEqual([captured('A', 0, 10, '0+1', null, 0), captured('B', 0, 10, '0+2', null, 5)]);
    } else {
      expect(mock.forwarded()).toEqual([
        captured('A', 0, 10, '0+1', null, 0),
        captured('B', 0, 10, '0+2', null, 5),
        captured('B', 5, 15, '0+2', null, 5),
        captured('C', 10, 20, '0+3', null, 15),
        captured('C', 15, 25, '0+3', null, 15),
      ]);
    }
    mock.resetForwards();

    const newProcessor = supplier.get();
    newProcessor.init?.(mock.context);
    newProcessor.process(new Record('D', '4', 25));
    if (emitFinal) {
      // Don't output old windows for new processor
      expect(mock.forwarded()).toEqual([captured('B', 5, 15, '0+2', null, 5), captured('C', 10, 20, '0+3', null, 15)]);
    } else {
      expect(mock.forwarded()).toEqual([captured('D', 20, 30, '0+4', null, 25), captured('D', 25, 35, '0+4', null, 25)]);
    }
  });

  // KStreamWindowAggregateTest.showThrowIfEmitFinalUsedWithUnlimitedWindow
  it('showThrowIfEmitFinalUsedWithUnlimitedWindow', () => {
    const create = () => new KStreamWindowAggregate<string, string, string>(UnlimitedWindows.of(), WINDOW_STORE_NAME, type, STRING_INIT, TOSTRING_ADDER);
    if (emitFinal) {
      expect(create).toThrow('ON_WINDOW_CLOSE strategy is only supported for TimeWindows and SlidingWindows for TimeWindowedKStream');
    } else {
      expect(create).not.toThrow();
    }
  });
});
