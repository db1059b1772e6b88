/**
 * Every duration key of {@link KafkaStreamsConfig} checked by one helper:
 * a whole number of milliseconds from 1 (or the key's own minimum in
 * {@link DURATION_MIN}, e.g. 0 for `repartitionPurgeIntervalMs`) to 2147483647
 * (2^31-1, the longest delay a Node timer keeps; a larger one fires after 1 ms).
 * A bad value is a {@link ConfigError} naming the key and the maximum. A key
 * added to the config that is a duration belongs in {@link DURATION_KEYS}.
 * (The millisecond keys of `producerConfig` / `consumerConfig` / `adminConfig`
 * are checked the same way by config-clients.ts.)
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
  'repartitionPurgeIntervalMs',
  'asyncCallTimeoutMs',
];

/** Keys of {@link DURATION_KEYS} whose smallest value is not 1 ms. */
export const DURATION_MIN: Readonly<Record<string, number>> = {
  /** 0: purge after every commit (Kafka's `repartition.purge.interval.ms` allows 0 too). */
  repartitionPurgeIntervalMs: 0,
};

/** Throws a {@link ConfigError} for the first key of {@link DURATION_KEYS} set to something other than 1 (or its {@link DURATION_MIN})..2147483647 ms. */
export function checkDurations(config: Record<string, unknown>): void {
  for (const key of DURATION_KEYS) {
    const value = config[key];
    if (value === undefined) continue;
    const problem = durationProblem(value, DURATION_MIN[key] ?? 1);
    if (problem) throw new ConfigError(`Config '${key}' ${problem}`);
  }
}
