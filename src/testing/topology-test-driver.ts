/**
 * TopologyTestDriver: runs a topology in-process, record by record, through
 * the same seam the KafkaStreams runtime uses (TopologyRuntime, TaskProcessor,
 * RecordCollector) and with the same exception-handler semantics.
 */
import type { ConsumedRecord, Headers } from '../records/types.js';
import { IllegalStateError, TopologyError } from '../errors.js';
import type {
  DeserializationExceptionHandler,
  ProcessingExceptionHandler,
  ProductionExceptionHandler,
} from '../handlers/types.js';
import type { TaskProcessor } from '../processors/task-contract.js';
import type { KeyValueStore, StateStore } from '../processors/state/state-store.js';
import type { Deserializer, Serializer } from '../serdes/serde.js';
import { toRuntime } from '../topology/topology-runtime.js';
import type { Topology } from '../topology/topology.js';
import { DriverCollector, type CapturedRecord } from './internal/driver-collector.js';
import { TestInputTopic, type TestInputTopicOptions } from './test-input-topic.js';
import { TestOutputTopic } from './test-output-topic.js';

/** Configuration of a {@link TopologyTestDriver}. Handlers default to FAIL. */
export interface TopologyTestDriverConfig {
  /** Resolves internal (repartition) topic names to `<applicationId>-<name>` (default `'test-driver'`). */
  applicationId?: string;
  /** Initial wall-clock time in ms (default `Date.now()`). */
  initialWallClockTimeMs?: number;
  deserializationExceptionHandler?: DeserializationExceptionHandler;
  processingExceptionHandler?: ProcessingExceptionHandler;
  productionExceptionHandler?: ProductionExceptionHandler;
}

const FAIL = { handle: () => 'FAIL' as const };

type DriverState = 'RUNNING' | 'CLOSED';

/**
 * Runs a topology without Kafka: one task per sub-topology (partition 0),
 * processing each piped record synchronously, committing (flushing stores)
 * after each one. Records written to a topic the topology reads are processed
 * too, after the record that produced them: this is how records cross a
 * repartition topic (`<applicationId>-<name>-repartition`, readable with
 * `createOutputTopic`) into the next sub-topology. Errors surface from the `pipe*`
 * call as the runtime would see them (a StreamsError with the cause).
 */
export class TopologyTestDriver {
  private readonly tasks: TaskProcessor[] = [];
  private readonly taskByTopic = new Map<string, TaskProcessor>();
  private readonly outputs = new Map<string, CapturedRecord[]>();
  private readonly offsets = new Map<string, number>();
  private readonly pending: CapturedRecord[] = [];
  private wallClockMs: number;
  private state: DriverState = 'RUNNING';

  constructor(topology: Topology, config: TopologyTestDriverConfig = {}) {
    this.wallClockMs = config.initialWallClockTimeMs ?? Date.now();
    const runtime = toRuntime(topology, { applicationId: config.applicationId ?? 'test-driver' });
    const collector = new DriverCollector(config.productionExceptionHandler ?? FAIL, (record) => this.capture(record));
    const handlers = {
      deserialization: config.deserializationExceptionHandler ?? FAIL,
      processing: config.processingExceptionHandler ?? FAIL,
    };
    for (const sub of runtime.subtopologies) {
      const task = runtime.createTask({ subtopology: sub.id, partition: 0 }, collector, handlers, { clock: () => this.wallClockMs });
      this.tasks.push(task);
      for (const topic of sub.sourceTopics) this.taskByTopic.set(topic, task);
    }
    for (const task of this.tasks) task.init();
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

  private capture(record: CapturedRecord): void {
    this.queueOf(record.topic).push(record);
    if (this.taskByTopic.has(record.topic)) this.pending.push(record);
  }

  /** An input topic for `topic`, which must be a source topic of the topology. */
  createInputTopic<K, V>(
    topic: string,
    keySerializer: Serializer<K>,
    valueSerializer: Serializer<V>,
    options?: TestInputTopicOptions,
  ): TestInputTopic<K, V> {
    this.guard('createInputTopic');
    if (!this.taskByTopic.has(topic)) {
      throw new TopologyError(`Topic '${topic}' is not read by the topology; its source topics are [${[...this.taskByTopic.keys()].join(', ')}]`);
    }
    const sink = { pipe: (t: string, k: Buffer | null, v: Buffer | null, h: Headers, ts: number) => this.pipe(t, k, v, h, ts) };
    return new TestInputTopic<K, V>(sink, topic, keySerializer, valueSerializer, this.wallClockMs, options);
  }

  /** An output topic reading what the sinks wrote to `topic`. */
  createOutputTopic<K, V>(topic: string, keyDeserializer: Deserializer<K>, valueDeserializer: Deserializer<V>): TestOutputTopic<K, V> {
    this.guard('createOutputTopic');
    return new TestOutputTopic<K, V>(this.queueOf(topic), topic, keyDeserializer, valueDeserializer);
  }

  private pipe(topic: string, key: Buffer | null, value: Buffer | null, headers: Headers, timestamp: number): void {
    this.guard('pipeInput');
    this.run(() => this.processOne({ topic, partition: 0, key, value, headers, timestamp }));
  }

  /** Runs `work`, then processes the records it wrote to source topics; on failure those are dropped. */
  private run(work: () => void): void {
    try {
      work();
      this.drain();
    } catch (error) {
      this.pending.length = 0;
      throw error;
    }
  }

  private processOne(record: Omit<ConsumedRecord, 'offset'>): void {
    const offset = this.offsets.get(record.topic) ?? 0;
    this.offsets.set(record.topic, offset + 1);
    const task = this.taskByTopic.get(record.topic);
    if (task === undefined) {
      throw new TopologyError(`Topic '${record.topic}' is not read by the topology; its source topics are [${[...this.taskByTopic.keys()].join(', ')}]`);
    }
    task.process({ ...record, offset });
    this.commit();
  }

  private drain(): void {
    for (let next = this.pending.shift(); next !== undefined; next = this.pending.shift()) {
      this.processOne({ ...next, partition: 0 });
    }
  }

  private commit(): void {
    for (const task of this.tasks) {
      for (const store of task.stores) store.flush();
      task.clearCommitRequest();
    }
  }

  /** Advances the wall clock by `ms` and runs the wall-clock punctuations that became due. */
  advanceWallClockTime(ms: number): void {
    this.guard('advanceWallClockTime');
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advanceWallClockTime: ms must be >= 0, got ${ms}`);
    this.wallClockMs += ms;
    this.run(() => {
      for (const task of this.tasks) task.punctuateWallClock(this.wallClockMs);
      this.commit();
    });
  }

  /** The driver's wall-clock time. */
  get wallClockTimeMs(): number {
    return this.wallClockMs;
  }

  /** The state store `name` of the (first) task that has it. */
  getStateStore<S extends StateStore = StateStore>(name: string): S {
    for (const task of this.tasks) {
      const store = task.stores.find((s) => s.name === name);
      if (store !== undefined) return store as unknown as S;
    }
    const known = this.tasks.flatMap((t) => t.stores.map((s) => s.name));
    throw new TopologyError(`No state store named '${name}' in the topology; its stores are [${known.join(', ')}]`);
  }

  /** The key-value store `name`. */
  getKeyValueStore<K, V>(name: string): KeyValueStore<K, V> {
    return this.getStateStore<KeyValueStore<K, V>>(name);
  }

  /** Names of the topics written so far. */
  producedTopicNames(): string[] {
    return [...this.outputs.entries()].filter(([, q]) => q.length > 0).map(([t]) => t);
  }

  /** Closes every task (processors, then stores). Idempotent. */
  close(): void {
    if (this.state === 'CLOSED') return;
    this.state = 'CLOSED';
    let first: unknown;
    for (const task of this.tasks) {
      try {
        task.close();
      } catch (error) {
        first ??= error;
      }
    }
    if (first !== undefined) throw first;
  }
}
