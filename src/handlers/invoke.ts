/**
 * How executors call exception handlers: route output serialization errors to
 * `handleSerializationException` when the handler has it, turn a throwing
 * handler into a fatal error naming it, and normalize the answer.
 */
import { StreamsError } from '../errors.js';
import { errorMessage, handlerName } from './internal/describe.js';
import { normalizeHandlerAnswer, type NormalizedHandlerAnswer } from './normalize.js';
import type {
  DeserializationExceptionHandler,
  ErrorHandlerContext,
  FailedOutputRecord,
  HandlerAnswer,
  ProcessingExceptionHandler,
  ProcessingFailedRecord,
  ProductionExceptionHandler,
  RawInputRecord,
} from './types.js';

function call(handler: unknown, fallbackName: string, fn: () => HandlerAnswer): NormalizedHandlerAnswer {
  const name = handlerName(handler, fallbackName);
  let answer: unknown;
  try {
    answer = fn();
  } catch (error) {
    if (error instanceof StreamsError && error.code === 'INVALID_HANDLER_ANSWER') throw error;
    throw new StreamsError(`${name} threw instead of answering CONTINUE or FAIL: ${errorMessage(error)}`, {
      code: 'HANDLER_THREW',
      kind: 'fatal',
      cause: error,
    });
  }
  return normalizeHandlerAnswer(answer, name);
}

/**
 * Asks a production exception handler about an output record that could not be
 * produced. With `origin` (a serialization failure of the key or value) it calls
 * `handleSerializationException` when defined, else `handle`.
 */
export function invokeProductionHandler(
  handler: ProductionExceptionHandler,
  context: ErrorHandlerContext,
  record: FailedOutputRecord,
  error: Error,
  origin?: 'KEY' | 'VALUE',
): NormalizedHandlerAnswer {
  return call(handler, 'productionExceptionHandler', () =>
    origin !== undefined && typeof handler.handleSerializationException === 'function'
      ? handler.handleSerializationException(context, record, error, origin)
      : handler.handle(context, record, error),
  );
}

/** Asks a deserialization exception handler about an input record that could not be deserialized. */
export function invokeDeserializationHandler(
  handler: DeserializationExceptionHandler,
  context: ErrorHandlerContext,
  record: RawInputRecord,
  error: Error,
): NormalizedHandlerAnswer {
  return call(handler, 'deserializationExceptionHandler', () => handler.handle(context, record, error));
}

/** Asks a processing exception handler about a record a processor threw on. */
export function invokeProcessingHandler(
  handler: ProcessingExceptionHandler,
  context: ErrorHandlerContext,
  record: ProcessingFailedRecord,
  error: Error,
): NormalizedHandlerAnswer {
  return call(handler, 'processingExceptionHandler', () => handler.handle(context, record, error));
}
