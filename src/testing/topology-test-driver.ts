/**
 * TopologyTestDriver: runs a topology in-process, record by record, through
 * the same seam the KafkaStreams runtime uses (TopologyRuntime, TaskProcessor,
 * RecordCollector) and with the same exception-handler semantics.
 */
import { MeteredVersionedKeyValueStore, type VersionedKeyValueStore } from '../state/versioned/versioned-key-value-store.js';
import { TimestampedTypedWindowStore, TypedWindowStore } from '../state/window-typed-store.js';
import { windowStoreFacade } from './internal/driver-window-facade.js';
import type { TimestampExtractor } from '../processors/timestamp-extractors.js';
import { TypedSessionStore } from '../state/session-typed-store.js';
import type { WindowStore } from '../state/window-store.js';
import type { SessionStore } from '../state/session-store.js';
import type { ConsumedRecord, Headers } from '../records/types.js';
import { IllegalArgumentError, IllegalStateError, TopologyError } from '../errors.js';
import { durationProblem } from '../internal/durations.js';
import type {
  DeserializationExceptionHandler,
  ProcessingExceptionHandler,
  ProductionExceptionHandler,
} from '../handlers/types.js';
import type { SourcePatternInfo, TaskProcessor } from '../processors/task-contract.js';
import type { KeyValueStore, StateStore } from '../state/state-store.js';
import type { Deserializer, Serde, Serializer } from '../serdes/serde.js';
import type { DslStoreSuppliers } from '../state/dsl-store-suppliers.js';
import { toRuntime } from '../topology/topology-runtime.js';
import type { Topology } from '../topology/topology.js';
import { DriverCollector, type CapturedRecord } from './internal/driver-collector.js';
import { DriverRunner, type Pending } from './internal/driver-runner.js';
import { TestInputTopic, type TestInputTopicOptions } from './test-input-topic.js';
import { TestOutputTopic } from './test-output-topic.js';
import { defined } from '../internal/defined.js';
import type { ValueAndTimestamp } from '../state/value-and-timestamp.js';
import { DriverStores, isTimestampedStore, keyValueFacade } from './internal/driver-stores.js';
import { DriverSensors, type DriverMetrics } from './driver-metrics.js';
import { formatTaskId } from '../records/task-id.js';

/** Configuration of a {@link TopologyTestDriver}. Handlers default to FAIL. */
export interface TopologyTestDriverConfig {
  /** Resolves internal (repartition) topic names to `<applicationId>-<name>` (default `'test-driver'`). */
  applicationId?: string;
  /** Initial wall-clock time in ms (default `Date.now()`). */
  initialWallClockTimeMs?: number;
  deserializationExceptionHandler?: DeserializationExceptionHandler;
  processingExceptionHandler?: ProcessingExceptionHandler;
  productionExceptionHandler?: ProductionExceptionHandler;
  /** Key serde of the sources that name none (and what inherits it), as Kafka's `default.key.serde`; default `Serdes.Buffer()`. */
  defaultKeySerde?: Serde<unknown>;
  /** Value serde of the sources that name none (and what inherits it), as Kafka's `default.value.serde`; default `Serdes.Buffer()`. */
  defaultValueSerde?: Serde<unknown>;
  /**
   * Timestamp extractor of the sources that configure none, as Kafka's
   * `default.timestamp.extractor`; default `FailOnInvalidTimestamp`.
   */
  defaultTimestampExtractor?: TimestampExtractor;
  /**
   * The engine of the stores the DSL creates, as Kafka's
   * `dsl.store.suppliers.class`: a {@link DslStoreSuppliers} class or instance
   * (e.g. `BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers`); default lmdb.
   */
  dslStoreSuppliers?: DslStoreSuppliers | (new () => DslStoreSuppliers);
  /**
   * The bound (ms) of one call of an async step (`mapValuesAsync`, `asyncProcessor`, ...), as the
   * app's `asyncCallTimeoutMs` (default 30 000): a call over it is a processing error
   * `ASYNC_CALL_TIMEOUT`. Use a small value with fake timers to test a hanging call.
   */
  asyncCallTimeoutMs?: number;
  /**
   * Bytes of the record cache in front of caching stores (default 10 MiB, 0
   * disables), as Kafka's `statestore.cache.max.bytes`. The driver flushes the
   * cache after every piped record, so outputs equal those without a cache.
   */
  statestoreCacheMaxBytes?: number;
}

const FAIL = { handle: () => 'FAIL' as const };

/** Kafka's `Objects.requireNonNull(topicName, "topicName cannot be null")`, for JavaScript callers. */
function requireTopicName(topic: unknown, op: string): void {
  if (typeof topic !== 'string' || topic === '') throw new IllegalArgumentError(`topicName cannot be null: ${op} needs a topic name, got ${String(topic)}`);
}

type DriverState = 'RUNNING' | 'CLOSED';

/**
 * Runs a topology without Kafka: one task per sub-topology (partition 0),
 * processing each piped record synchronously, committing after each one (as
 * Kafka's driver: the stores flush, so the record cache forwards and logs
 * everything it holds, then commit). Stores live in a temporary state
 * directory, removed at `close()`; their changelog writes are recorded
 * internally, not produced. Records written to a topic the topology reads are processed
 * too, after the record that produced them: this is how records cross a
 * repartition topic (`<applicationId>-<name>-repartition`, readable with
 * `createOutputTopic`) into the next sub-topology. A topology that keeps
 * feeding its own input gets a TopologyError naming the topic instead of
 * looping. Errors surface from the `pipe*` call as the runtime would see them
 * (a StreamsError with the cause).
 *
 * Async processors (a `process` returning a promise): `pipe*` then returns
 * before the record is done; later `pipe*` calls and `advanceWallClockTime`
 * queue behind it, in order. `await driver.settle()` waits for all of it and
 * rejects with a failure of it (a handler's FAIL). Reading an output topic
 * while records are in flight throws an IllegalStateError asking for
 * `settle()`, so a test never reads incomplete results. Synchronous
 * topologies behave exactly as before: nothing to await.
 */
export class TopologyTestDriver {
  private readonly tasks: TaskProcessor[] = [];
  private readonly taskByTopic = new Map<string, TaskProcessor>();
  private readonly outputs = new Map<string, CapturedRecord[]>();
  private readonly offsets = new Map<string, number>();
  /** Every topic a sink wrote to, in first-write order; kept after its records are read (as Kafka's driver does). */
  private readonly produced = new Set<string>();
  private readonly runner: DriverRunner;
  /** Source patterns with the task of their sub-topology: topics matching one are read by that task. */
  private readonly patternTasks: Array<SourcePatternInfo & { task: TaskProcessor }>;
  private readonly storeSide: DriverStores;
  /** Every store name of the topology (global stores included), in the order added. */
  private readonly storeNames: readonly string[];
  private readonly sensors: DriverSensors;
  private wallClockMs: number;
  private state: DriverState = 'RUNNING';

  constructor(topology: Topology, config: TopologyTestDriverConfig = {}) {
    const timeoutProblem = config.asyncCallTimeoutMs === undefined ? undefined : durationProblem(config.asyncCallTimeoutMs);
    if (timeoutProblem) throw new IllegalArgumentError(`TopologyTestDriver config 'asyncCallTimeoutMs' ${timeoutProblem}`);
    this.wallClockMs = config.initialWallClockTimeMs ?? Date.now();
    this.storeSide = new DriverStores(config.applicationId ?? 'test-driver', config.statestoreCacheMaxBytes, (topic) => this.produced.add(topic));
    const runtime = toRuntime(topology, {
      applicationId: config.applicationId ?? 'test-driver',
      ...(config.defaultKeySerde ? { defaultKeySerde: config.defaultKeySerde } : {}),
      ...(config.defaultValueSerde ? { defaultValueSerde: config.defaultValueSerde } : {}),
      ...(config.defaultTimestampExtractor !== undefined ? { defaultTimestampExtractor: config.defaultTimestampExtractor } : {}),
      ...(config.dslStoreSuppliers !== undefined ? { dslStoreSuppliers: config.dslStoreSuppliers } : {}),
    });
    this.storeNames = [...new Set([...runtime.storeKinds().keys(), ...runtime.globalStores().map((g) => g.storeName)])];
    this.runner = new DriverRunner((record) => this.processOne(record));
    const collector = new DriverCollector(config.productionExceptionHandler ?? FAIL, (record, sink) => this.capture(record, sink), (taskId) => this.sensors.recordDropped(taskId));
    const handlers = {
      deserialization: config.deserializationExceptionHandler ?? FAIL,
      processing: config.processingExceptionHandler ?? FAIL,
    };
    // The global stores' task (Kafka's GlobalStateUpdateTask): a record piped into a global topic updates its store at once.
    const globalTask = runtime.createGlobalTask(collector, handlers, { clock: () => this.wallClockMs });
    const globalStore = (name: string): StateStore | undefined => globalTask?.stores.find((s) => s.name === name) as StateStore | undefined;
    for (const sub of runtime.subtopologies) {
      const taskId = formatTaskId({ subtopology: sub.id, partition: 0 });
      const onDroppedRecord = (): void => this.sensors.recordDropped(taskId);
      const task = runtime.createTask({ subtopology: sub.id, partition: 0 }, collector, handlers, {
        clock: () => this.wallClockMs, globalStore, outerJoinEmitIntervalMs: 0, windowedAggregationEmitIntervalMs: 0, onDroppedRecord,
        ...(config.asyncCallTimeoutMs !== undefined ? { asyncCallTimeoutMs: config.asyncCallTimeoutMs } : {}),
      });
      this.tasks.push(task);
      for (const topic of sub.sourceTopics) this.taskByTopic.set(topic, task);
    }
    this.sensors = new DriverSensors(
      this.tasks.map((t) => formatTaskId(t.taskId)),
      () => this.wallClockMs,
    );
    this.patternTasks = runtime.sourcePatterns().map((p) => ({ ...p, task: defined(this.tasks[runtime.subtopologyOfSource(p.source)], `task of source ${p.source}`) }));
    // Last, so that the tasks keep the indexes of their sub-topologies (pattern sources above).
    if (globalTask !== undefined) {
      this.tasks.push(globalTask);
      for (const g of runtime.globalStores()) this.taskByTopic.set(g.topic, globalTask);
    }
    // store lifecycle step 2 (init) for every store, then the processors' init
    try {
      const sourceChangelogs = runtime.sourceChangelogs();
      for (const task of this.tasks) this.storeSide.initStores(task, sourceChangelogs);
      for (const task of this.tasks) task.init();
    } catch (error) {
      this.state = 'CLOSED';
      for (const task of this.tasks) {
        try {
          task.close();
        } catch {
          // the first error is the one reported
        }
      }
      this.storeSide.cleanUp();
      throw error;
    }
  }

  /**
   * The task reading `topic`: a named source topic, else (as Kafka's driver)
   * a topic matching a source pattern, registered on first use; a topic
   * matching two patterns is a TopologyError (Kafka's message).
   */
  private taskOf(topic: string): TaskProcessor | undefined {
    const known = this.taskByTopic.get(topic);
    if (known !== undefined) return known;
    const matching = this.patternTasks.filter((p) => p.pattern.test(topic));
    const [first, second] = matching;
    if (first !== undefined && second !== undefined) {
      throw new TopologyError(
        `Topic ${topic} is already matched for another regex pattern ${first.text} and hence cannot be matched to this regex pattern ${second.text} any more.`,
      );
    }
    if (first !== undefined) this.taskByTopic.set(topic, first.task);
    return first?.task;
  }

  private guard(op: string): void {
    if (this.state !== 'RUNNING') {
      throw new IllegalStateError(`TopologyTestDriver cannot ${op} in state ${this.state}; allowed in: RUNNING`);
    }
  }

  private queueOf(topic: string): CapturedRecord[] {
    let queue = this.outputs.get(topic);
    if (queue === undefined) {
      queue = [];
      this.outputs.set(topic, queue);
    }
    return queue;
  }

  private capture(record: CapturedRecord, sink: string): void {
    this.queueOf(record.topic).push(record);
    this.produced.add(record.topic);
    if (this.taskOf(record.topic) !== undefined) this.runner.writeBack(record, sink);
  }

  /** An input topic for `topic`, which must be a source topic of the topology. */
  createInputTopic<K, V>(
    topic: string,
    keySerializer: Serializer<K>,
    valueSerializer: Serializer<V>,
    options?: TestInputTopicOptions,
  ): TestInputTopic<K, V> {
    this.guard('createInputTopic');
    requireTopicName(topic, 'createInputTopic');
    if (this.taskOf(topic) === undefined) {
      const patterns = this.patternTasks.length > 0 ? ` or match one of its patterns [${this.patternTasks.map((p) => p.text).join(', ')}]` : '';
      throw new TopologyError(`Topic '${topic}' is not read by the topology; its source topics are [${[...this.taskByTopic.keys()].join(', ')}]${patterns}`);
    }
    const sink = { pipe: (t: string, k: Buffer | null, v: Buffer | null, h: Headers, ts: number) => this.pipe(t, k, v, h, ts) };
    return new TestInputTopic<K, V>(sink, topic, keySerializer, valueSerializer, this.wallClockMs, options);
  }

  /** An output topic reading what the sinks wrote to `topic`. */
  createOutputTopic<K, V>(topic: string, keyDeserializer: Deserializer<K>, valueDeserializer: Deserializer<V>): TestOutputTopic<K, V> {
    this.guard('createOutputTopic');
    requireTopicName(topic, 'createOutputTopic');
    return new TestOutputTopic<K, V>(this.queueOf(topic), topic, keyDeserializer, valueDeserializer, (op) => this.runner.requireSettled(op));
  }

  private pipe(topic: string, key: Buffer | null, value: Buffer | null, headers: Headers, timestamp: number): void {
    this.guard('pipeInput');
    this.runner.schedule(() => this.processOne({ topic, partition: 0, key, value, headers, timestamp }));
  }

  private processOne(record: Omit<ConsumedRecord, 'offset'>): Pending {
    const offset = this.offsets.get(record.topic) ?? 0;
    this.offsets.set(record.topic, offset + 1);
    const task = defined(this.taskOf(record.topic), `task of topic ${record.topic}`);
    const outcome = task.process({ ...record, partition: 0, offset });
    if (typeof outcome !== 'string') return outcome.then(() => (this.sensors.recordProcessed(), this.commit()));
    this.sensors.recordProcessed();
    return this.commit();
  }

  /**
   * The driver's metrics, with Kafka's names (see {@link DriverMetrics}):
   * `dropped-records-total` and `dropped-records-rate` of each task (group
   * `stream-task-metrics`, tags `thread-id` `'main'` and `task-id`, e.g.
   * `'0_0'`), counting records an operator dropped (null key, expired
   * window, invalid timestamp, ...) and records a deserialization, processing
   * or production handler answered CONTINUE for; and the thread's
   * `process-total` and `process-rate` (group `stream-thread-metrics`, tag
   * `thread-id`), counting records processed (piped or read back from a
   * repartition topic). Rates are per second on the driver's wall clock
   * (`advanceWallClockTime`), as Kafka's (2 samples of 30 s).
   */
  metrics(): DriverMetrics {
    return this.sensors.metrics();
  }

  /**
   * A commit of every task, each after the previous one settled:
   * 0. wait for the task's async calls (`drainAsync`: async steps run one record at a time here);
   * 1. flush the stores (the cache forwards and logs its dirty entries; a
   *    forward into an async processor makes it a promise);
   * 2. commit the stores (step 6 of the store lifecycle);
   * 3. clear the task's commit request.
   */
  private commit(index = 0): Pending {
    for (let i = index; i < this.tasks.length; i++) {
      const task = defined(this.tasks[i], `task ${i}`);
      const drained = task.drainAsync?.(); // 0. the calls of async steps finish first (as the runtime's commit)
      if (drained !== undefined) return drained.then(() => this.commit(i));
      task.flushStores(); // 1.
      const flushed = task.whenIdle?.();
      const rest = (): Pending => {
        const again = task.drainAsync?.(); // the flush admitted async calls: drain them, flush again
        if (again !== undefined) return again.then(() => this.commit(i));
        this.storeSide.commitStores(task); // 2.
        task.clearCommitRequest(); // 3.
        return this.commit(i + 1);
      };
      if (flushed !== undefined) return flushed.then(rest);
      const again = task.drainAsync?.();
      if (again !== undefined) return again.then(() => this.commit(i));
      this.storeSide.commitStores(task);
      task.clearCommitRequest();
    }
    return undefined;
  }

  /** Advances the wall clock by `ms` and runs the wall-clock punctuations that became due. */
  advanceWallClockTime(ms: number): void {
    this.guard('advanceWallClockTime');
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advanceWallClockTime: ms must be >= 0, got ${ms}`);
    this.runner.schedule(() => {
      this.wallClockMs += ms;
      return this.punctuateFrom(0);
    });
  }

  /** Wall-clock punctuation of the tasks from `index` on, each after the previous one settled; then a commit. */
  private punctuateFrom(index: number): Pending {
    for (let i = index; i < this.tasks.length; i++) {
      const pending = defined(this.tasks[i], `task ${i}`).punctuateWallClock(this.wallClockMs);
      if (pending !== undefined) return pending.then(() => this.punctuateFrom(i + 1));
    }
    return this.commit();
  }

  /**
   * Waits until every piped record (and wall-clock advance) is fully
   * processed, including what async processors still do; rejects with the
   * first failure among them (then the driver is usable again). Resolves at
   * once for a synchronous topology.
   */
  settle(): Promise<void> {
    return this.runner.settle();
  }

  /** The driver's wall-clock time. */
  get wallClockTimeMs(): number {
    return this.wallClockMs;
  }

  /** The state store `name` of the (first) task that has it, or undefined. */
  private findStore(name: string): StateStore | undefined {
    for (const task of this.tasks) {
      const store = task.stores.find((s) => s.name === name);
      if (store !== undefined) return store;
    }
    return undefined;
  }

  /**
   * The state store `name` of the (first) task that has it; null when the
   * topology has no store of that name (as Kafka's driver).
   */
  getStateStore<S extends StateStore = StateStore>(name: string): S | null {
    return (this.findStore(name) as S | undefined) ?? null;
  }

  /**
   * Every state store of the topology by name, global stores included (Kafka's
   * `getAllStateStores`; sluice rejects a store connected to no processor,
   * so no value is null). Handy to pre-fill stores before piping input or
   * to check them afterwards; stores the DSL added are better read with the
   * typed getters ({@link getKeyValueStore}, {@link getWindowStore}, …),
   * which give the views Kafka's driver gives.
   */
  getAllStateStores(): Map<string, StateStore> {
    const all = new Map<string, StateStore>();
    for (const name of this.storeNames) {
      const store = this.findStore(name);
      if (store !== undefined) all.set(name, store);
    }
    return all;
  }

  /**
   * The key-value store `name`. For a timestamped store (every DSL
   * aggregation's) a view with plain values, as Kafka's driver gives.
   */
  getKeyValueStore<K, V>(name: string): KeyValueStore<K, V> | null {
    const store = this.findStore(name);
    if (store === undefined) return null;
    if (store instanceof MeteredVersionedKeyValueStore) {
      throw new TopologyError(`State store '${name}' is a versioned key-value store; read it with getVersionedKeyValueStore('${name}')`);
    }
    // the driver's registry is untyped; the caller names K and V, the timestamped check proved the value shape
    if (isTimestampedStore(store)) return keyValueFacade(store as unknown as KeyValueStore<K, ValueAndTimestamp<V>>);
    return store as KeyValueStore<K, V>;
  }

  /** The versioned key-value store `name` (Kafka's `getVersionedKeyValueStore`); a TopologyError for another kind. */
  getVersionedKeyValueStore<K, V>(name: string): VersionedKeyValueStore<K, V> | null {
    const store = this.findStore(name);
    if (store === undefined) return null;
    if (!(store instanceof MeteredVersionedKeyValueStore)) throw new TopologyError(`State store '${name}' is not a versioned key-value store; read it with getKeyValueStore('${name}')`);
    return store as VersionedKeyValueStore<K, V>;
  }

  /** The timestamped key-value store `name` (values with the timestamp stored beside them); a TopologyError for another kind. */
  getTimestampedKeyValueStore<K, V>(name: string): KeyValueStore<K, ValueAndTimestamp<V>> | null {
    const store = this.findStore(name);
    if (store === undefined) return null;
    if (!isTimestampedStore(store)) {
      throw new TopologyError(`State store '${name}' is not a timestamped key-value store; read it with getKeyValueStore('${name}')`);
    }
    return store as KeyValueStore<K, ValueAndTimestamp<V>>;
  }

  /**
   * The window store `name` (Kafka's `getWindowStore`); for a timestamped
   * window store (every windowed aggregation's) a view with plain values, as
   * Kafka's driver gives. A TopologyError for another kind.
   */
  getWindowStore<K, V>(name: string): WindowStore<K, V> | null {
    const store = this.findStore(name);
    if (store === undefined) return null;
    if (!(store instanceof TypedWindowStore)) throw new TopologyError(`State store '${name}' is not a window store; read it with getStateStore('${name}')`);
    if (store instanceof TimestampedTypedWindowStore) return windowStoreFacade(store as TimestampedTypedWindowStore<K, V>);
    return store as WindowStore<K, V>;
  }

  /** The timestamped window store `name` (Kafka's `getTimestampedWindowStore`); a TopologyError for another kind. */
  getTimestampedWindowStore<K, V>(name: string): WindowStore<K, ValueAndTimestamp<V>> | null {
    const store = this.findStore(name);
    if (store === undefined) return null;
    if (!(store instanceof TimestampedTypedWindowStore)) {
      throw new TopologyError(`State store '${name}' is not a timestamped window store; read it with getWindowStore('${name}')`);
    }
    return store as TimestampedTypedWindowStore<K, V>;
  }

  /** The session store `name` (Kafka's `getSessionStore`); a TopologyError for another kind. */
  getSessionStore<K, AGG>(name: string): SessionStore<K, AGG> | null {
    const store = this.findStore(name);
    if (store === undefined) return null;
    if (!(store instanceof TypedSessionStore)) throw new TopologyError(`State store '${name}' is not a session store; read it with getStateStore('${name}')`);
    return store as SessionStore<K, AGG>;
  }

  /** Names of the topics written so far, changelog topics (`<applicationId>-<store>-changelog`) included, also those whose records were already read (as Kafka's `producedTopicNames()`). */
  producedTopicNames(): string[] {
    this.runner.requireSettled('list produced topics');
    return [...this.produced];
  }

  /**
   * Closes every task (processors, then stores). Idempotent. Throws, after
   * closing, when async work was still in flight (call `settle()` first) or
   * an async failure was never reported.
   */
  close(): void {
    if (this.state === 'CLOSED') return;
    this.state = 'CLOSED';
    let first: unknown;
    try {
      this.runner.requireSettled('close cleanly');
    } catch (error) {
      first = error;
    }
    for (const task of this.tasks) {
      try {
        task.close();
      } catch (error) {
        first ??= error;
      }
    }
    this.storeSide.cleanUp();
    if (first !== undefined) throw first;
  }
}
