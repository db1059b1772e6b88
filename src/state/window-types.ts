/**
 * Windows and windowed keys as plain objects (Kafka's `Window`, `TimeWindow`,
 * `SessionWindow` and `Windowed<K>`): `{ key, window: { start, end } }`.
 * Times are epoch milliseconds; `start` is inclusive. A time window's `end` is
 * exclusive, a session window's `end` is the timestamp of its last record.
 */
import { IllegalArgumentError } from '../errors.js';

/** A time interval `[start, end]` in epoch milliseconds. */
export interface Window {
  readonly start: number;
  readonly end: number;
}

/** A window of fixed size (tumbling, hopping): `end` exclusive, `start < end`. */
export type TimeWindow = Window;

/** A session window: from its first to its last record, `start <= end`. */
export type SessionWindow = Window;

/** A key with the window it belongs to. */
export interface Windowed<K> {
  readonly key: K;
  readonly window: Window;
}

function checkWindow(start: number, end: number): void {
  if (!Number.isFinite(start) || !Number.isFinite(end)) {
    throw new IllegalArgumentError(`Window bounds must be finite numbers of milliseconds; got start=${start}, end=${end}`);
  }
  if (start < 0) throw new IllegalArgumentError('Window startMs time cannot be negative.');
  if (end < start) throw new IllegalArgumentError('Window endMs time cannot be smaller than window startMs time.');
}

/** Helpers for {@link TimeWindow}. */
export const TimeWindow = {
  /** A time window `[start, end)`; throws IllegalArgumentError when `start < 0` or `end <= start` (Kafka's checks). */
  of(start: number, end: number): TimeWindow {
    checkWindow(start, end);
    if (start === end) throw new IllegalArgumentError('Window endMs must be greater than window startMs.');
    return { start, end };
  },
  /** True when the two time windows overlap (`a.start < b.end && b.start < a.end`). */
  overlap(a: TimeWindow, b: TimeWindow): boolean {
    return a.start < b.end && b.start < a.end;
  },
};

/** Helpers for {@link SessionWindow}. */
export const SessionWindow = {
  /** A session window `[start, end]`; throws IllegalArgumentError when `start < 0` or `end < start`. */
  of(start: number, end: number): SessionWindow {
    checkWindow(start, end);
    return { start, end };
  },
  /** True when the two session windows overlap (both ends inclusive). */
  overlap(a: SessionWindow, b: SessionWindow): boolean {
    return !(b.end < a.start || a.end < b.start);
  },
};

/** Helpers for {@link Windowed}. */
export const Windowed = {
  /** `{ key, window }`. */
  of<K>(key: K, window: Window): Windowed<K> {
    return { key, window };
  },
  /** Kafka's `Windowed.toString()`: `[key@start/end]`. */
  toString(windowed: Windowed<unknown>): string {
    return `[${String(windowed.key)}@${windowed.window.start}/${windowed.window.end}]`;
  },
};
