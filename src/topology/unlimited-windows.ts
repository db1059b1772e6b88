/**
 * One window per key that never closes (Kafka's `UnlimitedWindows`): from
 * `startMs` (default 0) to Java's `Long.MAX_VALUE` (2^63 as a JS number).
 * Records before `startMs` fall into no window. No grace (nothing is ever
 * late); `EmitStrategy.onWindowClose()` cannot be used with it.
 */
import { IllegalArgumentError } from '../errors.js';
import { TimeWindow } from '../state/window-types.js';
import { windowMillis } from './internal/window-millis.js';
import { hashLongs } from './time-windows.js';
import { Windows } from './windows.js';

/** Java's `Long.MAX_VALUE` as the window stores read it back (2^63). */
const LONG_MAX_VALUE = 2 ** 63;

/** An unlimited window starting at `startMs`. */
export class UnlimitedWindows extends Windows {
  private constructor(
    /** The start of the window, epoch ms. */
    readonly startMs: number,
  ) {
    super();
  }

  /** The unlimited window starting at 0. */
  static of(): UnlimitedWindows {
    return new UnlimitedWindows(0);
  }

  /** The unlimited window starting at `startMs` (epoch ms, >= 0). */
  startOn(startMs: number): UnlimitedWindows {
    const start = windowMillis(startMs, 'start');
    if (start < 0) throw new IllegalArgumentError('Window start time (startMs) cannot be negative.');
    return new UnlimitedWindows(start);
  }

  /** The one window when `timestamp >= startMs`, else none. */
  windowsFor(timestamp: number): Map<number, TimeWindow> {
    const windows = new Map<number, TimeWindow>();
    if (timestamp >= this.startMs) windows.set(this.startMs, TimeWindow.of(this.startMs, LONG_MAX_VALUE));
    return windows;
  }

  /** Java's `Long.MAX_VALUE` (2^63 as a JS number). */
  size(): number {
    return LONG_MAX_VALUE;
  }

  /** 0: an unlimited window never closes. */
  gracePeriodMs(): number {
    return 0;
  }

  /** True when `other` is an `UnlimitedWindows` with the same start. */
  equals(other: unknown): boolean {
    return other instanceof UnlimitedWindows && other.startMs === this.startMs;
  }

  /** A hash consistent with {@link equals}. */
  hashCode(): number {
    return hashLongs(this.startMs);
  }

  /** Kafka's `toString`. */
  override toString(): string {
    return `UnlimitedWindows{startMs=${this.startMs}}`;
  }
}
