/**
 * Step 3 of `KafkaStreams.start()`, the wiring of an instance's group
 * membership (the steps the function mirrors):
 * 1. the group consumer (read_committed, the app's timing and static
 *    membership) with the task assignor of the topology (`assignor-setup.ts`),
 *    whose subscription reports the running tasks and every standby's live
 *    offset sums;
 * 2. the assignment receiver (`assignment-receiver.ts`): key metadata, standby
 *    list, probing-rebalance timer;
 * 3. the task manager with its task producers and the instance's standby
 *    tasks (`standby-tasks.ts`, on the instance's changelog reader).
 * Nothing connects here: `runGroupMember` then subscribes and runs the
 * consumer (start step 4 of `KafkaStreams`).
 */
import type { AdminPort, ClusterPort, GroupConsumerPort } from '../../cluster/port.js';
import { StreamsProducer } from '../../eos/streams-producer.js';
import type { TopicMetadataCache } from '../../eos/topic-metadata.js';
import { componentLogger } from '../../internal/logger.js';
import type { TopologyRuntime } from '../../processors/task-contract.js';
import type { GroupMemberSettings } from './app-settings.js';
import { AssignmentReceiver } from './assignment-receiver.js';
import { appAssignor } from './assignor-setup.js';
import { StandbyTasks } from './standby-tasks.js';
import type { StateDirectory } from './state-directory.js';
import type { StateRuntime } from './state-manager.js';
import type { StreamsMetadataState } from './streams-metadata-state.js';
import type { AppLifecycle } from './app-lifecycle.js';
import { StreamsError } from '../../errors.js';
import { TaskManager } from './task-manager.js';
import { consumerOverrides, producerOverrides } from './client-overrides.js';
import { RepartitionPurger } from './repartition-purge.js';

/** What the wiring needs from the app. */
export interface GroupMemberDeps {
  config: GroupMemberSettings;
  cluster: ClusterPort;
  topology: TopologyRuntime;
  processId: string;
  /** 1 for the instance itself, 2..N for its extra stream threads (`numStreamThreads`). */
  threadIndex?: number;
  endOffsets(topic: string): Promise<number[]>;
  partitionCount(topic: string): number | undefined;
  topicMetadata: TopicMetadataCache;
  directories: () => StateDirectory;
  state: StateRuntime;
  metadata: () => StreamsMetadataState | undefined;
  onFatal(error: Error): void;
  /** The app's admin client: purges committed repartition records (absent: none are purged). */
  admin?: AdminPort;
}

/** The parts of an instance's membership (see the module comment). */
export interface GroupMember {
  consumer: GroupConsumerPort;
  receiver: AssignmentReceiver;
  manager: TaskManager;
}

/** Steps 1–3. */
export function createGroupMember(deps: GroupMemberDeps): GroupMember {
  const { config, cluster, topology } = deps;
  const log = (component: string) => componentLogger(component, config.logger, { applicationId: config.applicationId });
  let manager: TaskManager | undefined = undefined;
  // 1. consumer and assignor
  const consumer = cluster.consumer({
    groupAssignor: appAssignor({
      topology, applicationId: config.applicationId, processId: deps.processId, applicationServer: config.applicationServer,
      acceptableRecoveryLag: config.acceptableRecoveryLag, numStandbyReplicas: config.numStandbyReplicas, maxWarmupReplicas: config.maxWarmupReplicas,
      probingRebalanceIntervalMs: config.probingRebalanceIntervalMs, directories: deps.directories, runningTasks: () => manager?.taskIds ?? [],
      standbyOffsetSums: () => manager?.standbyOffsetSums() ?? new Map(), endOffsets: deps.endOffsets, logger: log('task-assignor'),
    }),
    groupId: config.applicationId,
    ...consumerOverrides(config),
    autoOffsetReset: config.autoOffsetReset,
    sessionTimeoutMs: config.sessionTimeoutMs,
    heartbeatIntervalMs: config.heartbeatIntervalMs,
    ...(config.groupInstanceId !== undefined ? { groupInstanceId: config.groupInstanceId } : {}),
    clientId: consumerClientId(config.clientId, deps.threadIndex ?? 1),
  });
  // 2. assignment receiver
  const receiver = new AssignmentReceiver({ metadata: deps.metadata, manager: () => manager, requestRejoin: (reason) => consumer.requestRejoin(reason), logger: log('assignment') });
  // 3. task manager and standby tasks
  manager = new TaskManager({
    config, topology, consumer, partitionCount: deps.partitionCount, endOffsets: deps.endOffsets, logger: log('task-manager'),
    producerFactory: ({ transactionalId, taskId }) =>
      new StreamsProducer({
        ...producerOverrides(config),
        transactionalId, cluster, transactionTimeoutMs: config.transactionTimeoutMs, deliveryTimeoutMs: config.deliveryTimeoutMs, compressionType: config.compressionType,
        topicMetadata: deps.topicMetadata, logger: componentLogger('task-producer', config.logger, { taskId }),
      }),
    onFatal: deps.onFatal,
    state: deps.state,
    purger: new RepartitionPurger({
      admin: deps.admin, repartitionTopics: new Set(topology.internalTopics.map((t) => t.name)), intervalMs: config.repartitionPurgeIntervalMs,
      logger: log('repartition-purge'), startedAt: Date.now(),
    }),
    standbys: new StandbyTasks({
      topology, config, directories: deps.directories(), committed: (tps) => consumer.committed(tps), logger: log('standby-tasks'),
      activeTasksStarting: () => manager?.activeTasksStarting() ?? false,
      changelogs: deps.state.changelogs, cache: deps.state.cache,
    }),
  });
  return { consumer, receiver, manager };
}

/** Subscribes the member's consumer to the topology's source topics and runs it: assignments go to the lifecycle, batches to the task manager. */
export async function runGroupMember(member: GroupMember, topology: TopologyRuntime, life: Pick<AppLifecycle, 'onAssignment' | 'stopped' | 'fail'>): Promise<void> {
  const { consumer, manager, receiver } = member;
  await consumer.subscribe(topology.sourceTopics());
  await consumer.run({
    onAssignment: (change) => life.onAssignment(manager, change),
    onAssignmentUserData: (userData) => receiver.receive(userData),
    eachBatch: async (batch) => {
      if (!life.stopped) await manager.onBatch(batch);
    },
    onError: (error) => void life.fail(new StreamsError(`The consumer stopped: ${error.message}`, { code: 'CONSUMER_FAILED', cause: error })),
  });
}

/** The group consumer's client id of stream thread `threadIndex` (thread 1 keeps the id it always had). */
export function consumerClientId(clientId: string, threadIndex: number): string {
  return threadIndex === 1 ? `${clientId}-consumer` : `${clientId}-StreamThread-${threadIndex}-consumer`;
}
