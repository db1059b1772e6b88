/**
 * Ported from Kafka Streams' `KTableKTableRightJoinTest` (its one case). The
 * right join is the other side of a left join (`KTableKTableJoinSide` kind
 * 'right'); its results are covered by `KTableKTableLeftJoinTest`.
 */
import { describe, expect, it } from 'vitest';
import { Serdes, StreamsBuilder } from '../../../../../src/index.js';
import { Change } from '../../../../../src/processors/dsl/change.js';
import { KTableKTableJoinSide } from '../../../../../src/processors/dsl/ktable-ktable-join.js';
import { Record } from '../../../../../src/processors/record.js';
import { MockProcessorContext } from '../../../../../src/testing.js';
import { impl } from '../../../../helpers/dsl-impl.js';

const S = Serdes.String();

describe('KTableKTableRightJoinTest', () => {
  /**
   * KTableKTableRightJoinTest.shouldLogAndMeterSkippedRecordsDueToNullLeftKeyWithBuiltInMetricsVersionLatest,
   * partly: the processor run alone drops a null-key change (forwards
   * nothing); the WARN and the count come from the task's drop log.
   */
  it('shouldLogAndMeterSkippedRecordsDueToNullLeftKeyWithBuiltInMetricsVersionLatest (drops the record)', () => {
    const builder = new StreamsBuilder();
    const left = builder.table('left', { keySerde: S, valueSerde: S });
    const right = builder.table('right', { keySerde: S, valueSerde: S });
    const join = new KTableKTableJoinSide<string, string, string, unknown>('right', impl(left), impl(right), null as never).get();
    const context = new MockProcessorContext<string, Change<unknown>>();
    context.addStateStore({ name: impl(right).valueGetterSupplier().storeNames()[0]!, get: () => null } as never);
    join.init(context);
    join.process(new Record(null as never, Change.of('new', 'old'), 0));
    expect(context.forwarded()).toEqual([]);
  });
});

