/**
 * Creates the internal (repartition) topics of a topology before the app
 * subscribes, as Kafka Streams' InternalTopicManager does: each gets the
 * maximum partition count of the source topics of the sub-topology writing
 * it, or, when a join reads it, the count of the topics it is joined with
 * (`TopologyRuntime.internalTopicPartitionCounts`); an existing one must
 * already have that count.
 */
import type { Logger } from 'pino';
import type { AdminPort } from '../../cluster/port.js';
import { StreamsError } from '../../errors.js';
import type { TopologyRuntime } from '../../processors/task-contract.js';
import { isTopicAlreadyExists, partitionsOf, partitionsOfExisting } from './topic-partitions.js';
import { createInternalTopic, DEFAULT_INTERNAL_TOPIC_SETTINGS, repartitionTopicConfig, type InternalTopicSettings } from './internal-topic-config.js';

/**
 * Ensures every internal topic exists with its partition count; `external`
 * holds the counts of the external source topics. Returns the internal
 * topics' counts. Rejects with a StreamsError (code
 * `INTERNAL_TOPIC_PARTITIONS_MISMATCH`) when one exists with another count.
 * A topic is created with the app's `replicationFactor` and Kafka's repartition
 * configs merged with `topicConfig` (./internal-topic-config.ts).
 */
export async function ensureInternalTopics(
  admin: AdminPort,
  topology: TopologyRuntime,
  external: ReadonlyMap<string, number>,
  logger: Logger,
  settings: InternalTopicSettings = DEFAULT_INTERNAL_TOPIC_SETTINGS,
): Promise<Map<string, number>> {
  const counts = topology.internalTopicPartitionCounts(external);
  for (const [topic, partitions] of counts) {
    const existing = await partitionsOf(admin, topic);
    if (existing === undefined) {
      try {
        await createInternalTopic(admin, topic, { partitions, config: repartitionTopicConfig(settings.topicConfig) }, settings);
        logger.info({ topic, partitions }, 'created repartition topic');
        continue;
      } catch (error) {
        // Another instance created it first: check its count below (once its metadata shows).
        if (!isTopicAlreadyExists(error)) throw error;
      }
    }
    const actual = existing ?? (await partitionsOfExisting(admin, topic));
    if (actual !== partitions) {
      throw new StreamsError(
        `Internal topic '${topic}' exists with ${actual} partitions, but the topology needs ${partitions} ` +
          '(the maximum partition count of the source topics of the sub-topology writing it, or the count of the topics it is joined with); ' +
          'delete it (it holds no state beyond in-flight records) or reset the application, then restart',
        { code: 'INTERNAL_TOPIC_PARTITIONS_MISMATCH', kind: 'fatal' },
      );
    }
  }
  return counts;
}
