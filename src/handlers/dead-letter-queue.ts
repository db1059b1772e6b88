/**
 * Dead-letter-queue handlers: answer `CONTINUE` and hand the runtime one
 * dead-letter record per failing record, written to the given topic inside the
 * same transaction as the task's other outputs (so it is visible exactly when
 * the input record's offset is committed).
 *
 * What the dead-letter record carries:
 *
 * | failure | key / value bytes | `sluice.dlq.payload` |
 * |---|---|---|
 * | an output record the broker or pre-send validation rejected (too large, null key on a compacted topic, bad timestamp) | the output record's own serialized key and value, unchanged | `output` |
 * | an output key or value that could not be serialized | the raw input record's key and value when the executor supplies them (`context.sourceRawKey/sourceRawValue`), so the input can be replayed once the serializer is fixed; else the part that serialized as bytes and the failing part rendered as UTF-8 JSON | `input` / `output-rendered` |
 * | an input record that could not be deserialized | the raw input key and value | `input` |
 * | a processor threw | the raw input key and value when supplied, else the deserialized key and value rendered as UTF-8 JSON | `input` / `input-rendered` |
 *
 * Headers: the failing record's own headers (unless `includeOriginalHeaders:
 * false`), then `sluice.error.class`, `sluice.error.message`,
 * `sluice.error.code` (for sluice errors), `sluice.error.stage`,
 * `sluice.error.origin` (KEY/VALUE, serialization only), `sluice.error.schema.id`
 * (the Confluent schema id, when a Schema Registry serde failed), `sluice.input.topic`,
 * `sluice.input.partition`, `sluice.input.offset`, `sluice.processor.node`,
 * `sluice.task.id`, `sluice.output.topic` (production/serialization),
 * `sluice.dlq.payload` and `sluice.record.timestamp`. The timestamp is the
 * failing record's own, except for a record rejected for its timestamp
 * (`InvalidTimestampError`), which is stamped with the current time (the
 * original stays in `sluice.record.timestamp`).
 *
 * The dead-letter topic must accept null keys (not `cleanup.policy=compact`)
 * and records as large as the failing ones.
 */
import type { Level } from 'pino';
import { ConfigError } from '../errors.js';
import type { ErrorHandlerContext, HandlerResult } from './types.js';
import { BuiltinExceptionHandler, type BuiltinHandlerOptions } from './internal/builtin-base.js';
import { buildDeadLetterRecord } from './internal/dead-letter-record.js';
import { coordinates, errorClassName, errorMessage, logFields } from './internal/describe.js';
import { describeStage, type AnyFailedRecord, type FailureStage } from './internal/stage.js';

export { DeadLetterHeaders, type DeadLetterPayload } from './dead-letter-headers.js';

/** Options of the dead-letter-queue handlers. */
export interface DeadLetterQueueHandlerOptions extends BuiltinHandlerOptions {
  /** The dead-letter topic (must exist, must not be compacted). */
  topic: string;
  /** Copy the failing record's headers onto the dead-letter record (default true). */
  includeOriginalHeaders?: boolean;
  /** Level of the one log line per dead-lettered record (default `warn`; `silent` for none). */
  logLevel?: Level | 'silent';
}

/** Writes every failing record to a dead-letter topic and answers `CONTINUE`, for any of the three handler contracts. */
export class DeadLetterQueueExceptionHandler extends BuiltinExceptionHandler {
  /** The dead-letter topic. */
  readonly topic: string;
  readonly #includeHeaders: boolean;
  readonly #level: Level | 'silent';

  constructor(
    options: DeadLetterQueueHandlerOptions,
    name = 'DeadLetterQueueExceptionHandler',
    stage?: 'production' | 'deserialization' | 'processing',
  ) {
    if (!options || typeof options.topic !== 'string' || options.topic === '') {
      throw new ConfigError(`${name} needs the dead-letter topic: pass { topic: '<dead-letter topic>' }`);
    }
    super(name, options, stage);
    this.topic = options.topic;
    this.#includeHeaders = options.includeOriginalHeaders ?? true;
    this.#level = options.logLevel ?? 'warn';
  }

  /** The topics this handler writes to (`[topic]`); `KafkaStreams.start()` checks that they exist. */
  deadLetterTopics(): readonly string[] {
    return [this.topic];
  }

  protected decide(
    stage: FailureStage,
    context: ErrorHandlerContext,
    record: AnyFailedRecord,
    error: Error,
    origin: 'KEY' | 'VALUE' | undefined,
  ): HandlerResult {
    const dead = buildDeadLetterRecord(stage, context, record, error, {
      topic: this.topic,
      includeOriginalHeaders: this.#includeHeaders,
      ...(origin ? { origin } : {}),
    });
    if (this.#level !== 'silent') {
      this.log[this.#level](
        { ...logFields(context, error), stage, deadLetterTopic: this.topic },
        `Dead-lettering ${describeStage(stage)} (${errorClassName(error)}: ${errorMessage(error)}) at ${coordinates(context)} to ${this.topic}.`,
      );
    }
    return { response: 'CONTINUE', deadLetterRecords: [dead] };
  }
}

/**
 * Dead-letters output records that cannot be produced or serialized.
 *
 * @deprecated One behaviour, three slots: use `deadLetterQueueHandler()` (it serves the production slot and the other two).
 */
export class DeadLetterQueueProductionExceptionHandler extends DeadLetterQueueExceptionHandler {
  constructor(options: DeadLetterQueueHandlerOptions) {
    super(options, 'DeadLetterQueueProductionExceptionHandler', 'production');
  }
}

/**
 * Dead-letters input records that cannot be deserialized (raw key and value bytes).
 *
 * @deprecated One behaviour, three slots: use `deadLetterQueueHandler()` (it serves the deserialization slot and the other two).
 */
export class DeadLetterQueueDeserializationExceptionHandler extends DeadLetterQueueExceptionHandler {
  constructor(options: DeadLetterQueueHandlerOptions) {
    super(options, 'DeadLetterQueueDeserializationExceptionHandler', 'deserialization');
  }
}

/**
 * Dead-letters input records a processor threw on.
 *
 * @deprecated One behaviour, three slots: use `deadLetterQueueHandler()` (it serves the processing slot and the other two).
 */
export class DeadLetterQueueProcessingExceptionHandler extends DeadLetterQueueExceptionHandler {
  constructor(options: DeadLetterQueueHandlerOptions) {
    super(options, 'DeadLetterQueueProcessingExceptionHandler', 'processing');
  }
}

/**
 * A handler writing every failing record to `topic` (inside the task's
 * transaction) and answering `CONTINUE`; usable as production,
 * deserialization and processing exception handler.
 *
 * @example
 * const dlq = deadLetterQueueHandler({ topic: 'orders-dlq' });
 * new KafkaStreams(topology, { applicationId, productionExceptionHandler: dlq, deserializationExceptionHandler: dlq });
 */
export function deadLetterQueueHandler(options: DeadLetterQueueHandlerOptions): DeadLetterQueueExceptionHandler {
  return new DeadLetterQueueExceptionHandler(options, 'deadLetterQueueHandler');
}
