/** Creates the kafkajs-backed cluster for a producer configured with `bootstrapServers`. */
import type { ClusterPort } from '../../client/port.js';
import { ConfigError } from '../../errors.js';

/** `createKafkaCluster({ bootstrapServers })` from the kafkajs adapter (loaded on first use). */
export async function resolveCluster(bootstrapServers: string[]): Promise<ClusterPort> {
  if (bootstrapServers.length === 0) throw new ConfigError('TransactionalProducer needs either `cluster` or `bootstrapServers`');
  // Variable specifier: the adapter is loaded only when a producer uses bootstrapServers.
  const specifier = '../../client/kafkajs/index.js';
  const mod = (await import(specifier)) as {
    createKafkaCluster(options: { bootstrapServers: string[] }): ClusterPort;
  };
  return mod.createKafkaCluster({ bootstrapServers });
}
