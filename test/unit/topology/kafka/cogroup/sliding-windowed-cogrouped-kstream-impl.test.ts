/**
 * Ported from Kafka Streams' `SlidingWindowedCogroupedKStreamImplTest`
 * (inputs and expected outputs unchanged; a null argument fails with
 * IllegalArgumentError where Java throws NullPointerException). Every case
 * of the Java test is here.
 */
import { describe, expect, it } from 'vitest';
import { Grouped, IllegalArgumentError, Materialized, Named, SlidingWindows, StreamsBuilder, WindowedSerdes, type Windowed , type TimeWindowedCogroupedKStream } from '../../../../../src/index.js';
import { OUTPUT, run, S, setup, STRING_INIT, TOPIC, TOSTRING_ADDER, type Out } from '../../../../helpers/cogroup/windowed-cogroup.js';

const WINDOW_SIZE_MS = 500;
const windowedKey = WindowedSerdes.timeWindowedSerdeFrom(S, WINDOW_SIZE_MS);
const nul = null as never;

function windowedCogroupedStream(): ReturnType<typeof setup> & { windowed: TimeWindowedCogroupedKStream<string, string> } {
  const parts = setup();
  return { ...parts, windowed: parts.cogroupedStream.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(WINDOW_SIZE_MS, 2000)) };
}

/** `new TestRecord<>(new Windowed<>(key, new TimeWindow(start, end)), value, null, timestamp)`. */
function rec(key: string, start: number, end: number, value: string, timestamp: number): { key: Windowed<string>; value: string; timestamp: number } {
  return { key: { key, window: { start, end } }, value, timestamp };
}

describe('SlidingWindowedCogroupedKStreamImplTest', () => {
  it('shouldNotHaveNullInitializerOnAggregate, ...TwoOptionNamed, ...TwoOptionMaterialized, ...ThreeOption', () => {
    const { windowed } = windowedCogroupedStream();
    expect(() => windowed.aggregate(nul)).toThrow(IllegalArgumentError);
    expect(() => windowed.aggregate(nul, Named.as('test'))).toThrow("initializer can't be null");
    expect(() => windowed.aggregate(nul, Materialized.as('test'))).toThrow("initializer can't be null");
    expect(() => windowed.aggregate(nul, Named.as('test'), Materialized.as('test'))).toThrow("initializer can't be null");
  });
  it('shouldNotHaveNullMaterializedOnTwoOptionAggregate, shouldNotHaveNullNamedTwoOptionOnAggregate (one null: named)', () => {
    expect(() => windowedCogroupedStream().windowed.aggregate(STRING_INIT, nul)).toThrow("named can't be null");
  });
  it('shouldNotHaveNullMaterializedOnAggregate', () => {
    expect(() => windowedCogroupedStream().windowed.aggregate(STRING_INIT, Named.as('Test'), nul)).toThrow("materialized can't be null");
  });
  it('shouldNotHaveNullNamedOnAggregate', () => {
    expect(() => windowedCogroupedStream().windowed.aggregate(STRING_INIT, nul, Materialized.as('test'))).toThrow("named can't be null");
  });

  it('namedParamShouldSetName', () => {
    const builder = new StreamsBuilder();
    const stream = builder.stream(TOPIC, { keySerde: S, valueSerde: S });
    stream.groupByKey(Grouped.with(S, S)).cogroup(TOSTRING_ADDER).windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(WINDOW_SIZE_MS, 2000)).aggregate(STRING_INIT, Named.as('foo'));
    expect(builder.build().describe().toString()).toBe(
      'Topologies:\n' +
        '   Sub-topology: 0\n' +
        '    Source: KSTREAM-SOURCE-0000000000 (topics: [topic])\n' +
        '      --> foo-cogroup-agg-0\n' +
        '    Processor: foo-cogroup-agg-0 (stores: [COGROUPKSTREAM-AGGREGATE-STATE-STORE-0000000001])\n' +
        '      --> foo-cogroup-merge\n' +
        '      <-- KSTREAM-SOURCE-0000000000\n' +
        '    Processor: foo-cogroup-merge (stores: [])\n' +
        '      --> none\n' +
        '      <-- foo-cogroup-agg-0\n\n',
    );
  });

  it('slidingWindowAggregateStreamsTest', () => {
    const { builder, windowed } = windowedCogroupedStream();
    windowed.aggregate(STRING_INIT, Materialized.with(S, S)).toStream().to(OUTPUT);
    const { windowed: results } = run(builder, windowedKey, [
      [TOPIC, 'k1', 'A', 500], [TOPIC, 'k2', 'A', 500], [TOPIC, 'k2', 'A', 501], [TOPIC, 'k1', 'A', 502],
      [TOPIC, 'k1', 'B', 503], [TOPIC, 'k2', 'B', 503], [TOPIC, 'k2', 'B', 504], [TOPIC, 'k1', 'B', 504],
    ]);
    expect(results).toEqual([
      // k1-A-500
      rec('k1', 0, 500, '0+A', 500),
      // k2-A-500
      rec('k2', 0, 500, '0+A', 500),
      // k2-A-501
      rec('k2', 501, 1001, '0+A', 501),
      rec('k2', 1, 501, '0+A+A', 501),
      // k1-A-502
      rec('k1', 501, 1001, '0+A', 502),
      rec('k1', 2, 502, '0+A+A', 502),
      // k1-B-503
      rec('k1', 501, 1001, '0+A+B', 503),
      rec('k1', 503, 1003, '0+B', 503),
      rec('k1', 3, 503, '0+A+A+B', 503),
      // k2-B-503
      rec('k2', 501, 1001, '0+A+B', 503),
      rec('k2', 502, 1002, '0+B', 503),
      rec('k2', 3, 503, '0+A+A+B', 503),
      // k2-B-504
      rec('k2', 502, 1002, '0+B+B', 504),
      rec('k2', 501, 1001, '0+A+B+B', 504),
      rec('k2', 504, 1004, '0+B', 504),
      rec('k2', 4, 504, '0+A+A+B+B', 504),
      // k1-B-504
      rec('k1', 503, 1003, '0+B+B', 504),
      rec('k1', 501, 1001, '0+A+B+B', 504),
      rec('k1', 504, 1004, '0+B', 504),
      rec('k1', 4, 504, '0+A+A+B+B', 504),
    ]);
  });

  it('slidingWindowAggregateOverlappingWindowsTest', () => {
    const { builder, groupedStream } = setup();
    groupedStream.cogroup(TOSTRING_ADDER).windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(WINDOW_SIZE_MS, 2000)).aggregate(STRING_INIT, Materialized.with(S, S)).toStream().to(OUTPUT);
    const { plain } = run(builder, windowedKey, [
      [TOPIC, 'k1', 'A', 500], [TOPIC, 'k2', 'A', 500], [TOPIC, 'k1', 'B', 750], [TOPIC, 'k2', 'B', 750], [TOPIC, 'k2', 'A', 1000], [TOPIC, 'k1', 'A', 1000],
    ]);
    expect(plain).toEqual<Out[]>([
      // left window k1@500, left window k2@500
      ['k1', '0+A', 500], ['k2', '0+A', 500],
      // right window k1@500, left window k1@750
      ['k1', '0+B', 750], ['k1', '0+A+B', 750],
      // right window k2@500, left window k2@750
      ['k2', '0+B', 750], ['k2', '0+A+B', 750],
      // right window k2@500 update, right window k2@750, left window k2@1000
      ['k2', '0+B+A', 1000], ['k2', '0+A', 1000], ['k2', '0+A+B+A', 1000],
      // right window k1@500 update, right window k1@750, left window k1@1000
      ['k1', '0+B+A', 1000], ['k1', '0+A', 1000], ['k1', '0+A+B+A', 1000],
    ]);
  });
});
