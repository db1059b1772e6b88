/**
 * Session windows (Kafka's `SessionWindows`): a session of a key is a period
 * of activity; records of the key closer than the inactivity gap belong to
 * the same session, and a record that falls between two sessions within the
 * gap merges them. A session window `[start, end]` runs from its first to its
 * last record (both inclusive). It closes when stream time passes
 * `end + inactivityGap + grace`; a later record of it is dropped.
 *
 * Times are milliseconds (Kafka takes `Duration`s); the checks and their
 * messages are Kafka's.
 */
import { IllegalArgumentError } from '../errors.js';

/**
 * Kafka's `ApiUtils.validateMillisecondDuration` message: `Invalid value for
 * parameter "<name>" (value was: <v>). It shouldn't be null.`
 */
function millis(value: unknown, name: string): number {
  const prefix = `Invalid value for parameter "${name}" (value was: ${String(value)}). `;
  if (value === null || value === undefined) throw new IllegalArgumentError(`${prefix}It shouldn't be null.`);
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new IllegalArgumentError(`${prefix}It can't be converted to milliseconds.`);
  return value;
}

/** Sessions of activity separated by an inactivity gap (Kafka's `SessionWindows`). Immutable. */
export class SessionWindows {
  /** @internal Use {@link SessionWindows.ofInactivityGapWithNoGrace} or {@link SessionWindows.ofInactivityGapAndGrace}. */
  protected constructor(
    private readonly gapMs: number,
    private readonly graceMs: number,
  ) {
    if (gapMs <= 0) throw new IllegalArgumentError('Gap time cannot be zero or negative.');
    if (graceMs < 0) throw new IllegalArgumentError('Grace period must not be negative.');
  }

  /**
   * Sessions separated by `inactivityGapMs`, without grace: a record arriving
   * after its session's close (`end + gap`, by stream time) is dropped.
   * Throws when the gap is zero or negative.
   */
  static ofInactivityGapWithNoGrace(inactivityGapMs: number): SessionWindows {
    return SessionWindows.ofInactivityGapAndGrace(inactivityGapMs, 0);
  }

  /**
   * Sessions separated by `inactivityGapMs`, accepting out-of-order records
   * until stream time passes `end + gap + afterWindowEndMs`. Throws when the
   * gap is zero or negative, or the grace negative.
   */
  static ofInactivityGapAndGrace(inactivityGapMs: number, afterWindowEndMs: number): SessionWindows {
    const gap = millis(inactivityGapMs, 'inactivityGap');
    const grace = millis(afterWindowEndMs, 'afterWindowEnd');
    return new SessionWindows(gap, grace);
  }

  /** The grace period, in milliseconds. */
  gracePeriodMs(): number {
    return this.graceMs;
  }

  /** The inactivity gap, in milliseconds. */
  inactivityGap(): number {
    return this.gapMs;
  }

  /** True when `other` is session windows of the same gap and grace (Kafka's `equals`). */
  equals(other: unknown): boolean {
    return other instanceof SessionWindows && other.gapMs === this.gapMs && other.graceMs === this.graceMs;
  }

  /** Kafka's `hashCode`: `Objects.hash(gapMs, graceMs)` (on the low 32 bits of each). */
  hashCode(): number {
    return (Math.imul(Math.imul(31, 1) + (this.gapMs | 0), 31) + (this.graceMs | 0)) | 0;
  }

  /** Kafka's `toString`: `SessionWindows{gapMs=.., graceMs=..}`. */
  toString(): string {
    return `SessionWindows{gapMs=${this.gapMs}, graceMs=${this.graceMs}}`;
  }
}
