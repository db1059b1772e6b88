/**
 * Writes each of `keys` `times` times (value 'x', timestamp now) to the
 * partition the producer's default partitioner (murmur2) gives it, one produce
 * request per partition: what the multi-instance contract cases (key
 * metadata, standby replicas, the query API) count per key.
 */
import type { ClusterPort } from '../../../src/cluster/port.js';
import { partitionFor } from '../../../src/records/partitioner.js';

/** See the module comment. */
export async function produceKeyed(cluster: ClusterPort, topic: string, o: { keys: readonly string[]; partitions: number; times: number }): Promise<void> {
  const producer = cluster.producer({});
  await producer.connect();
  try {
    for (let p = 0; p < o.partitions; p++) {
      const keys = o.keys.filter((k) => partitionFor(Buffer.from(k), o.partitions) === p);
      const records = keys.flatMap((k) => Array.from({ length: o.times }, () => ({ key: Buffer.from(k), value: Buffer.from('x'), headers: {}, timestamp: Date.now() })));
      if (records.length > 0) await producer.produce({ topic, partition: p, records });
    }
  } finally {
    await producer.close();
  }
}
