/**
 * The retry and poll loops of sluice, written once:
 * - {@link retryWhile}: run an operation again after an error while a predicate says so;
 * - {@link retryRetriable}: {@link retryWhile} on retriable errors with back-off until the delivery timeout;
 * - {@link pollUntil}: ask a condition again at an interval until it holds or a timeout passes.
 */
import { errorKindOf } from '../errors.js';
import { backoffDelay, sleep } from './backoff.js';

/** How {@link retryWhile} decides. */
export interface RetryPolicy {
  /** True when the error of attempt `attempt` (0-based) is worth another attempt. */
  retryIf: (error: unknown, attempt: number) => boolean;
  /** The wait (ms) after the failed attempt `attempt`. */
  delayMs: (attempt: number) => number;
}

/** Runs `op`; after an error the policy allows, waits and runs it again; rethrows the first error it does not allow. */
export async function retryWhile<T>(op: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await op();
    } catch (error) {
      if (!policy.retryIf(error, attempt)) throw error;
      await sleep(policy.delayMs(attempt));
    }
  }
}

/** Runs `op`, retrying retriable errors with exponential back-off for at most `deliveryTimeoutMs`; rethrows the last error. */
export function retryRetriable<T>(
  op: () => Promise<T>,
  settings: { retryBackoffMs: number; deliveryTimeoutMs: number },
): Promise<T> {
  const deadline = Date.now() + settings.deliveryTimeoutMs;
  return retryWhile(op, {
    retryIf: (error) => errorKindOf(error) === 'retriable' && deadline - Date.now() > 0,
    delayMs: (attempt) => Math.min(backoffDelay(attempt, settings.retryBackoffMs), deadline - Date.now()),
  });
}

/** Timing of {@link pollUntil}. */
export interface PollOptions {
  /** Give up after this long (ms); the condition is checked at least once. */
  timeoutMs: number;
  /** The wait between two checks (ms). */
  intervalMs: number;
}

/** Checks `condition` until it is true (resolves true) or `timeoutMs` passed (resolves false). */
export async function pollUntil(condition: () => Promise<boolean>, options: PollOptions): Promise<boolean> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (await condition()) return true;
    const remaining = deadline - Date.now();
    if (remaining <= 0) return false;
    await sleep(Math.min(options.intervalMs, remaining));
  }
}
