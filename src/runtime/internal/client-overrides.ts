/**
 * The client overrides of the config (`producerConfig`, `consumerConfig`; resolved in
 * ../config-clients.ts) as the options of the cluster port's consumer and of sluice's own
 * producer: only the settings given, so every other one keeps the backend's default.
 */
import type { GroupConsumerOptions } from '../../cluster/port.js';
import type { StreamsProducerOptions } from '../../eos/producer-types.js';
import type { ResolvedConfig } from '../config.js';

/** The group consumer's options from `consumerConfig` (fetch sizes and wait, rebalance timeout, isolation level, network). */
export function consumerOverrides(config: Pick<ResolvedConfig, 'consumerSettings'>): Pick<GroupConsumerOptions, 'isolationLevel' | 'maxBytesPerPartition' | 'maxBytes' | 'minBytes' | 'maxWaitMs' | 'rebalanceTimeoutMs' | 'connection'> {
  const s = config.consumerSettings;
  return {
    isolationLevel: s.isolationLevel,
    ...(s.maxBytesPerPartition !== undefined ? { maxBytesPerPartition: s.maxBytesPerPartition } : {}),
    ...(s.fetchMaxBytes !== undefined ? { maxBytes: s.fetchMaxBytes } : {}),
    ...(s.fetchMinBytes !== undefined ? { minBytes: s.fetchMinBytes } : {}),
    ...(s.fetchMaxWaitMs !== undefined ? { maxWaitMs: s.fetchMaxWaitMs } : {}),
    ...(s.rebalanceTimeoutMs !== undefined ? { rebalanceTimeoutMs: s.rebalanceTimeoutMs } : {}),
    ...(Object.keys(s.connection).length > 0 ? { connection: s.connection } : {}),
  };
}

/** A task producer's options from `producerConfig` (linger, batch, buffer memory, request size, max block, back-off, network). */
export function producerOverrides(config: Pick<ResolvedConfig, 'producerSettings'>): Partial<StreamsProducerOptions> {
  const { connection, ...settings } = config.producerSettings;
  return {
    ...settings,
    ...(settings.batchBytes !== undefined ? { batchBytes: Math.max(1, settings.batchBytes) } : {}),
    ...(Object.keys(connection).length > 0 ? { connection } : {}),
  };
}
