/** The kafkajs `retry` option of a client from its network settings (Kafka's `retries` and back-off keys). */
import type { ClientConnectionOptions } from '../../port.js';

/**
 * kafkajs' `retry` option for a client's network settings (Kafka's `retries`, `retry.backoff.ms`,
 * `retry.backoff.max.ms`), layered on `base`; undefined when nothing is set and there is no base.
 */
export function kafkaJsRetry(connection: ClientConnectionOptions, base?: Record<string, unknown>): Record<string, unknown> | undefined {
  const retry: Record<string, unknown> = { ...base };
  if (connection.retries !== undefined) retry.retries = connection.retries;
  if (connection.retryBackoffMs !== undefined) retry.initialRetryTime = connection.retryBackoffMs;
  if (connection.retryBackoffMaxMs !== undefined) retry.maxRetryTime = connection.retryBackoffMaxMs;
  return Object.keys(retry).length === 0 ? undefined : retry;
}
