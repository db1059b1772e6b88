/**
 * Sliding windows (Kafka's `SlidingWindows`, KIP-450): windows of a fixed
 * size, `timeDifferenceMs`, whose bounds follow the records. Two records of
 * a key fall into one window when their timestamps differ by at most the
 * time difference (both bounds inclusive). A new window is created each
 * time a record enters the sliding window (its *left* window
 * `[t - timeDifference, t]`) or drops out of it (the *right* window
 * `[t + 1, t + 1 + timeDifference]` of the record before).
 *
 * With a time difference of 5000 ms and records A@8000, A@9200, A@12400 the
 * windows are `[3000,8000]` {1}, `[4200,9200]` {1,2}, `[7400,12400]` {1,2,3},
 * `[8001,13001]` {2,3} and `[9201,14201]` {3}.
 *
 * A window closes when stream time passes its end plus the grace period;
 * records for closed windows are dropped. Times are milliseconds (Kafka
 * takes `Duration`s). Windowed keys carry the window as `{ start, end }`
 * with `end = start + timeDifferenceMs`.
 */
import { IllegalArgumentError } from '../errors.js';

/**
 * Kafka's `ApiUtils.validateMillisecondDuration` with its messages:
 * `Invalid value for parameter "<name>" (value was: <v>). It shouldn't be null.`
 */
function millis(value: unknown, name: string): number {
  const prefix = `Invalid value for parameter "${name}" (value was: ${String(value)}). `;
  if (value === null || value === undefined) throw new IllegalArgumentError(`${prefix}It shouldn't be null.`);
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new IllegalArgumentError(`${prefix}It can't be converted to milliseconds.`);
  return value;
}

/** A sliding window definition: the maximum time difference of two records in one window, and the grace period. */
export class SlidingWindows {
  /** @internal Use {@link SlidingWindows.ofTimeDifferenceWithNoGrace} or {@link SlidingWindows.ofTimeDifferenceAndGrace}. */
  protected constructor(
    private readonly timeDifference: number,
    private readonly graceMs: number,
  ) {
    if (timeDifference < 0) throw new IllegalArgumentError('Window time difference must not be negative.');
    if (graceMs < 0) throw new IllegalArgumentError('Window grace period must not be negative.');
  }

  /**
   * Windows of records at most `timeDifferenceMs` apart (inclusive), without
   * grace: a record arriving after its window's end (by stream time) is dropped.
   */
  static ofTimeDifferenceWithNoGrace(timeDifferenceMs: number): SlidingWindows {
    return SlidingWindows.ofTimeDifferenceAndGrace(timeDifferenceMs, 0);
  }

  /**
   * Windows of records at most `timeDifferenceMs` apart (inclusive) that
   * still accept out-of-order records `afterWindowEndMs` after their end.
   * Throws IllegalArgumentError when either is negative or not a whole number of ms.
   */
  static ofTimeDifferenceAndGrace(timeDifferenceMs: number, afterWindowEndMs: number): SlidingWindows {
    const difference = millis(timeDifferenceMs, 'timeDifference');
    const grace = millis(afterWindowEndMs, 'afterWindowEnd');
    return new SlidingWindows(difference, grace);
  }

  /** The maximum time difference of two records in one window: the size of every window, in ms. */
  timeDifferenceMs(): number {
    return this.timeDifference;
  }

  /** How long after its end a window still accepts out-of-order records, in ms. */
  gracePeriodMs(): number {
    return this.graceMs;
  }

  /** True when `other` is sliding windows of the same time difference and grace (Java's `equals`). */
  equals(other: unknown): boolean {
    if (this === other) return true;
    if (!(other instanceof SlidingWindows) || other.constructor !== this.constructor) return false;
    return this.timeDifference === other.timeDifference && this.graceMs === other.graceMs;
  }

  /** A hash consistent with {@link equals} (Java's `Objects.hash(timeDifferenceMs, graceMs)` on int-sized values). */
  hashCode(): number {
    return (Math.imul(31, Math.imul(31, 1) + (this.timeDifference | 0)) + (this.graceMs | 0)) | 0;
  }

  /** Kafka's `toString()`: `SlidingWindows{, sizeMs=10, graceMs=5}`. */
  toString(): string {
    return `SlidingWindows{, sizeMs=${this.timeDifference}, graceMs=${this.graceMs}}`;
  }
}
