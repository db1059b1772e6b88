/**
 * The processor of a sliding-window aggregation (Kafka's
 * `KStreamSlidingWindowAggregateProcessor`), its window creation exactly as
 * Kafka's. Each record of a key at time `t` (with time difference `d`):
 *
 * 1. drop a null key or value (logged, counted);
 * 2. advance the processor's stream time; the window close time is
 *    `streamTime - grace`; a record whose own right bound `t + d` is before
 *    it is dropped as late (logged at DEBUG, counted in `recordsSkipped`);
 * 3. an *early* record (`t < d`, whose left window would start before 0)
 *    goes into the window `[0, d]` ({@link processEarly});
 * 4. otherwise scan the key's windows starting in `[t - 2d, t + 1]`, newest
 *    first when the store can iterate backwards, else oldest first: update
 *    every window containing `t`, note the aggregate of the record before
 *    (for its right window and `t`'s left window) and of the records after
 *    (for `t`'s right window), and whether `t`'s left (`[t - d, t]`) and
 *    right (`[t + 1, t + 1 + d]`) windows exist;
 * 5. create what is missing ({@link createWindows}): the previous record's
 *    right window, `t`'s left window, `t`'s right window when a later
 *    record falls into it;
 * 6. with `onWindowClose`, emit the windows that closed.
 *
 * Windows ending before the close time are not updated (logged at DEBUG).
 */
import type { Record } from '../record.js';
import { ValueAndTimestamp } from '../../state/value-and-timestamp.js';
import type { KeyValue } from '../../records/key-value.js';
import type { Window, Windowed } from '../../state/window-types.js';
import { IllegalArgumentError, IllegalStateError } from '../../errors.js';
import { NO_TIMESTAMP, TimeWindowAggregateProcessor, type WindowEmitStrategy } from './window-aggregate-processor.js';

/** What the processor needs of its supplier. */
export interface SlidingAggregateSpec<K, V, A> {
  readonly storeName: string;
  readonly timeDifferenceMs: number;
  readonly gracePeriodMs: number;
  readonly emitStrategy: WindowEmitStrategy;
  readonly sendOldValues: boolean;
  /** The initial aggregate of a new window (`null` for reduce: the first value is taken as is). */
  initializer(): A | null;
  /** Folds `value` into `aggregate` (`null` for reduce's first value). */
  aggregator(key: K, value: V, aggregate: A | null): A;
}

type Agg<A> = ValueAndTimestamp<A> | null;
type Entry<K, A> = KeyValue<Windowed<K>, ValueAndTimestamp<A>>;

/** What a scan of the key's windows found (Kafka's locals of `processInOrder` / `processReverse`). */
interface Scan<A> {
  windowStartTimes: Set<number>;
  leftWinAgg: Agg<A>;
  rightWinAgg: Agg<A>;
  leftWinAlreadyCreated: boolean;
  rightWinAlreadyCreated: boolean;
  previousRecordTimestamp: number | null;
}

function unexpectedWindow(startTime: number, timestamp: number): never {
  throw new IllegalStateError(
    `Unexpected window found when processing sliding windows: window start ${startTime} for a record at ${timestamp} in KStreamSlidingWindowAggregate`,
  );
}

/** One processor instance per task. */
export class SlidingWindowAggregateProcessor<K, V, A> extends TimeWindowAggregateProcessor<K, V, A> {
  private readonly d: number;
  private reverseIteratorPossible: boolean | null = null;

  constructor(private readonly spec: SlidingAggregateSpec<K, V, A>) {
    super(spec.storeName, spec.emitStrategy.type, spec.sendOldValues, spec.emitStrategy.emitCloseTimeStore, 'sliding-window-aggregate');
    this.d = spec.timeDifferenceMs;
  }

  // Kafka's emitRangeLowerBound / emitRangeUpperBound / shouldRangeFetch: both ends of a sliding window are inclusive
  protected emitRangeLowerBound(): number {
    return this.lastEmitWindowCloseTime === NO_TIMESTAMP ? 0 : Math.max(0, this.lastEmitWindowCloseTime - this.d);
  }

  protected emitRangeUpperBound(windowCloseTime: number): number {
    return windowCloseTime - this.d - 1;
  }

  protected shouldRangeFetch(): boolean {
    return true;
  }

  process(record: Record<K, V>): void {
    // 1.
    if (record.key === null || record.key === undefined || record.value === null || record.value === undefined) {
      this.recordDropped('null key or value');
      return;
    }
    // 2.
    this.updateObservedStreamTime(record.timestamp);
    const windowCloseTime = this.observedStreamTime - this.spec.gracePeriodMs;
    const windowStart = record.timestamp;
    const windowEnd = record.timestamp + this.d;
    if (windowEnd < windowCloseTime) {
      this.logSkippedRecordForExpiredWindow(record.timestamp, windowCloseTime, `[${windowStart},${windowEnd}]`);
      this.recordDropped('expired window');
      return;
    }
    // 3.
    if (record.timestamp < this.d) {
      this.processEarly(record, windowCloseTime);
      return;
    }
    // 4. and 5.
    if (this.reverseIteratorPossible === null) this.reverseIteratorPossible = this.probeReverseIterator(record.key);
    if (this.reverseIteratorPossible) this.processReverse(record, windowCloseTime);
    else this.processInOrder(record, windowCloseTime);
    // 6.
    this.maybeForwardFinalResult(record, windowCloseTime);
  }

  /** Kafka tries a backward fetch once: a store that cannot iterate backwards is scanned oldest first. */
  private probeReverseIterator(key: K): boolean {
    try {
      this.windowStore.backwardFetch(key, key, 0, 0);
      this.logger.debug('Sliding Windows aggregate using a reverse iterator');
      return true;
    } catch {
      this.logger.debug('Sliding Windows aggregate using a forward iterator');
      return false;
    }
  }

  private newScan(): Scan<A> {
    return { windowStartTimes: new Set(), leftWinAgg: null, rightWinAgg: null, leftWinAlreadyCreated: false, rightWinAlreadyCreated: false, previousRecordTimestamp: null };
  }

  /** The key's windows that may matter for `t`: starting in `[t - 2d, t + 1]` (`+ 1` catches `t`'s right window). */
  private windowsAround(record: Record<K, V>, forward: boolean): Entry<K, A>[] {
    const from = Math.max(0, record.timestamp - 2 * this.d);
    const to = record.timestamp + 1;
    return forward ? this.windowStore.fetch(record.key, record.key, from, to) : this.windowStore.backwardFetch(record.key, record.key, from, to);
  }

  /** Kafka's `processInOrder`: the scan oldest window first. */
  private processInOrder(record: Record<K, V>, windowCloseTime: number): void {
    const scan = this.newScan();
    const t = record.timestamp;
    for (const entry of this.windowsAround(record, true)) {
      const startTime = entry.key.window.start;
      scan.windowStartTimes.add(startTime);
      const endTime = startTime + this.d;
      const windowMaxRecordTimestamp = entry.value.timestamp;
      if (endTime < t) {
        scan.leftWinAgg = entry.value;
        scan.previousRecordTimestamp = windowMaxRecordTimestamp;
      } else if (endTime === t) {
        scan.leftWinAlreadyCreated = true;
        if (windowMaxRecordTimestamp < t) scan.previousRecordTimestamp = windowMaxRecordTimestamp;
        this.updateWindowAndForward(entry.key.window, entry.value, record, windowCloseTime);
      } else if (endTime > t && startTime <= t) {
        scan.rightWinAgg = entry.value;
        this.updateWindowAndForward(entry.key.window, entry.value, record, windowCloseTime);
      } else if (startTime === t + 1) {
        scan.rightWinAlreadyCreated = true;
      } else {
        unexpectedWindow(startTime, t);
      }
    }
    this.createWindows(record, windowCloseTime, scan);
  }

  /** Kafka's `processReverse`: the scan newest window first, stopping at the previous record's window. */
  private processReverse(record: Record<K, V>, windowCloseTime: number): void {
    const scan = this.newScan();
    const t = record.timestamp;
    for (const entry of this.windowsAround(record, false)) {
      const startTime = entry.key.window.start;
      scan.windowStartTimes.add(startTime);
      const endTime = startTime + this.d;
      const windowMaxRecordTimestamp = entry.value.timestamp;
      if (startTime === t + 1) {
        scan.rightWinAlreadyCreated = true;
      } else if (endTime > t) {
        if (scan.rightWinAgg === null) scan.rightWinAgg = entry.value;
        this.updateWindowAndForward(entry.key.window, entry.value, record, windowCloseTime);
      } else if (endTime === t) {
        scan.leftWinAlreadyCreated = true;
        this.updateWindowAndForward(entry.key.window, entry.value, record, windowCloseTime);
        if (windowMaxRecordTimestamp < t) scan.previousRecordTimestamp = windowMaxRecordTimestamp;
        else return; // the left window holds records at t: every window this record needs exists
      } else if (endTime < t) {
        scan.leftWinAgg = entry.value;
        scan.previousRecordTimestamp = windowMaxRecordTimestamp;
        break;
      } else {
        unexpectedWindow(startTime, t);
      }
    }
    this.createWindows(record, windowCloseTime, scan);
  }

  /**
   * Kafka's `processEarly`: a record with `0 <= t < d` would get a left
   * window starting before 0; it goes into the combined window `[0, d]`
   * instead, and its right window is created or updated as later records come.
   */
  private processEarly(record: Record<K, V>, windowCloseTime: number): void {
    const t = record.timestamp;
    if (t < 0 || t >= this.d) {
      throw new IllegalArgumentError(`Early record for sliding windows must fall between 0 <= inputRecordTimestamp < ${this.d}; got timestamp ${t}`);
    }
    let combinedWindow: Entry<K, A> | null = null;
    let rightWinAgg: Agg<A> = null;
    let rightWinAlreadyCreated = false;
    const windowStartTimes = new Set<number>();
    let previousRecordTimestamp: number | null = null;
    for (const entry of this.windowStore.fetch(record.key, record.key, 0, t + 1)) {
      const startTime = entry.key.window.start;
      windowStartTimes.add(startTime);
      const windowMaxRecordTimestamp = entry.value.timestamp;
      if (startTime === 0) {
        combinedWindow = entry;
        // a previous record's right window already exists when the combined window holds records at or after t
        if (windowMaxRecordTimestamp < t) previousRecordTimestamp = windowMaxRecordTimestamp;
      } else if (startTime <= t) {
        rightWinAgg = entry.value;
        this.updateWindowAndForward(entry.key.window, entry.value, record, windowCloseTime);
      } else if (startTime === t + 1) {
        rightWinAlreadyCreated = true;
      } else {
        unexpectedWindow(startTime, t);
      }
    }
    // Without a right window found, the combined window's records after t are exactly t's right window's.
    if (rightWinAgg === null && combinedWindow !== null && combinedWindow.value.timestamp > t) rightWinAgg = combinedWindow.value;
    if (!rightWinAlreadyCreated && this.rightWindowIsNotEmpty(rightWinAgg, t)) this.createCurrentRecordRightWindow(t, rightWinAgg, record);
    // the previous record's right window, when it exists and the window is not there yet
    if (previousRecordTimestamp !== null && !windowStartTimes.has(previousRecordTimestamp + 1)) {
      this.createPreviousRecordRightWindow(previousRecordTimestamp + 1, record, windowCloseTime);
    }
    if (combinedWindow === null) {
      const window = { start: 0, end: this.d };
      this.updateWindowAndForward(window, ValueAndTimestamp.make(this.spec.initializer(), t), record, windowCloseTime);
    } else {
      this.updateWindowAndForward(combinedWindow.key.window, combinedWindow.value, record, windowCloseTime);
    }
  }

  /** Kafka's `createWindows`, step 5 of the module comment. */
  private createWindows(record: Record<K, V>, closeTime: number, scan: Scan<A>): void {
    const t = record.timestamp;
    // the previous record's right window
    if (scan.previousRecordTimestamp !== null) {
      const previousRightWinStart = scan.previousRecordTimestamp + 1;
      if (!scan.windowStartTimes.has(previousRightWinStart) && previousRightWinStart + this.d >= t) {
        this.createPreviousRecordRightWindow(previousRightWinStart, record, closeTime);
      }
    }
    // the new record's left window
    if (!scan.leftWinAlreadyCreated) {
      // the previous record falls into the left window: it starts with the previous record's left window's aggregate
      const leftWindowNotEmpty = scan.previousRecordTimestamp !== null && t - this.d <= scan.previousRecordTimestamp;
      const valueAndTime =
        leftWindowNotEmpty && scan.leftWinAgg !== null ? ValueAndTimestamp.make(scan.leftWinAgg.value, t) : ValueAndTimestamp.make(this.spec.initializer(), t);
      this.updateWindowAndForward({ start: t - this.d, end: t }, valueAndTime, record, closeTime);
    }
    // the new record's right window, when a later record falls into it
    if (!scan.rightWinAlreadyCreated && this.rightWindowIsNotEmpty(scan.rightWinAgg, t)) this.createCurrentRecordRightWindow(t, scan.rightWinAgg, record);
  }

  private createCurrentRecordRightWindow(t: number, rightWinAgg: ValueAndTimestamp<A>, record: Record<K, V>): void {
    const window = { start: t + 1, end: t + 1 + this.d };
    this.windowStore.put(record.key, rightWinAgg, window.start);
    this.maybeForwardUpdate(record, window, null, rightWinAgg.value, rightWinAgg.timestamp);
  }

  private createPreviousRecordRightWindow(windowStart: number, record: Record<K, V>, closeTime: number): void {
    const window = { start: windowStart, end: windowStart + this.d };
    this.updateWindowAndForward(window, ValueAndTimestamp.make(this.spec.initializer(), record.timestamp), record, closeTime);
  }

  /** True when the aggregate found holds records after `t` (they fall into `t`'s right window). */
  private rightWindowIsNotEmpty(rightWinAgg: Agg<A>, t: number): rightWinAgg is ValueAndTimestamp<A> {
    return rightWinAgg !== null && rightWinAgg.timestamp > t;
  }

  /** Kafka's `updateWindowAndForward`: folds the record into a window that has not closed, stores and forwards it. */
  private updateWindowAndForward(window: Window, valueAndTime: Agg<A>, record: Record<K, V>, windowCloseTime: number): void {
    if (window.end < windowCloseTime) {
      this.logSkippedRecordForExpiredWindow(record.timestamp, windowCloseTime, `[${window.start},${window.end}]`);
      return;
    }
    const oldAgg = ValueAndTimestamp.getValueOrNull(valueAndTime);
    const newAgg = this.spec.aggregator(record.key, record.value, oldAgg);
    const newTimestamp = valueAndTime === null ? record.timestamp : Math.max(record.timestamp, valueAndTime.timestamp);
    this.windowStore.put(record.key, { value: newAgg, timestamp: newTimestamp }, window.start);
    this.maybeForwardUpdate(record, window, oldAgg, newAgg, newTimestamp);
  }
}
