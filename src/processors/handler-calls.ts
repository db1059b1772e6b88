/**
 * Error plumbing of a task: the error of a FAIL answer, and the wrapper that
 * carries an error past every processor node unchanged. Handlers are called
 * through `src/handlers/invoke.ts` (a throwing handler: HANDLER_THREW, fatal).
 */
import { StreamsError } from '../errors.js';

/** The error thrown when a handler answered FAIL; its kind is the code's row of the classification table (src/errors.ts). */
export function failedByHandler(code: 'DESERIALIZATION_FAILED' | 'PROCESSING_FAILED' | 'PRODUCTION_FAILED', message: string, cause: unknown): StreamsError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new StreamsError(`${message}: ${detail}`, { code, cause });
}

/** An error that must leave the task unchanged, past every processor node. */
export class PropagatingError extends Error {
  constructor(readonly error: unknown) {
    super('propagating');
  }
}

/** Unwraps a {@link PropagatingError}; returns other values as they are. */
export function unwrapPropagating(error: unknown): unknown {
  return error instanceof PropagatingError ? error.error : error;
}
