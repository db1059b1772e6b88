/** Kafka's `ValueAndTimestampSerde`: `timestamp (8 bytes, big-endian long) | value bytes`. */
import { SerializationError } from '../../errors.js';
import { checkedDeserialize, checkedSerialize, serdeName } from '../../serdes/checked-serde.js';
import type { Serde } from '../../serdes/serde.js';
import type { ValueAndTimestamp } from '../window-store.js';
import { TIMESTAMP_SIZE, readLong, writeLong } from './window-bytes.js';

/** The serde of timestamped store values over the plain value serde. */
export function valueAndTimestampSerde<V>(valueSerde: Serde<V>): Serde<ValueAndTimestamp<V>> {
  return {
    name: `ValueAndTimestamp<${serdeName(valueSerde)}>`,
    serialize(topic, data) {
      if (data === null || data === undefined) return null;
      const raw = checkedSerialize(valueSerde, topic, data.value, undefined, 'VALUE');
      if (raw === null) return null;
      const out = Buffer.alloc(TIMESTAMP_SIZE + raw.length);
      writeLong(out, 0, data.timestamp);
      raw.copy(out, TIMESTAMP_SIZE);
      return out;
    },
    deserialize(topic, data) {
      // a null payload is null, as Kafka's deserializers; the Deserializer type (T, not T | null) cannot say so
      if (data === null) return null as unknown as ValueAndTimestamp<V>;
      if (data.length < TIMESTAMP_SIZE) {
        throw new SerializationError(`ValueAndTimestamp for topic '${topic}': expected at least 8 bytes, got ${data.length}`, { origin: 'VALUE', topic });
      }
      const value = checkedDeserialize(valueSerde, topic, Buffer.from(data.subarray(TIMESTAMP_SIZE)), undefined, 'VALUE') as V;
      return { value, timestamp: readLong(data, 0) };
    },
  };
}
