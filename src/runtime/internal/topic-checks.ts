/**
 * The output-topic check of `KafkaStreams.start()`: every static sink topic of
 * the topology and every dead-letter topic a handler declares
 * (`deadLetterTopics()`) must exist. sluice does not create output topics;
 * without this check a typo (`to('ordrs-out')`, `deadLetterQueueHandler({ topic:
 * 'typo' })`) leaves the app RUNNING with no commit until the producer's
 * delivery timeout. Source topics are checked by `PartitionCounts.loadSources`,
 * internal (repartition) topics are created before this runs.
 */
import type { AdminPort } from '../../cluster/port.js';
import { StreamsError } from '../../errors.js';
import type { HandlerHooks } from '../../handlers/types.js';
import type { TopologyRuntime } from '../../processors/task-contract.js';

/** The handler slots of the config, by key. */
export type HandlerSlots = Readonly<Record<'productionExceptionHandler' | 'deserializationExceptionHandler' | 'processingExceptionHandler', unknown>>;

/** One topic the app writes to, and who writes it (for the error message). */
interface OutputTopic {
  topic: string;
  writer: string;
}

function deadLetterTopicsOf(key: string, handler: unknown): OutputTopic[] {
  const declared = (handler as HandlerHooks | null | undefined)?.deadLetterTopics;
  if (typeof declared !== 'function') return [];
  const topics: unknown = declared.call(handler);
  if (!Array.isArray(topics)) return [];
  return topics.filter((t): t is string => typeof t === 'string' && t !== '').map((topic) => ({ topic, writer: `dead-letter topic of ${key}` }));
}

/** The static sink topics and the declared dead-letter topics, without the internal topics. */
export function outputTopicsOf(topology: TopologyRuntime, handlers: HandlerSlots): OutputTopic[] {
  const internal = new Set(topology.internalTopics.map((t) => t.name));
  const sinks = topology.subtopologies.flatMap((s) => s.sinkTopics.map((topic) => ({ topic, writer: `sink of sub-topology ${s.id}` })));
  const dlq = Object.entries(handlers).flatMap(([key, handler]) => deadLetterTopicsOf(key, handler));
  return [...sinks, ...dlq].filter((t) => !internal.has(t.topic));
}

/**
 * Steps:
 * 1. collect the static sink topics and the handlers' dead-letter topics;
 * 2. list the cluster's topics once;
 * 3. reject with one error naming every missing topic and who writes it, and saying to create them; on a
 *    secured cluster (`principal` known) also that the principal may lack WRITE: Kafka lists only the
 *    topics a principal may describe, and WRITE grants DESCRIBE.
 */
export async function checkOutputTopics(admin: AdminPort, topology: TopologyRuntime, handlers: HandlerSlots, principal?: string): Promise<void> {
  // 1. collect
  const wanted = outputTopicsOf(topology, handlers);
  if (wanted.length === 0) return;
  // 2. list
  const existing = new Set(await admin.listTopics());
  // 3. report
  const missing = new Map<string, string[]>();
  for (const { topic, writer } of wanted) {
    if (existing.has(topic)) continue;
    const writers = missing.get(topic) ?? [];
    if (!writers.includes(writer)) writers.push(writer);
    missing.set(topic, writers);
  }
  if (missing.size === 0) return;
  const list = [...missing].map(([topic, writers]) => `'${topic}' (${writers.join(', ')})`).join(', ');
  const acl =
    principal === undefined
      ? ''
      : ` — or ${principal} is not allowed to WRITE ${missing.size > 1 ? 'them' : 'it'} (the cluster hides the topics a principal may not describe): ` +
        `grant WRITE, e.g. kafka-acls.sh --add --allow-principal ${principal.startsWith('User:') ? principal : 'User:<principal>'} --operation WRITE ${[...missing.keys()].map((t) => `--topic '${t}'`).join(' ')}`;
  throw new StreamsError(
    `Output topic${missing.size > 1 ? 's' : ''} ${list} ${missing.size > 1 ? 'do' : 'does'} not exist; ` +
      `create ${missing.size > 1 ? 'them' : 'it'} before starting the app (sluice does not create output topics), or fix the topic name${acl}`,
    { code: 'MISSING_OUTPUT_TOPIC', kind: 'fatal' },
  );
}
