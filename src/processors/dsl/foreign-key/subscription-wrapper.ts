/**
 * The subscription a foreign-key join's left side sends to the right side
 * (Kafka's `SubscriptionWrapper` and `SubscriptionWrapperSerde`), keyed by
 * the foreign key on the subscription-registration topic.
 *
 * Bytes (version 1, Kafka's):
 * `{1 bit isHashNull}{7 bits version}{1 byte instruction}{16 bytes hash, when not null}{primary key}{4 bytes primary partition}`;
 * version 0 has no partition.
 */
import { IllegalArgumentError, SerializationError } from '../../../errors.js';
import type { Deserializer, Serde, Serializer } from '../../../serdes/serde.js';
import type { Hash128 } from './murmur3.js';

/** What the right side does with a subscription (Kafka's `SubscriptionWrapper.Instruction`, same byte values). */
export const Instruction = {
  /** Remove the subscription; send nothing. */
  DELETE_KEY_NO_PROPAGATE: 0,
  /** Remove the subscription; send `(pk, null)`. */
  DELETE_KEY_AND_PROPAGATE: 1,
  /** Subscribe; send the foreign value, or null when there is none (the foreign key changed). */
  PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE: 2,
  /** Subscribe; send the foreign value only when there is one (first subscription of the key). */
  PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE: 3,
} as const;

/** One of {@link Instruction}. */
export type Instruction = (typeof Instruction)[keyof typeof Instruction];

const INSTRUCTION_NAMES = Object.fromEntries(Object.entries(Instruction).map(([name, value]) => [value, name])) as Record<number, string>;

/** The newest version written. */
export const SUBSCRIPTION_WRAPPER_VERSION = 1;

/** A subscription; see the file comment. */
export interface SubscriptionWrapper<K> {
  /** Murmur3 128 of the serialized left value (null when the left row was deleted). */
  readonly hash: Hash128 | null;
  readonly instruction: Instruction;
  readonly primaryKey: K;
  readonly version: number;
  /** The partition of the left record (where the response goes back to); null in version 0. */
  readonly primaryPartition: number | null;
}

/**
 * A subscription (version 1 unless `version` says 0), checked as Kafka's
 * constructor: an instruction and a primary key are required, the version
 * must be 0 or 1.
 */
export function subscriptionWrapper<K>(
  hash: Hash128 | null,
  instruction: Instruction,
  primaryKey: K,
  primaryPartition: number | null,
  version: number = SUBSCRIPTION_WRAPPER_VERSION,
): SubscriptionWrapper<K> {
  if (instruction === null || instruction === undefined) throw new IllegalArgumentError('instruction cannot be null. Required by downstream processor.');
  if (primaryKey === null || primaryKey === undefined) throw new IllegalArgumentError('primaryKey cannot be null. Required by downstream processor.');
  if (!Number.isInteger(version) || version < 0 || version > SUBSCRIPTION_WRAPPER_VERSION) throw new IllegalArgumentError(`SubscriptionWrapper does not support version ${version}`);
  return { hash, instruction, primaryKey, version, primaryPartition };
}

/** Kafka's `Instruction.toString()` names. */
export function instructionName(instruction: number): string {
  return INSTRUCTION_NAMES[instruction] ?? `UNKNOWN(${instruction})`;
}

/** `SubscriptionWrapperSerde`: the primary key goes through `primaryKeySerde` under `pseudoTopic`. */
export function subscriptionWrapperSerde<K>(primaryKeySerde: Serializer<K> & Deserializer<K>, pseudoTopic: string): Serde<SubscriptionWrapper<K>> {
  return {
    serialize(_topic: string, data: SubscriptionWrapper<K> | null): Buffer | null {
      if (data === null) return null;
      if (data.version < 0 || data.version > SUBSCRIPTION_WRAPPER_VERSION) {
        throw new SerializationError(`SubscriptionWrapper version ${data.version} is not supported (0..${SUBSCRIPTION_WRAPPER_VERSION})`);
      }
      const pk = primaryKeySerde.serialize(pseudoTopic, data.primaryKey);
      if (pk === null) throw new SerializationError(`The primary key serde of a foreign-key join serialized key ${String(data.primaryKey)} to null; primary keys need bytes`);
      const withPartition = data.version > 0;
      const hashLength = data.hash === null ? 0 : 16;
      const buf = Buffer.alloc(2 + hashLength + pk.length + (withPartition ? 4 : 0));
      buf.writeUInt8(data.hash === null ? data.version | 0x80 : data.version, 0);
      buf.writeUInt8(data.instruction, 1);
      if (data.hash !== null) {
        buf.writeBigInt64BE(data.hash[0], 2);
        buf.writeBigInt64BE(data.hash[1], 10);
      }
      pk.copy(buf, 2 + hashLength);
      if (withPartition) {
        if (data.primaryPartition === null || data.primaryPartition === undefined) throw new SerializationError('A version-1 SubscriptionWrapper needs its primaryPartition');
        buf.writeInt32BE(data.primaryPartition, buf.length - 4);
      }
      return buf;
    },
    deserialize(_topic: string, data: Buffer | null): SubscriptionWrapper<K> {
      // a null payload is null, as Kafka's deserializers; the Deserializer type (T, not T | null) cannot say so
      if (data === null) return null as unknown as SubscriptionWrapper<K>;
      if (data.length < 2) throw new SerializationError(`A SubscriptionWrapper needs at least 2 bytes; got ${data.length}`);
      const first = data.readUInt8(0);
      const version = first & 0x7f;
      const hashNull = (first & 0x80) === 0x80;
      const instruction = data.readUInt8(1);
      if (INSTRUCTION_NAMES[instruction] === undefined) throw new SerializationError(`Unknown instruction byte value = ${instruction}`);
      if (version > SUBSCRIPTION_WRAPPER_VERSION) throw new SerializationError(`SubscriptionWrapper does not support version ${version}`);
      let at = 2;
      let hash: Hash128 | null = null;
      if (!hashNull) {
        hash = [data.readBigInt64BE(2), data.readBigInt64BE(10)];
        at += 16;
      }
      const pkEnd = version > 0 ? data.length - 4 : data.length;
      const primaryKey = primaryKeySerde.deserialize(pseudoTopic, data.subarray(at, pkEnd));
      const primaryPartition = version > 0 ? data.readInt32BE(pkEnd) : null;
      return { hash, instruction: instruction as Instruction, primaryKey, version, primaryPartition };
    },
  };
}
