/**
 * The window of a stream–stream join (Kafka's `JoinWindows`): a record of
 * this stream at time `t` joins the other stream's records of the same key
 * timestamped in `[t - beforeMs, t + afterMs]`; records up to `graceMs`
 * out of order are still joined. Times are milliseconds (Kafka takes
 * `Duration`s). Immutable: `before()` and `after()` return new windows.
 * `JoinWindows.of` (deprecated in Kafka, 24 h grace) is not offered.
 */
import { IllegalArgumentError } from '../errors.js';
import { fluent, withChanges } from './internal/fluent.js';

/** Two records join when their timestamps differ by at most `beforeMs` / `afterMs`; late records are accepted within `graceMs`. */
export interface JoinWindows {
  /** How far the other stream's records may lie before this stream's record. */
  readonly beforeMs: number;
  /** How far the other stream's records may lie after this stream's record. */
  readonly afterMs: number;
  /** How long after a window closes its out-of-order records are still joined. */
  readonly graceMs: number;
  /** The same windows with `beforeMs = timeDifferenceMs` (may be negative while `beforeMs + afterMs >= 0`). */
  before(timeDifferenceMs: number): JoinWindows;
  /** The same windows with `afterMs = timeDifferenceMs` (may be negative while `beforeMs + afterMs >= 0`). */
  after(timeDifferenceMs: number): JoinWindows;
  /** `beforeMs + afterMs` (Kafka's `size()`): the window size of the join stores. */
  size(): number;
  /** `graceMs` (Kafka's `gracePeriodMs()`). */
  gracePeriodMs(): number;
}

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

/** Kafka's constructor checks, with its messages. */
function checked(beforeMs: number, afterMs: number, graceMs: number): { beforeMs: number; afterMs: number; graceMs: number } {
  if (beforeMs + afterMs < 0) throw new IllegalArgumentError('Window interval (ie, beforeMs+afterMs) must not be negative.');
  if (graceMs < 0) throw new IllegalArgumentError('Grace period must not be negative.');
  return { beforeMs, afterMs, graceMs };
}

const joinWindowsMethods = {
  before(this: JoinWindows, timeDifferenceMs: number): JoinWindows {
    return withChanges(this, checked(millis(timeDifferenceMs, 'timeDifference'), this.afterMs, this.graceMs));
  },
  after(this: JoinWindows, timeDifferenceMs: number): JoinWindows {
    return withChanges(this, checked(this.beforeMs, millis(timeDifferenceMs, 'timeDifference'), this.graceMs));
  },
  size(this: JoinWindows): number {
    return this.beforeMs + this.afterMs;
  },
  gracePeriodMs(this: JoinWindows): number {
    return this.graceMs;
  },
  toString(this: JoinWindows): string {
    return `JoinWindows{beforeMs=${this.beforeMs}, afterMs=${this.afterMs}, graceMs=${this.graceMs}}`;
  },
};

/** Helpers for {@link JoinWindows}. */
export const JoinWindows = {
  /** `|t1 - t2| <= timeDifferenceMs`, no grace: out-of-order records are dropped once their window closed. */
  ofTimeDifferenceWithNoGrace(timeDifferenceMs: number): JoinWindows {
    return JoinWindows.ofTimeDifferenceAndGrace(timeDifferenceMs, 0);
  },
  /** `|t1 - t2| <= timeDifferenceMs`, with `afterWindowEndMs` of grace for out-of-order records. */
  ofTimeDifferenceAndGrace(timeDifferenceMs: number, afterWindowEndMs: number): JoinWindows {
    const difference = millis(timeDifferenceMs, 'timeDifference');
    const grace = millis(afterWindowEndMs, 'afterWindowEnd');
    return fluent<JoinWindows>(joinWindowsMethods, checked(difference, difference, grace));
  },
};

/** The window size of a join's stores: `beforeMs + afterMs` (works on plain `{ beforeMs, afterMs, graceMs }` objects too). */
export function joinWindowSize(windows: Pick<JoinWindows, 'beforeMs' | 'afterMs'>): number {
  return windows.beforeMs + windows.afterMs;
}
