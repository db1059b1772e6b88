/**
 * Whole-number config values, checked one way for every key that takes one
 * (`numStandbyReplicas`, `maxTaskIdleMs`, `bufferedRecordsPerPartition`, ...).
 */
import { ConfigError } from '../errors.js';

/**
 * `config[key]` as a whole number of at least `min`, or `fallback` when unset.
 * @throws ConfigError naming the key, the bound and what the value means (`what`).
 */
export function wholeNumberConfig(config: Record<string, unknown>, key: string, fallback: number, min: number, what: string): number {
  const value = config[key];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new ConfigError(`Config '${key}' must be a whole number >= ${min} (${what}), got ${String(value)}`);
  }
  return value;
}
