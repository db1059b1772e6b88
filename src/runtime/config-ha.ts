/**
 * The high-availability keys of {@link KafkaStreamsConfig} (Kafka Streams'
 * `num.standby.replicas`, `max.warmup.replicas`,
 * `probing.rebalance.interval.ms` and the consumer's `group.instance.id`),
 * validated in one place. Every problem is a {@link ConfigError} naming the key.
 */
import { ConfigError } from '../errors.js';
import { wholeNumberConfig } from './config-number.js';

/** The HA keys as a user writes them. */
export interface HighAvailabilityConfig {
  /**
   * Standby replicas per stateful task (Kafka's `num.standby.replicas`): other instances keep a copy of
   * the task's stores current by reading its changelogs, so a failed active task moves to an instance
   * that restores only the remaining lag. Never on the instance running the task. Default 0.
   */
  numStandbyReplicas?: number;
  /**
   * How many warm-up replicas may be assigned at once across the group (Kafka's `max.warmup.replicas`):
   * when a stateful task should move to an instance that is not caught up, it stays where its state is
   * and the new instance warms a copy up first (KIP-441). Default 2, at least 1.
   */
  maxWarmupReplicas?: number;
  /**
   * While warm-up replicas exist, the group rebalances this often (ms) to move caught-up warm-ups to
   * active (Kafka's `probing.rebalance.interval.ms`). Default 600000. Kafka requires at least 60000;
   * sluice accepts any positive value (tests use seconds).
   */
  probingRebalanceIntervalMs?: number;
  /**
   * A stable id of this instance in the consumer group (Kafka's `group.instance.id`, static membership,
   * KIP-345): a restart within the session timeout rejoins as the same member and triggers no rebalance,
   * and a clean close does not leave the group. Unique per instance of the application. Default: none
   * (dynamic membership).
   */
  groupInstanceId?: string;
}

/** The HA keys with defaults filled in. */
export interface ResolvedHighAvailabilityConfig {
  numStandbyReplicas: number;
  maxWarmupReplicas: number;
  probingRebalanceIntervalMs: number;
  groupInstanceId: string | undefined;
}

/** The keys of {@link HighAvailabilityConfig}. */
export const HIGH_AVAILABILITY_KEYS: readonly string[] = ['numStandbyReplicas', 'maxWarmupReplicas', 'probingRebalanceIntervalMs', 'groupInstanceId'];

/** Kafka's default `max.warmup.replicas`. */
export const DEFAULT_MAX_WARMUP_REPLICAS = 2;
/** Kafka's default `probing.rebalance.interval.ms`. */
export const DEFAULT_PROBING_REBALANCE_INTERVAL_MS = 600_000;

/** Validates the HA keys of a config object. */
export function resolveHighAvailability(config: Record<string, unknown>): ResolvedHighAvailabilityConfig {
  return {
    numStandbyReplicas: wholeNumberConfig(config, 'numStandbyReplicas', 0, 0, 'standby replicas per stateful task; 0 turns them off'),
    maxWarmupReplicas: wholeNumberConfig(config, 'maxWarmupReplicas', DEFAULT_MAX_WARMUP_REPLICAS, 1, 'warm-up replicas assigned at once'),
    probingRebalanceIntervalMs: wholeNumberConfig(config, 'probingRebalanceIntervalMs', DEFAULT_PROBING_REBALANCE_INTERVAL_MS, 1, 'ms between probing rebalances while warm-ups exist'),
    groupInstanceId: groupInstanceIdOf(config.groupInstanceId),
  };
}


/** The optional `groupInstanceId` (static membership). */
export function groupInstanceIdOf(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^[A-Za-z0-9._-]{1,249}$/.test(value)) {
    throw new ConfigError(
      `Config 'groupInstanceId' must be 1 to 249 letters, digits, '.', '_' or '-', unique per instance (e.g. 'orders-worker-1'), got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}`,
    );
  }
  return value;
}
