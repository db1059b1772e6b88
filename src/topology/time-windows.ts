/**
 * Fixed-size time windows (Kafka's `TimeWindows`): tumbling (advance = size,
 * no overlap) or hopping (`advanceBy(ms)` < size, overlapping). A record at
 * time `t` falls into every window `[start, start + size)` with `start` a
 * multiple of the advance and `start <= t < start + size`. A window accepts
 * records until stream time passes its end plus the grace period; later
 * records are dropped. Times are epoch milliseconds (Kafka takes
 * `Duration`s). Immutable.
 */
import { IllegalArgumentError } from '../errors.js';
import { TimeWindow } from '../state/window-types.js';
import { windowMillis } from './internal/window-millis.js';
import { Windows } from './windows.js';

/** Tumbling or hopping windows of `sizeMs`, advancing by `advanceMs`, with `gracePeriodMs()` of grace. */
export class TimeWindows extends Windows {
  private constructor(
    /** The size of each window, in ms. */
    readonly sizeMs: number,
    /** How far each window starts after the previous one, in ms (= `sizeMs` for tumbling windows). */
    readonly advanceMs: number,
    private readonly graceMs: number,
  ) {
    super();
    if (sizeMs <= 0) throw new IllegalArgumentError('Window size (sizeMs) must be larger than zero.');
    if (advanceMs <= 0 || advanceMs > sizeMs) {
      throw new IllegalArgumentError(
        `Window advancement interval should be more than zero and less than window duration which is ${sizeMs} ms, but given advancement interval is: ${advanceMs} ms`,
      );
    }
    if (graceMs < 0) throw new IllegalArgumentError('Grace period must not be negative.');
  }

  /** Tumbling windows of `sizeMs` without grace: a window closes as soon as stream time reaches its end. */
  static ofSizeWithNoGrace(sizeMs: number): TimeWindows {
    return TimeWindows.ofSizeAndGrace(sizeMs, 0);
  }

  /** Tumbling windows of `sizeMs` accepting records up to `afterWindowEndMs` after a window's end. */
  static ofSizeAndGrace(sizeMs: number, afterWindowEndMs: number): TimeWindows {
    const size = windowMillis(sizeMs, 'size');
    const grace = windowMillis(afterWindowEndMs, 'afterWindowEnd');
    return new TimeWindows(size, size, grace);
  }

  /** Hopping windows: the same size and grace, a new window every `advanceMs` (0 < advance <= size). */
  advanceBy(advanceMs: number): TimeWindows {
    return new TimeWindows(this.sizeMs, windowMillis(advanceMs, 'advance'), this.graceMs);
  }

  /** The windows containing `timestamp`, by start, earliest first (Kafka's `windowsFor`). */
  windowsFor(timestamp: number): Map<number, TimeWindow> {
    let windowStart = Math.floor(Math.max(0, timestamp - this.sizeMs + this.advanceMs) / this.advanceMs) * this.advanceMs;
    const windows = new Map<number, TimeWindow>();
    while (windowStart <= timestamp) {
      windows.set(windowStart, TimeWindow.of(windowStart, windowStart + this.sizeMs));
      windowStart += this.advanceMs;
    }
    return windows;
  }

  /** `sizeMs`. */
  size(): number {
    return this.sizeMs;
  }

  /** The grace period, in ms. */
  gracePeriodMs(): number {
    return this.graceMs;
  }

  /** True when `other` is a `TimeWindows` of the same size, advance and grace (Kafka's `equals`). */
  equals(other: unknown): boolean {
    return other instanceof TimeWindows && other.sizeMs === this.sizeMs && other.advanceMs === this.advanceMs && other.graceMs === this.graceMs;
  }

  /** A hash consistent with {@link equals} (Kafka's `Objects.hash(sizeMs, advanceMs, graceMs)`, as a 32-bit int). */
  hashCode(): number {
    return hashLongs(this.sizeMs, this.advanceMs, this.graceMs);
  }

  /** Kafka's `toString`. */
  override toString(): string {
    return `TimeWindows{, sizeMs=${this.sizeMs}, advanceMs=${this.advanceMs}, graceMs=${this.graceMs}}`;
  }
}

/** Java's `Objects.hash` of longs (each `Long.hashCode` = `(int)(v ^ (v >>> 32))`). */
export function hashLongs(...values: number[]): number {
  let hash = 1;
  for (const value of values) {
    const big = BigInt.asUintN(64, BigInt(value));
    const longHash = Number(BigInt.asIntN(32, big ^ (big >> 32n)));
    hash = (Math.imul(31, hash) + longHash) | 0;
  }
  return hash;
}
