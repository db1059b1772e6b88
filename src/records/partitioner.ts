/**
 * Partition choice, compatible with the Java producer.
 *
 * Keyed records: `toPositive(murmur2(keyBytes)) % numPartitions`, exactly
 * Kafka's `BuiltInPartitioner.partitionForKey` (`Utils.murmur2`, seed
 * `0x9747b28c`), so a Java producer and sluice put a key on the same partition.
 *
 * Keyless records: sticky (like Java since KIP-480): a topic's keyless records
 * go to one partition until {@link KeylessPartitioner} has placed
 * `recordsPerSwitch` of them there, then move to another one. This keeps
 * keyless output of a commit interval in few single-partition produce
 * requests (DESIGN.md §2: one request per partition) while still spreading
 * load over time.
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

/** Options of a {@link KeylessPartitioner}. */
export interface KeylessPartitionerOptions {
  /** Keyless records placed on a partition before switching to another (default 100). */
  recordsPerSwitch?: number;
  /** Source of randomness in [0, 1), for tests (default `Math.random`). */
  random?: () => number;
}

/** Sticky partition choice for keyless records, per topic. */
export class KeylessPartitioner {
  private readonly recordsPerSwitch: number;
  private readonly random: () => number;
  private readonly sticky = new Map<string, { partition: number; placed: number }>();

  constructor(options: KeylessPartitionerOptions = {}) {
    this.recordsPerSwitch = Math.max(1, options.recordsPerSwitch ?? 100);
    this.random = options.random ?? Math.random;
  }

  /** The partition for the next keyless record of `topic`. */
  next(topic: string, numPartitions: number): number {
    if (!Number.isInteger(numPartitions) || numPartitions <= 0) {
      throw new RangeError(`numPartitions must be a positive integer, got ${numPartitions}`);
    }
    let state = this.sticky.get(topic);
    if (!state || state.partition >= numPartitions || state.placed >= this.recordsPerSwitch) {
      state = { partition: this.pick(numPartitions, state?.partition), placed: 0 };
      this.sticky.set(topic, state);
    }
    state.placed += 1;
    return state.partition;
  }

  /** A random partition, different from `previous` when there is a choice. */
  private pick(numPartitions: number, previous: number | undefined): number {
    if (numPartitions === 1) return 0;
    if (previous === undefined || previous >= numPartitions) return Math.floor(this.random() * numPartitions);
    const offset = 1 + Math.floor(this.random() * (numPartitions - 1));
    return (previous + offset) % numPartitions;
  }
}

/**
 * The partition of a record: murmur2 of the key bytes, or the sticky keyless
 * choice of `keyless` for a null key.
 */
export function choosePartition(
  topic: string,
  keyBytes: Uint8Array | null,
  numPartitions: number,
  keyless: KeylessPartitioner,
): number {
  return keyBytes === null ? keyless.next(topic, numPartitions) : partitionFor(keyBytes, numPartitions);
}
