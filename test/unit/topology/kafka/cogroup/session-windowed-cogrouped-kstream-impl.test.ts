/**
 * Ported from Kafka Streams' `SessionWindowedCogroupedKStreamImplTest`
 * (inputs and expected outputs unchanged; a null argument fails with
 * IllegalArgumentError where Java throws NullPointerException). Every case
 * of the Java test is here; the null values read are the tombstones of the
 * sessions a record merged away.
 */
import { describe, expect, it } from 'vitest';
import { Grouped, IllegalArgumentError, Materialized, Named, SessionWindows, StreamsBuilder, WindowedSerdes, type Merger , type SessionWindowedCogroupedKStream } from '../../../../../src/index.js';
import { OUTPUT, run, S, setup, STRING_INIT, TOPIC, TOPIC2, TOSTRING_ADDER, type Out } from '../../../../helpers/cogroup/windowed-cogroup.js';

const sessionKey = WindowedSerdes.sessionWindowedSerdeFrom(S);
const sessionMerger: Merger<string, string> = (_aggKey, aggOne, aggTwo) => `${aggOne}+${aggTwo}`;
const nul = null as never;
const DAY = 24 * 60 * 60 * 1000;

function windowedCogroupedStream(): ReturnType<typeof setup> & { windowed: SessionWindowedCogroupedKStream<string, string> } {
  const parts = setup();
  return { ...parts, windowed: parts.cogroupedStream.windowedBy(SessionWindows.ofInactivityGapAndGrace(100, DAY)) };
}

describe('SessionWindowedCogroupedKStreamImplTest', () => {
  it('shouldNotHaveNullInitializerOnAggregate, ...Initializer2, ...Initializer3', () => {
    const { windowed } = windowedCogroupedStream();
    expect(() => windowed.aggregate(nul, sessionMerger)).toThrow(IllegalArgumentError);
    expect(() => windowed.aggregate(nul, sessionMerger, Materialized.as('test'))).toThrow("initializer can't be null");
    expect(() => windowed.aggregate(nul, sessionMerger, Named.as('name'), Materialized.as('test'))).toThrow("initializer can't be null");
  });
  it('shouldNotHaveNullSessionMergerOnAggregate, ...Merger2, ...Merger3', () => {
    const { windowed } = windowedCogroupedStream();
    expect(() => windowed.aggregate(STRING_INIT, nul)).toThrow("sessionMerger can't be null");
    expect(() => windowed.aggregate(STRING_INIT, nul, Materialized.as('test'))).toThrow("sessionMerger can't be null");
    expect(() => windowed.aggregate(STRING_INIT, nul, Named.as('name'), Materialized.as('test'))).toThrow("sessionMerger can't be null");
  });
  it('shouldNotHaveNullMaterializedOnAggregate, shouldNotHaveNullNamed2OnAggregate (one null: named)', () => {
    expect(() => windowedCogroupedStream().windowed.aggregate(STRING_INIT, sessionMerger, nul)).toThrow("named can't be null");
  });
  it('shouldNotHaveNullMaterialized2OnAggregate', () => {
    expect(() => windowedCogroupedStream().windowed.aggregate(STRING_INIT, sessionMerger, Named.as('name'), nul)).toThrow("materialized can't be null");
  });
  it('shouldNotHaveNullNamedOnAggregate', () => {
    expect(() => windowedCogroupedStream().windowed.aggregate(STRING_INIT, sessionMerger, nul, Materialized.as('test'))).toThrow("named can't be null");
  });

  it('namedParamShouldSetName', () => {
    const builder = new StreamsBuilder();
    const stream = builder.stream(TOPIC, { keySerde: S, valueSerde: S });
    stream.groupByKey(Grouped.with(S, S)).cogroup(TOSTRING_ADDER).windowedBy(SessionWindows.ofInactivityGapWithNoGrace(1)).aggregate(STRING_INIT, sessionMerger, Named.as('foo'));
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

  it('sessionWindowAggregateTest', () => {
    const { builder, groupedStream } = setup();
    groupedStream.cogroup(TOSTRING_ADDER).windowedBy(SessionWindows.ofInactivityGapWithNoGrace(500)).aggregate(STRING_INIT, sessionMerger, Materialized.with(S, S)).toStream().to(OUTPUT);
    const { plain } = run(builder, sessionKey, [[TOPIC, 'k1', 'A', 0], [TOPIC, 'k2', 'A', 0], [TOPIC, 'k1', 'B', 599], [TOPIC, 'k2', 'B', 607]]);
    expect(plain).toEqual<Out[]>([['k1', '0+A', 0], ['k2', '0+A', 0], ['k1', '0+B', 599], ['k2', '0+B', 607]]);
  });

  it('sessionWindowAggregate2Test', () => {
    const { builder, groupedStream } = setup();
    groupedStream.cogroup(TOSTRING_ADDER).windowedBy(SessionWindows.ofInactivityGapWithNoGrace(500)).aggregate(STRING_INIT, sessionMerger, Materialized.with(S, S)).toStream().to(OUTPUT);
    const { plain } = run(builder, sessionKey, [[TOPIC, 'k1', 'A', 0], [TOPIC, 'k1', 'A', 0], [TOPIC, 'k2', 'B', 599], [TOPIC, 'k1', 'B', 607]]);
    expect(plain).toEqual<Out[]>([['k1', '0+A', 0], ['k1', '0+0+A+A', 0], ['k2', '0+B', 599], ['k1', '0+B', 607]]);
  });

  it('sessionWindowAggregateTest2StreamsTest', () => {
    const { builder, windowed } = windowedCogroupedStream();
    windowed.aggregate(STRING_INIT, sessionMerger, Materialized.with(S, S)).toStream().to(OUTPUT);
    const { plain } = run(builder, sessionKey, [
      [TOPIC, 'k1', 'A', 0], [TOPIC, 'k1', 'A', 84], [TOPIC, 'k1', 'A', 113], [TOPIC, 'k1', 'A', 199],
      [TOPIC, 'k1', 'B', 300], [TOPIC, 'k2', 'B', 301], [TOPIC, 'k2', 'B', 400], [TOPIC, 'k1', 'B', 400],
    ]);
    expect(plain).toEqual<Out[]>([
      ['k1', '0+A', 0], ['k1', null, 0], ['k1', '0+0+A+A', 84], ['k1', null, 84], ['k1', '0+0+0+A+A+A', 113], ['k1', null, 113],
      ['k1', '0+0+0+0+A+A+A+A', 199], ['k1', '0+B', 300], ['k2', '0+B', 301], ['k2', null, 301], ['k2', '0+0+B+B', 400],
      ['k1', null, 300], ['k1', '0+0+B+B', 400],
    ]);
  });

  it('sessionWindowMixAggregatorsTest', () => {
    const { builder, windowed } = windowedCogroupedStream();
    windowed.aggregate(STRING_INIT, sessionMerger, Materialized.with(S, S)).toStream().to(OUTPUT);
    const { plain } = run(builder, sessionKey, [
      [TOPIC, 'k1', 'A', 0], [TOPIC, 'k2', 'A', 0], [TOPIC, 'k2', 'A', 1], [TOPIC, 'k1', 'A', 2],
      [TOPIC2, 'k1', 'B', 3], [TOPIC2, 'k2', 'B', 3], [TOPIC2, 'k2', 'B', 444], [TOPIC2, 'k1', 'B', 444],
    ]);
    expect(plain).toEqual<Out[]>([
      ['k1', '0+A', 0], ['k2', '0+A', 0], ['k2', null, 0], ['k2', '0+0+A+A', 1], ['k1', null, 0], ['k1', '0+0+A+A', 2],
      ['k1', null, 2], ['k1', '0+0+0+A+A-B', 3], ['k2', null, 1], ['k2', '0+0+0+A+A-B', 3], ['k2', '0-B', 444], ['k1', '0-B', 444],
    ]);
  });

  it('sessionWindowMixAggregatorsManyWindowsTest', () => {
    const { builder, windowed } = windowedCogroupedStream();
    windowed.aggregate(STRING_INIT, sessionMerger, Materialized.with(S, S)).toStream().to(OUTPUT);
    const { plain } = run(builder, sessionKey, [
      [TOPIC, 'k1', 'A', 0], [TOPIC, 'k2', 'A', 0], [TOPIC, 'k2', 'A', 1], [TOPIC, 'k1', 'A', 2],
      [TOPIC2, 'k1', 'B', 3], [TOPIC2, 'k2', 'B', 500], [TOPIC2, 'k2', 'B', 501], [TOPIC2, 'k1', 'B', 501],
    ]);
    expect(plain).toEqual<Out[]>([
      ['k1', '0+A', 0], ['k2', '0+A', 0], ['k2', null, 0], ['k2', '0+0+A+A', 1], ['k1', null, 0], ['k1', '0+0+A+A', 2],
      ['k1', null, 2], ['k1', '0+0+0+A+A-B', 3], ['k2', '0-B', 500], ['k2', null, 500], ['k2', '0+0-B-B', 501], ['k1', '0-B', 501],
    ]);
  });
});
