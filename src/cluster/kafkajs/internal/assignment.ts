/**
 * Pure bookkeeping of a group member's assignment: diffs between consecutive
 * assignments and per-partition keys. Kept free of kafkajs for unit tests.
 */
import type { TopicPartition } from '../../port.js';
import { topicPartitionKey } from '../../../records/topic-partition.js';

/** A map key for a topic-partition (the shared `<topic>-<partition>` key). */
export const tpKey = topicPartitionKey;

/** kafkajs' `memberAssignment` (GROUP_JOIN payload) as a sorted list of topic-partitions. */
export function fromMemberAssignment(memberAssignment: Record<string, number[]>): TopicPartition[] {
  const result: TopicPartition[] = [];
  for (const [topic, partitions] of Object.entries(memberAssignment)) {
    for (const partition of partitions) result.push({ topic, partition });
  }
  return sortPartitions(result);
}

/** Sorts by topic, then partition. */
export function sortPartitions(list: TopicPartition[]): TopicPartition[] {
  return list.sort((a, b) => (a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1));
}

/** The change from one assignment to the next. */
export interface AssignmentDiff {
  assigned: TopicPartition[];
  revoked: TopicPartition[];
  kept: TopicPartition[];
}

/** Diffs two assignments (whole old vs whole new). */
export function diffAssignment(previous: TopicPartition[], next: TopicPartition[]): AssignmentDiff {
  const before = new Set(previous.map(tpKey));
  const after = new Set(next.map(tpKey));
  return {
    assigned: sortPartitions(next.filter((tp) => !before.has(tpKey(tp)))),
    revoked: sortPartitions(previous.filter((tp) => !after.has(tpKey(tp)))),
    kept: sortPartitions(next.filter((tp) => before.has(tpKey(tp)))),
  };
}
