/**
 * What a sliding-window aggregation processor does besides creating windows
 * (Kafka's `AbstractKStreamTimeWindowAggregateProcessor`): its window store,
 * its own observed stream time, forwarding each window update (KIP-825
 * `onWindowUpdate`, through the cache-aware {@link TableTupleForwarder}) or
 * each closed window once (`onWindowClose`), and the log and count of
 * records skipped for expired windows (DEBUG per window; a record that fits
 * no open window is counted as dropped).
 *
 * `onWindowClose` follows Kafka's steps (`maybeForwardFinalResult`):
 * 1. throttle by wall-clock time: at most once per emit interval (the task's
 *    internal emit interval, 1 s; 0 in the TopologyTestDriver, as Kafka's);
 * 2. only when the window close time moved past the last emit;
 * 3. fetch every window whose start lies in `[lower, upper]` (all keys, by
 *    window start) and forward it as `Change(value, null)` with the window's
 *    timestamp and the current record's headers;
 * 4. remember the close time emitted up to.
 * The last emit close time lives in the processor (Kafka keeps it in the
 * commit's processor metadata; sluice has none yet): after a restart the
 * closed windows still retained are emitted again.
 */
import { componentLogger, type Logger } from '../../internal/logger.js';
import type { ProcessorContext } from '../processor.js';
import type { Record } from '../record.js';
import type { ProcessorContextImpl } from '../internal/processor-context-impl.js';
import { formatTaskId } from '../task-contract.js';
import type { TimestampedWindowStore } from '../state/window-store.js';
import type { Window, Windowed } from '../state/window-types.js';
import { Change } from './change.js';
import { TableTupleForwarder, type TimestampedTableStore } from './ktable-contract.js';

/** When a windowed aggregation emits (the topology's `EmitStrategy`, KIP-825). */
export interface WindowEmitStrategy {
  readonly type: 'ON_WINDOW_UPDATE' | 'ON_WINDOW_CLOSE';
}

/** Kafka's `ConsumerRecord.NO_TIMESTAMP`. */
export const NO_TIMESTAMP = -1;

/** Kafka's default `__emit.interval.ms.kstreams.windowed.aggregation__`. */
const DEFAULT_EMIT_INTERVAL_MS = 1000;

/**
 * The task's emit interval of windowed aggregations (Kafka's internal
 * `__emit.interval.ms.kstreams.windowed.aggregation__`: 1 s, 0 in its test
 * driver); a task without that setting gives its outer-join emit interval
 * (the same default, also 0 in the TopologyTestDriver).
 */
function emitIntervalMs(context: ProcessorContext<unknown, unknown>): number {
  const impl = context as { windowedAggregationEmitIntervalMs?: () => number; outerJoinEmitIntervalMs?: () => number };
  const configured = impl.windowedAggregationEmitIntervalMs ?? impl.outerJoinEmitIntervalMs;
  return typeof configured === 'function' ? configured.call(context) : DEFAULT_EMIT_INTERVAL_MS;
}

/** The window bounds of a final-result fetch, as the processor kind defines them. */
export interface EmitRange {
  /** Kafka's `emitRangeLowerBound(windowCloseTime)` (inclusive window start). */
  lower(windowCloseTime: number, lastEmitWindowCloseTime: number): number;
  /** Kafka's `emitRangeUpperBound(windowCloseTime)` (inclusive window start; negative: nothing closed yet). */
  upper(windowCloseTime: number): number;
}

/** The store, clocks and outputs of one windowed aggregation processor instance. */
export class WindowAggregateOutput<K, V, A> {
  store!: TimestampedWindowStore<K, A>;
  /** The largest record timestamp this processor has seen (Kafka's `observedStreamTime`). */
  observedStreamTime = NO_TIMESTAMP;
  private lastEmitWindowCloseTime = NO_TIMESTAMP;
  private nextTimeToEmit = 0;
  private intervalMs = DEFAULT_EMIT_INTERVAL_MS;
  private context!: ProcessorContext<Windowed<K>, Change<A>>;
  private forwarder: TableTupleForwarder<Windowed<K>, A> | undefined;
  private logger!: Logger;

  constructor(
    private readonly storeName: string,
    private readonly emitStrategy: WindowEmitStrategy,
    private readonly sendOldValues: boolean,
    private readonly range: EmitRange,
  ) {}

  private get emitFinal(): boolean {
    return this.emitStrategy.type === 'ON_WINDOW_CLOSE';
  }

  /** Call from the processor's `init`. */
  init(context: ProcessorContext<Windowed<K>, Change<A>>, component: string): void {
    this.context = context;
    this.logger = componentLogger(component, undefined, { taskId: formatTaskId(context.taskId), processor: context.processorName });
    this.store = context.getStateStore<TimestampedWindowStore<K, A>>(this.storeName);
    if (this.emitFinal) {
      this.intervalMs = emitIntervalMs(context as ProcessorContext<unknown, unknown>);
      this.forwarder = undefined; // forwards directly: the store does not cache under onWindowClose
    } else {
      // The forwarder only asks the store for a flush listener; window stores give windowed keys.
      this.forwarder = new TableTupleForwarder(this.store as unknown as TimestampedTableStore<Windowed<K>, A>, context, this.sendOldValues);
    }
  }

  /** The processor's debug logger. */
  get log(): Logger {
    return this.logger;
  }

  updateObservedStreamTime(timestamp: number): void {
    this.observedStreamTime = Math.max(this.observedStreamTime, timestamp);
  }

  /** Forwards one window's update (`onWindowUpdate` only): `Change(newAgg, oldAgg when sending old values)`. */
  maybeForwardUpdate(record: Record<K, V>, window: Window, oldAgg: A | null, newAgg: A, newTimestamp: number): void {
    if (this.emitFinal) return;
    const update = record
      .withKey<Windowed<K>>({ key: record.key, window })
      .withValue(Change.of<A>(newAgg, this.sendOldValues ? oldAgg : null))
      .withTimestamp(newTimestamp);
    this.forwarder?.maybeForward(update);
  }

  /** Emits the windows closed since the last emit (`onWindowClose` only), in the steps of the module comment. */
  maybeForwardFinalResult(record: Record<K, V>, windowCloseTime: number): void {
    if (!this.shouldEmitFinal(windowCloseTime)) return;
    const upper = this.range.upper(windowCloseTime);
    if (upper < 0) return; // no window ever closed: nothing to fetch
    const lower = this.range.lower(windowCloseTime, this.lastEmitWindowCloseTime);
    // 3.
    for (const closed of this.store.fetchAll(lower, upper)) {
      const final = record.withKey(closed.key).withValue(Change.of<A>(closed.value.value, null)).withTimestamp(closed.value.timestamp);
      this.context.forward(final);
    }
    // 4.
    this.lastEmitWindowCloseTime = windowCloseTime;
  }

  private shouldEmitFinal(windowCloseTime: number): boolean {
    if (!this.emitFinal) return false;
    // 1.
    const now = this.context.currentSystemTimeMs();
    if (now < this.nextTimeToEmit) return false;
    this.nextTimeToEmit = now + this.intervalMs;
    // 2.
    return this.lastEmitWindowCloseTime === NO_TIMESTAMP || this.lastEmitWindowCloseTime < windowCloseTime;
  }

  /**
   * A record is too late for `window`: logged at DEBUG with Kafka's
   * message. `dropped`: the record fell into no open window at all; it is
   * counted as a dropped record of the task (`recordsSkipped`).
   */
  logSkippedRecordForExpiredWindow(timestamp: number, windowExpire: number, window: string, dropped: boolean): void {
    if (this.logger.isLevelEnabled('debug')) {
      const metadata = this.context.recordMetadata();
      const where = metadata === null ? 'Topic, partition, and offset not known. ' : `topic=[${metadata.topic}] partition=[${metadata.partition}] offset=[${metadata.offset}] `;
      this.logger.debug(
        { timestamp, window, expiration: windowExpire, streamTime: this.observedStreamTime },
        `Skipping record for expired window. ${where}timestamp=[${timestamp}] window=${window} expiration=[${windowExpire}] streamTime=[${this.observedStreamTime}]`,
      );
    }
    if (dropped) this.dropped('expired window');
  }

  /** A record with a null key or value: dropped, logged and counted as every aggregation does. */
  skipNullKeyOrValue(): void {
    this.dropped('null key or value');
  }

  private dropped(reason: string): void {
    const impl = this.context as unknown as Partial<Pick<ProcessorContextImpl, 'recordDropped'>>;
    if (typeof impl.recordDropped === 'function') impl.recordDropped.call(this.context, reason);
  }
}
