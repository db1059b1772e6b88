/**
 * Durations in milliseconds that end up in a Node timer (`setTimeout`,
 * `setInterval`). Node fires a timer whose delay is above 2^31-1 ms (about
 * 24.8 days), below 1, or not a number after 1 ms, with only a warning: a
 * `taskRestartBackoffMs` of 3e9 restarted a failed task every millisecond.
 * Every duration a user sets is checked here before it reaches a timer.
 */

/** The largest delay a Node timer keeps: 2^31-1 ms (about 24.8 days). */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * What is wrong with `value` as a whole number of milliseconds from `min` to
 * {@link MAX_TIMER_MS}, as a phrase ("must be ... , got ..."), or undefined when it is fine.
 */
export function durationProblem(value: unknown, min = 1): string | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= MAX_TIMER_MS) return undefined;
  const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
  const why = typeof value === 'number' && Number.isInteger(value) && value > MAX_TIMER_MS ? ` (Node timers cannot wait longer: a larger delay would fire after 1 ms)` : '';
  return `must be a whole number of milliseconds from ${min} to ${MAX_TIMER_MS}${why}, got ${shown}`;
}
