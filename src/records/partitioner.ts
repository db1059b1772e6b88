/**
 * Partition choice, compatible with the Java producer.
 *
 * Keyed records: `toPositive(murmur2(keyBytes)) % numPartitions`, exactly
 * Kafka's `BuiltInPartitioner.partitionForKey` (`Utils.murmur2`, seed
 * `0x9747b28c`), so a Java producer and sluice put a key on the same partition.
 *
 * Keyless records are placed by the producer's send pipeline (sticky per
 * topic, like Java since KIP-480), not here.
 */

/** Kafka's `Utils.murmur2` over bytes: a signed 32-bit result, as Java returns it. */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
  const m = 0x5bd1e995;
  const r = 24;
  // 1. h = seed ^ length
  let h = (0x9747b28c ^ length) | 0;
  // 2. mix 4 bytes at a time (little-endian); every index below is < length, `?? 0` only satisfies the type
  const length4 = length >>> 2;
  for (let i = 0; i < length4; i += 1) {
    const i4 = i * 4;
    let k = ((data[i4] ?? 0) & 0xff) | (((data[i4 + 1] ?? 0) & 0xff) << 8) | (((data[i4 + 2] ?? 0) & 0xff) << 16) | (((data[i4 + 3] ?? 0) & 0xff) << 24);
    k = Math.imul(k, m);
    k ^= k >>> r;
    k = Math.imul(k, m);
    h = Math.imul(h, m);
    h ^= k;
  }
  // 3. the last 1–3 bytes (Java's fall-through switch)
  const tail = length & ~3;
  const rest = length % 4;
  if (rest === 3) h ^= ((data[tail + 2] ?? 0) & 0xff) << 16;
  if (rest >= 2) h ^= ((data[tail + 1] ?? 0) & 0xff) << 8;
  if (rest >= 1) {
    h ^= (data[tail] ?? 0) & 0xff;
    h = Math.imul(h, m);
  }
  // 4. final avalanche
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

/** Kafka's `Utils.toPositive`: clears the sign bit (not `Math.abs`). */
export function toPositive(n: number): number {
  return n & 0x7fffffff;
}

/** The partition of a keyed record, as the Java producer's default partitioner computes it. */
export function partitionFor(keyBytes: Uint8Array, numPartitions: number): number {
  if (!Number.isInteger(numPartitions) || numPartitions <= 0) {
    throw new RangeError(`numPartitions must be a positive integer, got ${numPartitions}`);
  }
  return toPositive(murmur2(keyBytes)) % numPartitions;
}
