/**
 * The default handlers: `FAIL` (the task's transaction is aborted and, with the
 * default policy, the app goes to ERROR). They log one ERROR line naming the
 * record and the config key that would skip such records instead.
 */
import { ProductionExceptionHandlerResponse, type ErrorHandlerContext, type HandlerAnswer } from './types.js';
import { BuiltinExceptionHandler, type BuiltinHandlerOptions } from './internal/builtin-base.js';
import { coordinates, errorClassName, errorMessage, logFields } from './internal/describe.js';
import { configKeyOf, describeStage, type AnyFailedRecord, type FailureStage } from './internal/stage.js';

/** Options of the fail handlers. */
export type FailHandlerOptions = BuiltinHandlerOptions;

/**
 * Answers `FAIL` for every record, for any of the three handler contracts
 * (production, deserialization, processing). This is the default of every
 * handler slot.
 */
export class FailExceptionHandler extends BuiltinExceptionHandler {
  constructor(options: FailHandlerOptions = {}, name = 'FailExceptionHandler', stage?: 'production' | 'deserialization' | 'processing') {
    super(name, options, stage);
  }

  protected decide(stage: FailureStage, context: ErrorHandlerContext, _record: AnyFailedRecord, error: Error): HandlerAnswer {
    this.log.error(
      { ...logFields(context, error), stage },
      `Failing on ${describeStage(stage)} (${errorClassName(error)}: ${errorMessage(error)}) at ${coordinates(context)}. ` +
        `To skip such records instead, set ${configKeyOf(stage)} to logAndContinueHandler() or deadLetterQueueHandler({ topic }).`,
    );
    return ProductionExceptionHandlerResponse.FAIL;
  }
}

/**
 * The default production exception handler: `FAIL` (Kafka Streams' DefaultProductionExceptionHandler).
 *
 * @deprecated One behaviour, three slots: use `failHandler()` (it serves the production slot and the other two).
 */
export class FailProductionExceptionHandler extends FailExceptionHandler {
  constructor(options: FailHandlerOptions = {}) {
    super(options, 'FailProductionExceptionHandler', 'production');
  }
}

/**
 * The default deserialization exception handler: logs and answers `FAIL`.
 *
 * @deprecated One behaviour, three slots: use `failHandler()` (it serves the deserialization slot and the other two).
 */
export class LogAndFailDeserializationExceptionHandler extends FailExceptionHandler {
  constructor(options: FailHandlerOptions = {}) {
    super(options, 'LogAndFailDeserializationExceptionHandler', 'deserialization');
  }
}

/**
 * The default processing exception handler: logs and answers `FAIL`.
 *
 * @deprecated One behaviour, three slots: use `failHandler()` (it serves the processing slot and the other two).
 */
export class LogAndFailProcessingExceptionHandler extends FailExceptionHandler {
  constructor(options: FailHandlerOptions = {}) {
    super(options, 'LogAndFailProcessingExceptionHandler', 'processing');
  }
}

/**
 * A handler answering `FAIL`, usable as production, deserialization and
 * processing exception handler (the default of all three).
 *
 * @example
 * new KafkaStreams(topology, { applicationId, productionExceptionHandler: failHandler() });
 */
export function failHandler(options: FailHandlerOptions = {}): FailExceptionHandler {
  return new FailExceptionHandler(options, 'failHandler');
}
