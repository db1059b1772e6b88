/**
 * Kafka's murmur2 partitioner hash (Java `Utils.murmur2`), so keyed records
 * land where a Java or kafkajs default partitioner would put them.
 */

/** murmur2 of the bytes, as a signed 32-bit integer. */
export function murmur2(data: Buffer): number {
  const m = 0x5bd1e995;
  const length = data.length;
  let h = 0x9747b28c ^ length;
  const length4 = length >> 2;
  for (let i = 0; i < length4; i++) {
    const o = i * 4;
    let k = (data[o]! & 0xff) | ((data[o + 1]! & 0xff) << 8) | ((data[o + 2]! & 0xff) << 16) | ((data[o + 3]! & 0xff) << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m);
    h ^= k;
  }
  const rest = length % 4;
  const tail = length & ~3;
  if (rest >= 3) h ^= (data[tail + 2]! & 0xff) << 16;
  if (rest >= 2) h ^= (data[tail + 1]! & 0xff) << 8;
  if (rest >= 1) {
    h ^= data[tail]! & 0xff;
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

/** The partition of a key among `partitions` (Kafka's default partitioner for keyed records). */
export function partitionForKey(key: Buffer, partitions: number): number {
  return (murmur2(key) & 0x7fffffff) % partitions;
}
