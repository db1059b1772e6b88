/** Defaults and validation of the producer's numeric options. */
import { ConfigError } from '../../errors.js';
import type { TransactionalProducerOptions } from '../producer-types.js';
import type { PipelineSettings } from './send-pipeline.js';
import { DEFAULT_MAX_BLOCK_MS } from './metadata-wait.js';
import { DEFAULT_BUFFER_MEMORY_BYTES } from './buffer-memory.js';

/** Resolves defaults (linger 5 ms, batch 512 KiB, request 1 MiB, delivery 120 s, back-off 100 ms, 8 partitions in flight, max block 5 s, buffer 32 MiB) and validates. */
export function resolveSettings(options: TransactionalProducerOptions): PipelineSettings {
  if (!options.cluster && !(options.bootstrapServers && options.bootstrapServers.length > 0)) {
    throw new ConfigError('TransactionalProducer needs either `cluster` or `bootstrapServers`');
  }
  const settings: PipelineSettings = {
    lingerMs: options.lingerMs ?? 5,
    batchBytes: options.batchBytes ?? 512 * 1024,
    maxRequestSize: options.maxRequestSize ?? 1048576,
    deliveryTimeoutMs: options.deliveryTimeoutMs ?? 120_000,
    retryBackoffMs: options.retryBackoffMs ?? 100,
    maxInFlightPartitions: options.maxInFlightPartitions ?? 8,
    // Issue 12 items 5 and 8 (metadata-wait.ts, buffer-memory.ts).
    maxBlockMs: options.maxBlockMs ?? DEFAULT_MAX_BLOCK_MS,
    bufferMemoryBytes: options.bufferMemoryBytes ?? DEFAULT_BUFFER_MEMORY_BYTES,
  };
  for (const [key, value] of Object.entries(settings)) {
    const min = key === 'lingerMs' || key === 'retryBackoffMs' || key === 'maxBlockMs' ? 0 : 1;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
      throw new ConfigError(`TransactionalProducer option '${key}' must be a number >= ${min}, got ${String(value)}`);
    }
  }
  return settings;
}
