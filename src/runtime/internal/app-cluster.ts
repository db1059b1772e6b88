/**
 * The cluster an app (or the public `TransactionalProducer`) runs on: the
 * given cluster port, else kafkajs on `bootstrapServers`. This is the
 * runtime's one `createKafkaCluster` call.
 */
import type { Logger } from 'pino';
import { createKafkaCluster } from '../../cluster/kafkajs/index.js';
import type { ClusterPort } from '../../cluster/port.js';
import { defined } from '../../internal/defined.js';
import type { ClusterSettings } from './app-settings.js';

/** What {@link clusterFor} reads: a {@link ClusterSettings} or a producer's options. */
export type ClusterChoice = { [K in keyof ClusterSettings]?: ClusterSettings[K] | undefined } & { logger?: Logger | undefined };

/** `settings.cluster`, else a kafkajs cluster on `settings.bootstrapServers` (with its client id, logger, TLS and SASL). */
export function clusterFor(settings: ClusterChoice): ClusterPort {
  if (settings.cluster) return settings.cluster;
  const { bootstrapServers, clientId, logger, ssl, sasl } = settings;
  return createKafkaCluster({ bootstrapServers: defined(bootstrapServers, "config 'bootstrapServers' (set whenever 'cluster' is not)"), clientId, logger, ssl, sasl });
}
