/**
 * Byte helpers shared by the window and session key schemas: Java `long` /
 * `int` big-endian fields and Kafka's `OrderedBytes` range bounds.
 *
 * Timestamps are JavaScript numbers. A number at or above 2^63 is written as
 * Java's `Long.MAX_VALUE` (0x7fff…ff) and read back as {@link LONG_MAX_VALUE},
 * so "unbounded" bounds keep Kafka's bytes; timestamps above 2^53 lose
 * precision as any JavaScript number does.
 */

/** Java's `Long.MAX_VALUE` as a JavaScript number (2^63): written as 0x7fffffffffffffff. */
export const LONG_MAX_VALUE = 2 ** 63;
/** Java's `Integer.MAX_VALUE`. */
export const INT_MAX_VALUE = 0x7fffffff;
/** Bytes of a timestamp (Java `long`). */
export const TIMESTAMP_SIZE = 8;
/** Bytes of a window sequence number (Java `int`). */
export const SEQNUM_SIZE = 4;

const TWO_32 = 2 ** 32;
/** High words whose long is a safe integer for sure. */
const SAFE_HIGH = 2 ** 20;
const MAX_LONG = 2n ** 63n - 1n;
const MIN_LONG = -(2n ** 63n);

/** Writes `value` as a big-endian Java long at `offset` (clamped to the long range, fractions truncated). */
export function writeLong(buf: Buffer, offset: number, value: number): void {
  if (Number.isSafeInteger(value)) {
    // Fast path (no BigInt): the high 32 bits signed, the low 32 bits unsigned, two's complement as Java's.
    const high = Math.floor(value / TWO_32);
    buf.writeInt32BE(high, offset);
    buf.writeUInt32BE(value - high * TWO_32, offset + 4);
    return;
  }
  let big: bigint;
  if (value >= LONG_MAX_VALUE) big = MAX_LONG;
  else if (value <= -LONG_MAX_VALUE) big = MIN_LONG;
  else big = BigInt(Math.trunc(value));
  buf.writeBigInt64BE(big, offset);
}

/** Reads a big-endian Java long at `offset` as a number (`Long.MAX_VALUE` reads as {@link LONG_MAX_VALUE}). */
export function readLong(buf: Buffer, offset: number): number {
  const high = buf.readInt32BE(offset);
  // Fast path (no BigInt) while the value is a safe integer (|high| < 2^21); beyond it BigInt rounds as before.
  if (high < SAFE_HIGH && high >= -SAFE_HIGH) return high * TWO_32 + buf.readUInt32BE(offset + 4);
  return Number(buf.readBigInt64BE(offset));
}

/** 8 bytes holding `value` as a Java long. */
export function longBytes(value: number): Buffer {
  const out = Buffer.alloc(TIMESTAMP_SIZE);
  writeLong(out, 0, value);
  return out;
}

/** Kafka's `OrderedBytes.upperRange`: the upper bound of a range scan for keys `<= key` with any suffix `<= maxSuffix`. */
export function orderedUpperRange(key: Buffer, maxSuffix: Buffer): Buffer {
  const firstTimestampByte = maxSuffix[0] ?? 0;
  if (firstTimestampByte === 0) return Buffer.concat([key, maxSuffix]);
  // Keys are assumed at least one byte long: the first byte is always kept.
  let i = 0;
  while (i < key.length && (i < 1 || (key[i] ?? 0) >= firstTimestampByte)) i++;
  return Buffer.concat([key.subarray(0, i), maxSuffix]);
}

/** Kafka's `OrderedBytes.lowerRange`: `key` followed by the minimum suffix. */
export function orderedLowerRange(key: Buffer, minSuffix: Buffer): Buffer {
  return Buffer.concat([key, minSuffix]);
}

/** `from <= key <= to` by bytes; a `null` bound is open. */
export function keyInRange(key: Buffer, from: Buffer | null, to: Buffer | null): boolean {
  return (from === null || Buffer.compare(key, from) >= 0) && (to === null || Buffer.compare(key, to) <= 0);
}

/** Kafka's warning for a key range with `from > to` (the iterator is empty). */
export const INVALID_RANGE_WARNING =
  'Returning empty iterator for fetch with invalid key range: from > to. ' +
  'This may be due to range arguments set in the wrong order, ' +
  "or serdes that don't preserve ordering when lexicographically comparing the serialized bytes. " +
  'Note that the built-in numerical serdes do not follow this for negative numbers';
