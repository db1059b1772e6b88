/**
 * Every duration key of {@link KafkaStreamsConfig} checked by one helper:
 * a whole number of milliseconds from 1 to 2147483647 (2^31-1, the longest
 * delay a Node timer keeps; a larger one fires after 1 ms). A bad value is a
 * {@link ConfigError} naming the key and the maximum. A key added to the config
 * that is a duration belongs in {@link DURATION_KEYS}.
 */
import { ConfigError } from '../errors.js';
import { durationProblem, MAX_TIMER_MS } from '../internal/durations.js';

export { MAX_TIMER_MS };

/** The config keys that are durations in milliseconds (each reaches a timer or a client timeout). */
export const DURATION_KEYS: readonly string[] = [
  'commitIntervalMs',
  'taskRestartBackoffMs',
  'sessionTimeoutMs',
  'heartbeatIntervalMs',
  'transactionTimeoutMs',
  'deliveryTimeoutMs',
  'stateCleanupDelayMs',
  'probingRebalanceIntervalMs',
];

/** Throws a {@link ConfigError} for the first key of {@link DURATION_KEYS} set to something other than 1..2147483647 ms. */
export function checkDurations(config: Record<string, unknown>): void {
  for (const key of DURATION_KEYS) {
    const value = config[key];
    if (value === undefined) continue;
    const problem = durationProblem(value);
    if (problem) throw new ConfigError(`Config '${key}' ${problem}`);
  }
}
