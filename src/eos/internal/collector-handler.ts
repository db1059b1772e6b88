/**
 * Asking the production exception handler (record collector helper): calls it
 * through the handlers layer (`invokeProductionHandler`: serialization errors
 * go to `handleSerializationException`, the answer is normalised, a throwing
 * handler becomes a fatal error) and turns FAIL into the error the task fails with.
 */
import { SerializationError, StreamsError } from '../../errors.js';
import { invokeProductionHandler } from '../../handlers/invoke.js';
import type {
  DeadLetterRecord,
  ErrorHandlerContext,
  FailedOutputRecord,
  ProductionExceptionHandler,
} from '../../handlers/types.js';

/** A normalised handler decision. */
export type ProductionDecision =
  | { response: 'CONTINUE'; deadLetterRecords: DeadLetterRecord[] }
  /** `error` is what the task fails with (kind `record`, cause = the send error). */
  | { response: 'FAIL'; error: StreamsError }
  /** The handler threw or answered nonsense: kind `fatal`, the app goes to ERROR. */
  | { response: 'FATAL'; error: StreamsError };

/**
 * Asks the handler about `error` for `record` (serialization errors go to
 * `handleSerializationException` when the handler has it, else to `handle`).
 */
export function askProductionHandler(
  handler: ProductionExceptionHandler,
  context: ErrorHandlerContext,
  record: FailedOutputRecord,
  error: Error,
): ProductionDecision {
  let answer;
  try {
    const origin = error instanceof SerializationError ? (error.origin ?? 'VALUE') : undefined;
    answer = invokeProductionHandler(handler, context, record, error, origin);
  } catch (thrown) {
    const fatal =
      thrown instanceof StreamsError && thrown.kind === 'fatal'
        ? thrown
        : new StreamsError(`productionExceptionHandler failed: ${String((thrown as Error)?.message ?? thrown)}`, {
            code: 'HANDLER_THREW',
            kind: 'fatal',
            cause: thrown,
          });
    return { response: 'FATAL', error: fatal };
  }
  if (answer.response === 'CONTINUE') return { response: 'CONTINUE', deadLetterRecords: answer.deadLetterRecords };
  return {
    response: 'FAIL',
    error: new StreamsError(
      `Output record of task ${context.taskId} to topic ${record.topic} failed (input ${context.topic}-${context.partition}@${context.offset}) ` +
        `and productionExceptionHandler answered FAIL: ${error.message}`,
      { code: 'PRODUCTION_FAILED', kind: 'record', cause: error },
    ),
  };
}
