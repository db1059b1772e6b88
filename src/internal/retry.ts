/** Retry of a whole operation on retriable errors, with back-off, until the delivery timeout. */
import { errorKindOf } from '../errors.js';
import { backoffDelay, sleep } from './backoff.js';

/** Runs `op`, retrying retriable errors with exponential back-off for at most `deliveryTimeoutMs`; rethrows the last error. */
export async function retryRetriable<T>(
  op: () => Promise<T>,
  settings: { retryBackoffMs: number; deliveryTimeoutMs: number },
): Promise<T> {
  const deadline = Date.now() + settings.deliveryTimeoutMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await op();
    } catch (err) {
      const remaining = deadline - Date.now();
      if (errorKindOf(err) !== 'retriable' || remaining <= 0) throw err;
      await sleep(Math.min(backoffDelay(attempt, settings.retryBackoffMs), remaining));
    }
  }
}
