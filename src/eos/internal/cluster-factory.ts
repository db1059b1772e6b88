/** The admin and raw producer clients of a TransactionalProducer, from its `cluster` or `bootstrapServers`. */
import { createKafkaCluster } from '../../cluster/kafkajs/index.js';
import type { AdminPort, ClusterPort, RawProducerPort } from '../../cluster/port.js';
import { ConfigError } from '../../errors.js';
import type { TransactionalProducerOptions } from '../producer-types.js';

/** `options.cluster`, or `createKafkaCluster({ bootstrapServers })` from the kafkajs adapter. */
export function resolveCluster(options: TransactionalProducerOptions): ClusterPort {
  if (options.cluster) return options.cluster;
  const bootstrapServers = options.bootstrapServers ?? [];
  if (bootstrapServers.length === 0) throw new ConfigError('TransactionalProducer needs either `cluster` or `bootstrapServers`');
  return createKafkaCluster({ bootstrapServers, logger: options.logger });
}

/** Creates (does not connect) the admin client and the raw producer. */
export function connectClients(options: TransactionalProducerOptions): { admin: AdminPort; raw: RawProducerPort } {
  const cluster = resolveCluster(options);
  return {
    admin: cluster.admin(),
    raw: cluster.producer({
      transactionalId: options.transactionalId,
      transactionTimeoutMs: options.transactionTimeoutMs,
      clientId: options.transactionalId ?? 'sluice-idempotent-producer',
    }),
  };
}
