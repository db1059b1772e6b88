/**
 * Regex subscriptions at start: `KafkaStreams.start()` resolves each source
 * pattern (`builder.stream(/orders-.+/)`) once against the cluster's topics,
 * before it sizes internal topics, checks co-partitioning and subscribes.
 * Unlike Kafka Streams, which keeps the pattern subscription and picks up
 * matching topics created later, sluice reads only the topics that exist at
 * start (a restart picks up new ones); a pattern matching no topic fails
 * start() naming it rather than leaving the app running with nothing to read.
 */
import type { Logger } from 'pino';
import type { AdminPort } from '../../cluster/port.js';
import type { TopologyRuntime } from '../../processors/task-contract.js';

/**
 * True for the topics a pattern never matches, as Kafka's consumer with
 * `exclude.internal.topics` plus Kafka Streams' own internal topics: the
 * broker's (`__consumer_offsets`, `__transaction_state`, ...), this app's
 * repartition and changelog topics (`<applicationId>-…-repartition` /
 * `-changelog`), and the topology's internal topics.
 */
export function isExcludedFromPatterns(topic: string, applicationId: string, internal: ReadonlySet<string>): boolean {
  if (topic.startsWith('__') || internal.has(topic)) return true;
  return topic.startsWith(`${applicationId}-`) && (topic.endsWith('-repartition') || topic.endsWith('-changelog'));
}

/**
 * The topology with its source patterns resolved:
 * 1. no pattern: the topology as is (no admin call);
 * 2. list the cluster's topics and drop the excluded ones ({@link isExcludedFromPatterns});
 * 3. resolve (a TopologyError names a pattern matching no topic, or a topic two patterns match);
 * 4. log what each pattern matched.
 */
export async function resolveSourcePatterns(admin: AdminPort, topology: TopologyRuntime, applicationId: string, logger: Logger): Promise<TopologyRuntime> {
  // 1. no pattern
  const patterns = topology.sourcePatterns?.() ?? [];
  if (patterns.length === 0 || topology.resolveSourcePatterns === undefined) return topology;
  // 2. topics
  const internal = new Set(topology.internalTopics.map((t) => t.name));
  const topics = (await admin.listTopics()).filter((t) => !isExcludedFromPatterns(t, applicationId, internal));
  // 3. resolve
  const resolved = topology.resolveSourcePatterns(topics);
  // 4. log
  for (const p of patterns) {
    const matched = topics.filter((t) => p.pattern.test(t) && resolved.sourceTopics().includes(t));
    logger.info({ source: p.source, pattern: p.text, topics: matched }, 'resolved source pattern');
  }
  return resolved;
}
