/**
 * `KafkaStreams`: runs a topology as a member of a consumer group, with one
 * exactly-once (transactional) processing loop per task (DESIGN.md §6).
 *
 * ```ts
 * const app = new KafkaStreams(topology, { applicationId: 'orders-app', cluster });
 * await app.start();   // RUNNING: joined the group, first assignment handled
 * app.metrics();
 * await app.close();   // commits or aborts in-flight work, leaves the group
 * ```
 */
import type { Observable } from 'rxjs';
import type { AdminPort, ClusterPort, GroupConsumerPort } from '../cluster/port.js';
import { createKafkaCluster } from '../cluster/kafkajs/index.js';
import { principalOfConfig } from './config-connection.js';
import { IllegalStateError, StreamsError } from '../errors.js';
import { componentLogger, type Logger } from '../internal/logger.js';
import type { TopologyRuntime } from '../processors/task-contract.js';
import { toRuntime } from '../topology/topology-runtime.js';
import type { Topology } from '../topology/topology.js';
import { resolveConfig, type KafkaStreamsConfig, type ResolvedConfig } from './config.js';
import { createAppStateMachine, type AppState } from './internal/app-state.js';
import { GuardedObservable } from './internal/guarded-observable.js';
import { ensureInternalTopics } from './internal/internal-topics.js';
import { PartitionCounts } from './internal/partition-counts.js';
import { resolveSourcePatterns } from './internal/source-patterns.js';
import { TopicMetadataCache } from '../eos/topic-metadata.js';
import { checkOutputTopics } from './internal/topic-checks.js';
import type { StateMachine } from '../internal/state-machine.js';
import { TaskManager } from './internal/task-manager.js';
import { aggregateMetrics, type KafkaStreamsMetrics } from './metrics.js';
import { defined } from '../internal/defined.js';
import { ensureChangelogTopics } from './internal/changelog-topics.js';
import type { AssignmentReceiver } from './internal/assignment-receiver.js';
import { createGroupMember } from './internal/group-member.js';
import { StateDirectory } from './internal/state-directory.js';
import { RecordCache } from '../state/record-cache.js';
import { RestoreProgress } from './internal/restore-progress.js';
import type { StateRuntime } from './internal/state-manager.js';
import { ChangelogReader, clusterPortOpener } from './internal/changelog-reader.js';
import type { RestoreMetrics, StateRestoreListener } from './state-restore-listener.js';
import { keyValueView, type ReadOnlyKeyValueStore, type StoreQueryParameters } from './interactive-queries.js';
import { startGlobalState, withGlobalStores, type GlobalStateManager } from './internal/global-state-manager.js';
import { randomUUID } from 'node:crypto';
import type { Serializer } from '../serdes/serde.js';
import { StreamsMetadataState } from './internal/streams-metadata-state.js';
import { KeyQueryMetadata, UnknownStateStoreError, type StreamsMetadata, type ThreadMetadata } from './streams-metadata.js';
import type { StoreKind } from '../processors/store-kind.js';
import { DecisionLog } from './internal/decision-log.js';
import { createUiSource } from './ui-source.js';
import { startUiServer } from '../ui/server.js';
import type { UiServer, UiServerOptions } from '../ui/types.js';

/** The state of a {@link KafkaStreams} app (Kafka Streams' `KafkaStreams.State`). */
export type KafkaStreamsState = AppState;

/** Kafka Streams' `KafkaStreams.StateListener`: called with the new and the old state on every change. */
export type StateListener = (newState: KafkaStreamsState, oldState: KafkaStreamsState) => void;

const STOPPED: readonly AppState[] = ['PENDING_SHUTDOWN', 'NOT_RUNNING', 'PENDING_ERROR', 'ERROR'];

/** A running stream processing application; see the module comment and API.md "Running it". */
export class KafkaStreams {
  readonly #config: ResolvedConfig;
  /** Replaced once at start by the topology with its source patterns resolved. */
  #topology: TopologyRuntime;
  readonly #sm: StateMachine<AppState> = createAppStateMachine();
  readonly #log: Logger;
  #cluster: ClusterPort | undefined;
  #admin: AdminPort | undefined;
  #consumer: GroupConsumerPort | undefined;
  #manager: TaskManager | undefined;
  #timer: NodeJS.Timeout | undefined;
  #error: Error | undefined;
  #shutdown: Promise<void> | undefined;
  #firstAssignment: { resolve: () => void; reject: (error: Error) => void } | undefined;
  #state$: Observable<KafkaStreamsState> | undefined;
  #stateListener: { unsubscribe(): void } | undefined;
  readonly #progress: RestoreProgress;
  /** The instance's one changelog reader (restoration, standbys, global stores), closed once at close. */
  #changelogs: ChangelogReader | undefined;
  #receiver: AssignmentReceiver | undefined;
  #stateDirectory: StateDirectory | undefined;
  /** The instance's record cache (statestoreCacheMaxBytes), shared by every caching store of every task. */
  #cache: RecordCache | undefined;
  #cleanupTimer: NodeJS.Timeout | undefined;
  /** Incremented by every assignment: only the latest one's restoration moves the app to RUNNING. */
  #assignmentRound = 0;
  /** The global stores (`builder.globalTable`), restored at start before the group is joined. */
  #global: GlobalStateManager | undefined;
  /** This instance's id in the group's subscriptions (Kafka's `processId`). */
  readonly #processId = randomUUID();
  /** The group's hosts and their partitions, from the assignor's user data (set at start). */
  #metadata: StreamsMetadataState | undefined;
  /** The topology as given, for `describe()` in the live UI (undefined when a TopologyRuntime was given). */
  readonly #given: Topology | undefined;
  /** The last handler decisions (the live UI), fed by the app's three handlers. */
  readonly #decisions = new DecisionLog();
  /** The servers of {@link serveUi} (closing one twice is harmless). */
  readonly #uiServers = new Set<UiServer>();

  /**
   * Validates `config` (a {@link ConfigError} names the offending key) and the
   * topology (a `TopologyError`). Nothing connects before {@link start}.
   */
  constructor(topology: Topology, config: KafkaStreamsConfig);
  /**
   * Tests and the runtime may hand in an already-built {@link TopologyRuntime}.
   * @internal
   */
  constructor(topology: Topology | TopologyRuntime, config: KafkaStreamsConfig);
  constructor(topology: Topology | TopologyRuntime, config: KafkaStreamsConfig) {
    this.#config = resolveConfig(config);
    this.#given = isRuntime(topology) ? undefined : topology;
    this.#topology = isRuntime(topology) ? topology : toRuntime(topology, {
          applicationId: this.#config.applicationId,
          ...(config.defaultKeySerde ? { defaultKeySerde: config.defaultKeySerde } : {}),
          ...(config.defaultValueSerde ? { defaultValueSerde: config.defaultValueSerde } : {}),
          ...(this.#config.defaultTimestampExtractor ? { defaultTimestampExtractor: this.#config.defaultTimestampExtractor } : {}),
          ...(this.#config.dslStoreSuppliers ? { dslStoreSuppliers: this.#config.dslStoreSuppliers } : {}),
        });
    this.#log = componentLogger('kafka-streams', this.#config.logger, { applicationId: this.#config.applicationId });
    this.#progress = new RestoreProgress(componentLogger('state-restore', this.#config.logger, { applicationId: this.#config.applicationId }));
    const { logger, productionExceptionHandler, deserializationExceptionHandler, processingExceptionHandler } = this.#config;
    if (logger) for (const handler of [productionExceptionHandler, deserializationExceptionHandler, processingExceptionHandler]) handler.useAppLogger?.(logger);
    this.#decisions.observe([productionExceptionHandler, deserializationExceptionHandler, processingExceptionHandler]);
  }

  /** The `applicationServer` this instance advertises to the group (its config), undefined without one. */
  get applicationServer(): string | undefined {
    return this.#config.applicationServer;
  }

  /**
   * The kind of state store `storeName` (`'keyValue'`, `'timestampedKeyValue'`, `'window'`,
   * `'timestampedWindow'`, `'session'`; `'buffer'` for a suppression's internal buffer, `'other'` for a store
   * of a custom builder); undefined when the topology has no such store (or does not say).
   */
  storeKind(storeName: string): StoreKind | undefined {
    return this.#topology.storeKinds?.().get(storeName);
  }

  /** Throws an `UnknownStateStoreError` naming the topology's stores when it has no store `storeName` (in every state). */
  #checkStoreName(what: string, storeName: string): void {
    if (this.#metadata) return this.#metadata.checkStoreName(what, storeName);
    const topology = this.#topology;
    const bySub = topology.storesBySubtopology?.();
    if (bySub === undefined) return;
    const known = [...new Set([...[...bySub.values()].flat(), ...(topology.globalStores?.() ?? []).map((g) => g.storeName)])].sort();
    if (known.includes(storeName)) return;
    throw new UnknownStateStoreError(
      `No state store '${storeName}' in the topology; its stores are: ${known.length ? known.map((n) => `'${n}'`).join(', ') : '(none)'}. Name a store with Materialized.as('<name>') to query it`,
    );
  }

  /** The current state. */
  get state(): KafkaStreamsState {
    return this.#sm.state;
  }

  /**
   * Every state change, starting with the current state (BehaviorSubject-backed).
   * A subscriber that throws (also in an observable piped from this one) is
   * logged at ERROR and ignored: the app keeps going and the process survives.
   */
  get state$(): Observable<KafkaStreamsState> {
    this.#state$ ??= new GuardedObservable<KafkaStreamsState>(
      (error, what) => this.#log.error({ err: error, state: this.state }, `a state$ subscriber threw in ${what}; ignored, the app keeps going`),
      this.#sm.state$,
    );
    return this.#state$;
  }

  /**
   * The error that moved the app to PENDING_ERROR / ERROR, if any (e.g. the FAIL cause or a throwing handler's
   * error); also the first task failure that stopped a task while the app was already closing (the app then
   * still ends in NOT_RUNNING, but its work did not end cleanly: the CLI exits non-zero).
   */
  get error(): Error | undefined {
    return this.#error;
  }

  /**
   * Starts the app. Allowed in state CREATED. Resolves once RUNNING:
   * 1. state REBALANCING; connect (kafkajs for `bootstrapServers`, else `cluster`);
   * 2. resolve the source patterns against the cluster's topics (one matching none is an error naming it),
   *    describe the source topics (a missing one is an error naming it), create the missing repartition
   *    topics (`<applicationId>-<name>-repartition`, sized as the upstream sources), check co-partitioning,
   *    and check that the static sink topics and the handlers' dead-letter topics exist (one error naming the missing ones);
   * 2b. restore every global store (`builder.globalTable`) in full from all partitions of its topic, from its
   *    checkpoint, then keep it up to date in a loop (./internal/global-state-manager.ts);
   * 3. join the group `applicationId` (read_committed, no auto-commit) and subscribe;
   * 4. start the commit/punctuation timer;
   * 5. wait for the first assignment: every assigned task initialised (producer fenced-in, offsets re-read, seeks done)
   *    and restored (tasks already running process and commit meanwhile); state RUNNING.
   * A failure moves the app to ERROR and rejects. A {@link close} meanwhile (at any step) wins: once the
   * shutdown is done (the group left), start() rejects with an `IllegalStateError` "closed while starting".
   */
  async start(): Promise<void> {
    this.#sm.require('start', ['CREATED']);
    this.#sm.transition('REBALANCING');
    const config = this.#config;
    try {
      // 1. connect
      this.#cluster = config.cluster ?? createKafkaCluster({ bootstrapServers: defined(config.bootstrapServers, "config 'bootstrapServers' (set whenever 'cluster' is not)"), clientId: config.clientId, logger: config.logger, ssl: config.ssl, sasl: config.sasl });
      const admin = (this.#admin = this.#cluster.admin({ connection: config.adminSettings.connection }));
      // 2. topics: source patterns first (the topics they match take part in every check below); one metadata cache
      //    per app, on the app's admin (the partition counts and every task producer read it)
      this.#topology = await resolveSourcePatterns(admin, this.#topology, config.applicationId, this.#log);
      const metadata = new TopicMetadataCache(() => admin, componentLogger('topic-metadata', config.logger, { applicationId: config.applicationId }));
      const counts = new PartitionCounts(metadata, this.#log);
      const internal = new Set(this.#topology.internalTopics.map((t) => t.name));
      await counts.loadSources([...this.#topology.sourceTopics().filter((t) => !internal.has(t)), ...(this.#topology.globalStores?.() ?? []).map((g) => g.topic)]);
      if (internal.size > 0) {
        await ensureInternalTopics(this.#admin, this.#topology, counts.snapshot(), this.#log, config);
        await counts.loadSources([...internal]);
      }
      this.#topology.validatePartitionCounts(counts.snapshot());
      await ensureChangelogTopics(admin, this.#topology, config.applicationId, counts.snapshot(), this.#log, config);
      await checkOutputTopics(this.#admin, this.#topology, config, principalOfConfig(config));
      await counts.prefetch(this.#topology.subtopologies.flatMap((s) => s.sinkTopics));
      this.#checkRunning();
      // 2b. global stores: restored in full before the group is joined, then kept up to date (see ./internal/global-state-manager.ts)
      const cluster = this.#cluster;
      const changelogs = (this.#changelogs = new ChangelogReader(clusterPortOpener(cluster, config.clientId, config.consumerSettings.connection), componentLogger('changelog-reader', config.logger, { applicationId: config.applicationId })));
      this.#global = await startGlobalState({
        topology: this.#topology, changelogs, applicationId: config.applicationId, appDir: this.#directories().appDir,
        exactlyOnce: config.processingGuarantee !== 'at_least_once', commitIntervalMs: config.commitIntervalMs, progress: this.#progress,
        handlers: { deserialization: config.deserializationExceptionHandler, processing: config.processingExceptionHandler },
        logger: componentLogger('global-state', config.logger, { applicationId: config.applicationId }), onFatal: (error) => void this.#fail(error),
      });
      this.#topology = withGlobalStores(this.#topology, this.#global);
      this.#checkRunning();
      // 3. join, with the task assignor (src/assignment) and the key metadata it feeds
      this.#metadata = StreamsMetadataState.of(this.#topology, (topic) => counts.get(topic), config.applicationServer);
      const member = createGroupMember({
        config, cluster, admin, topology: this.#topology, processId: this.#processId, endOffsets: (topic) => admin.endOffsets(topic),
        partitionCount: (topic) => counts.get(topic), topicMetadata: metadata, directories: () => this.#directories(),
        state: this.#stateRuntime(changelogs), metadata: () => this.#metadata, onFatal: (error) => this.#onTaskFatal(error),
      });
      const consumer = (this.#consumer = member.consumer);
      this.#receiver = member.receiver;
      this.#manager = member.manager;
      const first = new Promise<void>((resolve, reject) => (this.#firstAssignment = { resolve, reject }));
      // A close() or failure may reject it before step 4 awaits it: never an unhandled rejection.
      first.catch(() => undefined);
      await consumer.subscribe(this.#topology.sourceTopics());
      await consumer.run({
        onAssignment: (change) => this.#onAssignment(change),
        onAssignmentUserData: (userData) => this.#receiver?.receive(userData),
        eachBatch: async (batch) => {
          if (!STOPPED.includes(this.state)) await this.#manager?.onBatch(batch);
        },
        onError: (error) => void this.#fail(new StreamsError(`The consumer stopped: ${error.message}`, { code: 'CONSUMER_FAILED', cause: error })),
      });
      // 4. timer (from now on: tasks that run while others still restore commit on the interval)
      const every = Math.max(5, Math.min(100, Math.floor(config.commitIntervalMs / 2)));
      // Not unref'd: like Kafka Streams' (non-daemon) stream threads, a running app keeps the process alive until close().
      this.#timer = setInterval(() => this.#manager?.tick(Date.now()), every);
      // Obsolete task folders (tasks that moved away) are deleted after stateCleanupDelayMs, as Kafka's state cleaner.
      this.#cleanupTimer = setInterval(() => this.#stateDirectory?.cleanRemovedTasks(config.stateCleanupDelayMs), Math.min(config.stateCleanupDelayMs, 60_000));
      this.#cleanupTimer.unref();
      // 5. first assignment handled and every task restored: RUNNING
      await first;
      this.#checkRunning();
      this.#log.info({ tasks: this.#manager.taskIds }, 'started');
    } catch (error) {
      const cause = error instanceof Error ? error : new Error(String(error));
      const closedWhileStarting = this.#shutdown !== undefined && this.#error === undefined;
      await this.#fail(cause);
      if (!closedWhileStarting) throw cause;
      throw new IllegalStateError(`KafkaStreams was closed while starting (state ${this.state}); start() needs state CREATED`, { cause });
    }
  }

  /**
   * Stops the app; idempotent, allowed in every state. Steps:
   * 1. state PENDING_SHUTDOWN; stop the timer;
   * 2. close every task: clean ones commit their transaction, failed ones abort; producers close; then stop the
   *    global stores' loop and checkpoint them;
   * 3. leave the group (close the consumer), close the admin client and the changelog reader;
   * 4. state NOT_RUNNING;
   * 5. close the live UI servers ({@link serveUi}).
   * In PENDING_ERROR it waits for the error shutdown (the app ends in ERROR), then does step 5.
   */
  async close(): Promise<void> {
    if (!this.#shutdown && this.state !== 'NOT_RUNNING' && this.state !== 'ERROR') {
      this.#sm.transition('PENDING_SHUTDOWN');
      this.#shutdown = this.#stop().then(() => this.#stopped('NOT_RUNNING'));
    }
    await this.#shutdown;
    // 5. the live UI: after an error shutdown it stayed up (showing ERROR and the last decisions) until this close()
    await Promise.all([...this.#uiServers].map((server) => server.close()));
  }

  /**
   * Kafka's `KafkaStreams.cleanUp()`: deletes this app's local state, the folder
   * `<stateDir>/<applicationId>` (its task folders, the global stores' folder), so
   * the next start restores every store from its changelog. Allowed before
   * {@link start} (CREATED) and after the app stopped (NOT_RUNNING, ERROR); in any
   * other state it throws an `IllegalStateError`, as Kafka's IllegalStateException
   * "Cannot clean up while running.". A task folder another process holds
   * (same `stateDir` and `applicationId`) throws STATE_DIR_LOCKED.
   */
  cleanUp(): void {
    this.#sm.require('cleanUp', ['CREATED', 'NOT_RUNNING', 'ERROR']);
    this.#directories().clean();
  }

  /** Counters of the app and of each task (see {@link KafkaStreamsMetrics}). Allowed in every state. */
  metrics(): KafkaStreamsMetrics {
    return { ...(this.#manager?.metrics() ?? aggregateMetrics(new Map(), new Set(), 0)), restore: this.#progress.metrics() };
  }

  /**
   * Kafka's `setStateListener(listener)`: `listener(newState, oldState)` on
   * every state change after this call (a view over {@link KafkaStreams.state$}).
   * Allowed in state CREATED only, as Kafka; a later call replaces the
   * listener. A listener that throws is logged at ERROR and ignored, as a
   * `state$` subscriber.
   */
  setStateListener(listener: StateListener): void {
    // 1. Kafka's rule: only before start (IllegalStateException otherwise).
    this.#sm.require('setStateListener', ['CREATED']);
    if (typeof listener !== 'function') throw new TypeError('setStateListener: listener must be a function (newState, oldState) => void');
    // 2. A later call replaces the listener.
    this.#stateListener?.unsubscribe();
    // 3. state$ replays the current state first: that is no change, so the listener starts from it.
    let previous = this.state;
    this.#stateListener = this.state$.subscribe((next) => {
      if (next === previous) return;
      const old = previous;
      previous = next;
      listener(next, old);
    });
  }

  /**
   * Sets the listener told about every store restoration (Kafka's
   * `setGlobalStateRestoreListener`). Allowed in state CREATED only.
   */
  setGlobalStateRestoreListener(listener: StateRestoreListener): void {
    this.#sm.require('setGlobalStateRestoreListener', ['CREATED']);
    this.#progress.listener = listener;
  }

  /**
   * A read-only view of a local state store (Kafka's `store(StoreQueryParameters)`);
   * see src/runtime/interactive-queries.ts. Calls on it throw an
   * `InvalidStateStoreError` while the store restores or is not local.
   */
  store<T = ReadOnlyKeyValueStore<unknown, unknown>>(params: StoreQueryParameters<T>): T {
    if (!params || typeof params.storeName !== 'string' || !params.queryableStoreType) {
      throw new TypeError("app.store() takes { storeName, queryableStoreType }, e.g. { storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore() }");
    }
    this.#checkStoreName('store', params.storeName);
    return keyValueView(params as StoreQueryParameters<unknown>, () => ({ appState: this.state, stores: [...(this.#global?.storesNamed(params.storeName) ?? []), ...(this.#manager?.storesNamed(params.storeName, params.enableStaleStores === true) ?? [])] })) as T;
  }

  /**
   * Where `key` of `storeName` lives (Kafka's `queryMetadataForKey`): the `applicationServer` of the instance
   * running its task and the key's partition (the key serialized with `keySerializer`, the producer's default
   * partitioner). {@link KeyQueryMetadata.NOT_AVAILABLE} unless the app is RUNNING (e.g. while rebalancing or
   * restoring) or when no instance advertising an `applicationServer` runs the task. An unknown store throws
   * an `UnknownStateStoreError` naming the topology's stores.
   */
  queryMetadataForKey<K>(storeName: string, key: K, keySerializer: Serializer<K>): KeyQueryMetadata {
    this.#checkStoreName('queryMetadataForKey', storeName);
    if (this.state !== 'RUNNING' || this.#metadata === undefined) return KeyQueryMetadata.NOT_AVAILABLE;
    return this.#metadata.keyMetadata(storeName, key, keySerializer);
  }

  /** The instances holding `storeName` (Kafka's `streamsMetadataForStore`); empty before the first assignment; an unknown store throws. */
  streamsMetadataForStore(storeName: string): StreamsMetadata[] {
    this.#checkStoreName('streamsMetadataForStore', storeName);
    return this.#metadata?.forStore(storeName) ?? [];
  }

  /** Every instance of the application advertising an `applicationServer` (Kafka's `metadataForAllStreamsClients`). */
  metadataForAllStreamsClients(): StreamsMetadata[] {
    return this.#metadata?.all() ?? [];
  }

  /** This instance's active and standby tasks (Kafka's `metadataForLocalThreads`): one entry, sluice runs one processing loop. */
  metadataForLocalThreads(): ThreadMetadata[] {
    const { active, standby } = this.#manager?.localTasks() ?? { active: [], standby: [] };
    return [{ threadName: `${this.#config.clientId}-StreamThread-1`, threadState: this.state, consumerClientId: `${this.#config.clientId}-consumer`, activeTasks: active, standbyTasks: standby }];
  }

  /**
   * Serves the live UI of this app (src/ui): the topology graph with live node
   * rates, tasks and lag, restoration, counters over time and the last handler
   * decisions, at `url` (bound to 127.0.0.1 unless `host` says otherwise;
   * read-only). Allowed in every state but the stopped ones; closed with the app.
   */
  async serveUi(options: UiServerOptions): Promise<UiServer> {
    if (STOPPED.includes(this.state)) throw new IllegalStateError(`serveUi() needs a KafkaStreams that is not stopped (state ${this.state})`);
    const config = this.#config;
    const server = await startUiServer(
      createUiSource({
        applicationId: config.applicationId,
        instance: config.clientId,
        describe: () => this.#given?.describe(),
        runtime: () => this.#topology,
        state: () => this.state,
        metrics: () => this.metrics(),
        tasks: () => this.#manager?.taskStates() ?? [],
        nodeRecordCounts: () => this.#manager?.nodeRecordCounts() ?? new Map<string, number>(),
        progress: this.#progress,
        decisions: this.#decisions,
      }),
      options,
    );
    this.#uiServers.add(server);
    return server;
  }

  /** Restoration counters: records restored, remaining, rate (see {@link RestoreMetrics}). */
  restoreMetrics(): RestoreMetrics {
    return this.#progress.metrics();
  }

  #directories(): StateDirectory {
    const config = this.#config;
    return (this.#stateDirectory ??= new StateDirectory({ applicationId: config.applicationId, stateDir: config.stateDir, logger: config.logger }));
  }

  #stateRuntime(changelogs: ChangelogReader): StateRuntime {
    const config = this.#config;
    return {
      applicationId: config.applicationId,
      directories: this.#directories(),
      changelogs,
      cache: (this.#cache ??= new RecordCache(config.statestoreCacheMaxBytes)),
      progress: this.#progress,
    };
  }

  /** Handles an assignment; the app is RUNNING once every task restored its state (REBALANCING meanwhile, as Kafka Streams). */
  async #onAssignment(change: Parameters<TaskManager['onAssignment']>[0]): Promise<void> {
    if (STOPPED.includes(this.state)) return;
    this.#sm.tryTransition('REBALANCING');
    const manager = defined(this.#manager, 'task manager (created by start() before the consumer runs)');
    await manager.onAssignment(change);
    const round = ++this.#assignmentRound;
    void manager.whenRestored().then(() => {
      if (round === this.#assignmentRound && this.#sm.tryTransition('RUNNING')) this.#firstAssignment?.resolve();
    });
  }

  #checkRunning(): void {
    if (STOPPED.includes(this.state)) {
      throw this.#error ?? new IllegalStateError(`KafkaStreams was closed while starting (state ${this.state}); start() needs state CREATED`);
    }
  }

  /** A task failure that stops the app; during a close it is only recorded (see {@link error}). */
  #onTaskFatal(error: Error): void {
    if (this.#shutdown && this.#error === undefined) {
      this.#error = error;
      this.#log.error({ err: error }, 'a task failed while the app was closing');
      return;
    }
    void this.#fail(error);
  }

  /** Error shutdown: PENDING_ERROR, the close steps, then ERROR. */
  #fail(error: Error): Promise<void> {
    if (this.#shutdown) return this.#shutdown;
    this.#error = error;
    if (!this.#sm.tryTransition('PENDING_ERROR')) return Promise.resolve();
    this.#log.error({ err: error }, 'stopping the app in ERROR');
    this.#firstAssignment?.reject(error);
    this.#shutdown = this.#stop().then(() => this.#stopped('ERROR'));
    return this.#shutdown;
  }

  async #stop(): Promise<void> {
    // 1. timer
    if (this.#timer) clearInterval(this.#timer);
    if (this.#cleanupTimer) clearInterval(this.#cleanupTimer);
    this.#receiver?.stop();
    this.#firstAssignment?.reject(this.#error ?? new IllegalStateError('KafkaStreams was closed before it was running'));
    // 2. tasks
    await this.#manager?.closeAll().catch((error: unknown) => this.#log.warn({ err: error }, 'closing tasks failed'));
    await this.#global?.close().catch((error: unknown) => this.#log.warn({ err: error }, 'closing the global stores failed'));
    // 3. group and admin
    await this.#consumer?.close().catch((error: unknown) => this.#log.warn({ err: error }, 'closing the consumer failed'));
    await this.#admin?.close().catch((error: unknown) => this.#log.debug({ err: error }, 'closing the admin client failed'));
    await this.#changelogs?.close();
    this.#decisions.stop();
  }

  /** The last step of a shutdown: the final state, then one line naming it. */
  #stopped(state: 'NOT_RUNNING' | 'ERROR'): void {
    this.#sm.transition(state);
    this.#log.info({ state }, 'stopped');
  }
}

function isRuntime(topology: Topology | TopologyRuntime): topology is TopologyRuntime {
  return typeof (topology as Partial<TopologyRuntime>).createTask === 'function' && Array.isArray((topology as Partial<TopologyRuntime>).subtopologies);
}
