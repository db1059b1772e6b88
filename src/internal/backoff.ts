/** Exponential back-off for retriable errors, and the one `sleep` of sluice. */

/** Maximum single back-off (ms). */
export const MAX_BACKOFF_MS = 1000;

/** Delay before retry number `attempt` (0-based): base * 2^attempt, capped, with ±20 % jitter. */
export function backoffDelay(attempt: number, baseMs: number): number {
  const raw = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.min(attempt, 20));
  const jitter = raw * 0.2 * (Math.random() * 2 - 1);
  return Math.max(0, Math.round(raw + jitter));
}

/** Options of {@link sleep}. */
export interface SleepOptions {
  /** Do not keep the process alive for this timer (e.g. a task-restart wait that `close()` may overtake). */
  unref?: boolean;
}

/** Resolves after `ms` milliseconds (at once for `ms <= 0`). */
export function sleep(ms: number, options: SleepOptions = {}): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    if (options.unref) timer.unref();
  });
}
