/**
 * The bytes of a timestamped value, as Kafka Streams' `ValueAndTimestampSerializer`
 * lays them out: the timestamp as an 8-byte big-endian long, then the value's
 * own bytes. The changelog of a timestamped store carries the plain value
 * with the stored timestamp as the record's timestamp.
 */

/** The value bytes after the 8-byte timestamp (`null` stays `null`). */
export function rawValue(valueAndTimestamp: Buffer | null): Buffer | null {
  return valueAndTimestamp === null ? null : valueAndTimestamp.subarray(8);
}

/** The timestamp in the first 8 bytes. */
export function timestampOf(valueAndTimestamp: Buffer): number {
  return Number(valueAndTimestamp.readBigInt64BE(0));
}

/** `timestamp` (8 bytes, big-endian) followed by `value` (`null` stays `null`). */
export function withTimestamp(value: Buffer | null, timestamp: number): Buffer | null {
  if (value === null) return null;
  const out = Buffer.allocUnsafe(8 + value.length);
  out.writeBigInt64BE(BigInt(Math.trunc(timestamp)), 0);
  value.copy(out, 8);
  return out;
}
