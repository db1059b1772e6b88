/**
 * The internal seam between the DSL's processors (`src/processors/dsl/`) and
 * the task: what they use beyond the public {@link ProcessorContext}. The
 * task's context (`ProcessorContextImpl`) implements it; a DSL processor
 * takes it once, in `init`, with {@link dslContext}, and never casts.
 *
 * Not public: users write processors against `ProcessorContext`.
 */
import type { ProcessorContext } from './processor.js';
import type { Record } from './record.js';
import type { StateStore } from '../state/state-store.js';
import type { StoreRecordContext } from './task-contract.js';

/** A processor context as the DSL's processors use it. */
export interface DslProcessorContext<KForward = unknown, VForward = unknown> extends ProcessorContext<KForward, VForward> {
  /**
   * Forwards `record` for a cache entry written down at a flush or an
   * eviction (Kafka's `TimestampedTupleForwarder` via the flush listener);
   * the task's current record is the entry's `context` meanwhile.
   */
  forwardFromCache<K extends KForward, V extends VForward>(record: Record<K, V>, context: StoreRecordContext): void;
  /**
   * The current record is dropped on purpose (a null key into an
   * aggregation, a late record): logged and counted in `recordsSkipped`;
   * with `debugLine` the line is that message, at DEBUG, every time.
   */
  recordDropped(reason: string, debugLine?: string): void;
  /** The task's `outerJoinEmitIntervalMs`; absent: the join's default. */
  outerJoinEmitIntervalMs?(): number;
  /** The task's `windowedAggregationEmitIntervalMs`; absent: the aggregation's default. */
  windowedAggregationEmitIntervalMs?(): number;
}

/** Whether `context` has the two members every DSL context has (the task's context has all four). */
function isDslContext<KForward, VForward>(context: ProcessorContext<KForward, VForward>): context is DslProcessorContext<KForward, VForward> {
  return (
    'recordDropped' in context &&
    typeof context.recordDropped === 'function' &&
    'forwardFromCache' in context &&
    typeof context.forwardFromCache === 'function'
  );
}

/** The member `name` of `context` when it is a method, bound to `context`. */
function methodOf(context: object, name: 'recordDropped' | 'outerJoinEmitIntervalMs' | 'windowedAggregationEmitIntervalMs'): ((...args: unknown[]) => unknown) | undefined {
  const member: unknown = Reflect.get(context, name);
  return typeof member === 'function' ? (...args: unknown[]): unknown => Reflect.apply(member, context, args) : undefined;
}

/**
 * `context` as a DSL context: the task's context itself; any other (the
 * public `MockProcessorContext`, a test's fake) behind an adapter that
 * forwards a cache write-down as a plain `forward`, drops a record silently
 * when the context has no `recordDropped`, and keeps the interval members the
 * context has.
 */
export function dslContext<KForward, VForward>(context: ProcessorContext<KForward, VForward>): DslProcessorContext<KForward, VForward> {
  if (isDslContext(context)) return context;
  const dropped = methodOf(context, 'recordDropped');
  const outerJoinInterval = methodOf(context, 'outerJoinEmitIntervalMs');
  const windowedInterval = methodOf(context, 'windowedAggregationEmitIntervalMs');
  return {
    get taskId() {
      return context.taskId;
    },
    get processorName() {
      return context.processorName;
    },
    forward: (record, childName) => context.forward(record, childName),
    schedule: (intervalMs, type, punctuator) => context.schedule(intervalMs, type, punctuator),
    getStateStore: <S extends StateStore = StateStore>(name: string): S => context.getStateStore<S>(name),
    recordMetadata: () => context.recordMetadata(),
    commit: () => context.commit(),
    currentStreamTimeMs: () => context.currentStreamTimeMs(),
    currentSystemTimeMs: () => context.currentSystemTimeMs(),
    forwardFromCache: (record) => context.forward(record),
    recordDropped: (reason, debugLine) => void dropped?.(reason, debugLine),
    ...(outerJoinInterval === undefined ? {} : { outerJoinEmitIntervalMs: () => Number(outerJoinInterval()) }),
    ...(windowedInterval === undefined ? {} : { windowedAggregationEmitIntervalMs: () => Number(windowedInterval()) }),
  };
}
