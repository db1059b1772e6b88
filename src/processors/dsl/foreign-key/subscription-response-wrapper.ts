/**
 * The answer of a foreign-key join's right side (Kafka's
 * `SubscriptionResponseWrapper` and `SubscriptionResponseWrapperSerde`),
 * keyed by the primary key on the subscription-response topic: the hash of
 * the left value it answers and the foreign value (null: none).
 *
 * Bytes (version 0, Kafka's): `{1 bit isHashNull}{7 bits version}{16 bytes hash, when not null}{foreign value, when not null}`.
 * The primary partition is not serialized: the response sink's partitioner reads it.
 */
import { IllegalArgumentError, SerializationError } from '../../../errors.js';
import type { Deserializer, Serde, Serializer } from '../../../serdes/serde.js';
import type { Hash128 } from './murmur3.js';

/** The version written and understood. */
export const RESPONSE_WRAPPER_VERSION = 0;

/** A response; see the file comment. */
export interface SubscriptionResponseWrapper<VO> {
  readonly originalValueHash: Hash128 | null;
  readonly foreignValue: VO | null;
  readonly version: number;
  /** Where the response goes (not serialized); null once read back. */
  readonly primaryPartition: number | null;
}

/** A response (version 0: the only one), checked as Kafka's constructor. */
export function responseWrapper<VO>(
  originalValueHash: Hash128 | null,
  foreignValue: VO | null,
  primaryPartition: number | null,
  version: number = RESPONSE_WRAPPER_VERSION,
): SubscriptionResponseWrapper<VO> {
  if (!Number.isInteger(version) || version < 0 || version > RESPONSE_WRAPPER_VERSION) throw new IllegalArgumentError(`SubscriptionWrapper does not support version ${version}`);
  return { originalValueHash, foreignValue, version, primaryPartition };
}

/** `SubscriptionResponseWrapperSerde`: the foreign value goes through `foreignValueSerde` under the topic written. */
export function responseWrapperSerde<VO>(foreignValueSerde: Serializer<VO> & Deserializer<VO>): Serde<SubscriptionResponseWrapper<VO>> {
  return {
    serialize(topic: string, data: SubscriptionResponseWrapper<VO> | null): Buffer | null {
      if (data === null) return null;
      if (data.version < 0) throw new SerializationError('SubscriptionResponseWrapper version cannot be negative');
      const value = data.foreignValue === null ? null : foreignValueSerde.serialize(topic, data.foreignValue);
      const hashLength = data.originalValueHash === null ? 0 : 16;
      const buf = Buffer.alloc(1 + hashLength + (value?.length ?? 0));
      buf.writeUInt8(data.originalValueHash === null ? data.version | 0x80 : data.version, 0);
      if (data.originalValueHash !== null) {
        buf.writeBigInt64BE(data.originalValueHash[0], 1);
        buf.writeBigInt64BE(data.originalValueHash[1], 9);
      }
      value?.copy(buf, 1 + hashLength);
      return buf;
    },
    deserialize(topic: string, data: Buffer | null): SubscriptionResponseWrapper<VO> {
      // a null payload is null, as Kafka's deserializers; the Deserializer type (T, not T | null) cannot say so
      if (data === null) return null as unknown as SubscriptionResponseWrapper<VO>;
      if (data.length < 1) throw new SerializationError('A SubscriptionResponseWrapper needs at least 1 byte; got 0');
      const first = data.readUInt8(0);
      const version = first & 0x7f;
      if (version > RESPONSE_WRAPPER_VERSION) throw new SerializationError(`SubscriptionResponseWrapper does not support version ${version}`);
      const hashNull = (first & 0x80) === 0x80;
      const hash: Hash128 | null = hashNull ? null : [data.readBigInt64BE(1), data.readBigInt64BE(9)];
      const at = hashNull ? 1 : 17;
      const foreignValue = data.length - at > 0 ? foreignValueSerde.deserialize(topic, data.subarray(at)) : null;
      return { originalValueHash: hash, foreignValue, version, primaryPartition: null };
    },
  };
}
