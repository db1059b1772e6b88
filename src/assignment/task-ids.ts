/**
 * Task-id helpers of the assignor: the order of tasks (sub-topology, then
 * partition, as Kafka's `TaskId.compareTo`) and the tasks of a topology with
 * their input partitions (Kafka's `PartitionGrouper`: task `<s>_<p>` reads
 * partition `p` of every source topic of sub-topology `s`, so co-partitioned
 * sources always stay together).
 */
import { formatTaskId, parseTaskId } from '../records/task-id.js';
import type { TopicPartition } from '../records/types.js';

/** Orders task ids by sub-topology, then partition. */
export function compareTaskIdText(a: string, b: string): number {
  const x = parseTaskId(a);
  const y = parseTaskId(b);
  return x.subtopology - y.subtopology || x.partition - y.partition;
}

/** The sub-topology of a task id. */
export function subtopologyOf(task: string): number {
  return parseTaskId(task).subtopology;
}

/** A sub-topology as the assignor needs it. */
export interface AssignorSubtopology {
  readonly id: number;
  /** Its source topics (co-partitioned). */
  readonly sourceTopics: readonly string[];
}

/**
 * The tasks of `subtopologies` and their partitions: one task per partition
 * of the sub-topology's largest source topic (Kafka's `maxNumPartitions`);
 * each task gets that partition of every source topic that has it. Topics
 * with an unknown count are left out.
 */
export function tasksOfTopology(subtopologies: readonly AssignorSubtopology[], partitionCount: (topic: string) => number | undefined): Map<string, TopicPartition[]> {
  const tasks = new Map<string, TopicPartition[]>();
  for (const sub of subtopologies) {
    const counts = sub.sourceTopics.map((topic) => ({ topic, count: partitionCount(topic) ?? 0 }));
    const max = Math.max(0, ...counts.map((c) => c.count));
    for (let partition = 0; partition < max; partition++) {
      tasks.set(
        formatTaskId({ subtopology: sub.id, partition }),
        counts.filter((c) => partition < c.count).map((c) => ({ topic: c.topic, partition })),
      );
    }
  }
  return tasks;
}
