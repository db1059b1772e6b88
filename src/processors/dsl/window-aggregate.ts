/**
 * The processor of `windowedBy(TimeWindows | UnlimitedWindows)` then count /
 * reduce / aggregate (Kafka's `KStreamWindowAggregate`): per record, every
 * window `windows.windowsFor(timestamp)` returns that is still open is
 * updated in the timestamped window store, its aggregate stamped with the
 * max timestamp of its records.
 *
 * Per record:
 * 1. a null key: dropped, logged (WARN, throttled) and counted in `recordsSkipped`;
 * 2. stream time (the max timestamp this processor saw) advances;
 *    window close time = stream time - grace;
 * 3. each window ending after the close time: `aggregator(key, value, old ?? initializer())`
 *    stored and, on window update, forwarded as `Change(new, old)`; each
 *    other window is expired: the record is logged at DEBUG for it (Kafka's
 *    "Skipping record for expired window" line); a record that fell into no
 *    open window at all is dropped and counted in `recordsSkipped`;
 * 4. on window close: the windows closed since the last emission are forwarded
 *    ({@link TimeWindowAggregateProcessor}).
 *
 * Null values are aggregated as Kafka does (only null keys are dropped).
 * Initializer and aggregator must be synchronous.
 */
import { IllegalArgumentError } from '../../errors.js';
import type { Processor, ProcessorContext } from '../processor.js';
import type { Record } from '../record.js';
import type { TimestampedWindowStore } from '../../state/window-store.js';
import type { TimeWindow, Windowed } from '../../state/window-types.js';
import type { Change } from './change.js';
import type { KTableProcessorSupplier, KTableValueGetterSupplier } from './ktable-contract.js';
import { syncResult } from './sync-result.js';
import { NO_TIMESTAMP, TimeWindowAggregateProcessor, type WindowEmitType } from './window-aggregate-processor.js';
import type { WindowedAggregateSupplier } from './windowed-contract.js';

/** The window specification the processor reads (the topology's `Windows`: `TimeWindows`, `UnlimitedWindows`). */
export interface FixedWindowSpec {
  windowsFor(timestamp: number): Map<number, TimeWindow>;
  size(): number;
  gracePeriodMs(): number;
}

/** True for hopping/tumbling windows (`TimeWindows` has an advance; `UnlimitedWindows` has none). */
function isTimeWindows(windows: FixedWindowSpec): boolean {
  return typeof (windows as { advanceMs?: unknown }).advanceMs === 'number';
}

function sameWindowStarts(a: Map<number, TimeWindow>, b: Map<number, TimeWindow>): boolean {
  if (a.size !== b.size) return false;
  for (const [start, window] of a) if (b.get(start)?.end !== window.end) return false;
  return true;
}

/**
 * The supplier of a time-windowed aggregation, a KTable node of
 * `Windowed<K>` keys: its view reads the window store (Kafka's
 * `KStreamWindowAggregateValueGetter`), it sends old values once asked, and
 * suppression finds its grace through {@link WindowedAggregateSupplier}.
 */
export class KStreamWindowAggregate<K, V, A> implements KTableProcessorSupplier<K, V, Windowed<K>, A>, WindowedAggregateSupplier {
  private sendOldValues = false;

  constructor(
    readonly windows: FixedWindowSpec,
    private readonly storeName: string,
    private readonly emitStrategy: WindowEmitType,
    private readonly initializer: () => A | null,
    private readonly aggregator: (key: K, value: V, aggregate: A | null) => A | null,
    /** On window close: the store keeping the last emit close time across restarts (none: kept with the window store). */
    private readonly emitCloseTimeStore?: string,
  ) {
    if (emitStrategy === 'ON_WINDOW_CLOSE' && !isTimeWindows(windows)) {
      throw new IllegalArgumentError('ON_WINDOW_CLOSE strategy is only supported for TimeWindows and SlidingWindows for TimeWindowedKStream');
    }
  }

  enableSendingOldValues(): boolean {
    this.sendOldValues = true;
    return true;
  }

  windowCloseDelayMs(): number {
    return this.windows.gracePeriodMs();
  }

  get(): Processor<K, V, Windowed<K>, Change<A>> {
    return new WindowAggregateProcessor<K, V, A>(this.windows, this.storeName, this.emitStrategy, this.sendOldValues, this.initializer, this.aggregator, this.emitCloseTimeStore);
  }

  view(): KTableValueGetterSupplier<Windowed<K>, A> {
    return windowStoreValueGetter<K, A>(this.storeName);
  }
}

/** Looks a windowed key up in the window store `storeName`: the aggregate of the window starting at its start (Kafka's `KStreamWindowAggregateValueGetter`). */
export function windowStoreValueGetter<K, A>(storeName: string): KTableValueGetterSupplier<Windowed<K>, A> {
  return {
    get() {
      let store: TimestampedWindowStore<K, A>;
      return {
        init(context: ProcessorContext<unknown, unknown>) {
          store = context.getStateStore<TimestampedWindowStore<K, A>>(storeName);
        },
        get(windowedKey: Windowed<K>) {
          return store.fetch(windowedKey.key, windowedKey.window.start);
        },
      };
    },
    storeNames: () => [storeName],
  };
}

class WindowAggregateProcessor<K, V, A> extends TimeWindowAggregateProcessor<K, V, A> {
  constructor(
    private readonly windows: FixedWindowSpec,
    storeName: string,
    emitStrategy: WindowEmitType,
    sendOldValues: boolean,
    private readonly initializer: () => A | null,
    private readonly aggregator: (key: K, value: V, aggregate: A | null) => A | null,
    emitCloseTimeStore: string | undefined,
  ) {
    super(storeName, emitStrategy, sendOldValues, emitCloseTimeStore);
  }

  process(record: Record<K, V>): void {
    // step 1
    if (record.key === null || record.key === undefined) {
      this.recordDropped('null key');
      return;
    }
    // step 2
    const timestamp = record.timestamp;
    this.updateObservedStreamTime(timestamp);
    const windowCloseTime = this.observedStreamTime - this.windows.gracePeriodMs();
    // step 3
    let accepted = false;
    for (const [windowStart, window] of this.windows.windowsFor(timestamp)) {
      if (window.end > windowCloseTime) {
        accepted = true;
        const old = this.windowStore.fetch(record.key, windowStart);
        let oldAgg: A | null;
        let newTimestamp: number;
        if (old === null) {
          oldAgg = syncResult('aggregate', 'initializer', this.initializer());
          newTimestamp = timestamp;
        } else {
          oldAgg = old.value;
          newTimestamp = Math.max(timestamp, old.timestamp);
        }
        const newAgg = syncResult('aggregate', 'aggregator', this.aggregator(record.key, record.value, oldAgg));
        this.windowStore.put(record.key, newAgg === null ? null : { value: newAgg, timestamp: newTimestamp }, windowStart);
        this.maybeForwardUpdate(record, window, oldAgg, newAgg, newTimestamp);
      } else {
        this.logSkippedRecordForExpiredWindow(timestamp, windowCloseTime, `[${windowStart},${window.end})`);
      }
    }
    if (!accepted && this.windows.windowsFor(timestamp).size > 0) this.recordDropped('expired window');
    // step 4
    this.maybeForwardFinalResult(record, windowCloseTime);
  }

  protected emitRangeLowerBound(): number {
    // window ends are exclusive: the bound after the last emitted start; 0 on the first emission
    return this.lastEmitWindowCloseTime === NO_TIMESTAMP ? 0 : Math.max(0, this.lastEmitWindowCloseTime - this.windows.size()) + 1;
  }

  protected emitRangeUpperBound(windowCloseTime: number): number {
    return windowCloseTime - this.windows.size();
  }

  protected shouldRangeFetch(lower: number, upper: number): boolean {
    // no fetch when the close time did not move far enough to close another window
    if (this.lastEmitWindowCloseTime === NO_TIMESTAMP) return true;
    return !sameWindowStarts(this.windows.windowsFor(upper), this.windows.windowsFor(lower - 1));
  }
}

/** Kafka's `aggregatorForReducer`: the first value as is, then `reducer(aggregate, value)`. */
export function reducerAggregator<K, V>(reducer: (aggregate: V, value: V) => V): (key: K, value: V, aggregate: V | null) => V | null {
  return (_key, value, aggregate) => (aggregate === null ? value : syncResult('reduce', 'reducer', reducer(aggregate, value)));
}
