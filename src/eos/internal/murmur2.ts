/**
 * Java-compatible murmur2 partitioning for the eos layer: delegates to the one
 * implementation in `src/client/partitioner.ts` (Kafka's `Utils.murmur2` and
 * `BuiltInPartitioner.partitionForKey`).
 */
import { murmur2, partitionFor } from '../../client/partitioner.js';

export { murmur2 };

/** The partition of a keyed record: `toPositive(murmur2(key)) % numPartitions`, as Java does. */
export function partitionForKey(keyBytes: Uint8Array, numPartitions: number): number {
  return partitionFor(keyBytes, numPartitions);
}
