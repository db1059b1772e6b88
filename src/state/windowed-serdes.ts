/**
 * Serdes of windowed keys (Kafka's `WindowedSerdes`), with Kafka's byte
 * layouts, so a Java consumer reads sluice's windowed keys and the other way
 * round:
 * - time windows (`TimeWindowedSerializer`): serialized key | window start (8 bytes, big-endian);
 *   the end is not written: the deserializer adds `windowSizeMs` to the start;
 * - session windows (`SessionWindowedSerializer`): serialized key | window end (8 bytes) | window start (8 bytes).
 */
import { IllegalArgumentError } from '../errors.js';
import type { Serde } from '../serdes/serde.js';
import { checkedSerialize } from '../serdes/checked-serde.js';
import { SessionKeySchema } from './session-key-schema.js';
import { WindowKeySchema } from './window-key-schema.js';
import type { Windowed } from './window-types.js';

function checkInner(inner: unknown, factory: string): void {
  const serde = inner as Partial<Serde<unknown>> | null | undefined;
  if (serde === null || serde === undefined || typeof serde.serialize !== 'function' || typeof serde.deserialize !== 'function') {
    throw new IllegalArgumentError(`WindowedSerdes.${factory}: give the serde of the inner key (e.g. Serdes.String()); got ${String(inner)}`);
  }
}

/**
 * A windowed-key serde that also writes the inner key alone (Kafka's
 * `WindowedSerializer.serializeBaseKey`): sinks partition windowed keys by
 * it, as Kafka's `WindowedStreamPartitioner` does, so every window of a key
 * lands on the key's partition.
 */
export interface WindowedSerde<K> extends Serde<Windowed<K>> {
  serializeBaseKey(topic: string, windowed: Windowed<K>): Buffer | null;
}

/** True when `serde` is one of {@link WindowedSerdes}' serdes. */
export function isWindowedSerde(serde: unknown): serde is WindowedSerde<unknown> {
  return typeof (serde as Partial<WindowedSerde<unknown>> | null)?.serializeBaseKey === 'function';
}

function baseKey<K>(inner: Serde<K>): (topic: string, windowed: Windowed<K>) => Buffer | null {
  return (topic, windowed) => checkedSerialize(inner, topic, windowed.key, undefined, 'KEY');
}

/** Factories of windowed-key serdes (Kafka's `WindowedSerdes`). */
export const WindowedSerdes = {
  /**
   * The serde of keys windowed by time windows of `windowSizeMs` (tumbling,
   * hopping or sliding windows): `key | start`. Reading gives windows
   * `[start, start + windowSizeMs)`, the end capped at Java's `Long.MAX_VALUE`.
   */
  timeWindowedSerdeFrom<K>(inner: Serde<K>, windowSizeMs: number): WindowedSerde<K> {
    checkInner(inner, 'timeWindowedSerdeFrom');
    if (typeof windowSizeMs !== 'number' || !Number.isInteger(windowSizeMs) || windowSizeMs <= 0) {
      throw new IllegalArgumentError(`WindowedSerdes.timeWindowedSerdeFrom: windowSizeMs must be a positive integer of milliseconds; got ${String(windowSizeMs)}`);
    }
    return {
      name: `TimeWindowed(${inner.name ?? 'serde'})`,
      serialize: (topic, data) => (data === null || data === undefined ? null : WindowKeySchema.toBinary(data, inner, topic)),
      // a null payload is null, as Kafka's deserializers; the Deserializer type (T, not T | null) cannot say so
      deserialize: (topic, data) => (data === null ? (null as unknown as Windowed<K>) : WindowKeySchema.from(data, windowSizeMs, inner, topic)),
      serializeBaseKey: baseKey(inner),
    };
  },

  /** The serde of keys windowed by session windows: `key | end | start`. */
  sessionWindowedSerdeFrom<K>(inner: Serde<K>): WindowedSerde<K> {
    checkInner(inner, 'sessionWindowedSerdeFrom');
    return {
      name: `SessionWindowed(${inner.name ?? 'serde'})`,
      serialize: (topic, data) => (data === null || data === undefined ? null : SessionKeySchema.toBinary(data, inner, topic)),
      // a null payload is null, as Kafka's deserializers; the Deserializer type (T, not T | null) cannot say so
      deserialize: (topic, data) => (data === null ? (null as unknown as Windowed<K>) : SessionKeySchema.from(data, inner, topic)),
      serializeBaseKey: baseKey(inner),
    };
  },
};
