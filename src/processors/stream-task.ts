/**
 * The TaskProcessor implementation: the nodes of one sub-topology for one
 * partition, processing records synchronously in offset order.
 */
import type { ConsumedRecord, Headers } from '../records/types.js';
import { IllegalStateError, StreamsError, TopologyError } from '../errors.js';
import type { DeadLetterRecord, ErrorHandlerContext } from '../handlers/types.js';
import { checkedDeserialize } from '../serdes/checked-serde.js';
import type { Cancellable, PunctuationType, Punctuator, RecordMetadata } from './processor.js';
import { Record } from './record.js';
import type { StateStore } from './state/state-store.js';
import { invokeDeserializationHandler, invokeProcessingHandler } from '../handlers/invoke.js';
import { failedByHandler, PropagatingError, unwrapPropagating } from './handler-calls.js';
import type { SinkNodeDef, SourceNodeDef, SubtopologyPlan, TopologyPlan } from './plan.js';
import { deadLetterOutput, sinkOutput } from './internal/task-output.js';
import { buildTaskGraph, TaskStateMachine, type TaskNode } from './internal/task-graph.js';
import type { ContextHost } from './internal/processor-context-impl.js';
import { PunctuationQueue, type PunctuationSchedule } from './internal/punctuation-queue.js';
import {
  formatTaskId,
  type ManagedStateStore,
  type ProcessOutcome,
  type RecordCollector,
  type TaskHandlers,
  type TaskId,
  type TaskProcessor,
} from './task-contract.js';
import { defined } from '../internal/defined.js';

/** Options of a task beyond the contract. */
export interface StreamTaskOptions {
  /** The wall clock (default `Date.now`), used for wall-clock schedules. */
  clock?: () => number;
}

interface CurrentRecord {
  topic: string;
  partition: number;
  offset: number;
  timestamp: number;
  headers: Headers;
  /** The raw input bytes (absent in punctuation), handed to handlers so a dead letter can carry the replayable input. */
  key?: Buffer | null;
  value?: Buffer | null;
}

const NO_RECORD: CurrentRecord = { topic: '', partition: -1, offset: -1, timestamp: -1, headers: {} };

/** One task: see {@link TaskProcessor}. */
export class StreamTask implements TaskProcessor, ContextHost {
  readonly inputPartitions: ReadonlyArray<{ topic: string; partition: number }>;
  readonly stores: ReadonlyArray<ManagedStateStore>;
  private readonly nodes: Map<string, TaskNode>;
  private readonly ordered: TaskNode[];
  private readonly sourceByTopic: Map<string, TaskNode>;
  private readonly storeByName: Map<string, StateStore & ManagedStateStore>;
  private readonly lifecycle: TaskStateMachine;
  private readonly streamQueue = new PunctuationQueue();
  private readonly wallQueue = new PunctuationQueue();
  private readonly clock: () => number;
  private readonly label: string;
  private current: CurrentRecord = NO_RECORD;
  private inPunctuation = false;
  private streamTimeMs = -1;
  private skipped = false;
  private commitFlag = false;

  constructor(
    plan: TopologyPlan,
    sub: SubtopologyPlan,
    readonly taskId: TaskId,
    private readonly collector: RecordCollector,
    private readonly handlers: TaskHandlers,
    options: StreamTaskOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
    this.label = formatTaskId(taskId);
    this.inputPartitions = sub.sourceTopics.map((topic) => ({ topic, partition: taskId.partition }));
    this.lifecycle = new TaskStateMachine(this.label);
    const graph = buildTaskGraph(plan, sub, this);
    this.nodes = graph.nodes;
    this.ordered = graph.ordered;
    this.sourceByTopic = graph.sourceByTopic;
    this.storeByName = graph.storeByName;
    this.stores = [...this.storeByName.values()];
  }

  init(): void {
    this.lifecycle.guard('init');
    for (const node of this.ordered) {
      if (!node.processor?.init) continue;
      try {
        node.processor.init(defined(node.context, `context of processor '${node.def.name}'`));
      } catch (error) {
        if (error instanceof StreamsError) throw error;
        throw new StreamsError(`Processor '${node.def.name}' failed to initialize in task ${this.label}`, {
          code: 'PROCESSOR_INIT_FAILED',
          kind: 'fatal',
          cause: error,
        });
      }
    }
    this.lifecycle.transition('RUNNING');
  }

  process(record: ConsumedRecord): ProcessOutcome {
    this.lifecycle.guard('process');
    const source = this.sourceByTopic.get(record.topic);
    if (source === undefined) {
      throw new IllegalStateError(
        `Task ${this.label} has no source for topic '${record.topic}'; its topics are [${[...this.sourceByTopic.keys()].join(', ')}]`,
      );
    }
    this.current = { ...record };
    this.skipped = false;
    try {
      const def = source.def as SourceNodeDef;
      let key: unknown;
      let value: unknown;
      try {
        key = checkedDeserialize(def.keyDeserializer, record.topic, record.key, record.headers, 'KEY');
        value = checkedDeserialize(def.valueDeserializer, record.topic, record.value, record.headers, 'VALUE');
      } catch (error) {
        const answer = invokeDeserializationHandler(this.handlers.deserialization, this.handlerContext(def.name), { ...record }, asError(error));
        if (answer.response === 'FAIL') {
          throw failedByHandler(
            'DESERIALIZATION_FAILED',
            `Task ${this.label} cannot deserialize ${where(record)} (handler answered FAIL)`,
            error,
          );
        }
        this.sendDeadLetters(answer.deadLetterRecords, def.name);
        return 'skipped';
      }
      this.streamTimeMs = Math.max(this.streamTimeMs, record.timestamp);
      this.forwardTo(source.children, new Record(key, value, record.timestamp, record.headers));
      this.streamQueue.mayPunctuate(this.streamTimeMs, (s, ts) => this.punctuate(s, ts));
      return this.skipped ? 'skipped' : 'processed';
    } catch (error) {
      throw unwrapPropagating(error);
    } finally {
      this.current = NO_RECORD;
    }
  }

  punctuateWallClock(nowMs: number): void {
    this.lifecycle.guard('punctuateWallClock');
    try {
      this.wallQueue.mayPunctuate(nowMs, (s, ts) => this.punctuate(s, ts));
    } catch (error) {
      throw unwrapPropagating(error);
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

  // ---- ContextHost ----

  forwardFrom(nodeName: string, record: Record<unknown, unknown>, childName?: string): void {
    const node = defined(this.nodes.get(nodeName), `node '${nodeName}' of task ${this.label}`);
    if (childName === undefined) return this.forwardTo(node.children, record);
    const child = node.children.find((c) => c.def.name === childName);
    if (child === undefined) {
      throw new TopologyError(
        `Processor '${nodeName}' forwarded to unknown child '${childName}'; its children are [${node.children.map((c) => c.def.name).join(', ')}]`,
      );
    }
    this.forwardTo([child], record);
  }

  schedule(nodeName: string, intervalMs: number, type: PunctuationType, punctuator: Punctuator): Cancellable {
    return type === 'STREAM_TIME'
      ? this.streamQueue.schedule(nodeName, 0, intervalMs, punctuator)
      : this.wallQueue.schedule(nodeName, this.clock() + intervalMs, intervalMs, punctuator);
  }

  store(name: string): StateStore | undefined {
    return this.storeByName.get(name);
  }

  recordMetadata(): RecordMetadata | null {
    if (this.inPunctuation || this.current === NO_RECORD) return null;
    const { topic, partition, offset } = this.current;
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

  // ---- processing ----

  private forwardTo(children: readonly TaskNode[], record: Record<unknown, unknown>): void {
    for (const child of children) {
      if (child.def.kind === 'sink') this.sink(child.def, record);
      else this.processAt(child, record);
    }
  }

  private processAt(node: TaskNode, record: Record<unknown, unknown>): void {
    try {
      defined(node.processor, `processor of node '${node.def.name}'`).process(record);
    } catch (error) {
      if (error instanceof PropagatingError) throw error;
      this.onProcessingError(node.def.name, record, error);
    }
  }

  private sink(def: SinkNodeDef, record: Record<unknown, unknown>): void {
    let output;
    try {
      output = sinkOutput(def, record, { ...this.current }, this.collector);
    } catch (error) {
      if (error instanceof PropagatingError) throw error;
      return this.onProcessingError(def.name, record, error);
    }
    try {
      this.collector.send(output, this.handlerContext(def.name));
    } catch (error) {
      throw new PropagatingError(error);
    }
  }

  private onProcessingError(nodeName: string, record: Record<unknown, unknown>, error: unknown): void {
    let answer;
    try {
      answer = invokeProcessingHandler(
        this.handlers.processing,
        this.handlerContext(nodeName),
        { key: record.key, value: record.value, timestamp: record.timestamp, headers: { ...record.headers } },
        asError(error),
      );
    } catch (fatal) {
      throw new PropagatingError(fatal);
    }
    if (answer.response === 'FAIL') {
      const at = this.inPunctuation ? 'in a punctuation' : `on ${where(this.current)}`;
      throw new PropagatingError(
        failedByHandler('PROCESSING_FAILED', `Processor '${nodeName}' failed in task ${this.label} ${at} (handler answered FAIL)`, error),
      );
    }
    this.skipped = true;
    this.sendDeadLetters(answer.deadLetterRecords, nodeName);
  }

  private punctuate(schedule: PunctuationSchedule, timestamp: number): void {
    const saved = this.current;
    const savedSkipped = this.skipped; // a punctuation failure does not make the current record skipped
    this.current = { ...NO_RECORD, timestamp };
    this.inPunctuation = true;
    try {
      schedule.punctuator(timestamp);
    } catch (error) {
      if (error instanceof PropagatingError) throw error;
      this.onProcessingError(schedule.nodeName, new Record(null, null, timestamp), error);
    } finally {
      this.inPunctuation = false;
      this.current = saved;
      this.skipped = savedSkipped;
    }
  }

  private sendDeadLetters(records: DeadLetterRecord[], nodeName: string): void {
    for (const dl of records) {
      try {
        this.collector.send(deadLetterOutput(dl, this.current.timestamp), this.handlerContext(nodeName));
      } catch (error) {
        throw new PropagatingError(error);
      }
    }
  }

  private handlerContext(processorNodeId: string): ErrorHandlerContext {
    const { topic, partition, offset, headers, timestamp, key, value } = this.current;
    const context: ErrorHandlerContext = { topic, partition, offset, headers: { ...headers }, timestamp, processorNodeId, taskId: this.label };
    if (key !== undefined || value !== undefined) {
      context.sourceRawKey = key ?? null;
      context.sourceRawValue = value ?? null;
    }
    return context;
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function where(r: { topic: string; partition: number; offset: number }): string {
  return `record ${r.topic}-${r.partition}@${r.offset}`;
}
