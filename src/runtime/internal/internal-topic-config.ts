/**
 * The topic configs and replication factor sluice creates its internal topics
 * with, merged as Kafka Streams' `InternalTopicConfig.properties` does:
 * "library overrides < global config overrides (`topic.*`) < per-topic config
 * overrides".
 *
 * - Repartition topics (`RepartitionTopicConfig`): `cleanup.policy=delete`,
 *   `segment.bytes=52428800`, `retention.ms=-1` (records are deleted by the
 *   purge after commits, not by retention), `message.timestamp.type=CreateTime`;
 *   then the user's `topicConfig`.
 * - Changelog topics (`UnwindowedUnversionedChangelogTopicConfig`,
 *   `WindowedChangelogTopicConfig`): `message.timestamp.type=CreateTime` and
 *   the store kind's `cleanup.policy` (`compact`, window stores
 *   `compact,delete`); then `topicConfig`; then the store's own
 *   `withLoggingEnabled(config)`. A window store's `retention.ms` (its
 *   retention + 1 day) wins over `topicConfig` unless the store sets its own,
 *   as in Kafka. As in Kafka, a `topicConfig['cleanup.policy']` replaces the
 *   changelogs' default policy too (a `delete` policy makes state older than
 *   `retention.ms` unrecoverable): set it per store instead.
 */
import type { AdminPort, NewTopic } from '../../cluster/port.js';
import { ConfigError, KafkaErrorCode, KafkaProtocolError } from '../../errors.js';

/** What the app configures for its internal topics (`replicationFactor`, `topicConfig`). */
export interface InternalTopicSettings {
  replicationFactor: number;
  topicConfig: Readonly<Record<string, string>>;
}

/** No user setting: the broker's replication factor, sluice's defaults. */
export const DEFAULT_INTERNAL_TOPIC_SETTINGS: InternalTopicSettings = { replicationFactor: -1, topicConfig: {} };

/** Kafka's `INTERNAL_TOPIC_DEFAULT_OVERRIDES`. */
const INTERNAL_TOPIC_DEFAULTS = { 'message.timestamp.type': 'CreateTime' };

/** Kafka's `REPARTITION_TOPIC_DEFAULT_OVERRIDES`. */
export const REPARTITION_TOPIC_DEFAULTS: Readonly<Record<string, string>> = {
  ...INTERNAL_TOPIC_DEFAULTS,
  'cleanup.policy': 'delete',
  'segment.bytes': '52428800',
  'retention.ms': '-1',
};

/** The cleanup policies sluice's store builders set by default (anything else was set per store). */
const DEFAULT_CHANGELOG_POLICIES = new Set(['compact', 'compact,delete']);

/** Configs of a repartition topic: Kafka's repartition defaults, then the user's `topicConfig`. */
export function repartitionTopicConfig(topicConfig: Readonly<Record<string, string>>): Record<string, string> {
  return { ...REPARTITION_TOPIC_DEFAULTS, ...topicConfig };
}

/**
 * Configs of a changelog topic from the store's changelog configs (its kind's `cleanup.policy`, a window
 * store's `retention.ms`, and what the store set itself) and the user's `topicConfig` (see the module comment).
 */
export function changelogTopicConfig(storeConfig: Readonly<Record<string, string>>, topicConfig: Readonly<Record<string, string>>): Record<string, string> {
  const library: Record<string, string> = { ...INTERNAL_TOPIC_DEFAULTS };
  const perStore: Record<string, string> = {};
  for (const [name, value] of Object.entries(storeConfig)) {
    if (name === 'cleanup.policy' && DEFAULT_CHANGELOG_POLICIES.has(value)) library[name] = value;
    else perStore[name] = value;
  }
  return { ...library, ...topicConfig, ...perStore };
}

/**
 * Creates an internal topic with the app's replication factor. A broker refusing the factor
 * (INVALID_REPLICATION_FACTOR, 38: more replicas than brokers) becomes a {@link ConfigError} naming
 * `replicationFactor`; other errors pass unchanged.
 */
export async function createInternalTopic(admin: AdminPort, topic: string, options: NewTopic, settings: InternalTopicSettings): Promise<void> {
  try {
    await admin.createTopic(topic, settings.replicationFactor === -1 ? options : { ...options, replicationFactor: settings.replicationFactor });
  } catch (error) {
    if (error instanceof KafkaProtocolError && error.kafkaCode === KafkaErrorCode.INVALID_REPLICATION_FACTOR) {
      throw new ConfigError(
        `Config 'replicationFactor' (${settings.replicationFactor}): the cluster refused to create internal topic '${topic}' with it (${error.message}). ` +
          "Set 'replicationFactor' to at most the number of brokers, or -1 for the broker's default",
        { cause: error },
      );
    }
    throw error;
  }
}
