/**
 * Kafka's `WindowKeySchema`: the byte layout of window store keys, so a
 * window store's changelog is readable by (and restorable from) Kafka Streams.
 *
 *   store key = serialized key | window start (8 bytes, big-endian long) | sequence number (4 bytes, big-endian int)
 *
 * The sequence number tells apart duplicates of a store that retains them
 * (`retainDuplicates`, stream-stream joins); it is 0 otherwise. The "pipe"
 * layout of windowed record keys (`TimeWindowedSerializer`) is the key
 * followed by the window start only ({@link WindowKeySchema.toBinary}).
 */
import { checkedDeserialize, checkedSerialize } from '../serdes/checked-serde.js';
import type { Deserializer, Serializer } from '../serdes/serde.js';
import { IllegalArgumentError } from '../errors.js';
import {
  INT_MAX_VALUE,
  LONG_MAX_VALUE,
  SEQNUM_SIZE,
  TIMESTAMP_SIZE,
  keyInRange,
  orderedLowerRange,
  orderedUpperRange,
  readLong,
  writeLong,
} from './internal/window-bytes.js';
import type { TimeWindow, Windowed } from './window-types.js';

const SUFFIX_SIZE = TIMESTAMP_SIZE + SEQNUM_SIZE;
const MIN_SUFFIX = Buffer.alloc(SUFFIX_SIZE);

function serializeKey<K>(serializer: Serializer<K>, topic: string, key: K): Buffer {
  const bytes = checkedSerialize(serializer, topic, key, undefined, 'KEY');
  if (bytes === null) throw new IllegalArgumentError(`Windowed key for '${topic}' serialized to null: a window store key cannot be null`);
  return bytes;
}

/** Kafka's `WindowKeySchema` (static helpers). */
export const WindowKeySchema = {
  /**
   * A time window of `windowSize` from `start`; the end is capped at Java's
   * `Long.MAX_VALUE` when it would overflow (Kafka's `timeWindowForSize`).
   */
  timeWindowForSize(start: number, windowSize: number): TimeWindow {
    const end = start + windowSize;
    return { start, end: end >= LONG_MAX_VALUE ? LONG_MAX_VALUE : end };
  },

  /** The store key of `key` (already serialized) for the window starting at `timestamp`, with `seqnum`. */
  toStoreKeyBinary(key: Buffer, timestamp: number, seqnum: number): Buffer {
    // every byte is written below: no zero-fill
    const out = Buffer.allocUnsafe(key.length + SUFFIX_SIZE);
    key.copy(out, 0);
    writeLong(out, key.length, timestamp);
    out.writeInt32BE(seqnum | 0, key.length + TIMESTAMP_SIZE);
    return out;
  },

  /** {@link toStoreKeyBinary} of a windowed bytes key. */
  toStoreKeyBinaryWindowed(windowed: Windowed<Buffer>, seqnum: number): Buffer {
    return WindowKeySchema.toStoreKeyBinary(windowed.key, windowed.window.start, seqnum);
  },

  /** {@link toStoreKeyBinary} of a typed windowed key, serialized with `serializer` for `topic`. */
  toStoreKeyBinaryTyped<K>(windowed: Windowed<K>, seqnum: number, serializer: Serializer<K>, topic: string): Buffer {
    return WindowKeySchema.toStoreKeyBinary(serializeKey(serializer, topic, windowed.key), windowed.window.start, seqnum);
  },

  /** The serialized key inside a store key. */
  extractStoreKeyBytes(binaryKey: Buffer): Buffer {
    return Buffer.from(binaryKey.subarray(0, binaryKey.length - SUFFIX_SIZE));
  },

  /** The typed key inside a store key. */
  extractStoreKey<K>(binaryKey: Buffer, deserializer: Deserializer<K>, topic: string): K {
    return checkedDeserialize(deserializer, topic, WindowKeySchema.extractStoreKeyBytes(binaryKey), undefined, 'KEY') as K;
  },

  /** The window start inside a store key. */
  extractStoreTimestamp(binaryKey: Buffer): number {
    return readLong(binaryKey, binaryKey.length - SUFFIX_SIZE);
  },

  /** The sequence number inside a store key. */
  extractStoreSequence(binaryKey: Buffer): number {
    return binaryKey.readInt32BE(binaryKey.length - SEQNUM_SIZE);
  },

  /** The window of a store key, for windows of `windowSize`. */
  extractStoreWindow(binaryKey: Buffer, windowSize: number): TimeWindow {
    return WindowKeySchema.timeWindowForSize(WindowKeySchema.extractStoreTimestamp(binaryKey), windowSize);
  },

  /** The typed windowed key of a store key. */
  fromStoreKey<K>(binaryKey: Buffer, windowSize: number, deserializer: Deserializer<K>, topic: string): Windowed<K> {
    return { key: WindowKeySchema.extractStoreKey(binaryKey, deserializer, topic), window: WindowKeySchema.extractStoreWindow(binaryKey, windowSize) };
  },

  /** The windowed bytes key of a store key. */
  fromStoreBytesKey(binaryKey: Buffer, windowSize: number): Windowed<Buffer> {
    return { key: WindowKeySchema.extractStoreKeyBytes(binaryKey), window: WindowKeySchema.extractStoreWindow(binaryKey, windowSize) };
  },

  /** The windowed-record-key layout (`TimeWindowedSerializer`): serialized key | window start. */
  toBinary<K>(windowed: Windowed<K>, serializer: Serializer<K>, topic: string): Buffer {
    const key = serializeKey(serializer, topic, windowed.key);
    const out = Buffer.alloc(key.length + TIMESTAMP_SIZE);
    key.copy(out, 0);
    writeLong(out, key.length, windowed.window.start);
    return out;
  },

  /** Reads {@link toBinary}'s layout back, for windows of `windowSize`. */
  from<K>(binaryKey: Buffer, windowSize: number, deserializer: Deserializer<K>, topic: string): Windowed<K> {
    const keyBytes = Buffer.from(binaryKey.subarray(0, binaryKey.length - TIMESTAMP_SIZE));
    const start = readLong(binaryKey, binaryKey.length - TIMESTAMP_SIZE);
    return {
      key: checkedDeserialize(deserializer, topic, keyBytes, undefined, 'KEY') as K,
      window: WindowKeySchema.timeWindowForSize(start, windowSize),
    };
  },

  /** Upper bound of a scan over keys `<= key` up to time `to` (Kafka's `upperRange`). */
  upperRange(key: Buffer, to: number): Buffer {
    const maxSuffix = Buffer.alloc(SUFFIX_SIZE);
    writeLong(maxSuffix, 0, to);
    maxSuffix.writeInt32BE(INT_MAX_VALUE, TIMESTAMP_SIZE);
    return orderedUpperRange(key, maxSuffix);
  },

  /** Lower bound of a scan over keys `>= key` (Kafka's `lowerRange`: the time is not part of it). */
  lowerRange(key: Buffer, _from: number): Buffer {
    return orderedLowerRange(key, MIN_SUFFIX);
  },

  /** Lower bound of a scan over exactly `key` from time `from` (clamped at 0). */
  lowerRangeFixedSize(key: Buffer, from: number): Buffer {
    return WindowKeySchema.toStoreKeyBinary(key, Math.max(0, from), 0);
  },

  /** Upper bound of a scan over exactly `key` up to time `to`. */
  upperRangeFixedSize(key: Buffer, to: number): Buffer {
    return WindowKeySchema.toStoreKeyBinary(key, to, INT_MAX_VALUE);
  },

  /**
   * Kafka's `hasNextCondition` as a predicate on store keys: the key is in
   * `[keyFrom, keyTo]` (a `null` bound is open) and its window starts in `[from, to]`.
   */
  hasNextCondition(keyFrom: Buffer | null, keyTo: Buffer | null, from: number, to: number): (binaryKey: Buffer) => boolean {
    return (binaryKey) => {
      const time = WindowKeySchema.extractStoreTimestamp(binaryKey);
      return time >= from && time <= to && keyInRange(WindowKeySchema.extractStoreKeyBytes(binaryKey), keyFrom, keyTo);
    };
  },
};
