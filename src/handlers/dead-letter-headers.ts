/**
 * The `sluice.*` headers of a dead-letter record and the payload kinds it can carry.
 */

/** Names of the headers a dead-letter record carries. */
export const DeadLetterHeaders = {
  ERROR_CLASS: 'sluice.error.class',
  ERROR_MESSAGE: 'sluice.error.message',
  ERROR_CODE: 'sluice.error.code',
  ERROR_STAGE: 'sluice.error.stage',
  ERROR_ORIGIN: 'sluice.error.origin',
  /** The Confluent schema id of a record a Schema Registry serde failed on (unknown id, payload not matching it). */
  ERROR_SCHEMA_ID: 'sluice.error.schema.id',
  INPUT_TOPIC: 'sluice.input.topic',
  INPUT_PARTITION: 'sluice.input.partition',
  INPUT_OFFSET: 'sluice.input.offset',
  PROCESSOR_NODE: 'sluice.processor.node',
  TASK_ID: 'sluice.task.id',
  OUTPUT_TOPIC: 'sluice.output.topic',
  RECORD_TIMESTAMP: 'sluice.record.timestamp',
  PAYLOAD: 'sluice.dlq.payload',
} as const;

/** Which bytes a dead-letter record carries. */
export type DeadLetterPayload = 'output' | 'input' | 'output-rendered' | 'input-rendered';
