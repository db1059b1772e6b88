/**
 * Common base of the built-in handlers: one object serves all three handler
 * contracts (the stage is fixed by the subclass or detected from the record).
 */
import type { Logger } from 'pino';
import { componentLogger } from '../../internal/logger.js';
import type { ErrorHandlerContext, FailedOutputRecord, HandlerAnswer } from '../types.js';
import { detectStage, type AnyFailedRecord, type FailureStage } from './stage.js';

/** Options shared by the built-in handlers. */
export interface BuiltinHandlerOptions {
  /**
   * Parent pino logger; the handler logs through a child `{ component: 'exception-handler', handler }`.
   * Default: the logger of the first `KafkaStreams` app configured with this handler (its `logger` config),
   * else sluice's default logger.
   */
  logger?: Logger;
}

/** Base of the built-in handlers. */
export abstract class BuiltinExceptionHandler {
  /** The handler's name, used in logs and error messages. */
  readonly name: string;
  protected log: Logger;
  #ownLogger: boolean;
  readonly #stage: Exclude<FailureStage, 'serialization'> | undefined;

  protected constructor(name: string, options: BuiltinHandlerOptions, stage?: Exclude<FailureStage, 'serialization'>) {
    this.name = name;
    this.log = componentLogger('exception-handler', options.logger, { handler: name });
    this.#ownLogger = options.logger !== undefined;
    this.#stage = stage;
  }

  /**
   * Logs through a child of the app's logger, unless the handler was given a logger of its own or
   * already follows another app's (the first app wins). Called by the `KafkaStreams` constructor.
   */
  useAppLogger(logger: Logger): void {
    // `this` may be a copy of a built-in (`{ ...handler, handle }`) that lacks the private fields: leave it be
    if (!(#ownLogger in this) || this.#ownLogger) return;
    this.log = logger.child({ component: 'exception-handler', handler: this.name });
    this.#ownLogger = true;
  }

  /** Answers for a failed output, input or processing record (the stage is detected from the record). */
  handle(context: ErrorHandlerContext, record: AnyFailedRecord, error: Error): HandlerAnswer {
    return this.decide(this.#stage ?? detectStage(record), context, record, error, undefined);
  }

  /** Answers for an output record whose key or value could not be serialized. */
  handleSerializationException(
    context: ErrorHandlerContext,
    record: FailedOutputRecord,
    error: Error,
    origin: 'KEY' | 'VALUE',
  ): HandlerAnswer {
    return this.decide('serialization', context, record, error, origin);
  }

  protected abstract decide(
    stage: FailureStage,
    context: ErrorHandlerContext,
    record: AnyFailedRecord,
    error: Error,
    origin: 'KEY' | 'VALUE' | undefined,
  ): HandlerAnswer;
}
