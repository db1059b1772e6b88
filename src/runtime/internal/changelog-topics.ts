/**
 * Creates the changelog topics of the logged state stores before the app
 * subscribes, as Kafka Streams' InternalTopicManager does: each
 * `<applicationId>-<storeName>-changelog` gets the partition count of the
 * source topics of the sub-topology owning the store (task partition p logs
 * to changelog partition p) and the store's topic configs
 * (`cleanup.policy=compact`, window stores `compact,delete`) merged with the
 * app's `topicConfig` as Kafka does, and the app's `replicationFactor`
 * (./internal-topic-config.ts); an existing one must have that count.
 */
import type { Logger } from 'pino';
import type { AdminPort } from '../../cluster/port.js';
import { StreamsError } from '../../errors.js';
import type { TopologyRuntime } from '../../processors/task-contract.js';
import { isTopicAlreadyExists, partitionsOf, partitionsOfExisting } from './topic-partitions.js';
import { changelogTopicConfig, createInternalTopic, DEFAULT_INTERNAL_TOPIC_SETTINGS, type InternalTopicSettings } from './internal-topic-config.js';

/** Ensures every changelog topic exists with the partition count of its sub-topology's sources. Returns the topics created or checked. */
export async function ensureChangelogTopics(
  admin: AdminPort,
  topology: TopologyRuntime,
  applicationId: string,
  partitionCounts: ReadonlyMap<string, number>,
  logger: Logger,
  settings: InternalTopicSettings = DEFAULT_INTERNAL_TOPIC_SETTINGS,
): Promise<string[]> {
  const topics = topology.changelogTopics?.(applicationId) ?? [];
  for (const info of topics) {
    const sub = topology.subtopologies.find((s) => s.id === info.subtopology);
    const partitions = Math.max(0, ...(sub?.sourceTopics ?? []).map((t) => partitionCounts.get(t) ?? 0));
    if (partitions === 0) continue;
    let existing = await partitionsOf(admin, info.topic);
    if (existing === undefined) {
      try {
        await createInternalTopic(admin, info.topic, { partitions, config: changelogTopicConfig(info.config, settings.topicConfig) }, settings);
        logger.info({ topic: info.topic, partitions, store: info.storeName }, 'created changelog topic');
        continue;
      } catch (error) {
        // Another instance created it first: check its count (once its metadata shows).
        if (!isTopicAlreadyExists(error)) throw error;
        existing = await partitionsOfExisting(admin, info.topic);
      }
    }
    if (existing !== partitions) {
      throw new StreamsError(
        `Changelog topic '${info.topic}' of store '${info.storeName}' exists with ${existing} partitions, but the store's tasks need ${partitions} ` +
          '(the partition count of the source topics of its sub-topology); the state in it cannot be mapped to the tasks. ' +
          'Reset the application (delete its internal topics) or change the source topics back, then restart',
        { code: 'INTERNAL_TOPIC_PARTITIONS_MISMATCH', kind: 'fatal' },
      );
    }
  }
  return topics.map((t) => t.topic);
}
