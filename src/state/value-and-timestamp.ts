/**
 * A value with the timestamp of the record that last wrote it, as Kafka's
 * `ValueAndTimestamp`, and its stored form: 8-byte big-endian timestamp, then
 * the value's bytes (Kafka's `ValueAndTimestampSerializer`), so a timestamped
 * store's bytes read the same as Kafka's.
 */
import { SerializationError } from '../errors.js';
import type { Headers } from '../records/types.js';
import type { Serde } from '../serdes/serde.js';
import { serdeName } from '../serdes/checked-serde.js';

/** A value and its timestamp (ms). */
export interface ValueAndTimestamp<V> {
  readonly value: V;
  readonly timestamp: number;
}

/** Factories of {@link ValueAndTimestamp}, as Kafka's static methods. */
export const ValueAndTimestamp = {
  /** `{ value, timestamp }`, or `null` when `value` is `null` (Kafka's `ValueAndTimestamp.make`). */
  make<V>(value: V | null, timestamp: number): ValueAndTimestamp<V> | null {
    return value === null || value === undefined ? null : { value, timestamp };
  },
  /** The value, or `null` for a `null` argument (Kafka's `getValueOrNull`). */
  getValueOrNull<V>(valueAndTimestamp: ValueAndTimestamp<V> | null): V | null {
    return valueAndTimestamp === null ? null : valueAndTimestamp.value;
  },
} as const;

/** Bytes of a stored timestamp. */
export const TIMESTAMP_BYTES = 8;

/**
 * The serde of `ValueAndTimestamp<V>` over `valueSerde`: `null` ↔ `null`; a
 * value whose own bytes are `null` is stored as `null` (a delete), as Kafka.
 */
export function valueAndTimestampSerde<V>(valueSerde: Serde<V>): Serde<ValueAndTimestamp<V>> {
  const name = `ValueAndTimestamp<${serdeName(valueSerde)}>`;
  return {
    name,
    serialize(topic: string, data: ValueAndTimestamp<V> | null, headers?: Headers): Buffer | null {
      if (data === null || data === undefined) return null;
      const valueBytes = valueSerde.serialize(topic, data.value, headers);
      if (valueBytes === null) return null;
      if (!Number.isSafeInteger(data.timestamp)) {
        throw new SerializationError(`Failed to serialize value for store '${topic}' with serde ${name}: timestamp ${String(data.timestamp)} is not an integer number of milliseconds`, {
          origin: 'VALUE',
          topic,
        });
      }
      const out = Buffer.allocUnsafe(TIMESTAMP_BYTES + valueBytes.length);
      out.writeBigInt64BE(BigInt(data.timestamp), 0);
      valueBytes.copy(out, TIMESTAMP_BYTES);
      return out;
    },
    deserialize(topic: string, data: Buffer | null, headers?: Headers): ValueAndTimestamp<V> {
      // a null payload is null, as Kafka's deserializers; the Deserializer type (T, not T | null) cannot say so
      if (data === null) return null as unknown as ValueAndTimestamp<V>;
      if (data.length < TIMESTAMP_BYTES) {
        throw new SerializationError(`Failed to deserialize value for store '${topic}' with serde ${name}: ${data.length} bytes, fewer than the 8-byte timestamp`, {
          origin: 'VALUE',
          topic,
        });
      }
      const timestamp = Number(data.readBigInt64BE(0));
      return { value: valueSerde.deserialize(topic, data.subarray(TIMESTAMP_BYTES), headers), timestamp };
    },
  };
}
