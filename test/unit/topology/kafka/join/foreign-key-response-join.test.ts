/**
 * Port of Kafka's `ResponseJoinProcessorSupplierTest`: the end of a
 * foreign-key join drops a response whose hash is not the current left
 * value's, else joins (tombstones for an inner join without a right value).
 */
import { describe, expect, it } from 'vitest';
import type { KTableValueGetterSupplier } from '../../../../../src/processors/dsl/ktable-contract.js';
import { hash128, type Hash128 } from '../../../../../src/processors/dsl/foreign-key/murmur3.js';
import { responseJoinSupplier } from '../../../../../src/processors/dsl/foreign-key/response-join.js';
import { responseWrapper } from '../../../../../src/processors/dsl/foreign-key/subscription-response-wrapper.js';
import type { ProcessorContext } from '../../../../../src/processors/processor.js';
import { Record } from '../../../../../src/processors/record.js';
import { Serdes } from '../../../../../src/serdes/serdes.js';

const STRING_SERIALIZER = Serdes.String();
const JOINER = (value1: string | null, value2: string | null): string => `(${value1},${value2})`;

/** Kafka's TestKTableValueGetterSupplier: a map (a null value reads as no row). */
function testValueGetterSupplier() {
  const map = new Map<string, string | null>();
  const supplier: KTableValueGetterSupplier<string, string> = {
    get: () => ({
      init: () => undefined,
      get: (key) => {
        const value = map.get(key) ?? null;
        return value === null ? null : { value, timestamp: -1 };
      },
    }),
    storeNames: () => [],
  };
  return { supplier, put: (key: string, value: string | null) => void map.set(key, value) };
}

function setup(leftJoin: boolean) {
  const values = testValueGetterSupplier();
  const processor = responseJoinSupplier<string, string, string, string>({ values: values.supplier, valueSerializer: STRING_SERIALIZER, valueHashTopic: 'value-hash-dummy-topic', joiner: JOINER, leftJoin })();
  const forwarded: Array<Record<string, string | null>> = [];
  let dropped = 0;
  const context = {
    taskId: { subtopology: 0, partition: 0 },
    forward: (record: Record<string, string | null>) => void forwarded.push(record),
    recordMetadata: () => ({ topic: 'topic', partition: 0, offset: 0 }),
    recordDropped: () => void dropped++,
  };
  processor.init?.(context as unknown as ProcessorContext<string, string | null>);
  const process = (hash: Hash128 | null, foreignValue: string | null) => void processor.process(new Record('lhs1', responseWrapper(hash, foreignValue, 0), 0));
  return { put: values.put, process, forwarded, dropped: () => dropped };
}

const hashOf = (value: string) => hash128(STRING_SERIALIZER.serialize('topic-join-resolver', value)!);

describe('ResponseJoinProcessorSupplierTest', () => {
  // ResponseJoinProcessorSupplierTest.shouldNotForwardWhenHashDoesNotMatch
  it('shouldNotForwardWhenHashDoesNotMatch', () => {
    const t = setup(false);
    t.put('lhs1', 'lhsValue');
    t.process(hashOf('oldLhsValue'), 'rhsValue');
    expect(t.forwarded).toEqual([]);
    // test dropped-records sensors
    expect(t.dropped()).toBe(1);
  });

  // ResponseJoinProcessorSupplierTest.shouldIgnoreUpdateWhenLeftHasBecomeNull
  it('shouldIgnoreUpdateWhenLeftHasBecomeNull', () => {
    const t = setup(false);
    t.put('lhs1', null);
    t.process(hashOf('lhsValue'), 'rhsValue');
    expect(t.forwarded).toEqual([]);
    expect(t.dropped()).toBe(1);
  });

  // ResponseJoinProcessorSupplierTest.shouldForwardWhenHashMatches
  it('shouldForwardWhenHashMatches', () => {
    const t = setup(false);
    t.put('lhs1', 'lhsValue');
    t.process(hashOf('lhsValue'), 'rhsValue');
    expect(t.forwarded).toEqual([new Record('lhs1', '(lhsValue,rhsValue)', 0)]);
  });

  // ResponseJoinProcessorSupplierTest.shouldEmitTombstoneForInnerJoinWhenRightIsNull
  it('shouldEmitTombstoneForInnerJoinWhenRightIsNull', () => {
    const t = setup(false);
    t.put('lhs1', 'lhsValue');
    t.process(hashOf('lhsValue'), null);
    expect(t.forwarded).toEqual([new Record('lhs1', null, 0)]);
  });

  // ResponseJoinProcessorSupplierTest.shouldEmitResultForLeftJoinWhenRightIsNull
  it('shouldEmitResultForLeftJoinWhenRightIsNull', () => {
    const t = setup(true);
    t.put('lhs1', 'lhsValue');
    t.process(hashOf('lhsValue'), null);
    expect(t.forwarded).toEqual([new Record('lhs1', '(lhsValue,null)', 0)]);
  });

  // ResponseJoinProcessorSupplierTest.shouldEmitTombstoneForLeftJoinWhenRightIsNullAndLeftIsNull
  it('shouldEmitTombstoneForLeftJoinWhenRightIsNullAndLeftIsNull', () => {
    const t = setup(true);
    t.put('lhs1', null);
    t.process(null, null);
    expect(t.forwarded).toEqual([new Record('lhs1', null, 0)]);
  });
});
