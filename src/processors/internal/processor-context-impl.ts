/**
 * The ProcessorContext handed to one processor node of one task.
 */
import { TopologyError } from '../../errors.js';
import type {
  Cancellable,
  PunctuationType,
  Punctuator,
  RecordMetadata,
} from '../processor.js';
import type { DslProcessorContext } from '../dsl-context.js';
import type { Record } from '../record.js';
import type { StateStore } from '../../state/state-store.js';
import type { StoreRecordContext, TaskId } from '../task-contract.js';

/** What a context needs from its task. */
export interface ContextHost {
  readonly taskId: TaskId;
  forwardFrom(nodeName: string, record: Record<unknown, unknown>, childName?: string): void;
  /** A forward of what a caching store wrote down (at a flush or an eviction), as the record of `context`. */
  forwardFromCache(nodeName: string, record: Record<unknown, unknown>, context: StoreRecordContext): void;
  schedule(nodeName: string, intervalMs: number, type: PunctuationType, punctuator: Punctuator): Cancellable;
  store(name: string): StateStore | undefined;
  /** A global store of the instance (reached by every processor, without a connection). */
  globalStore?(name: string): StateStore | undefined;
  recordMetadata(): RecordMetadata | null;
  requestCommit(): void;
  /**
   * An operator dropped the current record on purpose (e.g. a null key into an
   * aggregation): logged and counted as skipped. With `debugLine` (a late
   * record into a windowed aggregation) the line is that message, at DEBUG,
   * every time, instead of the throttled WARN.
   */
  recordDropped(nodeName: string, reason: string, debugLine?: string): void;
  streamTime(): number;
  wallClock(): number;
  /** See `TaskOptions.outerJoinEmitIntervalMs`. */
  outerJoinEmitIntervalMs(): number;
  /** See `TaskOptions.windowedAggregationEmitIntervalMs`. */
  windowedAggregationEmitIntervalMs?(): number;
}

/** The context of one processor node; the DSL's processors see it as a {@link DslProcessorContext}. */
export class ProcessorContextImpl implements DslProcessorContext<unknown, unknown> {
  constructor(
    private readonly host: ContextHost,
    readonly processorName: string,
    private readonly connectedStores: readonly string[],
  ) {}

  get taskId(): TaskId {
    return this.host.taskId;
  }

  forward<K, V>(record: Record<K, V>, childName?: string): void {
    this.host.forwardFrom(this.processorName, record as Record<unknown, unknown>, childName);
  }

  schedule(intervalMs: number, type: PunctuationType, punctuator: Punctuator): Cancellable {
    if (!Number.isFinite(intervalMs) || intervalMs < 1) {
      throw new RangeError(`Processor '${this.processorName}': punctuation interval must be at least 1 ms, got ${intervalMs}`);
    }
    if (type !== 'STREAM_TIME' && type !== 'WALL_CLOCK_TIME') {
      throw new RangeError(`Processor '${this.processorName}': punctuation type must be 'STREAM_TIME' or 'WALL_CLOCK_TIME', got ${String(type)}`);
    }
    return this.host.schedule(this.processorName, intervalMs, type, punctuator);
  }

  getStateStore<S extends StateStore = StateStore>(name: string): S {
    // As Kafka's ProcessorContextImpl: a global store first, then the connected stores of the task.
    const store = this.host.globalStore?.(name) ?? (this.connectedStores.includes(name) ? this.host.store(name) : undefined);
    if (store === undefined) {
      throw new TopologyError(
        `Processor '${this.processorName}' asked for state store '${name}' but is not connected to it` +
          ` (connected: [${this.connectedStores.join(', ')}]). Fix: add the store with addStateStore(builder, '${this.processorName}')` +
          ` or connectProcessorAndStateStores('${this.processorName}', '${name}'), or list it in stream.process(supplier, '${name}').`,
      );
    }
    return store as S;
  }

  recordMetadata(): RecordMetadata | null {
    return this.host.recordMetadata();
  }

  commit(): void {
    this.host.requestCommit();
  }

  /**
   * @internal For DSL operators whose store caches: forwards `record` for a
   * cache entry written down at a flush or an eviction (Kafka's
   * `TimestampedTupleForwarder` via the flush listener); the task's current
   * record is the entry's `context` meanwhile. Allowed during processing,
   * punctuation and the commit's flush.
   */
  forwardFromCache<K, V>(record: Record<K, V>, context: StoreRecordContext): void {
    this.host.forwardFromCache(this.processorName, record as Record<unknown, unknown>, context);
  }

  /** @internal For DSL operators: the current record is dropped on purpose (logged, counted in `recordsSkipped`; see `ContextHost.recordDropped`). */
  recordDropped(reason: string, debugLine?: string): void {
    this.host.recordDropped(this.processorName, reason, debugLine);
  }

  currentStreamTimeMs(): number {
    return this.host.streamTime();
  }

  currentSystemTimeMs(): number {
    return this.host.wallClock();
  }

  /** @internal For stream–stream joins: see `TaskOptions.outerJoinEmitIntervalMs`. */
  outerJoinEmitIntervalMs(): number {
    return this.host.outerJoinEmitIntervalMs();
  }

  /** @internal For windowed aggregations emitting on window close: see `TaskOptions.windowedAggregationEmitIntervalMs`. */
  windowedAggregationEmitIntervalMs(): number {
    return this.host.windowedAggregationEmitIntervalMs?.() ?? 1000;
  }
}
