/**
 * The task assignor of an app (`src/assignment/streams-assignor.ts`) wired to
 * the runtime: the topology's sub-topologies and state topics, the changelog
 * end offsets read through the app's admin, and the instance's subscription:
 * 1. process id and `applicationServer`;
 * 2. previous active tasks: the tasks the instance runs now;
 * 3. task offset sums: for every standby task open here, the live sum of its
 *    changelog positions; for every other task folder with state on disk, the
 *    sum of its checkpoint file (`task-checkpoint.ts`); a folder without one
 *    is not reported.
 */
import type { GroupAssignor } from '../../cluster/port.js';
import type { Logger } from '../../internal/logger.js';
import type { TopologyRuntime } from '../../processors/task-contract.js';
import { streamsAssignor } from '../../assignment/streams-assignor.js';
import type { StateDirectory } from './state-directory.js';
import { taskOffsetSum } from './task-checkpoint.js';

/** What the assignor of an app needs. */
export interface AppAssignorDeps {
  topology: TopologyRuntime;
  applicationId: string;
  processId: string;
  applicationServer: string | undefined;
  acceptableRecoveryLag: number;
  /** Standby replicas per stateful task (config `numStandbyReplicas`). */
  numStandbyReplicas: number;
  /** Warm-up replicas in the whole assignment (config `maxWarmupReplicas`). */
  maxWarmupReplicas: number;
  /** Delay of the probing rebalance while warm-ups exist (config `probingRebalanceIntervalMs`). */
  probingRebalanceIntervalMs: number;
  directories: () => StateDirectory;
  runningTasks: () => readonly string[];
  /** The standby tasks open on this instance and their live offset sums (reported instead of their checkpoint files). */
  standbyOffsetSums?: () => ReadonlyMap<string, number>;
  endOffsets(topic: string): Promise<number[]>;
  logger: Logger;
}

/**
 * Every stateful sub-topology (one with a store) and the topics holding its state: its changelogs and the
 * source topics serving as changelogs (a sub-topology whose stores log nothing has an empty list).
 */
export function stateTopicsOf(topology: TopologyRuntime, applicationId: string): Map<number, string[]> {
  const topics = new Map<number, string[]>();
  const add = (sub: number, topic?: string) => topics.set(sub, [...new Set([...(topics.get(sub) ?? []), ...(topic === undefined ? [] : [topic])])]);
  for (const c of topology.changelogTopics?.(applicationId) ?? []) add(c.subtopology, c.topic);
  const sourceChangelogs = topology.sourceChangelogs?.() ?? new Map<string, string>();
  for (const [sub, stores] of topology.storesBySubtopology?.() ?? new Map<number, readonly string[]>()) {
    for (const store of stores) add(sub, sourceChangelogs.get(store));
  }
  return topics;
}

/** See the module comment. */
export function appAssignor(deps: AppAssignorDeps): GroupAssignor {
  return streamsAssignor({
    subtopologies: deps.topology.subtopologies,
    stateTopics: stateTopicsOf(deps.topology, deps.applicationId),
    endOffsets: deps.endOffsets,
    acceptableRecoveryLag: deps.acceptableRecoveryLag,
    numStandbyReplicas: deps.numStandbyReplicas,
    maxWarmupReplicas: deps.maxWarmupReplicas,
    probingRebalanceIntervalMs: deps.probingRebalanceIntervalMs,
    logger: deps.logger,
    subscription: () => {
      // 1.–2.
      const running = new Set(deps.runningTasks());
      // 3.
      const taskOffsetSums: Record<string, number> = {};
      const standbys = deps.standbyOffsetSums?.() ?? new Map<string, number>();
      for (const [taskId, sum] of standbys) if (!running.has(taskId)) taskOffsetSums[taskId] = sum;
      for (const { taskId, path } of deps.directories().listNonEmptyTaskDirectories()) {
        if (running.has(taskId) || standbys.has(taskId)) continue;
        const sum = taskOffsetSum(path, deps.logger);
        if (sum !== undefined) taskOffsetSums[taskId] = sum;
      }
      return {
        processId: deps.processId,
        ...(deps.applicationServer !== undefined ? { applicationServer: deps.applicationServer } : {}),
        previousActive: [...running],
        taskOffsetSums,
      };
    },
  });
}
