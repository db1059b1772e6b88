/**
 * The settings each part of an app reads, picked from the resolved config
 * (`ResolvedConfig`, ../config.ts). The app builder (`app-builder.ts`) holds
 * the whole config; every part it builds is typed with only its own slice, so
 * what a part depends on is written in one line here.
 */
import type { ResolvedConfig } from '../config.js';

type Handlers = 'productionExceptionHandler' | 'deserializationExceptionHandler' | 'processingExceptionHandler';

/** The cluster port: the given one, else kafkajs on `bootstrapServers` (`app-cluster.ts`). */
export type ClusterSettings = Pick<ResolvedConfig, 'cluster' | 'bootstrapServers' | 'clientId' | 'logger' | 'ssl' | 'sasl'>;

/** Start step 2: source patterns, partition counts, internal topics, output-topic checks. */
export type TopicSettings = Pick<ResolvedConfig, 'applicationId' | 'logger' | 'replicationFactor' | 'topicConfig' | 'ssl' | 'sasl' | 'adminSettings' | Handlers>;

/** The global stores (`global-state-manager.ts`). */
export type GlobalSettings = Pick<
  ResolvedConfig,
  'applicationId' | 'clientId' | 'logger' | 'guarantee' | 'commitIntervalMs' | 'consumerSettings' | 'deserializationExceptionHandler' | 'processingExceptionHandler'
>;

/** What the state managers of an instance share (state directory, restore reader, record cache). */
export type StateSettings = Pick<ResolvedConfig, 'applicationId' | 'clientId' | 'logger' | 'stateDir' | 'statestoreCacheMaxBytes' | 'guarantee' | 'consumerSettings'>;

/** A task (`task-executor.ts`, `task-parts.ts`, `offset-reset.ts`), its recovery (`task-recovery.ts`) and the task manager. */
export type TaskSettings = Pick<
  ResolvedConfig,
  | 'applicationId'
  | 'logger'
  | 'guarantee'
  | 'commitIntervalMs'
  | 'maxPendingOutputRecordsPerTask'
  | 'maxTaskIdleMs'
  | 'bufferedRecordsPerPartition'
  | 'asyncCallTimeoutMs'
  | 'autoOffsetReset'
  | 'uncaughtExceptionPolicy'
  | 'taskRestartBackoffMs'
  | Handlers
>;

/** A standby task (`standby-tasks.ts`, `standby-task.ts`). */
export type StandbySettings = Pick<ResolvedConfig, 'applicationId' | 'logger' | 'deserializationExceptionHandler' | 'processingExceptionHandler'>;

/** A task's producer (`client-overrides.ts` and the producer's own timeouts). */
export type TaskProducerSettings = Pick<ResolvedConfig, 'producerSettings' | 'transactionTimeoutMs' | 'deliveryTimeoutMs' | 'compressionType' | 'logger'>;

/** Start step 3: the group consumer and its assignor, the task manager, the standbys, the repartition purger (`group-member.ts`). */
export type GroupMemberSettings = TaskSettings &
  StandbySettings &
  TaskProducerSettings &
  Pick<
    ResolvedConfig,
    | 'clientId'
    | 'applicationServer'
    | 'acceptableRecoveryLag'
    | 'numStandbyReplicas'
    | 'maxWarmupReplicas'
    | 'probingRebalanceIntervalMs'
    | 'consumerSettings'
    | 'sessionTimeoutMs'
    | 'heartbeatIntervalMs'
    | 'groupInstanceId'
    | 'repartitionPurgeIntervalMs'
    | 'guarantee'
  >;

/** Start step 4: the commit/punctuation timer and the state cleaner. */
export type TimerSettings = Pick<ResolvedConfig, 'commitIntervalMs' | 'stateCleanupDelayMs'>;
