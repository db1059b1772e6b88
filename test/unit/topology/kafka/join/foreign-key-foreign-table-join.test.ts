/**
 * Port of Kafka's `ForeignTableJoinProcessorSupplierTests`: a right-table
 * change fans out to every subscription of its key (a prefix scan of the
 * subscription store, which must not match longer foreign keys sharing the
 * prefix). The store is a small in-memory fake with the store's prefixScan
 * (byte order, as the real stores; the driver ports run the real ones).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { Change } from '../../../../../src/processors/dsl/change.js';
import { CombinedKeySchema } from '../../../../../src/processors/dsl/foreign-key/combined-key.js';
import { foreignTableJoinSupplier } from '../../../../../src/processors/dsl/foreign-key/foreign-table-join.js';
import type { Hash128 } from '../../../../../src/processors/dsl/foreign-key/murmur3.js';
import { responseWrapper, type SubscriptionResponseWrapper } from '../../../../../src/processors/dsl/foreign-key/subscription-response-wrapper.js';
import { Instruction, subscriptionWrapper, type SubscriptionWrapper } from '../../../../../src/processors/dsl/foreign-key/subscription-wrapper.js';
import type { ProcessorContext } from '../../../../../src/processors/processor.js';
import { Record } from '../../../../../src/processors/record.js';
import type { ValueAndTimestamp } from '../../../../../src/state/value-and-timestamp.js';
import type { Serializer } from '../../../../../src/serdes/serde.js';
import { Serdes } from '../../../../../src/serdes/serdes.js';

const COMBINED_KEY_SCHEMA = new CombinedKeySchema(Serdes.String(), 'fk-topic', Serdes.String(), 'pk-topic');
const hash: Hash128 = [1n, 2n];
const [pk1, pk2, fk1] = ['pk1', 'pk2', 'fk1'];

type Entry = { key: Buffer; value: ValueAndTimestamp<SubscriptionWrapper<string>> };

let entries: Entry[];
let forwarded: Array<Record<string, SubscriptionResponseWrapper<string>>>;
let dropped: number;
let processor: ReturnType<ReturnType<typeof foreignTableJoinSupplier<string, string, string>>>;

beforeEach(() => {
  entries = [];
  forwarded = [];
  dropped = 0;
  const store = {
    name: 'Store',
    prefixScan: (prefix: Buffer, serializer: Serializer<Buffer>) => {
      const bytes = serializer.serialize('', prefix)!;
      return entries.filter((e) => e.key.subarray(0, bytes.length).equals(bytes)).sort((a, b) => Buffer.compare(a.key, b.key));
    },
  };
  const context = {
    taskId: { subtopology: 0, partition: 0 },
    getStateStore: (name: string) => (name === 'Store' ? store : undefined),
    forward: (record: Record<string, SubscriptionResponseWrapper<string>>) => void forwarded.push(record),
    recordMetadata: () => ({ topic: 'topic', partition: 0, offset: 0 }),
    recordDropped: () => void dropped++,
  };
  processor = foreignTableJoinSupplier<string, string, string>('Store', COMBINED_KEY_SCHEMA)();
  processor.init?.(context as unknown as ProcessorContext<string, SubscriptionResponseWrapper<string>>);
});

/** Kafka's putInStore: a version-0 subscription of `pk` to `fk`. */
function putInStore(fk: string, pk: string): void {
  entries.push({ key: COMBINED_KEY_SCHEMA.toBytes(fk, pk), value: { value: subscriptionWrapper(hash, Instruction.PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE, pk, null, 0), timestamp: 0 } });
}

const process = (key: string | null, newValue: string | null, oldValue: string | null) => void processor.process(new Record(key as string, Change.of(newValue, oldValue), 0));

describe('ForeignTableJoinProcessorSupplierTests', () => {
  // ForeignTableJoinProcessorSupplierTests.shouldPropagateRightRecordForEachMatchingPrimaryKey
  it('shouldPropagateRightRecordForEachMatchingPrimaryKey', () => {
    putInStore(fk1, pk1);
    putInStore(fk1, pk2);
    process(fk1, 'new_value', null);
    expect(forwarded).toEqual([new Record(pk1, responseWrapper(hash, 'new_value', null), 0), new Record(pk2, responseWrapper(hash, 'new_value', null), 0)]);
  });

  // ForeignTableJoinProcessorSupplierTests.shouldPropagateNothingIfNoMatchingPrimaryKey
  it('shouldPropagateNothingIfNoMatchingPrimaryKey', () => {
    putInStore(fk1, pk1);
    process('fk2', 'new_value', null);
    expect(forwarded).toEqual([]);
  });

  // ForeignTableJoinProcessorSupplierTests.shouldPropagateTombstoneRightRecordForEachMatchingPrimaryKey
  it('shouldPropagateTombstoneRightRecordForEachMatchingPrimaryKey', () => {
    putInStore(fk1, pk1);
    putInStore(fk1, pk2);
    process(fk1, null, 'new_value');
    expect(forwarded).toEqual([new Record(pk1, responseWrapper(hash, null, null), 0), new Record(pk2, responseWrapper(hash, null, null), 0)]);
  });

  // ForeignTableJoinProcessorSupplierTests.shouldNotMatchForeignKeysHavingThisFKAsPrefix
  it('shouldNotMatchForeignKeysHavingThisFKAsPrefix', () => {
    putInStore(fk1, pk1);
    putInStore('fk', pk2);
    process('fk', 'new_value', null);
    expect(forwarded).toEqual([new Record(pk2, responseWrapper(hash, 'new_value', null), 0)]);
  });

  // ForeignTableJoinProcessorSupplierTests.shouldIgnoreRecordWithNullKey
  it('shouldIgnoreRecordWithNullKey', () => {
    putInStore(fk1, pk1);
    process(null, 'new_value', null);
    expect(forwarded).toEqual([]);
    // test dropped-records sensors
    expect(dropped).toBe(1);
  });
});
