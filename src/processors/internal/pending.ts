/**
 * The async plumbing of a task (kept off the synchronous path): a task's
 * processing is synchronous until a processor returns a promise; from then on
 * the rest of the record's work is chained after it, in the order a
 * synchronous run would have done it.
 */

/** Work still running for a node or a record: `undefined` when everything ran synchronously. */
export type Pending = Promise<void> | undefined;

const noop = (): void => undefined;

/** True for a promise or any thenable (what an `async` function returns). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== undefined &&
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * Marks `promise` handled: a chained promise may reject while its awaiter is
 * still busy (an async processor awaiting something else); Node must not
 * report that rejection as unhandled, since the chain does report it.
 */
export function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(noop);
  return promise;
}

/** Runs `work` after `tail` (skipped when `tail` rejects), or now when nothing is pending. */
export function thenOrNow(tail: Pending, work: () => Pending): Pending {
  return tail === undefined ? work() : handled(tail.then(work));
}

/** Swallows the rejection of a promise nobody will await (a DSL function that wrongly returned one). */
export function ignoreRejection(value: PromiseLike<unknown>): void {
  value.then(undefined, noop);
}
