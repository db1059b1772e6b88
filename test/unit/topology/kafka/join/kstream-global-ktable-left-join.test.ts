/**
 * Ported from Kafka Streams' `KStreamGlobalKTableLeftJoinTest` (inputs and
 * expected results unchanged): the KStream–GlobalKTable left join. The
 * stream value is `X<i>,FKey<i>` (the second token names the global-table
 * row); every stream record with a selected key is kept (`+null` without a row);
 * updates of the global table produce nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Serdes, StreamsBuilder } from '../../../../../src/index.js';
import { TopologyTestDriver, type TestInputTopic } from '../../../../../src/testing.js';
import { planOf } from '../../../../../src/topology/topology.js';
import { CapturingProcessor, kvt, TOSTRING_JOINER } from '../../../../helpers/ktable/global-join-capture.js';

const streamTopic = 'streamTopic';
const globalTableTopic = 'globalTableTopic';
const expectedKeys = [0, 1, 2, 3];
const I = Serdes.Int32();
const S = Serdes.String();

let builder: StreamsBuilder;
let driver: TopologyTestDriver;
let processor: CapturingProcessor<number, string>;
let inputStreamTopic: TestInputTopic<number, string>;
let inputTableTopic: TestInputTopic<string, string>;

beforeEach(() => {
  builder = new StreamsBuilder();
  const stream = builder.stream(streamTopic, { keySerde: I, valueSerde: S });
  const table = builder.globalTable(globalTableTopic, { keySerde: S, valueSerde: S });
  const keyMapper = (_key: number, value: string): string => {
    const tokens = value.split(',');
    // Value is comma delimited. If second token is present, it's the key to the global ktable.
    return (tokens.length > 1 ? tokens[1] : null) as string;
  };
  processor = new CapturingProcessor<number, string>();
  stream.leftJoin(table, keyMapper, TOSTRING_JOINER).process(processor.supplier);
  driver = new TopologyTestDriver(builder.build(), { defaultKeySerde: I, defaultValueSerde: S });
  // auto-advance stream timestamps by default, but not global table timestamps
  inputStreamTopic = driver.createInputTopic(streamTopic, I, S, { startTimestampMs: 0, autoAdvanceMs: 1 });
  inputTableTopic = driver.createInputTopic(globalTableTopic, S, S);
});

afterEach(() => driver.close());

function pushToStream(messageCount: number, valuePrefix: string, includeForeignKey: boolean, includeNullKey: boolean): void {
  for (let i = 0; i < messageCount; i++) {
    let value = `${valuePrefix}${expectedKeys[i]}`;
    if (includeForeignKey) value = `${value},FKey${expectedKeys[i]}`;
    const key = includeNullKey && i === 0 ? null : (expectedKeys[i] as number);
    inputStreamTopic.pipeInput(key, value);
  }
}

function pushToGlobalTable(messageCount: number, valuePrefix: string): void {
  for (let i = 0; i < messageCount; i++) inputTableTopic.pipeInput(`FKey${expectedKeys[i]}`, `${valuePrefix}${expectedKeys[i]}`);
}

function pushNullValueToGlobalTable(messageCount: number): void {
  for (let i = 0; i < messageCount; i++) inputTableTopic.pipeInput(`FKey${expectedKeys[i]}`, null);
}

describe('KStreamGlobalKTableLeftJoinTest', () => {
  // KStreamGlobalKTableLeftJoinTest.shouldNotRequireCopartitioning
  it('shouldNotRequireCopartitioning', () => {
    const plan = planOf(builder.build());
    expect(plan.subtopologies.flatMap((s) => s.sourceTopics)).toEqual([streamTopic]);
    expect(plan.globalStores?.map((g) => g.topic)).toEqual([globalTableTopic]);
  });

  // KStreamGlobalKTableLeftJoinTest.shouldNotJoinWithEmptyGlobalTableOnStreamUpdates
  it('shouldNotJoinWithEmptyGlobalTableOnStreamUpdates', () => {
    pushToStream(2, 'X', true, false);
    processor.checkAndClearProcessResult(kvt(0, 'X0,FKey0+null', 0), kvt(1, 'X1,FKey1+null', 1));
  });

  // KStreamGlobalKTableLeftJoinTest.shouldNotJoinOnGlobalTableUpdates
  it('shouldNotJoinOnGlobalTableUpdates', () => {
    pushToStream(2, 'X', true, false);
    processor.checkAndClearProcessResult(kvt(0, 'X0,FKey0+null', 0), kvt(1, 'X1,FKey1+null', 1));
    pushToGlobalTable(2, 'Y');
    processor.checkAndClearProcessResult();
    pushToStream(4, 'X', true, false);
    processor.checkAndClearProcessResult(kvt(0, 'X0,FKey0+Y0', 2), kvt(1, 'X1,FKey1+Y1', 3), kvt(2, 'X2,FKey2+null', 4), kvt(3, 'X3,FKey3+null', 5));
    pushToGlobalTable(4, 'YY');
    processor.checkAndClearProcessResult();
    pushToStream(4, 'X', true, false);
    processor.checkAndClearProcessResult(kvt(0, 'X0,FKey0+YY0', 6), kvt(1, 'X1,FKey1+YY1', 7), kvt(2, 'X2,FKey2+YY2', 8), kvt(3, 'X3,FKey3+YY3', 9));
    pushToGlobalTable(4, 'YYY');
    processor.checkAndClearProcessResult();
  });

  // KStreamGlobalKTableLeftJoinTest.shouldJoinRegardlessIfMatchFoundOnStreamUpdates
  it('shouldJoinRegardlessIfMatchFoundOnStreamUpdates', () => {
    pushToGlobalTable(2, 'Y');
    processor.checkAndClearProcessResult();
    pushToStream(4, 'X', true, false);
    processor.checkAndClearProcessResult(kvt(0, 'X0,FKey0+Y0', 0), kvt(1, 'X1,FKey1+Y1', 1), kvt(2, 'X2,FKey2+null', 2), kvt(3, 'X3,FKey3+null', 3));
  });

  // KStreamGlobalKTableLeftJoinTest.shouldClearGlobalTableEntryOnNullValueUpdates
  it('shouldClearGlobalTableEntryOnNullValueUpdates', () => {
    pushToGlobalTable(4, 'Y');
    processor.checkAndClearProcessResult();
    pushToStream(4, 'X', true, false);
    processor.checkAndClearProcessResult(kvt(0, 'X0,FKey0+Y0', 0), kvt(1, 'X1,FKey1+Y1', 1), kvt(2, 'X2,FKey2+Y2', 2), kvt(3, 'X3,FKey3+Y3', 3));
    pushNullValueToGlobalTable(2);
    processor.checkAndClearProcessResult();
    pushToStream(4, 'XX', true, false);
    processor.checkAndClearProcessResult(kvt(0, 'XX0,FKey0+null', 4), kvt(1, 'XX1,FKey1+null', 5), kvt(2, 'XX2,FKey2+Y2', 6), kvt(3, 'XX3,FKey3+Y3', 7));
  });

  // KStreamGlobalKTableLeftJoinTest.shouldNotJoinOnNullKeyMapperValues
  it('shouldNotJoinOnNullKeyMapperValues', () => {
    pushToGlobalTable(4, 'Y');
    processor.checkAndClearProcessResult();
    pushToStream(4, 'XXX', false, false);
    processor.checkAndClearProcessResult();
  });

  // KStreamGlobalKTableLeftJoinTest.shouldJoinOnNullKeyWithNonNullKeyMapperValues
  it('shouldJoinOnNullKeyWithNonNullKeyMapperValues', () => {
    pushToGlobalTable(4, 'Y');
    processor.checkAndClearProcessResult();
    pushToStream(4, 'X', true, true);
    processor.checkAndClearProcessResult(kvt<number, string>(null, 'X0,FKey0+Y0', 0), kvt(1, 'X1,FKey1+Y1', 1), kvt(2, 'X2,FKey2+Y2', 2), kvt(3, 'X3,FKey3+Y3', 3));
  });
});
