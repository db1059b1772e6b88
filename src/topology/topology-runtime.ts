/**
 * The executor seam of a built topology: `toRuntime(topology, { applicationId })`
 * gives the {@link TopologyRuntime} that the KafkaStreams runtime and the
 * TopologyTestDriver both use. With an application id, internal
 * (repartition) topics `<name>` are resolved to `<applicationId>-<name>`;
 * without one they keep their unresolved names (as `describe()` prints them).
 */
import { TopologyError } from '../errors.js';
import type { TopologyPlan } from '../processors/plan.js';
import { StreamTask, type StreamTaskOptions } from '../processors/stream-task.js';
import { internalTopicInfos, internalTopicPartitionCounts, resolvePlan } from './internal/internal-topics.js';
import {
  formatTaskId,
  type InternalTopicInfo,
  type RecordCollector,
  type SubtopologyInfo,
  type TaskHandlers,
  type TaskId,
  type TaskProcessor,
  type TopologyRuntime,
} from '../processors/task-contract.js';
import { planOf, type Topology } from './topology.js';

/** A TopologyRuntime over a validated plan. */
export class PlanRuntime implements TopologyRuntime {
  readonly subtopologies: ReadonlyArray<SubtopologyInfo>;
  readonly internalTopics: ReadonlyArray<InternalTopicInfo>;

  constructor(readonly plan: TopologyPlan) {
    if (plan.subtopologies.length === 0) {
      throw new TopologyError('The topology has no source node; add one with addSource(name, topic) or builder.stream(topic)');
    }
    this.subtopologies = plan.subtopologies.map((s) => ({
      id: s.id,
      sourceTopics: [...s.sourceTopics],
      sinkTopics: [...s.sinkTopics],
    }));
    this.internalTopics = internalTopicInfos(plan);
  }

  internalTopicPartitionCounts(external: ReadonlyMap<string, number>): Map<string, number> {
    return internalTopicPartitionCounts(this.internalTopics, external);
  }

  sourceTopics(): string[] {
    return this.subtopologies.flatMap((s) => s.sourceTopics);
  }

  validatePartitionCounts(partitionCounts: ReadonlyMap<string, number>): void {
    for (const sub of this.subtopologies) {
      const counts = sub.sourceTopics.map((topic) => {
        const count = partitionCounts.get(topic);
        if (count === undefined) {
          throw new TopologyError(`Source topic '${topic}' of sub-topology ${sub.id} does not exist; create it before starting the application`);
        }
        return { topic, count };
      });
      if (new Set(counts.map((c) => c.count)).size > 1) {
        throw new TopologyError(
          `Sub-topology ${sub.id} reads topics that are not co-partitioned: ${counts.map((c) => `${c.topic} (${c.count} partitions)`).join(', ')}; ` +
            'topics read by one sub-topology must have the same number of partitions (re-create them, or repartition one through selectKey(...).to(...))',
        );
      }
    }
  }

  createTask(taskId: TaskId, collector: RecordCollector, handlers: TaskHandlers, options?: StreamTaskOptions): TaskProcessor {
    const sub = this.plan.subtopologies.find((s) => s.id === taskId.subtopology);
    if (sub === undefined) {
      throw new TopologyError(`Task ${formatTaskId(taskId)}: no sub-topology ${taskId.subtopology} (there are ${this.plan.subtopologies.length})`);
    }
    if (!Number.isInteger(taskId.partition) || taskId.partition < 0) {
      throw new TopologyError(`Task ${formatTaskId(taskId)}: partition must be a non-negative integer`);
    }
    return new StreamTask(this.plan, sub, { ...taskId }, collector, handlers, options);
  }
}

/** Options of {@link toRuntime}. */
export interface ToRuntimeOptions {
  /** Resolves internal topic names to `<applicationId>-<name>`. */
  applicationId?: string;
}

/** Validates `topology` and returns its executor seam. Throws TopologyError when invalid or empty. */
export function toRuntime(topology: Topology, options: ToRuntimeOptions = {}): PlanRuntime {
  const plan = planOf(topology);
  return new PlanRuntime(options.applicationId === undefined ? plan : resolvePlan(plan, options.applicationId));
}
