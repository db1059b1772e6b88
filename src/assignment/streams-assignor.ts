/**
 * sluice's group assignor (Kafka Streams' `StreamsPartitionAssignor`): the
 * {@link GroupAssignor} both cluster backends run, built by the runtime from
 * the topology.
 *
 * On the group leader, `assign` (Kafka's `assign(metadata, groupSubscription)`):
 * 1. decode every member's subscription (`user-data.ts`); one that cannot be
 *    decoded counts as a member without state, without host and with a
 *    process of its own (logged). The members (stream threads) of one
 *    instance share its `processId`: standbys and warm-ups never go to the
 *    process running the task (`task-assignor.ts`);
 * 2. the tasks and their partitions from the topology and the leader's
 *    partition counts (`task-ids.ts`: co-partitioned sources together);
 * 3. the lag of every member on every stateful task (Kafka's
 *    `ClientState.computeTaskLags`): 0 for a task it runs now, else the
 *    changelog end offsets' sum minus the offset sum it reported for its
 *    state on disk (its standby tasks included); no state, or an offset sum
 *    past the end (corrupted state): the end sum, i.e. a full restore, so a
 *    member without state is caught up on a short changelog. Unknown end
 *    offsets: every member with state counts as caught up, the others have
 *    no lag;
 * 4. {@link assignTasks} (`task-assignor.ts`): active, standby and warm-up
 *    tasks (`numStandbyReplicas`, `maxWarmupReplicas`) and whether a probing
 *    rebalance is needed;
 * 5. each member's partitions (those of its active tasks it subscribed to)
 *    and its assignment user data: its active and standby tasks (warm-ups
 *    included, as Kafka) and, for every member with an `applicationServer`,
 *    the host with the input partitions of its active tasks
 *    (`partitionsByHost`) and of its standby tasks (`standbyPartitionsByHost`);
 * 6. when a probing rebalance is needed, the member with the smallest member
 *    id (one member is enough: its rejoin rebalances the whole group) also
 *    gets `nextRebalanceMs` = now + `probingRebalanceIntervalMs` (Kafka's
 *    `AssignmentInfo.nextRebalanceMs`, absolute epoch ms); the others none.
 */
import type { GroupAssignor, GroupMemberAssignment, GroupMemberSubscription, TopicPartition } from '../cluster/port.js';
import type { Logger } from '../internal/logger.js';
import { assignTasks, DEFAULT_MAX_WARMUP_REPLICAS, type ClientAssignment, type ClientState } from './task-assignor.js';
import { tasksOfTopology, type AssignorSubtopology } from './task-ids.js';
import { decodeSubscription, encodeAssignment, encodeSubscription, type HostPartitions, type SubscriptionInfo } from './user-data.js';

/** The protocol name of sluice's assignor (every member offers it). */
export const STREAMS_ASSIGNOR_NAME = 'sluice-streams';

/** What the runtime gives the assignor. */
export interface StreamsAssignorOptions {
  /** The topology's sub-topologies (id, source topics). */
  subtopologies: readonly AssignorSubtopology[];
  /**
   * Every stateful sub-topology and the topics holding its state: its changelog topics
   * (and source topics serving as changelogs); task `<s>_<p>` has partition `p` of each.
   * A sub-topology listed with no topic (stores that log nothing) is stateful too.
   */
  stateTopics: ReadonlyMap<number, readonly string[]>;
  /** End offsets per partition (index = partition) of a topic, read on the leader (read_committed). */
  endOffsets(topic: string): Promise<number[]>;
  /** This member's subscription, read at every join. */
  subscription(): Omit<SubscriptionInfo, 'version' | 'latestSupportedVersion'>;
  /** Kafka's `acceptable.recovery.lag`. */
  acceptableRecoveryLag: number;
  /** Kafka's `num.standby.replicas` (default 0). */
  numStandbyReplicas?: number;
  /** Kafka's `max.warmup.replicas` (default 2). */
  maxWarmupReplicas?: number;
  /** Kafka's `probing.rebalance.interval.ms` (default 600,000): how long after this assignment a member rejoins while warm-ups exist. */
  probingRebalanceIntervalMs?: number;
  /** The clock of `nextRebalanceMs` (default `Date.now`). */
  now?: () => number;
  logger: Logger;
}

/** Kafka's default `probing.rebalance.interval.ms`. */
export const DEFAULT_PROBING_REBALANCE_INTERVAL_MS = 600_000;

/** The assignor (see the module comment). */
export function streamsAssignor(options: StreamsAssignorOptions): GroupAssignor {
  return {
    name: STREAMS_ASSIGNOR_NAME,
    subscriptionUserData: () => encodeSubscription(options.subscription()),
    assign: (group) => assignGroup(options, group.members, group.partitionCount),
  };
}

async function assignGroup(options: StreamsAssignorOptions, members: GroupMemberSubscription[], partitionCount: (topic: string) => number | undefined): Promise<Map<string, GroupMemberAssignment>> {
  // 1. subscriptions
  const subscriptions = new Map<string, SubscriptionInfo | undefined>();
  for (const m of members) {
    try {
      subscriptions.set(m.memberId, decodeSubscription(m.userData));
    } catch (error) {
      options.logger.warn({ err: error, memberId: m.memberId }, 'a member sent subscription user data sluice cannot read; it is assigned tasks as a member without state or host');
      subscriptions.set(m.memberId, undefined);
    }
  }
  // 2. tasks
  const taskPartitions = tasksOfTopology(options.subtopologies, partitionCount);
  const tasks = [...taskPartitions.keys()];
  const statefulTasks = new Set(tasks.filter((t) => options.stateTopics.has(subtopologyId(t))));
  // 3. lags
  const endSums = await endOffsetSums(options, statefulTasks);
  const clients: ClientState[] = members.map((m) => {
    const info = subscriptions.get(m.memberId);
    const previousActive = new Set(info?.previousActive ?? []);
    const lags = new Map<string, number>();
    for (const task of statefulTasks) {
      const end = endSums?.get(task);
      const sum = info?.taskOffsetSums[task];
      if (previousActive.has(task)) lags.set(task, 0);
      else if (end === undefined) {
        if (sum !== undefined) lags.set(task, 0);
      } else lags.set(task, sum === undefined || sum > end ? end : end - sum);
    }
    return { id: m.memberId, previousActive, lags, ...(info ? { processId: info.processId } : {}) };
  });
  // 4. assign
  const { clients: assignment, probingRebalanceNeeded, unassignedStandbys } = assignTasks({
    clients,
    tasks,
    statefulTasks,
    acceptableRecoveryLag: options.acceptableRecoveryLag,
    numStandbyReplicas: options.numStandbyReplicas ?? 0,
    maxWarmupReplicas: options.maxWarmupReplicas ?? DEFAULT_MAX_WARMUP_REPLICAS,
  });
  options.logger.debug(
    {
      clients: clients.map((c) => ({ member: c.id, processId: c.processId, previousActive: [...c.previousActive], lags: Object.fromEntries(c.lags) })),
      assignment: Object.fromEntries([...assignment].map(([m, a]) => [m, a])),
      probingRebalanceNeeded,
    },
    'task assignment',
  );
  if (unassignedStandbys.size > 0) {
    options.logger.warn(
      { unassignedStandbys: Object.fromEntries(unassignedStandbys), numStandbyReplicas: options.numStandbyReplicas, members: members.length },
      'some standby tasks could not be assigned: there are too few instances for numStandbyReplicas (a standby never runs in the instance running its task, nor beside another standby of it); run more instances or lower numStandbyReplicas',
    );
  }
  // 5. partitions and user data
  const none: ClientAssignment = { active: [], standby: [], warmup: [] };
  const partitionsOf = (taskList: readonly string[]): TopicPartition[] => taskList.flatMap((t) => taskPartitions.get(t) ?? []);
  // one entry per host: the stream threads of one instance are members sharing its applicationServer
  const activeByHost = new Map<string, TopicPartition[]>();
  const standbyByHost = new Map<string, TopicPartition[]>();
  for (const m of members) {
    const host = subscriptions.get(m.memberId)?.applicationServer;
    if (host === undefined) continue;
    const mine = assignment.get(m.memberId) ?? none;
    activeByHost.set(host, [...(activeByHost.get(host) ?? []), ...partitionsOf(mine.active)]);
    standbyByHost.set(host, [...(standbyByHost.get(host) ?? []), ...partitionsOf(mine.standby)]);
  }
  const partitionsByHost: HostPartitions[] = [...activeByHost].map(([host, partitions]) => ({ host, partitions }));
  const standbyPartitionsByHost: HostPartitions[] = [...standbyByHost].map(([host, partitions]) => ({ host, partitions }));
  // 6. the probing rebalance, on one member
  const prober = probingRebalanceNeeded ? members.map((m) => m.memberId).sort()[0] : undefined;
  const nextRebalanceMs = (options.now ?? Date.now)() + (options.probingRebalanceIntervalMs ?? DEFAULT_PROBING_REBALANCE_INTERVAL_MS);
  const result = new Map<string, GroupMemberAssignment>();
  for (const m of members) {
    const mine = assignment.get(m.memberId) ?? none;
    const subscribed = new Set(m.topics);
    result.set(m.memberId, {
      partitions: partitionsOf(mine.active).filter((tp) => subscribed.has(tp.topic)),
      userData: encodeAssignment({
        activeTasks: mine.active,
        standbyTasks: mine.standby,
        partitionsByHost,
        standbyPartitionsByHost,
        ...(m.memberId === prober ? { nextRebalanceMs } : {}),
      }),
    });
  }
  const warmups = [...assignment.values()].reduce((n, a) => n + a.warmup.length, 0);
  options.logger.info(
    { members: members.length, tasks: tasks.length, stateful: statefulTasks.size, warmups, probingRebalanceNeeded, ...(prober !== undefined ? { prober, nextRebalanceMs } : {}) },
    'assigned tasks',
  );
  return result;
}

/** Changelog end-offset sum per stateful task; undefined when the end offsets cannot be read (logged). */
async function endOffsetSums(options: StreamsAssignorOptions, statefulTasks: ReadonlySet<string>): Promise<Map<string, number> | undefined> {
  if (statefulTasks.size === 0) return new Map();
  const topics = [...new Set([...options.stateTopics.values()].flat())];
  try {
    const ends = new Map(await Promise.all(topics.map(async (t) => [t, await options.endOffsets(t)] as const)));
    const sums = new Map<string, number>();
    for (const task of statefulTasks) {
      const [sub, partition] = task.split('_').map(Number) as [number, number];
      sums.set(task, (options.stateTopics.get(sub) ?? []).reduce((sum, topic) => sum + (ends.get(topic)?.[partition] ?? 0), 0));
    }
    return sums;
  } catch (error) {
    options.logger.warn({ err: error }, 'cannot read the changelog end offsets; every member with state for a task counts as caught up on it');
    return undefined;
  }
}

function subtopologyId(task: string): number {
  return Number(task.slice(0, task.indexOf('_')));
}
