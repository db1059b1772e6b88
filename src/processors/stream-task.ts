/**
 * The TaskProcessor implementation: the nodes of one sub-topology for one
 * partition, processing the records its executor hands it (in timestamp
 * order across its partitions, offset order within one; the runtime's
 * partition group decides): synchronously, or, when a processor returns a
 * promise, by chaining the rest of the record's work after it
 * (internal/node-runner.ts).
 */
import type { Logger } from 'pino';
import { componentLogger } from '../internal/logger.js';
import type { ConsumedRecord } from '../records/types.js';
import { IllegalStateError, TopologyError } from '../errors.js';
import type { Cancellable, PunctuationType, Punctuator, RecordMetadata } from './processor.js';
import type { Record } from './record.js';
import type { StateStore } from '../state/state-store.js';
import { unwrapPropagating } from './handler-calls.js';
import type { SubtopologyPlan, TopologyPlan } from './plan.js';
import { addNodeRecordCounts, buildTaskGraph, initNodes, type TaskNode } from './internal/task-graph.js';
import { createTaskStateMachine, type TaskState } from './task-state.js';
import type { StateMachine } from '../internal/state-machine.js';
import type { ContextHost } from './internal/processor-context-impl.js';
import { PunctuationQueue } from './internal/punctuation-queue.js';
import { handled, type Pending } from './internal/pending.js';
import { DropLog } from './internal/drop-log.js';
import { NodeRunner } from './internal/node-runner.js';
import { AsyncNodes } from './internal/async-nodes.js';
import { SourceInput } from './internal/source-input.js';
import { NO_RECORD, TaskHandling } from './internal/task-handling.js';
import { defined } from '../internal/defined.js';
import {
  formatTaskId,
  type ManagedStateStore,
  type StoreRecordContext,
  type ProcessOutcome,
  type RecordCollector,
  type TaskHandlers,
  type AsyncNodeStats,
  type TaskId,
  type TaskOptions,
  type TaskProcessor,
} from './task-contract.js';

/** Options of a task beyond the contract (see {@link TaskOptions}). */
export type StreamTaskOptions = TaskOptions;

/** One task: see {@link TaskProcessor}. */
export class StreamTask implements TaskProcessor, ContextHost {
  readonly inputPartitions: ReadonlyArray<{ topic: string; partition: number }>;
  readonly stores: ReadonlyArray<ManagedStateStore>;
  private readonly nodes: Map<string, TaskNode>;
  private readonly ordered: TaskNode[];
  private readonly input: SourceInput;
  private readonly storeByName: Map<string, StateStore & ManagedStateStore>;
  private readonly lifecycle: StateMachine<TaskState>;
  private readonly streamQueue = new PunctuationQueue();
  private readonly wallQueue = new PunctuationQueue();
  private readonly clock: () => number;
  private readonly outerJoinEmitInterval: number;
  private readonly windowedAggregationEmitInterval: number;
  private readonly label: string;
  private readonly handling: TaskHandling;
  private readonly runner: NodeRunner;
  private readonly asyncNodes: AsyncNodes;
  private streamTimeMs = -1;
  private commitFlag = false;
  /** True while `flushStores()` runs: caching stores may forward (see {@link forwardFromCache}). */
  private flushing = false;
  /** True while a returned promise of `process` or `punctuateWallClock` is pending. */
  private inFlight = false;
  /** The promise of the in-flight work (see {@link whenIdle}). */
  private inFlightWork: Promise<void> | undefined;
  private readonly drops: DropLog;
  private readonly globalStores: ((name: string) => StateStore | undefined) | undefined;

  constructor(
    plan: TopologyPlan,
    sub: SubtopologyPlan,
    readonly taskId: TaskId,
    collector: RecordCollector,
    handlers: TaskHandlers,
    options: StreamTaskOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
    this.globalStores = options.globalStore;
    this.outerJoinEmitInterval = options.outerJoinEmitIntervalMs ?? 1000;
    this.windowedAggregationEmitInterval = options.windowedAggregationEmitIntervalMs ?? 0;
    this.label = formatTaskId(taskId);
    const logger: Logger = options.logger ?? componentLogger('stream-task', undefined, { taskId: this.label });
    this.drops = new DropLog(logger, this.clock);
    this.inputPartitions = sub.sourceTopics.map((topic) => ({ topic, partition: taskId.partition }));
    this.lifecycle = createTaskStateMachine(this.label);
    const graph = buildTaskGraph(plan, sub, this);
    this.nodes = graph.nodes;
    this.ordered = graph.ordered;
    this.storeByName = graph.storeByName;
    this.stores = [...this.storeByName.values()];
    this.handling = new TaskHandling(this.label, collector, handlers, options.onDroppedRecord);
    this.runner = new NodeRunner(this.nodes, this.handling);
    this.asyncNodes = new AsyncNodes(this.ordered, this.handling, this.runner, options.asyncCallTimeoutMs ?? 30_000, this.clock, options.onAsyncSkipped);
    this.input = new SourceInput(this.label, this.ordered, graph.sourceByTopic, this.handling, options.defaultTimestampExtractor);
  }

  init(): void {
    this.lifecycle.guard('init');
    initNodes(this.ordered, this.label);
    this.lifecycle.transition('RUNNING');
  }

  /**
   * Processes one record:
   * 0. forward the outputs of async calls that finished meanwhile (`internal/async-nodes.ts`);
   * 1. find its source, deserialize key and value (a failure goes to the
   *    deserialization handler) and extract its timestamp (a negative one:
   *    dropped, logged and counted; see internal/source-input.ts);
   * 2. advance stream time by that timestamp and forward the record from its source node;
   * 3. when every node ran synchronously, run due stream-time punctuations and
   *    return the outcome; otherwise return a promise that waits for the
   *    chained work, then punctuates, then resolves with the outcome.
   */
  process(record: ConsumedRecord): ProcessOutcome | Promise<ProcessOutcome> {
    this.lifecycle.guard('process');
    this.guardIdle('process');
    // 0.
    if (this.asyncNodes.any) {
      const emitted = this.runEmit();
      if (emitted !== undefined) return emitted.then(() => this.process(record));
    }
    const state = this.handling;
    state.current = { ...record };
    state.skipped = false;
    let pending: Pending;
    try {
      // 1. source, deserialize, extract the timestamp
      const input = this.input.read(record);
      if ('skipped' in input) {
        if (input.skipped === 'timestamp') this.recordDropped(input.source.def.name, input.reason);
        return 'skipped';
      }
      // 2. forward from the source
      const { source } = input;
      this.streamTimeMs = Math.max(this.streamTimeMs, input.record.timestamp);
      source.tail = undefined;
      this.runner.forwardTo(source, source.children, input.record);
      // 3. punctuate (after the chained work, if any)
      const tail = source.tail as Pending; // set by forwardTo when a child went async
      pending = tail === undefined ? this.runner.runDue(this.streamQueue, this.streamTimeMs) : handled(tail.then(() => this.runner.runDue(this.streamQueue, this.streamTimeMs)));
      if (pending === undefined) return state.skipped ? 'skipped' : 'processed';
    } catch (error) {
      throw unwrapPropagating(error);
    } finally {
      if (pending === undefined) state.current = NO_RECORD;
    }
    return this.track(pending).then(() => (state.skipped ? 'skipped' : 'processed'));
  }

  punctuateWallClock(nowMs: number): void | Promise<void> {
    this.lifecycle.guard('punctuateWallClock');
    this.guardIdle('punctuateWallClock');
    let pending: Pending;
    try {
      pending = this.runner.runDue(this.wallQueue, nowMs);
    } catch (error) {
      throw unwrapPropagating(error);
    }
    return pending === undefined ? undefined : this.track(pending);
  }

  pumpAsync(): void | Promise<void> {
    if (!this.asyncNodes.any || this.lifecycle.state !== 'RUNNING') return undefined;
    this.guardIdle('pumpAsync');
    return this.runEmit();
  }

  onAsyncSettled(listener: (() => void) | undefined): void {
    this.asyncNodes.onSettled(listener);
  }

  drainAsync(): Promise<void> | undefined {
    if (!this.asyncNodes.busy || this.lifecycle.state !== 'RUNNING') return undefined;
    this.guardIdle('drainAsync');
    return this.track(handled(this.asyncNodes.drain()));
  }

  abandonAsync(): void {
    this.asyncNodes.close();
  }

  asyncStats(into: Map<string, AsyncNodeStats>): void {
    this.asyncNodes.stats(into);
  }

  /** Forwards the finished async calls' outputs (step 0 of {@link process}); a promise while a child runs async. */
  private runEmit(): Promise<void> | undefined {
    let pending: Pending;
    try {
      pending = this.asyncNodes.emit();
    } catch (error) {
      throw unwrapPropagating(error);
    }
    return pending === undefined ? undefined : this.track(pending);
  }

  /** Marks the task busy until `pending` settles; unwraps its rejection; forgets the current record after. */
  private track(pending: Promise<void>): Promise<void> {
    this.inFlight = true;
    const work = pending.then(
      () => {
        this.inFlight = false;
        this.handling.current = NO_RECORD;
      },
      (error: unknown) => {
        this.inFlight = false;
        this.handling.current = NO_RECORD;
        throw unwrapPropagating(error);
      },
    );
    this.inFlightWork = work;
    return work;
  }

  private guardIdle(op: string): void {
    if (this.inFlight) {
      throw new IllegalStateError(
        `Task ${this.label} cannot ${op} while the previous record is still being processed (a processor's promise is pending); ` +
          'await the promise returned by process() or punctuateWallClock() first',
      );
    }
  }

  get commitRequested(): boolean {
    return this.commitFlag;
  }

  clearCommitRequest(): void {
    this.commitFlag = false;
  }

  /** Closes processors, then stores; idempotent. The first error is rethrown after everything closed. */
  close(): void {
    if (this.lifecycle.state === 'CLOSED') return;
    const wasRunning = this.lifecycle.state === 'RUNNING';
    this.lifecycle.transition('CLOSED');
    this.streamQueue.clear();
    this.wallQueue.clear();
    this.asyncNodes.close(); // in-flight calls are abandoned: not committed, they run again
    let first: unknown;
    for (const node of wasRunning ? this.ordered : []) {
      try {
        node.processor?.close?.();
      } catch (error) {
        first ??= error;
      }
    }
    for (const store of this.stores) {
      try {
        store.close();
      } catch (error) {
        first ??= error;
      }
    }
    if (first !== undefined) throw first;
  }

  recordContext(): StoreRecordContext {
    const current = this.handling.current;
    if (current === NO_RECORD) return { timestamp: Math.max(this.streamTimeMs, 0), headers: {} };
    return { timestamp: current.timestamp, headers: current.headers ?? {}, topic: current.topic, partition: current.partition, offset: current.offset };
  }

  /**
   * Step 5 of the store lifecycle, at a commit:
   * 1. every store flushes, in the task's store order; a caching store writes
   *    its dirty entries down and its flush listener forwards them
   *    ({@link forwardFromCache}): processors may forward meanwhile;
   * 2. the current record is reset after it;
   * 3. when a forward went into an async processor, that work is the task's
   *    in-flight work ({@link whenIdle}; the runner awaits it before the
   *    producer flush).
   */
  flushStores(): void {
    this.guardIdle('flushStores');
    const pending: Promise<void>[] = [];
    for (const node of this.ordered) node.tail = undefined; // idle: every earlier tail settled
    this.flushing = true;
    try {
      // 1.
      for (const store of this.stores) store.flush();
      for (const node of this.ordered) {
        if (node.tail !== undefined) pending.push(node.tail);
        node.tail = undefined;
      }
    } catch (error) {
      throw unwrapPropagating(error);
    } finally {
      // 2.
      this.flushing = false;
    }
    // 3.
    if (pending.length > 0) void handled(this.track(handled(Promise.all(pending).then(() => undefined))));
  }

  resolveInput(records: readonly ConsumedRecord[]): Promise<void> | undefined {
    return this.input.resolve(records);
  }

  prepareOutput(): Promise<void> | undefined {
    let waits: Array<Promise<void>> | undefined;
    for (const node of this.ordered) {
      const def = node.def;
      if (def.kind !== 'sink' || typeof def.topic !== 'string') continue;
      for (const serializer of [def.keySerializer, def.valueSerializer]) {
        const wait = serializer.prepare?.(def.topic);
        if (wait !== undefined) (waits ??= []).push(wait);
      }
    }
    return waits === undefined ? undefined : Promise.all(waits).then(() => undefined);
  }

  whenIdle(): Promise<void> | undefined {
    return this.inFlight ? this.inFlightWork : undefined;
  }

  nodeRecordCounts(into: Map<string, number>): void {
    addNodeRecordCounts(this.ordered, into);
  }

  // ---- ContextHost ----

  forwardFrom(nodeName: string, record: Record<unknown, unknown>, childName?: string): void {
    const node = defined(this.nodes.get(nodeName), `node ${nodeName}`);
    if (!node.busy) {
      throw new IllegalStateError(
        `Processor '${nodeName}' of task ${this.label} called forward() while it is not processing: forward is only allowed during ` +
          'process() (until the promise it returned settles) and in its punctuators. Forward before process() returns, ' +
          'or return the promise of the work that forwards (await it) so the output belongs to its input record.',
      );
    }
    if (childName === undefined) return this.runner.forwardTo(node, node.children, record);
    const child = node.children.find((c) => c.def.name === childName);
    if (child === undefined) {
      throw new TopologyError(
        `Processor '${nodeName}' forwarded to unknown child '${childName}'; its children are [${node.children.map((c) => c.def.name).join(', ')}]`,
      );
    }
    this.runner.forwardTo(node, [child], record);
  }

  /**
   * A forward for a cache entry written down (flush or eviction):
   * 1. allowed while processing, punctuating or flushing (the write down
   *    happens inside a store call of one of them);
   * 2. the entry's record context is the task's current record while its
   *    descendants run (sinks, handler contexts, stores below), as Kafka sets
   *    it around the flush listener; the previous one is restored after (an
   *    entry of the record being processed, written down at once, keeps it
   *    as it is, raw input bytes included).
   */
  forwardFromCache(nodeName: string, record: Record<unknown, unknown>, context: StoreRecordContext): void {
    const node = defined(this.nodes.get(nodeName), `node ${nodeName}`);
    // 1.
    if (!this.flushing && !node.busy && this.handling.current === NO_RECORD) {
      throw new IllegalStateError(
        `Processor '${nodeName}' of task ${this.label} forwarded a cached update outside processing, punctuation and the commit's flush; ` +
          'a caching store writes down only inside a store call or flushStores()',
      );
    }
    // 2.
    const state = this.handling;
    const saved = state.current;
    const same = !this.flushing && context.topic === saved.topic && context.partition === saved.partition && context.offset === saved.offset;
    if (!same) {
      state.current = {
        topic: context.topic ?? '',
        partition: context.partition ?? -1,
        offset: context.offset ?? -1,
        timestamp: context.timestamp,
        headers: context.headers,
      };
    }
    try {
      this.runner.forwardTo(node, node.children, record);
    } finally {
      state.current = saved;
    }
  }

  recordDropped(nodeName: string, reason: string, debugLine?: string): void {
    this.handling.skipped = true;
    this.handling.onDroppedRecord?.();
    const { topic, partition, offset } = this.handling.current;
    this.drops.dropped({ taskId: this.label, processorNodeId: nodeName, topic, partition, offset }, reason, debugLine);
  }

  schedule(nodeName: string, intervalMs: number, type: PunctuationType, punctuator: Punctuator): Cancellable {
    return type === 'STREAM_TIME'
      ? this.streamQueue.schedule(nodeName, 0, intervalMs, punctuator)
      : this.wallQueue.schedule(nodeName, this.clock() + intervalMs, intervalMs, punctuator);
  }

  store(name: string): StateStore | undefined {
    return this.storeByName.get(name);
  }

  globalStore(name: string): StateStore | undefined {
    return this.globalStores?.(name);
  }

  recordMetadata(): RecordMetadata | null {
    if (this.handling.inPunctuation || this.handling.current === NO_RECORD) return null;
    const { topic, partition, offset } = this.handling.current;
    return { topic, partition, offset };
  }

  requestCommit(): void {
    this.commitFlag = true;
  }

  streamTime(): number {
    return this.streamTimeMs;
  }

  wallClock(): number {
    return this.clock();
  }

  outerJoinEmitIntervalMs(): number {
    return this.outerJoinEmitInterval;
  }

  windowedAggregationEmitIntervalMs(): number {
    return this.windowedAggregationEmitInterval;
  }
}
