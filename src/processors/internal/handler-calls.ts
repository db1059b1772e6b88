/**
 * Asking the deserialization and processing handlers, as the runtime does:
 * CONTINUE skips the record, FAIL throws a StreamsError carrying the original
 * error, a handler that throws is fatal.
 */
import { StreamsError } from '../../errors.js';
import type { DeadLetterRecord, HandlerAnswer, HandlerResponse } from '../../handlers/types.js';

/** A handler answer in its long form. */
export interface NormalizedAnswer {
  response: HandlerResponse;
  deadLetterRecords: DeadLetterRecord[];
}

/** Calls `ask`; a throw or an answer that is neither CONTINUE nor FAIL becomes a fatal StreamsError. */
export function askHandler(kind: string, ask: () => HandlerAnswer): NormalizedAnswer {
  let answer: HandlerAnswer;
  try {
    answer = ask();
  } catch (error) {
    throw new StreamsError(
      `The ${kind} exception handler threw: ${error instanceof Error ? error.message : String(error)}`,
      { code: 'HANDLER_FAILED', kind: 'fatal', cause: error },
    );
  }
  const response = typeof answer === 'string' ? answer : answer?.response;
  if (response !== 'CONTINUE' && response !== 'FAIL') {
    throw new StreamsError(`The ${kind} exception handler answered ${JSON.stringify(answer)}; expected 'CONTINUE' or 'FAIL'`, {
      code: 'HANDLER_FAILED',
      kind: 'fatal',
    });
  }
  const deadLetterRecords = typeof answer === 'string' ? [] : (answer.deadLetterRecords ?? []);
  return { response, deadLetterRecords };
}

/** The error thrown when a handler answered FAIL. */
export function failedByHandler(code: string, message: string, cause: unknown): StreamsError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new StreamsError(`${message}: ${detail}`, { code, kind: 'fatal', cause });
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
