/**
 * The join processors of a stream–stream join (Kafka's `KStreamKStreamJoin`
 * with its `LeftSide` and `RightSide`). Each side's processor receives its
 * side's records (from the side's window node) and looks up the other
 * side's window store:
 *
 * 1. stream time (shared by both sides of the task) advances to the record's timestamp;
 * 2. an outer side forwards a null-key record at once with a null partner;
 *    otherwise a null key or value is dropped (logged, counted as skipped);
 * 3. when the record is the newest of the task, waiting records whose window
 *    closed are emitted from the outer store with a null partner (at most once
 *    per emit interval of wall-clock time, as Kafka);
 * 4. the other side's records of the key within `[t - before, t + after]` join:
 *    each result is stamped with the larger timestamp, and the partner's
 *    waiting entry (if any) is removed from the outer store;
 * 5. an outer side's record that joined nothing waits in the outer store, or
 *    is forwarded at once with a null partner when its window already closed.
 *
 * The joiner always receives (left value, right value, key): the right side
 * calls it reversed.
 */
import type { Processor, ProcessorContext, ProcessorSupplier } from '../processor.js';
import { dslContext, type DslProcessorContext } from '../dsl-context.js';
import type { Record } from '../record.js';
import type { WindowStore } from '../../state/window-store.js';
import { formatTaskId } from '../../records/task-id.js';
import { appendWaiting, removeWaiting, type OuterJoinStore, type TimestampedKeyAndJoinSide } from './outer-join-store.js';

/** Kafka's default `__emit.interval.ms.kstreams.outer.join.spurious.results.fix__`: wall-clock ms between two scans of the outer store. */
export const OUTER_JOIN_EMIT_INTERVAL_MS = 1000;

/** The stream time of one task, shared by the two sides of a join (Kafka's `KStreamImplJoin.TimeTracker`). */
export class TimeTracker {
  streamTime = -1;
  /** The smallest timestamp that may wait in the outer store (`Infinity`: unknown, scan). */
  minTime = Number.POSITIVE_INFINITY;
  nextTimeToEmit = 0;
  /** Wall-clock ms between two scans of the outer store (Kafka's `setEmitInterval`). */
  emitIntervalMs = OUTER_JOIN_EMIT_INTERVAL_MS;

  advanceStreamTime(timestamp: number): void {
    this.streamTime = Math.max(timestamp, this.streamTime);
  }
  updatedMinTime(timestamp: number): void {
    this.minTime = Math.min(timestamp, this.minTime);
  }
}

/** One {@link TimeTracker} per task (Kafka's `TimeTrackerSupplier`). */
export class TimeTrackerSupplier {
  private readonly trackers = new Map<string, TimeTracker>();

  get(taskId: string): TimeTracker {
    let tracker = this.trackers.get(taskId);
    if (tracker === undefined) {
      tracker = new TimeTracker();
      this.trackers.set(taskId, tracker);
    }
    return tracker;
  }
  remove(taskId: string): void {
    this.trackers.delete(taskId);
  }
}

/** The windows as the processors read them (Kafka's `JoinWindowsInternal`). */
export interface JoinWindowSpec {
  readonly beforeMs: number;
  readonly afterMs: number;
  readonly graceMs: number;
}

/** What one side's join processor needs. */
export interface JoinSideSpec<K, VThis, VOther, VOut> {
  /** True for the left (this) stream's processor. */
  readonly leftSide: boolean;
  /** The other side's window store. */
  readonly otherWindowStore: string;
  readonly windows: JoinWindowSpec;
  /** `(thisValue, otherValue, key)`: already reversed for the right side. */
  readonly joiner: (thisValue: VThis | null, otherValue: VOther | null, key: K) => VOut;
  /** True when this side's records are kept without a partner (left side of left/outer joins, both sides of outer joins). */
  readonly outer: boolean;
  /** The shared outer store (left and outer joins). */
  readonly outerJoinStore: string | undefined;
  readonly timeTrackers: TimeTrackerSupplier;
}

/** The supplier of one side's join processor (Kafka's `KStreamKStreamJoinLeftSide` / `RightSide`). */
export function streamJoinSideSupplier<K, VThis, VOther, VOut>(spec: JoinSideSpec<K, VThis, VOther, VOut>): ProcessorSupplier<K, VThis, K, VOut> {
  return () => new StreamJoinProcessor(spec);
}

class StreamJoinProcessor<K, VThis, VOther, VOut> implements Processor<K, VThis, K, VOut> {
  private context!: DslProcessorContext<K, VOut>;
  private otherWindow!: WindowStore<K, VOther>;
  private outerStore: OuterJoinStore<K, unknown, unknown> | undefined;
  private tracker!: TimeTracker;
  private taskId = '';
  /** This side's window bounds: the right side looks `after` back and `before` ahead. */
  private readonly joinBeforeMs: number;
  private readonly joinAfterMs: number;

  constructor(private readonly spec: JoinSideSpec<K, VThis, VOther, VOut>) {
    this.joinBeforeMs = spec.leftSide ? spec.windows.beforeMs : spec.windows.afterMs;
    this.joinAfterMs = spec.leftSide ? spec.windows.afterMs : spec.windows.beforeMs;
  }

  init(context: ProcessorContext<K, VOut>): void {
    this.context = dslContext(context);
    this.taskId = formatTaskId(context.taskId);
    this.otherWindow = context.getStateStore<WindowStore<K, VOther>>(this.spec.otherWindowStore);
    this.tracker = this.spec.timeTrackers.get(this.taskId);
    if (this.spec.outerJoinStore !== undefined) {
      this.outerStore = context.getStateStore<OuterJoinStore<K, unknown, unknown>>(this.spec.outerJoinStore);
      const configured = this.context.outerJoinEmitIntervalMs?.();
      if (configured !== undefined) this.tracker.emitIntervalMs = configured;
    }
  }

  process(record: Record<K, VThis>): void {
    const timestamp = record.timestamp;
    // 1. shared stream time
    this.tracker.advanceStreamTime(timestamp);
    // 2. null keys and values
    const nullKey = record.key === null || record.key === undefined;
    const nullValue = record.value === null || record.value === undefined;
    if (this.spec.outer && nullKey && !nullValue) {
      this.context.forward(record.withValue(this.spec.joiner(record.value, null, record.key)));
      return;
    }
    if (nullKey || nullValue) {
      this.context.recordDropped('null key or value');
      return;
    }
    // 3. closed windows of waiting records
    if (timestamp === this.tracker.streamTime && this.outerStore !== undefined) this.emitNonJoinedOuterRecords(this.outerStore, record);
    // 4. inner results
    const timeFrom = Math.max(0, timestamp - this.joinBeforeMs);
    const timeTo = Math.max(0, timestamp + this.joinAfterMs);
    const partners = this.otherWindow.fetch(record.key, timeFrom, timeTo);
    for (const partner of partners) this.emitInnerJoin(record, partner.key, partner.value);
    // 5. no partner
    if (this.spec.outer && partners.length === 0) {
      if (this.outerStore === undefined || timeTo < this.tracker.streamTime) {
        this.context.forward(record.withValue(this.spec.joiner(record.value, null, record.key)));
      } else {
        this.tracker.updatedMinTime(timestamp);
        appendWaiting(this.outerStore, this.waitingKey(record.key, timestamp, this.spec.leftSide), this.waitingValue(record.value));
      }
    }
  }

  private waitingKey(key: K, timestamp: number, leftSide: boolean): TimestampedKeyAndJoinSide<K> {
    return { key, timestamp, leftSide };
  }

  private waitingValue(value: VThis): { leftValue: unknown; rightValue: unknown } {
    return this.spec.leftSide ? { leftValue: value, rightValue: null } : { leftValue: null, rightValue: value };
  }

  private emitInnerJoin(record: Record<K, VThis>, otherTimestamp: number, otherValue: VOther): void {
    if (this.outerStore !== undefined) removeWaiting(this.outerStore, this.waitingKey(record.key, otherTimestamp, !this.spec.leftSide));
    const joined = this.spec.joiner(record.value, otherValue, record.key);
    this.context.forward(record.withValue(joined).withTimestamp(Math.max(record.timestamp, otherTimestamp)));
  }

  /** Kafka's `emitNonJoinedOuterRecords`, its steps in order. */
  private emitNonJoinedOuterRecords(store: OuterJoinStore<K, unknown, unknown>, record: Record<K, VThis>): void {
    const tracker = this.tracker;
    const { afterMs, beforeMs, graceMs } = this.spec.windows;
    // 1. nothing can have closed yet (an unknown minimum is Java's Long.MAX_VALUE: the sum overflows, so it scans, when after + grace > 0)
    const wait = this.joinAfterMs + graceMs;
    const closesAt = tracker.minTime === Number.POSITIVE_INFINITY ? (wait > 0 ? Number.NEGATIVE_INFINITY : tracker.minTime) : tracker.minTime + wait;
    if (closesAt >= tracker.streamTime) return;
    // 2. throttle by wall-clock time
    const now = this.context.currentSystemTimeMs();
    if (now < tracker.nextTimeToEmit) return;
    tracker.nextTimeToEmit = now + tracker.emitIntervalMs;
    // 3. scan by time: emit (and remove) each closed entry, until both sides reach an open window
    tracker.minTime = Number.POSITIVE_INFINITY;
    let leftOpen = false;
    let rightOpen = false;
    for (const entry of store.all()) {
      tracker.minTime = entry.key.timestamp;
      if (leftOpen && rightOpen) break;
      // the left side's records look `after` ahead, the right side's `before`
      const lookBack = entry.key.leftSide ? afterMs : beforeMs;
      if (tracker.minTime + lookBack + graceMs >= tracker.streamTime) {
        if (entry.key.leftSide) leftOpen = true;
        else rightOpen = true;
        continue;
      }
      for (const value of entry.value) {
        const thisValue = (this.spec.leftSide ? value.leftValue : value.rightValue) as VThis | null;
        const otherValue = (this.spec.leftSide ? value.rightValue : value.leftValue) as VOther | null;
        const joined = this.spec.joiner(thisValue, otherValue, entry.key.key);
        this.context.forward(record.withKey(entry.key.key).withValue(joined).withTimestamp(entry.key.timestamp));
      }
      store.put(entry.key, null);
    }
  }

  close(): void {
    this.spec.timeTrackers.remove(this.taskId);
  }
}
