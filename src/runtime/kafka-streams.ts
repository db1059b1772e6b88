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
import { IllegalStateError } from '../errors.js';
import { componentLogger, type Logger } from '../internal/logger.js';
import type { TopologyRuntime } from '../processors/task-contract.js';
import type { Topology } from '../topology/topology.js';
import { resolveConfig, type KafkaStreamsConfig, type ResolvedConfig } from './config.js';
import type { AppState } from './internal/app-state.js';
import { AppLifecycle } from './internal/app-lifecycle.js';
import { runGroupMember } from './internal/group-member.js';
import { aggregateMetrics, type KafkaStreamsMetrics } from './metrics.js';
import { RestoreProgress } from './internal/restore-progress.js';
import type { RestoreMetrics, StateRestoreListener } from './state-restore-listener.js';
import type { ReadOnlyKeyValueStore, StoreQueryParameters } from './interactive-queries.js';
import { withGlobalStores } from './internal/global-state-manager.js';
import { randomUUID } from 'node:crypto';
import type { Serializer } from '../serdes/serde.js';
import type { StreamsMetadataState } from './internal/streams-metadata-state.js';
import type { KeyQueryMetadata, StreamsMetadata, ThreadMetadata } from './streams-metadata.js';
import type { StoreKind } from '../processors/store-kind.js';
import { DecisionLog } from './internal/decision-log.js';
import { startUiServer } from '../ui/server.js';
import type { UiServer, UiServerOptions } from '../ui/types.js';
import { AppBuilder, runtimeTopology } from './internal/app-builder.js';
import { closeAppParts, type AppParts } from './internal/app-close.js';
import { createStreamThreads } from './internal/app-threads.js';
import { identityOf, type StreamThreadIdentity } from './internal/stream-thread-identity.js';
import { mergeThreadMetrics } from './internal/thread-metrics.js';
import { keyQueryMetadata, localThreads, metadataForStore, storeView, uiSourceOf, type AppQueryView } from './internal/app-queries.js';

/** The state of a {@link KafkaStreams} app (Kafka Streams' `KafkaStreams.State`). */
export type KafkaStreamsState = AppState;

/** Kafka Streams' `KafkaStreams.StateListener`: called with the new and the old state on every change. */
export type StateListener = (newState: KafkaStreamsState, oldState: KafkaStreamsState) => void;

/** A running stream processing application; see the module comment and API.md "Running it". */
export class KafkaStreams {
  readonly #config: ResolvedConfig;
  /** Replaced once at start by the topology with its source patterns resolved. */
  #topology: TopologyRuntime;
  readonly #log: Logger;
  /** Builds every part of the app from the resolved config (./internal/app-builder.ts). */
  readonly #builder: AppBuilder;
  /** What start() built so far; closed by {@link close} (./internal/app-close.ts). */
  readonly #parts: AppParts = {};
  /** State machine, first assignment, close and error shutdown (./internal/app-lifecycle.ts). */
  readonly #life: AppLifecycle;
  readonly #progress: RestoreProgress;
  /** The group's hosts and their partitions, from the assignor's user data (set at start). */
  #metadata: StreamsMetadataState | undefined;
  /** The topology as given, for `describe()` in the live UI (undefined when a TopologyRuntime was given). */
  readonly #given: Topology | undefined;
  /** The last handler decisions (the live UI), fed by the app's three handlers. */
  readonly #decisions = new DecisionLog();
  /** The servers of {@link serveUi} (closing one twice is harmless). */
  readonly #uiServers = new Set<UiServer>();
  readonly #givenConfig: KafkaStreamsConfig;
  readonly #topologyArg: Topology | TopologyRuntime;
  readonly #identity: StreamThreadIdentity | undefined;

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
    this.#givenConfig = config;
    this.#topologyArg = topology;
    this.#identity = identityOf(config);
    this.#given = isRuntime(topology) ? undefined : topology;
    this.#topology = isRuntime(topology) ? topology : runtimeTopology(topology, config, this.#config);
    this.#log = componentLogger('kafka-streams', this.#config.logger, { applicationId: this.#config.applicationId });
    this.#progress = new RestoreProgress(componentLogger('state-restore', this.#config.logger, { applicationId: this.#config.applicationId }));
    this.#builder = new AppBuilder(this.#config, {
      processId: this.#identity?.processId ?? randomUUID(), threadIndex: this.#identity?.index ?? 1, progress: this.#progress, onFatal: (error) => void this.#life.fail(error), onTaskFatal: (error) => this.#life.onTaskFatal(error),
    });
    this.#life = new AppLifecycle(this.#log, async () => {
      await closeAppParts(this.#parts, this.#log);
      this.#decisions.stop();
    });
    const { logger, productionExceptionHandler, deserializationExceptionHandler, processingExceptionHandler } = this.#config;
    if (logger) for (const handler of [productionExceptionHandler, deserializationExceptionHandler, processingExceptionHandler]) handler.useAppLogger?.(logger);
    this.#decisions.observe([productionExceptionHandler, deserializationExceptionHandler, processingExceptionHandler]);
  }

  /** The `applicationServer` this instance advertises to the group (its config), undefined without one. */
  get applicationServer(): string | undefined {
    return this.#config.applicationServer;
  }

  /**
   * The kind of state store `storeName` (`'keyValue'`, `'timestampedKeyValue'`, `'versioned'`, `'window'`,
   * `'timestampedWindow'`, `'session'`; `'buffer'` for a suppression's internal buffer, `'other'` for a store
   * of a custom builder); undefined when the topology has no such store (or does not say).
   */
  storeKind(storeName: string): StoreKind | undefined {
    return this.#topology.storeKinds?.().get(storeName);
  }

  /** The current state. */
  get state(): KafkaStreamsState {
    return this.#life.state;
  }

  /**
   * Every state change, starting with the current state (BehaviorSubject-backed).
   * A subscriber that throws (also in an observable piped from this one) is
   * logged at ERROR and ignored: the app keeps going and the process survives.
   */
  get state$(): Observable<KafkaStreamsState> {
    return this.#life.state$;
  }

  /**
   * The error that moved the app to PENDING_ERROR / ERROR, if any (e.g. the FAIL cause or a throwing handler's
   * error); also the first task failure that stopped a task while the app was already closing (the app then
   * still ends in NOT_RUNNING, but its work did not end cleanly: the CLI exits non-zero).
   */
  get error(): Error | undefined {
    return this.#life.error;
  }

  /**
   * Starts the app. Allowed in state CREATED. Resolves once RUNNING; every part is built by the app builder
   * (./internal/app-builder.ts, one method per step):
   * 1. state REBALANCING; connect (kafkajs for `bootstrapServers`, else `cluster`);
   * 2. resolve the source patterns against the cluster's topics (one matching none is an error naming it),
   *    describe the source topics (a missing one is an error naming it), create the missing repartition
   *    topics (`<applicationId>-<name>-repartition`, sized as the upstream sources), check co-partitioning,
   *    and check that the static sink topics and the handlers' dead-letter topics exist (one error naming the missing ones);
   * 3. restore every global store (`builder.globalTable`) in full from all partitions of its topic, from its
   *    checkpoint, then keep it up to date in a loop (./internal/global-state-manager.ts);
   * 4. join the group `applicationId` (read_committed, no auto-commit) and subscribe;
   * 5. start the commit/punctuation timer;
   * 6. wait for the first assignment: every assigned task initialised (producer fenced-in, offsets re-read, seeks done)
   *    and restored (tasks already running process and commit meanwhile); state RUNNING.
   * A failure moves the app to ERROR and rejects. A {@link close} meanwhile (at any step) wins: once the
   * shutdown is done (the group left), start() rejects with an `IllegalStateError` "closed while starting".
   */
  async start(): Promise<void> {
    this.#life.sm.require('start', ['CREATED']);
    this.#life.sm.transition('REBALANCING');
    const [builder, parts, life] = [this.#builder, this.#parts, this.#life];
    try {
      // 1. connect
      const { cluster, admin } = builder.connect();
      Object.assign(parts, { admin, closeChangelogReader: () => builder.closeChangelogReader() });
      // 2. topics
      const topics = await builder.prepareTopics(admin, this.#topology);
      this.#topology = topics.topology;
      life.checkRunning();
      // 2b. stream threads 2..N start now, each a group member of its own; the app is RUNNING when all are
      this.#startThreads();
      // 3. global stores
      parts.global = await builder.startGlobalState(cluster, this.#topology);
      this.#topology = topics.topology = withGlobalStores(this.#topology, parts.global);
      life.checkRunning();
      // 4. join
      const member = builder.joinGroup(cluster, admin, topics);
      Object.assign(parts, { consumer: member.consumer, receiver: member.receiver, manager: member.manager });
      this.#metadata = member.metadata;
      const first = life.firstAssignment();
      await runGroupMember(member, this.#topology, life);
      // 5. timers
      parts.stopTimers = builder.startTimers(member.manager);
      // 6. first assignment handled and every task restored: RUNNING
      await first;
      life.checkRunning();
      this.#log.info({ tasks: member.manager.taskIds }, 'started');
    } catch (error) {
      await life.startFailed(error);
    }
  }

  /**
   * Stops the app; idempotent, allowed in every state. Steps:
   * 1. state PENDING_SHUTDOWN; stop the timer;
   * 2. close every task: clean ones commit their transaction, failed ones abort; producers close; then stop the
   *    global stores' loop and checkpoint them;
   * 3. leave the group (close the consumer), close the admin client and the restore reader;
   * 4. state NOT_RUNNING;
   * 5. close the live UI servers ({@link serveUi}).
   * In PENDING_ERROR it waits for the error shutdown (the app ends in ERROR), then does step 5.
   */
  #startThreads(): void {
    if (this.#identity !== undefined || this.#config.numStreamThreads === 1) return;
    const threads = createStreamThreads({
      config: this.#config, given: this.#givenConfig, processId: this.#builder.processId, log: this.#log,
      inLoop: (config) => new KafkaStreams(this.#topologyArg, config),
      events: {
        onState: (_index, state) => this.#life.onThreadState(state),
        onFailed: (index, error) => {
          this.#log.error({ err: error, thread: index }, 'a stream thread failed: the instance stops (SHUTDOWN_CLIENT)');
          void this.#life.fail(error);
        },
      },
    });
    this.#parts.threads = threads;
    this.#life.othersRunning = () => threads.allRunning();
    threads.start().catch(() => undefined); // a failure reaches onFailed
  }

  async close(): Promise<void> {
    await this.#life.close();
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
    this.#life.sm.require('cleanUp', ['CREATED', 'NOT_RUNNING', 'ERROR']);
    this.#builder.directories().clean();
  }

  /** Counters of the app and of each task (see {@link KafkaStreamsMetrics}). Allowed in every state. */
  metrics(): KafkaStreamsMetrics {
    const own = { ...(this.#parts.manager?.metrics() ?? aggregateMetrics(new Map(), new Set(), 0)), restore: this.#progress.metrics() };
    return mergeThreadMetrics([own, ...(this.#parts.threads?.metrics() ?? [])]);
  }

  /**
   * Kafka's `setStateListener(listener)`: `listener(newState, oldState)` on
   * every state change after this call (a view over {@link KafkaStreams.state$}).
   * Allowed in state CREATED only, as Kafka; a later call replaces the
   * listener. A listener that throws is logged at ERROR and ignored, as a
   * `state$` subscriber.
   */
  setStateListener(listener: StateListener): void {
    this.#life.setStateListener(listener);
  }


  /**
   * Sets the listener told about every store restoration (Kafka's
   * `setGlobalStateRestoreListener`). Allowed in state CREATED only.
   */
  setGlobalStateRestoreListener(listener: StateRestoreListener): void {
    this.#life.sm.require('setGlobalStateRestoreListener', ['CREATED']);
    this.#progress.listener = listener;
  }

  /**
   * A read-only view of a local state store (Kafka's `store(StoreQueryParameters)`): key-value,
   * timestamped key-value, versioned (`QueryableStoreTypes.versionedKeyValueStore()`), window and session
   * stores; see src/runtime/interactive-queries.ts. Calls on it throw an `InvalidStateStoreError` while the
   * store restores or is not local, or when the store is of another kind (`reason: 'wrong-type'`).
   */
  store<T = ReadOnlyKeyValueStore<unknown, unknown>>(params: StoreQueryParameters<T>): T {
    return storeView(() => this.#queryView(), params);
  }

  /**
   * Where `key` of `storeName` lives (Kafka's `queryMetadataForKey`): the `applicationServer` of the instance
   * running its task and the key's partition (the key serialized with `keySerializer`, the producer's default
   * partitioner). {@link KeyQueryMetadata.NOT_AVAILABLE} unless the app is RUNNING (e.g. while rebalancing or
   * restoring) or when no instance advertising an `applicationServer` runs the task. An unknown store throws
   * an `UnknownStateStoreError` naming the topology's stores.
   */
  queryMetadataForKey<K>(storeName: string, key: K, keySerializer: Serializer<K>): KeyQueryMetadata {
    return keyQueryMetadata(this.#queryView(), storeName, key, keySerializer);
  }

  /** The instances holding `storeName` (Kafka's `streamsMetadataForStore`); empty before the first assignment; an unknown store throws. */
  streamsMetadataForStore(storeName: string): StreamsMetadata[] {
    return metadataForStore(this.#queryView(), storeName);
  }

  /** Every instance of the application advertising an `applicationServer` (Kafka's `metadataForAllStreamsClients`). */
  metadataForAllStreamsClients(): StreamsMetadata[] {
    return this.#metadata?.all() ?? [];
  }

  /** This instance's active and standby tasks (Kafka's `metadataForLocalThreads`): one entry, sluice runs one processing loop. */
  metadataForLocalThreads(): ThreadMetadata[] {
    return [...localThreads(this.#queryView(), this.#identity?.index ?? 1), ...(this.#parts.threads?.threads() ?? [])];
  }

  /**
   * Serves the live UI of this app (src/ui): the topology graph with live node
   * rates, tasks and lag, restoration, counters over time and the last handler
   * decisions, at `url` (bound to 127.0.0.1 unless `host` says otherwise;
   * read-only). Allowed in every state but the stopped ones; closed with the app.
   */
  async serveUi(options: UiServerOptions): Promise<UiServer> {
    if (this.#life.stopped) throw new IllegalStateError(`serveUi() needs a KafkaStreams that is not stopped (state ${this.state})`);
    const app = { applicationId: this.#config.applicationId, describe: () => this.#given?.describe(), metrics: () => this.metrics(), progress: this.#progress, decisions: this.#decisions };
    const server = await startUiServer(uiSourceOf(() => this.#queryView(), app), options);
    this.#uiServers.add(server);
    return server;
  }

  /** Restoration counters: records restored, remaining, rate (see {@link RestoreMetrics}). */
  restoreMetrics(): RestoreMetrics {
    return this.#progress.metrics();
  }

  /** What the queries (./internal/app-queries.ts) read of the app now. */
  #queryView(): AppQueryView {
    return { state: this.state, clientId: this.#config.clientId, topology: this.#topology, metadata: this.#metadata, global: this.#parts.global, manager: this.#parts.manager };
  }
}

function isRuntime(topology: Topology | TopologyRuntime): topology is TopologyRuntime {
  return typeof (topology as Partial<TopologyRuntime>).createTask === 'function' && Array.isArray((topology as Partial<TopologyRuntime>).subtopologies);
}
