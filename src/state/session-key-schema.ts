/**
 * Kafka's `SessionKeySchema`: the byte layout of session store keys (and of
 * session-windowed record keys, `SessionWindowedSerializer`), so a session
 * store's changelog is compatible with Kafka Streams'.
 *
 *   key = serialized key | session end (8 bytes, big-endian long) | session start (8 bytes)
 *
 * The end comes first: a search for sessions overlapping `[earliestEnd,
 * latestStart]` scans from `key | earliestEnd | 0` to `key | MAX | latestStart`.
 */
import { checkedDeserialize, checkedSerialize } from '../serdes/checked-serde.js';
import type { Deserializer, Serializer } from '../serdes/serde.js';
import { IllegalArgumentError } from '../errors.js';
import { LONG_MAX_VALUE, TIMESTAMP_SIZE, keyInRange, orderedLowerRange, orderedUpperRange, readLong, writeLong } from './internal/window-bytes.js';
import type { SessionWindow, Windowed } from './window-types.js';

const SUFFIX_SIZE = 2 * TIMESTAMP_SIZE;
const MIN_SUFFIX = Buffer.alloc(SUFFIX_SIZE);

/** Kafka's `SessionKeySchema` (static helpers). */
export const SessionKeySchema = {
  /** The length of the store key of `key`. */
  keyByteLength(key: Buffer | null): number {
    return (key === null ? 0 : key.length) + SUFFIX_SIZE;
  },

  /** The store key of a (serialized) key and its session `[startTime, endTime]`. */
  toBinaryBytes(key: Buffer, startTime: number, endTime: number): Buffer {
    const out = Buffer.alloc(key.length + SUFFIX_SIZE);
    key.copy(out, 0);
    writeLong(out, key.length, endTime);
    writeLong(out, key.length + TIMESTAMP_SIZE, startTime);
    return out;
  },

  /** {@link toBinaryBytes} of a windowed bytes key. */
  toBinaryWindowed(sessionKey: Windowed<Buffer>): Buffer {
    return SessionKeySchema.toBinaryBytes(sessionKey.key, sessionKey.window.start, sessionKey.window.end);
  },

  /** The store key of a typed session key, serialized with `serializer` for `topic`. */
  toBinary<K>(sessionKey: Windowed<K>, serializer: Serializer<K>, topic: string): Buffer {
    const bytes = checkedSerialize(serializer, topic, sessionKey.key, undefined, 'KEY');
    if (bytes === null) throw new IllegalArgumentError(`Session key for '${topic}' serialized to null: a session store key cannot be null`);
    return SessionKeySchema.toBinaryBytes(bytes, sessionKey.window.start, sessionKey.window.end);
  },

  /** The serialized key inside a store key. */
  extractKeyBytes(binaryKey: Buffer): Buffer {
    return Buffer.from(binaryKey.subarray(0, binaryKey.length - SUFFIX_SIZE));
  },

  /** The session end inside a store key. */
  extractEndTimestamp(binaryKey: Buffer): number {
    return readLong(binaryKey, binaryKey.length - SUFFIX_SIZE);
  },

  /** The session start inside a store key. */
  extractStartTimestamp(binaryKey: Buffer): number {
    return readLong(binaryKey, binaryKey.length - TIMESTAMP_SIZE);
  },

  /** The session window of a store key. */
  extractWindow(binaryKey: Buffer): SessionWindow {
    return { start: SessionKeySchema.extractStartTimestamp(binaryKey), end: SessionKeySchema.extractEndTimestamp(binaryKey) };
  },

  /** The typed session key of a store key. */
  from<K>(binaryKey: Buffer, deserializer: Deserializer<K>, topic: string): Windowed<K> {
    return {
      key: checkedDeserialize(deserializer, topic, SessionKeySchema.extractKeyBytes(binaryKey), undefined, 'KEY') as K,
      window: SessionKeySchema.extractWindow(binaryKey),
    };
  },

  /** The windowed bytes key of a store key. */
  fromBytes(binaryKey: Buffer): Windowed<Buffer> {
    return { key: SessionKeySchema.extractKeyBytes(binaryKey), window: SessionKeySchema.extractWindow(binaryKey) };
  },

  /** Upper bound of a scan over keys `<= key` with sessions starting up to `to` (Kafka's `upperRange`). */
  upperRange(key: Buffer, to: number): Buffer {
    const maxSuffix = Buffer.alloc(SUFFIX_SIZE);
    // The end can be as large as possible as long as it is larger than the start.
    writeLong(maxSuffix, 0, LONG_MAX_VALUE);
    writeLong(maxSuffix, TIMESTAMP_SIZE, to);
    return orderedUpperRange(key, maxSuffix);
  },

  /** Lower bound of a scan over keys `>= key` (Kafka's `lowerRange`). */
  lowerRange(key: Buffer, _from: number): Buffer {
    return orderedLowerRange(key, MIN_SUFFIX);
  },

  /** Lower bound of a scan over exactly `key` for sessions ending at or after `from` (clamped at 0). */
  lowerRangeFixedSize(key: Buffer, from: number): Buffer {
    return SessionKeySchema.toBinaryBytes(key, 0, Math.max(0, from));
  },

  /** Upper bound of a scan over exactly `key` for sessions starting at or before `to`. */
  upperRangeFixedSize(key: Buffer, to: number): Buffer {
    return SessionKeySchema.toBinaryBytes(key, to, LONG_MAX_VALUE);
  },

  /**
   * Kafka's `hasNextCondition` as a predicate on store keys: the key is in
   * `[keyFrom, keyTo]` and the session overlaps `[from, to]` (`end >= from && start <= to`).
   */
  hasNextCondition(keyFrom: Buffer | null, keyTo: Buffer | null, from: number, to: number): (binaryKey: Buffer) => boolean {
    return (binaryKey) =>
      SessionKeySchema.extractEndTimestamp(binaryKey) >= from &&
      SessionKeySchema.extractStartTimestamp(binaryKey) <= to &&
      keyInRange(SessionKeySchema.extractKeyBytes(binaryKey), keyFrom, keyTo);
  },
};
