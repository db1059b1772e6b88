/**
 * Ported from Kafka Streams' `TimeWindowedCogroupedKStreamImplTest` (inputs
 * and expected outputs unchanged; a null argument fails with
 * IllegalArgumentError where Java throws NullPointerException). Every case
 * of the Java test is here.
 */
import { describe, expect, it } from 'vitest';
import { IllegalArgumentError, Materialized, Named, StreamsBuilder, TimeWindows, WindowedSerdes, Grouped , type TimeWindowedCogroupedKStream } from '../../../../../src/index.js';
import { OUTPUT, run, S, setup, STRING_INIT, TOPIC, TOPIC2, TOSTRING_ADDER, type Out } from '../../../../helpers/cogroup/windowed-cogroup.js';

const WINDOW_SIZE = 500;
const windowedKey = WindowedSerdes.timeWindowedSerdeFrom(S, WINDOW_SIZE);
const nul = null as never;

function windowedCogroupedStream(): ReturnType<typeof setup> & { windowed: TimeWindowedCogroupedKStream<string, string> } {
  const parts = setup();
  return { ...parts, windowed: parts.cogroupedStream.windowedBy(TimeWindows.ofSizeWithNoGrace(WINDOW_SIZE)) };
}

describe('TimeWindowedCogroupedKStreamImplTest', () => {
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
    stream.groupByKey(Grouped.with(S, S)).cogroup(TOSTRING_ADDER).windowedBy(TimeWindows.ofSizeWithNoGrace(WINDOW_SIZE)).aggregate(STRING_INIT, Named.as('foo'));
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

  it('timeWindowAggregateTestStreamsTest', () => {
    const { builder, windowed } = windowedCogroupedStream();
    windowed.aggregate(STRING_INIT, Materialized.with(S, S)).toStream().to(OUTPUT);
    const { plain } = run(builder, windowedKey, [
      [TOPIC, 'k1', 'A', 0], [TOPIC, 'k2', 'A', 0], [TOPIC, 'k2', 'A', 1], [TOPIC, 'k1', 'A', 2],
      [TOPIC, 'k1', 'B', 3], [TOPIC, 'k2', 'B', 3], [TOPIC, 'k2', 'B', 4], [TOPIC, 'k1', 'B', 4],
    ]);
    expect(plain).toEqual<Out[]>([
      ['k1', '0+A', 0], ['k2', '0+A', 0], ['k2', '0+A+A', 1], ['k1', '0+A+A', 2],
      ['k1', '0+A+A+B', 3], ['k2', '0+A+A+B', 3], ['k2', '0+A+A+B+B', 4], ['k1', '0+A+A+B+B', 4],
    ]);
  });

  it('timeWindowMixAggregatorsTest', () => {
    const { builder, windowed } = windowedCogroupedStream();
    windowed.aggregate(STRING_INIT, Materialized.with(S, S)).toStream().to(OUTPUT);
    const { plain } = run(builder, windowedKey, [
      [TOPIC, 'k1', 'A', 0], [TOPIC, 'k2', 'A', 0], [TOPIC, 'k2', 'A', 1], [TOPIC, 'k1', 'A', 2],
      [TOPIC2, 'k1', 'B', 3], [TOPIC2, 'k2', 'B', 3], [TOPIC2, 'k2', 'B', 4], [TOPIC2, 'k1', 'B', 4],
    ]);
    expect(plain).toEqual<Out[]>([
      ['k1', '0+A', 0], ['k2', '0+A', 0], ['k2', '0+A+A', 1], ['k1', '0+A+A', 2],
      ['k1', '0+A+A-B', 3], ['k2', '0+A+A-B', 3], ['k2', '0+A+A-B-B', 4], ['k1', '0+A+A-B-B', 4],
    ]);
  });

  it('timeWindowAggregateManyWindowsTest', () => {
    const { builder, groupedStream } = setup();
    groupedStream.cogroup(TOSTRING_ADDER).windowedBy(TimeWindows.ofSizeWithNoGrace(500)).aggregate(STRING_INIT, Materialized.with(S, S)).toStream().to(OUTPUT);
    const { plain } = run(builder, windowedKey, [[TOPIC, 'k1', 'A', 0], [TOPIC, 'k2', 'A', 499], [TOPIC, 'k2', 'A', 500], [TOPIC, 'k1', 'A', 500]]);
    expect(plain).toEqual<Out[]>([['k1', '0+A', 0], ['k2', '0+A', 499], ['k2', '0+A', 500], ['k1', '0+A', 500]]);
  });

  it('timeWindowAggregateOverlappingWindowsTest', () => {
    const { builder, groupedStream } = setup();
    groupedStream.cogroup(TOSTRING_ADDER).windowedBy(TimeWindows.ofSizeWithNoGrace(500).advanceBy(200)).aggregate(STRING_INIT, Materialized.with(S, S)).toStream().to(OUTPUT);
    const { plain } = run(builder, windowedKey, [
      [TOPIC, 'k1', 'A', 0], [TOPIC, 'k2', 'A', 0], [TOPIC, 'k1', 'B', 250], [TOPIC, 'k2', 'B', 250], [TOPIC, 'k2', 'A', 500], [TOPIC, 'k1', 'A', 500],
    ]);
    expect(plain).toEqual<Out[]>([
      ['k1', '0+A', 0], ['k2', '0+A', 0], ['k1', '0+A+B', 250], ['k1', '0+B', 250], ['k2', '0+A+B', 250], ['k2', '0+B', 250],
      ['k2', '0+B+A', 500], ['k2', '0+A', 500], ['k1', '0+B+A', 500], ['k1', '0+A', 500],
    ]);
  });

  it('timeWindowMixAggregatorsManyWindowsTest', () => {
    const { builder, windowed } = windowedCogroupedStream();
    windowed.aggregate(STRING_INIT, Materialized.with(S, S)).toStream().to(OUTPUT);
    const { plain } = run(builder, windowedKey, [
      [TOPIC, 'k1', 'A', 0], [TOPIC, 'k2', 'A', 0], [TOPIC, 'k2', 'A', 1], [TOPIC, 'k1', 'A', 2],
      [TOPIC2, 'k1', 'B', 3], [TOPIC2, 'k2', 'B', 3], [TOPIC2, 'k2', 'B', 501], [TOPIC2, 'k1', 'B', 501],
    ]);
    expect(plain).toEqual<Out[]>([
      ['k1', '0+A', 0], ['k2', '0+A', 0], ['k2', '0+A+A', 1], ['k1', '0+A+A', 2],
      ['k1', '0+A+A-B', 3], ['k2', '0+A+A-B', 3], ['k2', '0-B', 501], ['k1', '0-B', 501],
    ]);
  });
});
