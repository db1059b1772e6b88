/** Creates the kafkajs-backed cluster for a producer configured with `bootstrapServers`. */
import { createKafkaCluster } from '../../client/kafkajs/index.js';
import type { ClusterPort } from '../../client/port.js';
import { ConfigError } from '../../errors.js';
import type { Logger } from '../../internal/logger.js';

/** `createKafkaCluster({ bootstrapServers })` from the kafkajs adapter. */
export function resolveCluster(bootstrapServers: string[], logger?: Logger): ClusterPort {
  if (bootstrapServers.length === 0) throw new ConfigError('TransactionalProducer needs either `cluster` or `bootstrapServers`');
  return createKafkaCluster({ bootstrapServers, logger });
}
