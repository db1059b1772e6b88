/**
 * Ports of Kafka's `SubscriptionWrapperSerdeTest`, `SubscriptionResponseWrapperSerdeTest`
 * and `CombinedKeySchemaTest` (the byte formats of a foreign-key join's
 * internal topics and subscription store). Kafka's NullPointerException /
 * UnsupportedVersionException are sluice's IllegalArgumentError (a bad
 * wrapper) and SerializationError (bytes that cannot be written or read).
 * `shouldSerdeWithV0IfUpgradeTest` is not ported: sluice has no `upgrade.from`.
 */
import { describe, expect, it } from 'vitest';
import { IllegalArgumentError, SerializationError } from '../../../../../src/errors.js';
import { CombinedKeySchema } from '../../../../../src/processors/dsl/foreign-key/combined-key.js';
import { hash128 } from '../../../../../src/processors/dsl/foreign-key/murmur3.js';
import { responseWrapper, responseWrapperSerde, type SubscriptionResponseWrapper } from '../../../../../src/processors/dsl/foreign-key/subscription-response-wrapper.js';
import { Instruction, subscriptionWrapper, subscriptionWrapperSerde, type SubscriptionWrapper } from '../../../../../src/processors/dsl/foreign-key/subscription-wrapper.js';
import { Serdes } from '../../../../../src/serdes/serdes.js';
import type { Serde } from '../../../../../src/serdes/serde.js';

const S = Serdes.String();
const hashedValue = hash128(Buffer.from([0xff, 0xaa, 0x00, 0x19]));

describe('SubscriptionWrapperSerdeTest', () => {
  const swSerde = subscriptionWrapperSerde(S, 'pkTopic');
  const roundTrip = (wrapper: SubscriptionWrapper<string>) => swSerde.deserialize('ignored', swSerde.serialize('ignored', wrapper));
  const cases: Array<[string, 0 | 1, typeof hashedValue | null, Instruction, number | null]> = [
    // SubscriptionWrapperSerdeTest.shouldSerdeV0Test
    ['shouldSerdeV0Test', 0, hashedValue, Instruction.DELETE_KEY_AND_PROPAGATE, null],
    // SubscriptionWrapperSerdeTest.shouldSerdeV1Test
    ['shouldSerdeV1Test', 1, hashedValue, Instruction.DELETE_KEY_AND_PROPAGATE, 10],
    // SubscriptionWrapperSerdeTest.shouldSerdeNullHashV0Test
    ['shouldSerdeNullHashV0Test', 0, null, Instruction.PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE, null],
    // SubscriptionWrapperSerdeTest.shouldSerdeNullHashV1Test
    ['shouldSerdeNullHashV1Test', 1, null, Instruction.PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE, 10],
    // SubscriptionWrapperSerdeTest.shouldSerdeNullPrimaryPartitionOnV0Test
    ['shouldSerdeNullPrimaryPartitionOnV0Test', 0, hashedValue, Instruction.PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE, null],
  ];
  for (const [name, version, hash, instruction, primaryPartition] of cases) {
    it(name, () => {
      const deserialized = roundTrip(subscriptionWrapper(hash, instruction, 'originalKey', primaryPartition, version));
      expect(deserialized.instruction).toBe(instruction);
      expect(deserialized.hash).toEqual(hash);
      expect(deserialized.primaryKey).toBe('originalKey');
      expect(deserialized.primaryPartition).toBe(primaryPartition);
      expect(deserialized.version).toBe(version);
    });
  }

  it("the bytes are Kafka's: {isHashNull|version}{instruction}{hash}{pk}{partition}", () => {
    const bytes = swSerde.serialize('t', subscriptionWrapper(null, Instruction.PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE, 'pk', 7))!;
    expect(bytes.toString('hex')).toBe(`8102${Buffer.from('pk').toString('hex')}00000007`);
    const hashed = swSerde.serialize('t', subscriptionWrapper(hashedValue, Instruction.DELETE_KEY_NO_PROPAGATE, 'pk', 7))!;
    expect(hashed.subarray(0, 2).toString('hex')).toBe('0100');
    expect(hashed.readBigInt64BE(2)).toBe(hashedValue[0]);
    expect(hashed.readBigInt64BE(10)).toBe(hashedValue[1]);
  });

  // SubscriptionWrapperSerdeTest.shouldThrowExceptionOnNullKeyV0Test / shouldThrowExceptionOnNullKeyV1Test
  it('shouldThrowExceptionOnNullKeyV0Test / V1', () => {
    for (const version of [0, 1]) expect(() => subscriptionWrapper(hashedValue, Instruction.PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE, null, 10, version)).toThrow(IllegalArgumentError);
  });

  // SubscriptionWrapperSerdeTest.shouldThrowExceptionOnNullInstructionV0Test / shouldThrowExceptionOnNullInstructionV1Test
  it('shouldThrowExceptionOnNullInstructionV0Test / V1', () => {
    for (const version of [0, 1]) expect(() => subscriptionWrapper(hashedValue, null as unknown as Instruction, 'originalKey', 10, version)).toThrow(IllegalArgumentError);
  });

  // SubscriptionWrapperSerdeTest.shouldThrowExceptionOnNullPrimaryPartitionV1Test
  it('shouldThrowExceptionOnNullPrimaryPartitionV1Test', () => {
    const wrapper = subscriptionWrapper(hashedValue, Instruction.PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE, 'originalKey', null, 1);
    expect(() => swSerde.serialize('ignored', wrapper)).toThrow(SerializationError);
  });

  // SubscriptionWrapperSerdeTest.shouldThrowExceptionOnUnsupportedVersionTest
  it('shouldThrowExceptionOnUnsupportedVersionTest', () => {
    expect(() => subscriptionWrapper(null, Instruction.PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE, 'originalKey', 10, 0x80)).toThrow(IllegalArgumentError);
  });

  it('an unknown instruction byte or a newer version is a SerializationError naming it', () => {
    expect(() => swSerde.deserialize('t', Buffer.from([0x81, 0x09, 0x61]))).toThrow('Unknown instruction byte value = 9');
    expect(() => swSerde.deserialize('t', Buffer.from([0x82, 0x01, 0x61, 0, 0, 0, 0]))).toThrow('does not support version 2');
  });
});

/** Kafka's NonNullableSerde: its delegate never sees a null. */
function nonNullable<T>(delegate: Serde<T>): Serde<T> {
  return {
    serialize: (topic, data) => {
      if (data === null) throw new TypeError('null');
      return delegate.serialize(topic, data);
    },
    deserialize: (topic, data) => {
      if (data === null) throw new TypeError('null');
      return delegate.deserialize(topic, data);
    },
  };
}

describe('SubscriptionResponseWrapperSerdeTest', () => {
  const srwSerde = responseWrapperSerde(nonNullable(S));
  const roundTrip = (srw: SubscriptionResponseWrapper<string>) => srwSerde.deserialize('ignored', srwSerde.serialize('ignored', srw));
  const hash = hash128(Buffer.from([0x01, 0x9a, 0xff, 0x00]));
  const cases: Array<[string, typeof hash | null, string | null]> = [
    // SubscriptionResponseWrapperSerdeTest.ShouldSerdeWithNonNullsTest
    ['ShouldSerdeWithNonNullsTest', hash, 'foreignValue'],
    // SubscriptionResponseWrapperSerdeTest.shouldSerdeWithNullForeignValueTest
    ['shouldSerdeWithNullForeignValueTest', hash, null],
    // SubscriptionResponseWrapperSerdeTest.shouldSerdeWithNullHashTest
    ['shouldSerdeWithNullHashTest', null, 'foreignValue'],
    // SubscriptionResponseWrapperSerdeTest.shouldSerdeWithNullsTest
    ['shouldSerdeWithNullsTest', null, null],
  ];
  for (const [name, hashed, foreignValue] of cases) {
    it(name, () => {
      const result = roundTrip(responseWrapper(hashed, foreignValue, 1));
      expect(result.originalValueHash).toEqual(hashed);
      expect(result.foreignValue).toBe(foreignValue);
      expect(result.primaryPartition).toBeNull();
    });
  }

  // SubscriptionResponseWrapperSerdeTest.shouldThrowExceptionWithBadVersionTest
  it('shouldThrowExceptionWithBadVersionTest', () => {
    expect(() => responseWrapper(null, 'foreignValue', 1, -1)).toThrow(IllegalArgumentError);
  });

  // SubscriptionResponseWrapperSerdeTest.shouldThrowExceptionOnSerializeWhenDataVersionUnknown
  it('shouldThrowExceptionOnSerializeWhenDataVersionUnknown', () => {
    const invalid = { ...responseWrapper<string>(null, null, 1), version: -1 };
    expect(() => srwSerde.serialize('ignored', invalid)).toThrow(SerializationError);
  });
});

describe('CombinedKeySchemaTest', () => {
  const cks = new CombinedKeySchema(S, 'fkTopic', Serdes.Integer(), 'pkTopic');

  // CombinedKeySchemaTest.nonNullPrimaryKeySerdeTest
  it('nonNullPrimaryKeySerdeTest', () => {
    const result = cks.fromBytes(cks.toBytes('foreignKey', 10));
    expect(result.primaryKey).toBe(10);
    expect(result.foreignKey).toBe('foreignKey');
  });

  // CombinedKeySchemaTest.nullPrimaryKeySerdeTest
  it('nullPrimaryKeySerdeTest', () => {
    expect(() => cks.toBytes('foreignKey', null as unknown as number)).toThrow(SerializationError);
  });

  // CombinedKeySchemaTest.nullForeignKeySerdeTest
  it('nullForeignKeySerdeTest', () => {
    expect(() => cks.toBytes(null as unknown as string, 10)).toThrow(SerializationError);
  });

  // CombinedKeySchemaTest.prefixKeySerdeTest
  it('prefixKeySerdeTest', () => {
    const foreignKey = 'someForeignKey';
    const foreignKeySerializedData = Buffer.from(foreignKey);
    const prefix = cks.prefixBytes(foreignKey);
    const expected = Buffer.alloc(4 + foreignKeySerializedData.length);
    expected.writeInt32BE(foreignKeySerializedData.length);
    foreignKeySerializedData.copy(expected, 4);
    expect(prefix.equals(expected)).toBe(true);
  });

  // CombinedKeySchemaTest.nullPrefixKeySerdeTest
  it('nullPrefixKeySerdeTest', () => {
    expect(() => cks.prefixBytes(null as unknown as string)).toThrow(SerializationError);
  });
});
