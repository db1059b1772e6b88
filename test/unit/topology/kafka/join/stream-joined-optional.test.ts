/**
 * Stream-stream joins without a `StreamJoined` take the defaults, as Kafka's
 * three-argument `join`/`leftJoin`/`outerJoin(otherStream, joiner, windows)`
 * overloads do (issue 29). Ported from Kafka Streams' `KStreamImplTest`
 * (`shouldPreserveSerdesForOperators`, its stream-stream join lines, and
 * `shouldNotAllowNullStreamJoinedOn*Join`) and `KStreamKStreamOuterJoinTest.testOuterJoinDuplicates`
 * (first phase; inputs and expected outputs unchanged, called in the three-argument form).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Consumed, JoinWindows, Serdes, StreamJoined, StreamsBuilder } from '../../../../../src/index.js';
import type { KStreamImpl } from '../../../../../src/topology/kstream.js';
import { impl } from '../../../../helpers/dsl-impl.js';
import type { TopologyTestDriver } from '../../../../../src/testing.js';
import { driverFor, kvt, MockApiProcessorSupplier, TOSTRING_JOINER } from '../../../../helpers/ktable/stream-join-capture.js';

const I = Serdes.Integer();
const S = Serdes.String();
/** What the assertions read of a joined stream. */
type Out = Pick<KStreamImpl<string, unknown>, 'serdes'>;
const joiner = (v1: unknown, v2: unknown): string => `${String(v1)}${String(v2)}`;

let drivers: TopologyTestDriver[] = [];
afterEach(() => {
  for (const d of drivers) d.close();
  drivers = [];
});

describe('stream-stream joins without StreamJoined (Kafka three-argument overloads)', () => {
  /** KStreamImplTest.shouldPreserveSerdesForOperators (the join, leftJoin and outerJoin lines) */
  it('shouldPreserveSerdesForOperators (stream-stream joins)', () => {
    const builder = new StreamsBuilder();
    const stream1 = builder.stream('topic-1', Consumed.with(S, S));
    const mySerde = Serdes.String();
    const w = (): JoinWindows => JoinWindows.ofTimeDifferenceWithNoGrace(100);
    const joins = {
      join: (sj?: StreamJoined<string, string, string>): Out => impl(sj ? stream1.join(stream1, joiner, w(), sj) : stream1.join(stream1, joiner, w())),
      leftJoin: (sj?: StreamJoined<string, string, string>): Out => impl(sj ? stream1.leftJoin(stream1, joiner, w(), sj) : stream1.leftJoin(stream1, joiner, w())),
      outerJoin: (sj?: StreamJoined<string, string, string>): Out => impl(sj ? stream1.outerJoin(stream1, joiner, w(), sj) : stream1.outerJoin(stream1, joiner, w())),
    };
    for (const [name, op] of Object.entries(joins)) {
      expect(op().serdes.key, name).toBeUndefined();
      expect(op().serdes.value, name).toBeUndefined();
      expect(op(StreamJoined.with(mySerde, mySerde, mySerde)).serdes.key, name).toBe(mySerde);
      expect(op(StreamJoined.with(mySerde, mySerde, mySerde)).serdes.value, name).toBeUndefined();
    }
  });

  /** KStreamImplTest.shouldNotAllowNullStreamJoinedOnJoin / OnLeftJoin / OnOuterJoin: null is still refused */
  it('shouldNotAllowNullStreamJoinedOn(Join|LeftJoin|OuterJoin)', () => {
    const builder = new StreamsBuilder();
    const testStream = builder.stream('source', Consumed.with(S, S));
    const nul = null as unknown as StreamJoined<string, string, string>;
    const w = JoinWindows.ofTimeDifferenceWithNoGrace(10);
    expect(() => testStream.join(testStream, TOSTRING_JOINER, w, nul)).toThrow("streamJoined can't be null");
    expect(() => testStream.leftJoin(testStream, TOSTRING_JOINER, w, nul)).toThrow("streamJoined can't be null");
    expect(() => testStream.outerJoin(testStream, TOSTRING_JOINER, w, nul)).toThrow("streamJoined can't be null");
  });

  /** KStreamKStreamOuterJoinTest.testOuterJoinDuplicates (first phase), with outerJoin(stream, joiner, windows) */
  it('testOuterJoinDuplicates with the three-argument outerJoin', () => {
    const builder = new StreamsBuilder();
    const supplier = new MockApiProcessorSupplier();
    const stream1 = builder.stream('topic1', { keySerde: I, valueSerde: S });
    const stream2 = builder.stream('topic2', { keySerde: I, valueSerde: Serdes.Long() });
    stream1.outerJoin(stream2, TOSTRING_JOINER, JoinWindows.ofTimeDifferenceAndGrace(100, 10)).process(supplier);
    const { driver } = driverFor(builder);
    drivers.push(driver);
    const inputTopic1 = driver.createInputTopic('topic1', I, S, { startTimestampMs: 0, autoAdvanceMs: 0 });
    const inputTopic2 = driver.createInputTopic('topic2', I, Serdes.Long(), { startTimestampMs: 0, autoAdvanceMs: 0 });
    const processor = supplier.theCapturedProcessor();
    inputTopic1.pipeInput(0, 'A0', 0);
    inputTopic1.pipeInput(0, 'A0-0', 0);
    inputTopic2.pipeInput(1, 11, 0);
    inputTopic2.pipeInput(1, 12, 0);
    inputTopic2.pipeInput(1, 10, 111);
    inputTopic2.pipeInput(3, 100, 211);
    processor.checkAndClearProcessResult(kvt(1, 'null+11', 0), kvt(1, 'null+12', 0), kvt(0, 'A0+null', 0), kvt(0, 'A0-0+null', 0));
    inputTopic1.pipeInput(2, 'A2', 200);
    inputTopic1.pipeInput(2, 'A2-0', 200);
    inputTopic2.pipeInput(2, 13, 201);
    inputTopic2.pipeInput(2, 14, 201);
    processor.checkAndClearProcessResult(kvt(2, 'A2+13', 201), kvt(2, 'A2-0+13', 201), kvt(2, 'A2+14', 201), kvt(2, 'A2-0+14', 201));
  });
});
