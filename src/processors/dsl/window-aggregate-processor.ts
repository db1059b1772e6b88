/**
 * What the processors of time-windowed and sliding-window aggregations share
 * (Kafka's `AbstractKStreamTimeWindowAggregateProcessor`): the window store,
 * the observed stream time, forwarding of updates (`EmitStrategy.onWindowUpdate()`,
 * through the cache-aware {@link TableTupleForwarder}) and of final results
 * (`EmitStrategy.onWindowClose()`), the DEBUG line of a record dropped for an
 * expired window and the count of dropped records.
 *
 * Emitting final results (on window close), after each record:
 *
 * 1. throttle: at most once per `windowedAggregationEmitIntervalMs` of wall-clock
 *    time (Kafka's internal `__emit.interval.ms.kstreams.windowed.aggregation__`,
 *    1000 by default, 0 in the TopologyTestDriver);
 * 2. only when the window close time (`streamTime - grace`) moved past the
 *    last emission's (`lastEmitWindowCloseTime`);
 * 3. the windows closed since the last emission are the window starts in
 *    `[emitRangeLowerBound, emitRangeUpperBound]` (the subclass computes them);
 *    they are fetched from the store in window-start order and each forwarded
 *    once, `Change(value, null)` with its own timestamp;
 * 4. `lastEmitWindowCloseTime` becomes the close time, kept in the
 *    {@link EmitCloseTimes} (Kafka's processor metadata): in the changelogged
 *    emit-close-time store when the topology has one (it survives a restart,
 *    in the transaction of the emitted windows), else with the window store.
 */
import { componentLogger, type Logger } from '../../internal/logger.js';
import { formatTaskId } from '../../records/task-id.js';
import type { Processor, ProcessorContext } from '../processor.js';
import type { Record } from '../record.js';
import { dslContext, type DslProcessorContext } from '../dsl-context.js';
import type { KeyValueStore } from '../../state/state-store.js';
import type { TimestampedWindowStore } from '../../state/window-store.js';
import { Windowed, type Window } from '../../state/window-types.js';
import { Change } from './change.js';
import { TableTupleForwarder } from './ktable-contract.js';
import { EmitCloseTimes } from './window-emit-close-times.js';

/** Kafka's `EmitStrategy.StrategyType` (the topology's `EmitStrategy.type`). */
export type WindowEmitType = 'ON_WINDOW_UPDATE' | 'ON_WINDOW_CLOSE';

/** Kafka's `ConsumerRecord.NO_TIMESTAMP`. */
export const NO_TIMESTAMP = -1;

/** When a windowed aggregation emits (the topology's `EmitStrategy`, KIP-825). */
export interface WindowEmitStrategy {
  readonly type: WindowEmitType;
  /** On window close: the store keeping the last emit close time across restarts (none: kept with the window store). */
  readonly emitCloseTimeStore?: string;
}

/** The shared half of a time-windowed or sliding-window aggregation's processor. */
export abstract class TimeWindowAggregateProcessor<K, V, A> implements Processor<K, V, Windowed<K>, Change<A>> {
  protected context!: DslProcessorContext<Windowed<K>, Change<A>>;
  protected windowStore!: TimestampedWindowStore<K, A>;
  protected logger!: Logger;
  protected lastEmitWindowCloseTime = NO_TIMESTAMP;
  protected observedStreamTime = NO_TIMESTAMP;
  /** Undefined on window close: final results are forwarded directly. */
  private forwarder: TableTupleForwarder<Windowed<K>, A> | undefined;
  private emitCloseTimes: EmitCloseTimes | undefined;
  private emitIntervalMs = 1000;
  private nextTimeToEmit = 0;

  protected constructor(
    private readonly storeName: string,
    private readonly emitStrategy: WindowEmitType,
    private readonly sendOldValues: boolean,
    /** The store keeping the last emit close time across restarts (on window close; see `window-emit-close-times.ts`). */
    private readonly emitCloseTimeStore?: string,
    /** The logger's `component`. */
    private readonly component = 'window-aggregate',
  ) {}

  init(context: ProcessorContext<Windowed<K>, Change<A>>): void {
    this.context = dslContext(context);
    this.logger = componentLogger(this.component, undefined, { taskId: formatTaskId(context.taskId), store: this.storeName });
    this.windowStore = context.getStateStore<TimestampedWindowStore<K, A>>(this.storeName);
    if (this.emitStrategy === 'ON_WINDOW_CLOSE') {
      // Restore the last emit close time (Kafka's processorMetadataForKey).
      const closeTimeStore = this.emitCloseTimeStore === undefined ? undefined : context.getStateStore<KeyValueStore<string, number>>(this.emitCloseTimeStore);
      this.emitCloseTimes = EmitCloseTimes.of(this.windowStore, closeTimeStore);
      this.lastEmitWindowCloseTime = this.emitCloseTimes.get(this.storeName) ?? NO_TIMESTAMP;
      this.emitIntervalMs = this.context.windowedAggregationEmitIntervalMs?.() ?? 1000;
      this.forwarder = undefined;
    } else {
      // the forwarder only asks the store for a flush listener; window stores give windowed keys
      this.forwarder = new TableTupleForwarder<Windowed<K>, A>(this.windowStore, this.context, this.sendOldValues);
    }
  }

  abstract process(record: Record<K, V>): void;

  /** Forwards the update of `window` (on-window-update only). */
  protected maybeForwardUpdate(record: Record<K, V>, window: Window, oldAgg: A | null, newAgg: A | null, newTimestamp: number): void {
    if (this.forwarder === undefined) return;
    this.forwarder.maybeForward(
      record.withKey(Windowed.of(record.key, window)).withValue(Change.of<A>(newAgg, this.sendOldValues ? oldAgg : null)).withTimestamp(newTimestamp),
    );
  }

  /** Steps 1-4 of the module comment. */
  protected maybeForwardFinalResult(record: Record<K, V>, windowCloseTime: number): void {
    if (!this.shouldEmitFinal(windowCloseTime)) return;
    const upper = this.emitRangeUpperBound(windowCloseTime);
    // an upper bound below 0: no window ever closed, nothing to fetch
    if (upper < 0) return;
    const lower = this.emitRangeLowerBound(windowCloseTime);
    if (this.shouldRangeFetch(lower, upper)) this.fetchAndEmit(record, windowCloseTime, lower, upper);
  }

  /** The DEBUG line of a record too late for `window` (Kafka's message); the caller counts the drop. */
  protected logSkippedRecordForExpiredWindow(timestamp: number, windowExpire: number, window: string): void {
    if (!this.logger.isLevelEnabled('debug')) return;
    const metadata = this.context.recordMetadata();
    const where = metadata === null ? 'Topic, partition, and offset not known. ' : `topic=[${metadata.topic}] partition=[${metadata.partition}] offset=[${metadata.offset}] `;
    this.logger.debug(
      { timestamp, window, expiration: windowExpire, streamTime: this.observedStreamTime },
      `Skipping record for expired window. ${where}timestamp=[${timestamp}] window=${window} expiration=[${windowExpire}] streamTime=[${this.observedStreamTime}]`,
    );
  }

  /** Counts a dropped record in the task's `recordsSkipped` (a context without that metric, e.g. a test host's, counts nothing). */
  protected recordDropped(reason: string): void {
    this.context.recordDropped(reason);
  }

  protected updateObservedStreamTime(timestamp: number): void {
    this.observedStreamTime = Math.max(this.observedStreamTime, timestamp);
  }

  /** Steps 1-2. */
  private shouldEmitFinal(windowCloseTime: number): boolean {
    if (this.emitStrategy !== 'ON_WINDOW_CLOSE') return false;
    const now = this.context.currentSystemTimeMs();
    if (now < this.nextTimeToEmit) return false;
    // next emit time from now, so a wall-clock jump does not emit on every record
    this.nextTimeToEmit = now + this.emitIntervalMs;
    return this.lastEmitWindowCloseTime === NO_TIMESTAMP || this.lastEmitWindowCloseTime < windowCloseTime;
  }

  /** Steps 3-4. */
  private fetchAndEmit(record: Record<K, V>, windowCloseTime: number, lower: number, upper: number): void {
    for (const { key, value } of this.windowStore.fetchAll(lower, upper)) {
      this.context.forward(record.withKey(key).withValue(Change.of<A>(value.value, null)).withTimestamp(value.timestamp).withHeaders(record.headers));
    }
    this.lastEmitWindowCloseTime = windowCloseTime;
    this.emitCloseTimes?.set(this.storeName, windowCloseTime);
  }

  /** The first window start to emit (inclusive). */
  protected abstract emitRangeLowerBound(windowCloseTime: number): number;
  /** The last window start to emit (inclusive). */
  protected abstract emitRangeUpperBound(windowCloseTime: number): number;
  /** False when no new window closed in the range. */
  protected abstract shouldRangeFetch(lower: number, upper: number): boolean;
}
