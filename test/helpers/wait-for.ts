/** Polling assertion helper. */

/** Options of {@link waitFor}. */
export interface WaitForOptions {
  /** Give up after this long (default 15 000 ms). */
  timeoutMs?: number;
  /** Poll period (default 100 ms). */
  intervalMs?: number;
  /** Prefix of the timeout error, saying what was awaited. */
  message?: string;
}

/**
 * Polls `predicate` until it returns a truthy value (sync or async) and
 * resolves with that value. A predicate that throws counts as "not yet"; after
 * `timeoutMs` it rejects with `message` and the last error thrown, if any.
 *
 * @example
 * const records = await waitFor(async () => { const r = await readAll(brokers, topic); return r.length === 3 && r; },
 *   { message: 'three output records' });
 */
export async function waitFor<T>(
  predicate: () => T | Promise<T>,
  { timeoutMs = 15_000, intervalMs = 100, message = 'condition' }: WaitForOptions = {},
): Promise<NonNullable<Exclude<T, false | 0 | ''>>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await predicate();
      if (value) return value as NonNullable<Exclude<T, false | 0 | ''>>;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const detail = lastError instanceof Error ? `: last error: ${lastError.message}` : '';
      throw new Error(`waitFor timed out after ${timeoutMs} ms waiting for ${message}${detail}`, { cause: lastError });
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
