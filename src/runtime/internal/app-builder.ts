/**
 * The one place an app is put together from its resolved config: each part of
 * `KafkaStreams.start()` is built here, in the order `start()` calls them, and
 * each part gets only its slice of the config (`app-settings.ts`):
 * 1. `connect`: the cluster port (`app-cluster.ts`) and the app's admin client;
 * 2. `prepareTopics`: the source patterns resolved, the partition counts (on the
 *    app's one topic-metadata cache), the repartition and changelog topics
 *    created, co-partitioning and the output topics checked;
 * 3. `startGlobalState`: the global stores, restored in full, then kept current;
 * 4. `joinGroup`: the key metadata and the group member (consumer with its task
 *    assignor, assignment receiver, task manager with its producers, standbys,
 *    repartition purger; `group-member.ts`);
 * 5. `startTimers`: the commit/punctuation tick and the state cleaner.
 * Besides: the topology a `Topology` becomes (`runtimeTopology`), and what the
 * tasks' state managers share (`stateRuntime`: state directory, the
 * changelog reader, record cache, restore progress).
 */
import type { AdminPort, ClusterPort } from '../../cluster/port.js';
import { ChangelogReader, clusterPortOpener } from './changelog-reader.js';
import { TopicMetadataCache } from '../../eos/topic-metadata.js';
import { componentLogger, type Logger } from '../../internal/logger.js';
import type { TopologyRuntime } from '../../processors/task-contract.js';
import { RecordCache } from '../../state/record-cache.js';
import { toRuntime } from '../../topology/topology-runtime.js';
import type { Topology } from '../../topology/topology.js';
import type { KafkaStreamsConfig, ResolvedConfig } from '../config.js';
import { principalOfConfig } from '../config-connection.js';
import { clusterFor } from './app-cluster.js';
import type { GlobalSettings, StateSettings, TimerSettings, TopicSettings } from './app-settings.js';
import { ensureChangelogTopics } from './changelog-topics.js';
import { startGlobalState, type GlobalStateManager } from './global-state-manager.js';
import { createGroupMember, type GroupMember } from './group-member.js';
import { ensureInternalTopics } from './internal-topics.js';
import { PartitionCounts } from './partition-counts.js';
import type { RestoreProgress } from './restore-progress.js';
import { resolveSourcePatterns } from './source-patterns.js';
import { StateDirectory } from './state-directory.js';
import type { StateRuntime } from './state-manager.js';
import { StreamsMetadataState } from './streams-metadata-state.js';
import type { TaskManager } from './task-manager.js';
import { checkOutputTopics } from './topic-checks.js';

/** What the builder needs from the app besides its config. */
export interface AppHooks {
  /** This instance's id in the group's subscriptions (Kafka's `processId`). */
  processId: string;
  /** 1 for the instance itself, 2..N for its extra stream threads (`numStreamThreads`). */
  threadIndex?: number;
  progress: RestoreProgress;
  /** The global stores' update loop failed: the app stops in ERROR. */
  onFatal(error: Error): void;
  /** A task failed in a way that stops the app (see `TaskManagerDeps.onFatal`). */
  onTaskFatal(error: Error): void;
}

/** What step 2 found: the topology with its source patterns resolved, the topic-metadata cache and the partition counts. */
export interface AppTopics {
  topology: TopologyRuntime;
  metadata: TopicMetadataCache;
  counts: PartitionCounts;
}

/** The topology a {@link Topology} becomes under `config` (its defaults: serdes, timestamp extractor, store suppliers). */
export function runtimeTopology(topology: Topology, given: KafkaStreamsConfig, config: ResolvedConfig): TopologyRuntime {
  return toRuntime(topology, {
    applicationId: config.applicationId,
    ...(given.defaultKeySerde ? { defaultKeySerde: given.defaultKeySerde } : {}),
    ...(given.defaultValueSerde ? { defaultValueSerde: given.defaultValueSerde } : {}),
    ...(config.defaultTimestampExtractor ? { defaultTimestampExtractor: config.defaultTimestampExtractor } : {}),
    ...(config.dslStoreSuppliers ? { dslStoreSuppliers: config.dslStoreSuppliers } : {}),
  });
}

/** See the module comment. */
export class AppBuilder {
  readonly #config: ResolvedConfig;
  readonly #hooks: AppHooks;
  readonly #log: Logger;
  #stateDirectory: StateDirectory | undefined;
  /** The instance's one changelog reader (restoration, standbys, global stores), created on first use. */
  #changelogs: ChangelogReader | undefined;
  /** The instance's record cache (statestoreCacheMaxBytes), shared by every caching store of every task. */
  #cache: RecordCache | undefined;

  constructor(config: ResolvedConfig, hooks: AppHooks) {
    this.#config = config;
    this.#hooks = hooks;
    this.#log = componentLogger('kafka-streams', config.logger, { applicationId: config.applicationId });
  }

  /** The app's state directory (`<stateDir>/<applicationId>`), created on first use. */
  get processId(): string {
    return this.#hooks.processId;
  }

  directories(): StateDirectory {
    const config: Pick<StateSettings, 'applicationId' | 'stateDir' | 'logger'> = this.#config;
    return (this.#stateDirectory ??= new StateDirectory({ applicationId: config.applicationId, stateDir: config.stateDir, logger: config.logger }));
  }

  /** 1. The cluster port (kafkajs for `bootstrapServers`, else `cluster`) and the app's admin client. */
  connect(): { cluster: ClusterPort; admin: AdminPort } {
    const cluster = clusterFor(this.#config);
    return { cluster, admin: cluster.admin({ connection: this.#config.adminSettings.connection }) };
  }

  /**
   * 2. Topics: the source patterns first (the topics they match take part in every check below); one metadata
   * cache per app, on the app's admin (the partition counts and every task producer read it).
   */
  async prepareTopics(admin: AdminPort, given: TopologyRuntime): Promise<AppTopics> {
    const config: TopicSettings = this.#config;
    const topology = await resolveSourcePatterns(admin, given, config.applicationId, this.#log);
    const metadata = new TopicMetadataCache(() => admin, componentLogger('topic-metadata', config.logger, { applicationId: config.applicationId }));
    const counts = new PartitionCounts(metadata, this.#log);
    const internal = new Set(topology.internalTopics.map((t) => t.name));
    await counts.loadSources([...topology.sourceTopics().filter((t) => !internal.has(t)), ...(topology.globalStores?.() ?? []).map((g) => g.topic)]);
    if (internal.size > 0) {
      await ensureInternalTopics(admin, topology, counts.snapshot(), this.#log, config);
      await counts.loadSources([...internal]);
    }
    topology.validatePartitionCounts(counts.snapshot());
    await ensureChangelogTopics(admin, topology, config.applicationId, counts.snapshot(), this.#log, config);
    await checkOutputTopics(admin, topology, config, principalOfConfig(config));
    await counts.prefetch(topology.subtopologies.flatMap((s) => s.sinkTopics));
    return { topology, metadata, counts };
  }

  /** 3. The global stores: restored in full before the group is joined, then kept up to date (see ./global-state-manager.ts). */
  startGlobalState(cluster: ClusterPort, topology: TopologyRuntime): Promise<GlobalStateManager | undefined> {
    const config: GlobalSettings = this.#config;
    return startGlobalState({
      topology, changelogs: this.changelogs(cluster), applicationId: config.applicationId, appDir: this.directories().appDir,
      exactlyOnce: config.guarantee.exactlyOnce, commitIntervalMs: config.commitIntervalMs, progress: this.#hooks.progress,
      handlers: { deserialization: config.deserializationExceptionHandler, processing: config.processingExceptionHandler },
      logger: componentLogger('global-state', config.logger, { applicationId: config.applicationId }), onFatal: (error) => this.#hooks.onFatal(error),
    });
  }

  /** 4. The group's key metadata and the group member, with the task assignor (src/assignment) that feeds the metadata. */
  joinGroup(cluster: ClusterPort, admin: AdminPort, topics: AppTopics): GroupMember & { metadata: StreamsMetadataState } {
    const { topology, counts } = topics;
    const metadata = StreamsMetadataState.of(topology, (topic) => counts.get(topic), this.#config.applicationServer);
    const member = createGroupMember({
      config: this.#config, cluster, admin, topology, processId: this.#hooks.processId, threadIndex: this.#hooks.threadIndex, endOffsets: (topic) => admin.endOffsets(topic),
      partitionCount: (topic) => counts.get(topic), topicMetadata: topics.metadata, directories: () => this.directories(),
      state: this.stateRuntime(cluster), metadata: () => metadata, onFatal: (error) => this.#hooks.onTaskFatal(error),
    });
    return { ...member, metadata };
  }

  /**
   * 5. The commit/punctuation tick (from now on: tasks that run while others still restore commit on the interval)
   * and the state cleaner. Returns what stops both.
   */
  startTimers(manager: TaskManager): () => void {
    const config: TimerSettings = this.#config;
    const every = Math.max(5, Math.min(100, Math.floor(config.commitIntervalMs / 2)));
    // Not unref'd: like Kafka Streams' (non-daemon) stream threads, a running app keeps the process alive until close().
    const tick = setInterval(() => manager.tick(Date.now()), every);
    // Obsolete task folders (tasks that moved away) are deleted after stateCleanupDelayMs, as Kafka's state cleaner.
    const cleanup = setInterval(() => this.#stateDirectory?.cleanRemovedTasks(config.stateCleanupDelayMs), Math.min(config.stateCleanupDelayMs, 60_000));
    cleanup.unref();
    return () => {
      clearInterval(tick);
      clearInterval(cleanup);
    };
  }

  /** What the state managers of the instance's tasks share. */
  stateRuntime(cluster: ClusterPort): StateRuntime {
    const config: StateSettings = this.#config;
    return {
      applicationId: config.applicationId,
      directories: this.directories(),
      changelogs: this.changelogs(cluster),
      cache: (this.#cache ??= new RecordCache(config.statestoreCacheMaxBytes)),
      progress: this.#hooks.progress,
    };
  }

  /** The instance's changelog reader (./changelog-reader.ts), created on first use. */
  changelogs(cluster: ClusterPort): ChangelogReader {
    const config: StateSettings = this.#config;
    return (this.#changelogs ??= new ChangelogReader(
      clusterPortOpener(cluster, config.clientId, config.consumerSettings.connection),
      componentLogger('changelog-reader', config.logger, { applicationId: config.applicationId }),
    ));
  }

  /** Closes the changelog reader, if one was opened. */
  async closeChangelogReader(): Promise<void> {
    await this.#changelogs?.close();
  }
}
