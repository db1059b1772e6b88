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

/** Which handler slot was asked. */
export type HandlerSlot = 'deserialization' | 'processing' | 'production';

/** One handler call as an observer sees it (see {@link observeHandlerDecisions}). */
export interface HandlerDecision {
  slot: HandlerSlot;
  /** The handler's name (its `name`, else its class name). */
  handler: string;
  context: ErrorHandlerContext;
  /** The error the handler was asked about. */
  error: Error;
  /** The normalized answer, or `'THREW'` when the handler threw or answered nonsense (a fatal error then). */
  response: NormalizedHandlerAnswer['response'] | 'THREW';
  /** Dead-letter records the answer carried. */
  deadLetters: number;
}

/** Called after each call of an observed handler; must not throw (a throw is ignored). */
export type HandlerDecisionObserver = (decision: HandlerDecision) => void;

/** Observers per handler object: a lookup only when a handler is called (an error path), nothing per record. */
const observers = new WeakMap<object, Set<HandlerDecisionObserver>>();

/**
 * Tells `observer` about every call of `handler` made through this module
 * (the live UI's "last handler decisions"); returns the function that stops it.
 * A handler object shared by two apps reports to the observers of both.
 */
export function observeHandlerDecisions(handler: object, observer: HandlerDecisionObserver): () => void {
  let set = observers.get(handler);
  if (!set) observers.set(handler, (set = new Set()));
  set.add(observer);
  return () => void set.delete(observer);
}

function tell(handler: unknown, decision: () => HandlerDecision): void {
  const set = typeof handler === 'object' && handler !== null ? observers.get(handler) : undefined;
  if (!set || set.size === 0) return;
  const seen = decision();
  for (const observer of set) {
    try {
      observer(seen);
    } catch {
      // an observer's bug must not change what the handler decided
    }
  }
}

function call(handler: unknown, fallbackName: string, slot: HandlerSlot, context: ErrorHandlerContext, error: Error, fn: () => HandlerAnswer): NormalizedHandlerAnswer {
  const name = handlerName(handler, fallbackName);
  let answer: unknown;
  try {
    answer = fn();
  } catch (thrown) {
    tell(handler, () => ({ slot, handler: name, context, error, response: 'THREW', deadLetters: 0 }));
    if (thrown instanceof StreamsError && thrown.code === 'INVALID_HANDLER_ANSWER') throw thrown;
    throw new StreamsError(`${name} threw instead of answering CONTINUE or FAIL: ${errorMessage(thrown)}`, {
      code: 'HANDLER_THREW',
      kind: 'fatal',
      cause: thrown,
    });
  }
  let normalized: NormalizedHandlerAnswer;
  try {
    normalized = normalizeHandlerAnswer(answer, name);
  } catch (invalid) {
    tell(handler, () => ({ slot, handler: name, context, error, response: 'THREW', deadLetters: 0 }));
    throw invalid;
  }
  tell(handler, () => ({ slot, handler: name, context, error, response: normalized.response, deadLetters: normalized.deadLetterRecords.length }));
  return normalized;
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
  return call(handler, 'productionExceptionHandler', 'production', context, error, () =>
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
  return call(handler, 'deserializationExceptionHandler', 'deserialization', context, error, () => handler.handle(context, record, error));
}

/** Asks a processing exception handler about a record a processor threw on. */
export function invokeProcessingHandler(
  handler: ProcessingExceptionHandler,
  context: ErrorHandlerContext,
  record: ProcessingFailedRecord,
  error: Error,
): NormalizedHandlerAnswer {
  return call(handler, 'processingExceptionHandler', 'processing', context, error, () => handler.handle(context, record, error));
}
