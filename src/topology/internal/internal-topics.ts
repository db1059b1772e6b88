/**
 * Internal (repartition) topics of a plan: resolving their names for an
 * application id, and the partition count each one needs.
 */
import { TopologyError } from '../../errors.js';
import type { NodeDef, TopologyPlan } from '../../processors/plan.js';
import type { InternalTopicInfo } from '../../processors/task-contract.js';

/**
 * The plan with every internal topic `<name>` renamed `<applicationId>-<name>`
 * (in source and sink nodes and in the sub-topologies), as Kafka Streams
 * names internal topics. Without internal topics the plan is returned as is.
 */
export function resolvePlan(plan: TopologyPlan, applicationId: string): TopologyPlan {
  if (plan.internalTopics.length === 0) return plan;
  const internal = new Set(plan.internalTopics);
  const rename = (topic: string): string => (internal.has(topic) ? `${applicationId}-${topic}` : topic);
  const nodes = new Map<string, NodeDef>();
  for (const [name, def] of plan.nodes) {
    if (def.kind === 'source') nodes.set(name, { ...def, topics: def.topics.map(rename) });
    else if (def.kind === 'sink' && typeof def.topic === 'string') nodes.set(name, { ...def, topic: rename(def.topic) });
    else nodes.set(name, def);
  }
  return {
    ...plan,
    nodes,
    subtopologies: plan.subtopologies.map((s) => ({ ...s, sourceTopics: s.sourceTopics.map(rename), sinkTopics: s.sinkTopics.map(rename) })),
    internalTopics: plan.internalTopics.map(rename),
    internalTopicPartitions: new Map([...(plan.internalTopicPartitions ?? [])].map(([t, n]) => [rename(t), n])),
    ...(plan.copartitionGroups ? { copartitionGroups: plan.copartitionGroups.map((g) => g.map(rename)) } : {}),
    internalTopicsSizedByReaders: (plan.internalTopicsSizedByReaders ?? []).map(rename),
  };
}

/**
 * Each internal topic with the source topics of the sub-topologies writing it
 * (Kafka Streams: its partition count is the maximum of theirs); a topic
 * sized by its readers (`internalTopicsSizedByReaders`) takes the other
 * source topics of the sub-topologies reading it instead (those sized by
 * readers left out, so two such topics never size each other).
 */
export function internalTopicInfos(plan: TopologyPlan): InternalTopicInfo[] {
  const byReaders = new Set(plan.internalTopicsSizedByReaders ?? []);
  return plan.internalTopics.map((name) => {
    const writers = plan.subtopologies.filter((s) => s.sinkTopics.includes(name));
    const readers = plan.subtopologies.filter((s) => s.sourceTopics.includes(name));
    const fixed = plan.internalTopicPartitions?.get(name);
    const from = byReaders.has(name) ? readers.flatMap((s) => s.sourceTopics).filter((t) => !byReaders.has(t)) : writers.flatMap((s) => s.sourceTopics);
    return {
      name,
      ...(fixed !== undefined ? { numberOfPartitions: fixed } : {}),
      partitionCountFrom: [...new Set(from)],
      writtenBy: writers.map((s) => s.id),
      readBy: readers.map((s) => s.id),
    };
  });
}

/**
 * The partition count of every internal topic, given the counts of the
 * external source topics: its fixed `numberOfPartitions`, else the maximum over `partitionCountFrom`, resolved
 * recursively when an upstream sub-topology itself reads an internal topic.
 */
export function internalTopicPartitionCounts(infos: readonly InternalTopicInfo[], external: ReadonlyMap<string, number>): Map<string, number> {
  const byName = new Map(infos.map((i) => [i.name, i]));
  const counts = new Map<string, number>();
  const countOf = (topic: string, path: string[]): number => {
    const known = external.get(topic) ?? counts.get(topic);
    if (known !== undefined) return known;
    const info = byName.get(topic);
    if (info?.numberOfPartitions !== undefined) {
      counts.set(topic, info.numberOfPartitions);
      return info.numberOfPartitions;
    }
    if (info === undefined) {
      throw new TopologyError(`Cannot size internal topic '${path[path.length - 1]}': the partition count of its upstream topic '${topic}' is unknown`);
    }
    if (path.includes(topic) || info.partitionCountFrom.length === 0) {
      throw new TopologyError(`Cannot size internal topic '${topic}': no upstream source topic determines its partition count`);
    }
    const count = Math.max(...info.partitionCountFrom.map((t) => countOf(t, [...path, topic])));
    counts.set(topic, count);
    return count;
  };
  for (const info of infos) countOf(info.name, []);
  return counts;
}
