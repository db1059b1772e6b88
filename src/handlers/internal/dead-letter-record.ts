/**
 * Builds the dead-letter record for a failing record: which bytes it carries
 * (see `DeadLetterQueueHandlerOptions` in `../dead-letter-queue.ts`) and the
 * `sluice.*` headers describing the failure.
 */
import type { Headers } from '../../records/types.js';
import { SchemaRegistryError } from '../../errors.js';
import type {
  DeadLetterRecord,
  ErrorHandlerContext,
  FailedOutputRecord,
  ProcessingFailedRecord,
  RawInputRecord,
} from '../types.js';
import { errorClassName, errorMessage, renderBytes } from './describe.js';
import type { AnyFailedRecord, FailureStage } from './stage.js';

import { DeadLetterHeaders, type DeadLetterPayload } from '../dead-letter-headers.js';

export { DeadLetterHeaders, type DeadLetterPayload };

const MAX_MESSAGE = 1000;

interface Payload {
  key: Buffer | null;
  value: Buffer | null;
  headers: Headers;
  timestamp: number;
  payload: DeadLetterPayload;
}

function hasRawInput(context: ErrorHandlerContext): boolean {
  return context.sourceRawKey !== undefined || context.sourceRawValue !== undefined;
}

function payloadOf(stage: FailureStage, context: ErrorHandlerContext, record: AnyFailedRecord): Payload {
  switch (stage) {
    case 'production': {
      const r = record as FailedOutputRecord;
      const key = r.keyBytes !== undefined ? r.keyBytes : renderBytes(r.key);
      const value = r.valueBytes !== undefined ? r.valueBytes : renderBytes(r.value);
      const rendered = r.keyBytes === undefined || r.valueBytes === undefined;
      return { key, value, headers: r.headers, timestamp: r.timestamp, payload: rendered ? 'output-rendered' : 'output' };
    }
    case 'serialization': {
      const r = record as FailedOutputRecord;
      if (hasRawInput(context)) {
        return {
          key: context.sourceRawKey ?? null,
          value: context.sourceRawValue ?? null,
          headers: context.headers,
          timestamp: context.timestamp,
          payload: 'input',
        };
      }
      return {
        key: r.keyBytes != null ? r.keyBytes : renderBytes(r.key),
        value: r.valueBytes != null ? r.valueBytes : renderBytes(r.value),
        headers: r.headers,
        timestamp: r.timestamp,
        payload: 'output-rendered',
      };
    }
    case 'deserialization': {
      const r = record as RawInputRecord;
      return { key: r.key, value: r.value, headers: r.headers, timestamp: r.timestamp, payload: 'input' };
    }
    case 'processing': {
      const r = record as ProcessingFailedRecord;
      if (hasRawInput(context)) {
        return {
          key: context.sourceRawKey ?? null,
          value: context.sourceRawValue ?? null,
          headers: r.headers,
          timestamp: r.timestamp,
          payload: 'input',
        };
      }
      return { key: renderBytes(r.key), value: renderBytes(r.value), headers: r.headers, timestamp: r.timestamp, payload: 'input-rendered' };
    }
  }
}

/** The schema id of a Schema Registry serde failure in `error`'s cause chain (the runtime wraps serde errors). */
function schemaIdOf(error: unknown): number | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof SchemaRegistryError && e.schemaId !== undefined) return e.schemaId;
  }
  return undefined;
}

/** Options for {@link buildDeadLetterRecord}. */
export interface BuildDeadLetterOptions {
  topic: string;
  includeOriginalHeaders: boolean;
  origin?: 'KEY' | 'VALUE';
}

/** The dead-letter record for one failing record. */
export function buildDeadLetterRecord(
  stage: FailureStage,
  context: ErrorHandlerContext,
  record: AnyFailedRecord,
  error: Error,
  options: BuildDeadLetterOptions,
): DeadLetterRecord & { headers: Headers } {
  const p = payloadOf(stage, context, record);
  const input = stage === 'deserialization' ? (record as RawInputRecord) : context;
  const message = errorMessage(error);
  const headers: Headers = options.includeOriginalHeaders ? { ...p.headers } : {};
  headers[DeadLetterHeaders.ERROR_CLASS] = errorClassName(error);
  headers[DeadLetterHeaders.ERROR_MESSAGE] = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') headers[DeadLetterHeaders.ERROR_CODE] = String(code);
  headers[DeadLetterHeaders.ERROR_STAGE] = stage;
  if (options.origin) headers[DeadLetterHeaders.ERROR_ORIGIN] = options.origin;
  const schemaId = schemaIdOf(error);
  if (schemaId !== undefined) headers[DeadLetterHeaders.ERROR_SCHEMA_ID] = String(schemaId);
  headers[DeadLetterHeaders.INPUT_TOPIC] = input.topic;
  headers[DeadLetterHeaders.INPUT_PARTITION] = String(input.partition);
  headers[DeadLetterHeaders.INPUT_OFFSET] = String(input.offset);
  headers[DeadLetterHeaders.PROCESSOR_NODE] = context.processorNodeId;
  headers[DeadLetterHeaders.TASK_ID] = context.taskId;
  if (stage === 'production' || stage === 'serialization') {
    headers[DeadLetterHeaders.OUTPUT_TOPIC] = (record as FailedOutputRecord).topic;
  }
  headers[DeadLetterHeaders.PAYLOAD] = p.payload;
  headers[DeadLetterHeaders.RECORD_TIMESTAMP] = String(p.timestamp);
  // A record rejected for its timestamp would be rejected again on the dead-letter topic: stamp it now.
  const badTimestamp = code === 'INVALID_TIMESTAMP' || errorClassName(error) === 'InvalidTimestampError';
  return { topic: options.topic, key: p.key, value: p.value, headers, timestamp: badTimestamp ? Date.now() : p.timestamp };
}
