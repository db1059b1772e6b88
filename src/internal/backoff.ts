/** Exponential back-off for retriable errors. */

/** Maximum single back-off (ms). */
export const MAX_BACKOFF_MS = 1000;

/** Delay before retry number `attempt` (0-based): base * 2^attempt, capped, with ±20 % jitter. */
export function backoffDelay(attempt: number, baseMs: number): number {
  const raw = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.min(attempt, 20));
  const jitter = raw * 0.2 * (Math.random() * 2 - 1);
  return Math.max(0, Math.round(raw + jitter));
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
