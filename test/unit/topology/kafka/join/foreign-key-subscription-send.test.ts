/**
 * Port of Kafka's `SubscriptionSendProcessorSupplierTest`: the instructions
 * the left side of a foreign-key join sends for each kind of change, inner
 * and left join. Kafka's `MockInternalNewProcessorContext` is a small fake
 * here (forwards captured, record metadata topic/0/0, dropped records counted).
 */
import { describe, expect, it } from 'vitest';
import { Change } from '../../../../../src/processors/dsl/change.js';
import { hash128 } from '../../../../../src/processors/dsl/foreign-key/murmur3.js';
import { subscriptionSendSupplier } from '../../../../../src/processors/dsl/foreign-key/subscription-send.js';
import { Instruction, subscriptionWrapper, type SubscriptionWrapper } from '../../../../../src/processors/dsl/foreign-key/subscription-wrapper.js';
import type { ProcessorContext } from '../../../../../src/processors/processor.js';
import { Record } from '../../../../../src/processors/record.js';
import type { Serializer } from '../../../../../src/serdes/serde.js';
import { Serdes } from '../../../../../src/serdes/serdes.js';

const { DELETE_KEY_AND_PROPAGATE, DELETE_KEY_NO_PROPAGATE, PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE, PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE } = Instruction;

/** Kafka's LeftValue: a value holding its foreign key (possibly null). */
class LeftValue {
  constructor(readonly foreignKey: string | null) {}
}

/** Kafka's LeftValueSerializer. */
const leftValueSerializer: Serializer<LeftValue> = {
  serialize: (topic, data) => (data === null ? null : data.foreignKey === null ? Buffer.from('null') : Serdes.String().serialize(topic, data.foreignKey)),
};

const hash = (value: LeftValue) => hash128(leftValueSerializer.serialize('value-serde-topic', value)!);

function processor(leftJoin: boolean) {
  return subscriptionSendSupplier<string, LeftValue, string>({
    extractor: (value) => value.foreignKey,
    foreignKeySerializer: Serdes.String(),
    foreignKeyTopic: 'subscription-topic-fk',
    valueSerializer: leftValueSerializer,
    valueHashTopic: 'value-serde-topic',
    leftJoin,
  })();
}

/** Kafka's MockInternalNewProcessorContext with `setRecordMetadata("topic", 0, 0)`. */
function context() {
  const forwarded: Array<Record<string | null, SubscriptionWrapper<string>>> = [];
  let dropped = 0;
  const ctx = {
    taskId: { subtopology: 0, partition: 0 },
    processorName: 'send',
    forward: (record: Record<string | null, SubscriptionWrapper<string>>) => void forwarded.push(record),
    recordMetadata: () => ({ topic: 'topic', partition: 0, offset: 0 }),
    recordDropped: () => void dropped++,
  };
  return { ctx: ctx as unknown as ProcessorContext<string | null, SubscriptionWrapper<string>>, forwarded, dropped: () => dropped };
}

const pk = 'pk';
const fk1 = 'fk1';
const fk2 = 'fk2';

function run(leftJoin: boolean, newValue: LeftValue | null, oldValue: LeftValue | null) {
  const p = processor(leftJoin);
  const c = context();
  p.init?.(c.ctx);
  void p.process(new Record(pk, Change.of(newValue, oldValue), 0));
  return c;
}

const expectRecord = (record: Record<string | null, SubscriptionWrapper<string>> | undefined, key: string | null, value: LeftValue | null, instruction: Instruction) => {
  expect(record?.key).toBe(key);
  expect(record?.value).toEqual(subscriptionWrapper(value === null ? null : hash(value), instruction, pk, 0));
  expect(record?.timestamp).toBe(0);
};

describe('SubscriptionSendProcessorSupplierTest', () => {
  // Left join tests

  // SubscriptionSendProcessorSupplierTest.leftJoinShouldPropagateNewPrimaryKeyWithNonNullFK
  it('leftJoinShouldPropagateNewPrimaryKeyWithNonNullFK', () => {
    const leftRecordValue = new LeftValue(fk1);
    const { forwarded } = run(true, leftRecordValue, null);
    expect(forwarded).toHaveLength(1);
    expectRecord(forwarded[0], fk1, leftRecordValue, PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE);
  });

  // SubscriptionSendProcessorSupplierTest.leftJoinShouldPropagateNewPrimaryKeyWithNullFK
  it('leftJoinShouldPropagateNewPrimaryKeyWithNullFK', () => {
    const leftRecordValue = new LeftValue(null);
    const { forwarded } = run(true, leftRecordValue, null);
    expect(forwarded).toHaveLength(1);
    expectRecord(forwarded[0], null, leftRecordValue, PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE);
  });

  // SubscriptionSendProcessorSupplierTest.leftJoinShouldPropagateChangeOfFKFromNonNullToNonNullValue
  it('leftJoinShouldPropagateChangeOfFKFromNonNullToNonNullValue', () => {
    const leftRecordValue = new LeftValue(fk2);
    const { forwarded } = run(true, leftRecordValue, new LeftValue(fk1));
    expect(forwarded).toHaveLength(2);
    expectRecord(forwarded[1], fk2, leftRecordValue, PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE);
  });

  // sluice-specific (Kafka forwards DELETE_KEY_AND_PROPAGATE here): the old key's null answer raced the new
  // key's answer on a real cluster and could land last (test/contract/foreign-key-join-integration.test.ts)
  it('leftJoin, change of FK from non-null to non-null: the old key unsubscribes without propagating', () => {
    const leftRecordValue = new LeftValue(fk2);
    const { forwarded } = run(true, leftRecordValue, new LeftValue(fk1));
    expect(forwarded).toHaveLength(2);
    expectRecord(forwarded[0], fk1, leftRecordValue, DELETE_KEY_NO_PROPAGATE);
  });

  // SubscriptionSendProcessorSupplierTest.leftJoinShouldPropagateNewRecordOfUnchangedFK
  it('leftJoinShouldPropagateNewRecordOfUnchangedFK', () => {
    const leftRecordValue = new LeftValue(fk1);
    const { forwarded } = run(true, leftRecordValue, leftRecordValue);
    expect(forwarded).toHaveLength(1);
    expectRecord(forwarded[0], fk1, leftRecordValue, PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE);
  });

  // SubscriptionSendProcessorSupplierTest.leftJoinShouldPropagateChangeOfFKFromNonNullToNullValue
  it('leftJoinShouldPropagateChangeOfFKFromNonNullToNullValue', () => {
    const leftRecordValue = new LeftValue(null);
    const { forwarded } = run(true, leftRecordValue, new LeftValue(fk1));
    expect(forwarded.length).toBeGreaterThan(0);
    expectRecord(forwarded[0], fk1, leftRecordValue, DELETE_KEY_AND_PROPAGATE);
  });

  // SubscriptionSendProcessorSupplierTest.leftJoinShouldPropagateChangeFromNullFKToNonNullFKValue
  it('leftJoinShouldPropagateChangeFromNullFKToNonNullFKValue', () => {
    const leftRecordValue = new LeftValue(fk1);
    const { forwarded } = run(true, leftRecordValue, new LeftValue(null));
    expect(forwarded).toHaveLength(1);
    expectRecord(forwarded[0], fk1, leftRecordValue, PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE);
  });

  // SubscriptionSendProcessorSupplierTest.leftJoinShouldPropagateChangeFromNullFKToNullFKValue
  it('leftJoinShouldPropagateChangeFromNullFKToNullFKValue', () => {
    const leftRecordValue = new LeftValue(null);
    const { forwarded } = run(true, leftRecordValue, leftRecordValue);
    expect(forwarded).toHaveLength(1);
    expectRecord(forwarded[0], null, leftRecordValue, PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE);
  });

  // SubscriptionSendProcessorSupplierTest.leftJoinShouldPropagateDeletionOfAPrimaryKey
  it('leftJoinShouldPropagateDeletionOfAPrimaryKey', () => {
    const { forwarded } = run(true, null, new LeftValue(fk1));
    expect(forwarded.length).toBeGreaterThan(0);
    expectRecord(forwarded[0], fk1, null, DELETE_KEY_AND_PROPAGATE);
  });

  // SubscriptionSendProcessorSupplierTest.leftJoinShouldPropagateDeletionOfAPrimaryKeyThatHadNullFK
  it('leftJoinShouldPropagateDeletionOfAPrimaryKeyThatHadNullFK', () => {
    const { forwarded } = run(true, null, new LeftValue(null));
    expect(forwarded).toHaveLength(1);
    expectRecord(forwarded[0], null, null, PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE);
  });

  // SubscriptionSendProcessorSupplierTest.leftJoinShouldPropagateNothingWhenOldAndNewLeftValueIsNull
  it('leftJoinShouldPropagateNothingWhenOldAndNewLeftValueIsNull', () => {
    expect(run(true, null, null).forwarded).toEqual([]);
  });

  // Inner join tests

  // SubscriptionSendProcessorSupplierTest.innerJoinShouldPropagateNewPrimaryKey
  it('innerJoinShouldPropagateNewPrimaryKey', () => {
    const leftRecordValue = new LeftValue(fk1);
    const { forwarded } = run(false, leftRecordValue, null);
    expect(forwarded).toHaveLength(1);
    expectRecord(forwarded[0], fk1, leftRecordValue, PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE);
  });

  // SubscriptionSendProcessorSupplierTest.innerJoinShouldNotPropagateNewPrimaryKeyWithNullFK
  it('innerJoinShouldNotPropagateNewPrimaryKeyWithNullFK', () => {
    const { forwarded, dropped } = run(false, new LeftValue(null), null);
    expect(forwarded).toEqual([]);
    // test dropped-records sensors
    expect(dropped()).toBe(1);
  });

  // SubscriptionSendProcessorSupplierTest.innerJoinShouldDeleteOldAndPropagateNewFK
  it('innerJoinShouldDeleteOldAndPropagateNewFK', () => {
    const leftRecordValue = new LeftValue(fk2);
    const { forwarded } = run(false, leftRecordValue, new LeftValue(fk1));
    expect(forwarded).toHaveLength(2);
    expectRecord(forwarded[0], fk1, leftRecordValue, DELETE_KEY_NO_PROPAGATE);
    expectRecord(forwarded[1], fk2, leftRecordValue, PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE);
  });

  // SubscriptionSendProcessorSupplierTest.innerJoinShouldPropagateNothingWhenOldAndNewFKIsNull
  it('innerJoinShouldPropagateNothingWhenOldAndNewFKIsNull', () => {
    const leftRecordValue = new LeftValue(null);
    const { forwarded, dropped } = run(false, leftRecordValue, leftRecordValue);
    expect(forwarded).toEqual([]);
    // test dropped-records sensors
    expect(dropped()).toBe(1);
  });

  // SubscriptionSendProcessorSupplierTest.innerJoinShouldPropagateDeletionOfPrimaryKey
  it('innerJoinShouldPropagateDeletionOfPrimaryKey', () => {
    const { forwarded } = run(false, null, new LeftValue(fk1));
    expect(forwarded).toHaveLength(1);
    expectRecord(forwarded[0], fk1, null, DELETE_KEY_AND_PROPAGATE);
  });

  // SubscriptionSendProcessorSupplierTest.innerJoinShouldPropagateNothingWhenOldAndNewLeftValueIsNull
  it('innerJoinShouldPropagateNothingWhenOldAndNewLeftValueIsNull', () => {
    expect(run(false, null, null).forwarded).toEqual([]);
  });
});
