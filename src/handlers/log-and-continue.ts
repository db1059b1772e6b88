/**
 * Log-and-continue handlers: one WARN line per failing record with its
 * coordinates and the config key to change, then `CONTINUE` (the record is
 * dropped; under exactly-once the rest of the transaction still commits).
 */
import { ProductionExceptionHandlerResponse, type ErrorHandlerContext, type HandlerAnswer } from './types.js';
import { BuiltinExceptionHandler, type BuiltinHandlerOptions } from './internal/builtin-base.js';
import { coordinates, errorClassName, errorMessage, logFields } from './internal/describe.js';
import { configKeyOf, describeStage, type AnyFailedRecord, type FailureStage } from './internal/stage.js';

/** Options of the log-and-continue handlers. */
export type LogAndContinueHandlerOptions = BuiltinHandlerOptions;

/** Logs one WARN line per failing record and answers `CONTINUE`, for any of the three handler contracts. */
export class LogAndContinueExceptionHandler extends BuiltinExceptionHandler {
  constructor(
    options: LogAndContinueHandlerOptions = {},
    name = 'LogAndContinueExceptionHandler',
    stage?: 'production' | 'deserialization' | 'processing',
  ) {
    super(name, options, stage);
  }

  protected decide(stage: FailureStage, context: ErrorHandlerContext, record: AnyFailedRecord, error: Error): HandlerAnswer {
    const output = stage === 'production' || stage === 'serialization' ? (record as { topic?: string }).topic : undefined;
    this.log.warn(
      { ...logFields(context, error), stage, ...(output === undefined ? {} : { outputTopic: output }) },
      `Skipping ${describeStage(stage)}${output === undefined ? '' : ` to ${output}`} ` +
        `(${errorClassName(error)}: ${errorMessage(error)}) at ${coordinates(context)}. ` +
        `To stop on such errors instead, set ${configKeyOf(stage)} to failHandler(); to keep them, deadLetterQueueHandler({ topic }).`,
    );
    return ProductionExceptionHandlerResponse.CONTINUE;
  }
}

/**
 * Logs and answers `CONTINUE` for output records that cannot be produced or serialized.
 *
 * @deprecated One behaviour, three slots: use `logAndContinueHandler()` (it serves the production slot and the other two).
 */
export class LogAndContinueProductionExceptionHandler extends LogAndContinueExceptionHandler {
  constructor(options: LogAndContinueHandlerOptions = {}) {
    super(options, 'LogAndContinueProductionExceptionHandler', 'production');
  }
}

/**
 * Logs and answers `CONTINUE` (skips the record) for input records that cannot be deserialized.
 *
 * @deprecated One behaviour, three slots: use `logAndContinueHandler()` (it serves the deserialization slot and the other two).
 */
export class LogAndContinueDeserializationExceptionHandler extends LogAndContinueExceptionHandler {
  constructor(options: LogAndContinueHandlerOptions = {}) {
    super(options, 'LogAndContinueDeserializationExceptionHandler', 'deserialization');
  }
}

/**
 * Logs and answers `CONTINUE` (skips the record) when a processor throws.
 *
 * @deprecated One behaviour, three slots: use `logAndContinueHandler()` (it serves the processing slot and the other two).
 */
export class LogAndContinueProcessingExceptionHandler extends LogAndContinueExceptionHandler {
  constructor(options: LogAndContinueHandlerOptions = {}) {
    super(options, 'LogAndContinueProcessingExceptionHandler', 'processing');
  }
}

/**
 * A handler that logs one WARN line per failing record and answers `CONTINUE`;
 * usable as production, deserialization and processing exception handler.
 */
export function logAndContinueHandler(options: LogAndContinueHandlerOptions = {}): LogAndContinueExceptionHandler {
  return new LogAndContinueExceptionHandler(options, 'logAndContinueHandler');
}
