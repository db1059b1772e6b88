/**
 * Ported from Kafka Streams' `KTableKTableOuterJoinTest` (inputs and expected
 * outputs unchanged; the shared input steps are `joinTestSteps` in
 * test/helpers/ktable/tt-join-recorder.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Serdes, StreamsBuilder, type KTable } from '../../../../../src/index.js';
import { Change } from '../../../../../src/processors/dsl/change.js';
import { KTableKTableJoinSide } from '../../../../../src/processors/dsl/ktable-ktable-join.js';
import { Record } from '../../../../../src/processors/record.js';
import { MockProcessorContext, TopologyTestDriver } from '../../../../../src/testing.js';
import { assertOutput, ChangeRecorder, copartitionGroupTopics, joinTestSteps, kvt, TOSTRING_JOINER } from '../../../../helpers/ktable/tt-join-recorder.js';
import { impl } from '../../../../helpers/dsl-impl.js';

const I = Serdes.Int32();
const S = Serdes.String();
const topic1 = 'topic1';
const topic2 = 'topic2';
const output = 'output';
const consumed = { keySerde: I, valueSerde: S };
const props = { defaultKeySerde: I, defaultValueSerde: S };

let driver: TopologyTestDriver | undefined;
afterEach(() => {
  driver?.close();
  driver = undefined;
});

function inputs(d: TopologyTestDriver) {
  return joinTestSteps(d.createInputTopic(topic1, I, S), d.createInputTopic(topic2, I, S));
}

function outerJoined(): { builder: StreamsBuilder; table1: KTable<number, string>; table2: KTable<number, string>; joined: KTable<number, string> } {
  const builder = new StreamsBuilder();
  const table1 = builder.table(topic1, consumed);
  const table2 = builder.table(topic2, consumed);
  const joined = table1.outerJoin(table2, TOSTRING_JOINER);
  return { builder, table1, table2, joined };
}

describe('KTableKTableOuterJoinTest', () => {
  /** KTableKTableOuterJoinTest.testJoin */
  it('testJoin', () => {
    const { builder, joined } = outerJoined();
    joined.toStream().to(output);
    const topology = builder.build();
    const copartitionGroups = copartitionGroupTopics(topology);
    expect(copartitionGroups.length).toBe(1);
    expect(copartitionGroups[0]).toEqual(new Set([topic1, topic2]));

    driver = new TopologyTestDriver(topology, props);
    const step = inputs(driver);
    const outputTopic = driver.createOutputTopic(output, I, S);
    step[0]!();
    assertOutput(outputTopic, [0, 'X0+null', 5], [1, 'X1+null', 6]);
    step[1]!();
    assertOutput(outputTopic, [0, 'X0+Y0', 5], [1, 'X1+Y1', 10]);
    // push all four items to the primary stream. this should produce four items.
    step[2]!();
    assertOutput(outputTopic, [0, 'XX0+Y0', 7], [1, 'XX1+Y1', 10], [2, 'XX2+null', 7], [3, 'XX3+null', 7]);
    step[3]!();
    assertOutput(outputTopic, [0, 'XX0+YY0', 7], [1, 'XX1+YY1', 7], [2, 'XX2+YY2', 10], [3, 'XX3+YY3', 15]);
    step[4]!();
    assertOutput(outputTopic, [0, 'XXX0+YY0', 6], [1, 'XXX1+YY1', 6], [2, 'XXX2+YY2', 10], [3, 'XXX3+YY3', 15]);
    step[5]!();
    assertOutput(outputTopic, [0, 'XXX0+null', 6], [1, 'XXX1+null', 7]);
    // push all four items to the primary stream. this should produce four items.
    step[6]!();
    assertOutput(outputTopic, [0, 'XXXX0+null', 13], [1, 'XXXX1+null', 13], [2, 'XXXX2+YY2', 13], [3, 'XXXX3+YY3', 15]);
    // push four items to the primary stream with null. this should produce four items.
    step[7]!();
    assertOutput(outputTopic, [0, null, 0], [1, null, 42], [2, 'null+YY2', 10], [3, 'null+YY3', 20]);
  });

  /** KTableKTableOuterJoinTest.testNotSendingOldValue */
  it('testNotSendingOldValue', () => {
    const { builder, table1, table2, joined } = outerJoined();
    const topology = builder.build();
    const proc = ChangeRecorder.attach<number, string>(topology, joined.nodeName);
    driver = new TopologyTestDriver(topology, props);
    const step = inputs(driver);

    expect(impl(table1).sendingOldValueEnabled()).toBe(true);
    expect(impl(table2).sendingOldValueEnabled()).toBe(true);
    expect(impl(joined).sendingOldValueEnabled()).toBe(false);

    step[0]!();
    proc.checkAndClearProcessResult(kvt(0, 'X0+null', null, 5), kvt(1, 'X1+null', null, 6));
    step[1]!();
    proc.checkAndClearProcessResult(kvt(0, 'X0+Y0', null, 5), kvt(1, 'X1+Y1', null, 10));
    step[2]!();
    proc.checkAndClearProcessResult(kvt(0, 'XX0+Y0', null, 7), kvt(1, 'XX1+Y1', null, 10), kvt(2, 'XX2+null', null, 7), kvt(3, 'XX3+null', null, 7));
    step[3]!();
    proc.checkAndClearProcessResult(kvt(0, 'XX0+YY0', null, 7), kvt(1, 'XX1+YY1', null, 7), kvt(2, 'XX2+YY2', null, 10), kvt(3, 'XX3+YY3', null, 15));
    step[4]!();
    proc.checkAndClearProcessResult(kvt(0, 'XXX0+YY0', null, 6), kvt(1, 'XXX1+YY1', null, 6), kvt(2, 'XXX2+YY2', null, 10), kvt(3, 'XXX3+YY3', null, 15));
    step[5]!();
    proc.checkAndClearProcessResult(kvt(0, 'XXX0+null', null, 6), kvt(1, 'XXX1+null', null, 7));
    step[6]!();
    proc.checkAndClearProcessResult(kvt(0, 'XXXX0+null', null, 13), kvt(1, 'XXXX1+null', null, 13), kvt(2, 'XXXX2+YY2', null, 13), kvt(3, 'XXXX3+YY3', null, 15));
    step[7]!();
    proc.checkAndClearProcessResult(kvt(0, null, null, 0), kvt(1, null, null, 42), kvt(2, 'null+YY2', null, 10), kvt(3, 'null+YY3', null, 20));
  });

  /** KTableKTableOuterJoinTest.testSendingOldValue */
  it('testSendingOldValue', () => {
    const { builder, table1, table2, joined } = outerJoined();
    impl(joined).enableSendingOldValues(true);
    const topology = builder.build();
    const proc = ChangeRecorder.attach<number, string>(topology, joined.nodeName);
    driver = new TopologyTestDriver(topology, props);
    const step = inputs(driver);

    expect(impl(table1).sendingOldValueEnabled()).toBe(true);
    expect(impl(table2).sendingOldValueEnabled()).toBe(true);
    expect(impl(joined).sendingOldValueEnabled()).toBe(true);

    step[0]!();
    proc.checkAndClearProcessResult(kvt(0, 'X0+null', null, 5), kvt(1, 'X1+null', null, 6));
    step[1]!();
    proc.checkAndClearProcessResult(kvt(0, 'X0+Y0', 'X0+null', 5), kvt(1, 'X1+Y1', 'X1+null', 10));
    step[2]!();
    proc.checkAndClearProcessResult(kvt(0, 'XX0+Y0', 'X0+Y0', 7), kvt(1, 'XX1+Y1', 'X1+Y1', 10), kvt(2, 'XX2+null', null, 7), kvt(3, 'XX3+null', null, 7));
    step[3]!();
    proc.checkAndClearProcessResult(kvt(0, 'XX0+YY0', 'XX0+Y0', 7), kvt(1, 'XX1+YY1', 'XX1+Y1', 7), kvt(2, 'XX2+YY2', 'XX2+null', 10), kvt(3, 'XX3+YY3', 'XX3+null', 15));
    step[4]!();
    proc.checkAndClearProcessResult(
      kvt(0, 'XXX0+YY0', 'XX0+YY0', 6),
      kvt(1, 'XXX1+YY1', 'XX1+YY1', 6),
      kvt(2, 'XXX2+YY2', 'XX2+YY2', 10),
      kvt(3, 'XXX3+YY3', 'XX3+YY3', 15),
    );
    step[5]!();
    proc.checkAndClearProcessResult(kvt(0, 'XXX0+null', 'XXX0+YY0', 6), kvt(1, 'XXX1+null', 'XXX1+YY1', 7));
    step[6]!();
    proc.checkAndClearProcessResult(
      kvt(0, 'XXXX0+null', 'XXX0+null', 13),
      kvt(1, 'XXXX1+null', 'XXX1+null', 13),
      kvt(2, 'XXXX2+YY2', 'XXX2+YY2', 13),
      kvt(3, 'XXXX3+YY3', 'XXX3+YY3', 15),
    );
    step[7]!();
    proc.checkAndClearProcessResult(kvt(0, null, 'XXXX0+null', 0), kvt(1, null, 'XXXX1+null', 42), kvt(2, 'null+YY2', 'XXXX2+YY2', 10), kvt(3, 'null+YY3', 'XXXX3+YY3', 20));
  });

  /**
   * KTableKTableOuterJoinTest.shouldLogAndMeterSkippedRecordsDueToNullLeftKey,
   * partly: the processor run alone drops a null-key change (forwards
   * nothing); the WARN and the count come from the task's drop log.
   */
  it('shouldLogAndMeterSkippedRecordsDueToNullLeftKey (drops the record)', () => {
    const builder = new StreamsBuilder();
    const left = builder.table('left', { keySerde: S, valueSerde: S });
    const right = builder.table('right', { keySerde: S, valueSerde: S });
    const join = new KTableKTableJoinSide<string, string, string, unknown>('outer', impl(left), impl(right), null as never).get();
    const context = new MockProcessorContext<string, Change<unknown>>();
    context.addStateStore({ name: impl(right).valueGetterSupplier().storeNames()[0]!, get: () => null } as never);
    join.init(context);
    join.process(new Record(null as never, Change.of('new', 'old'), 0));
    expect(context.forwarded()).toEqual([]);
  });
});
