/**
 * The stage a handler is asked about, detected from the record's shape when
 * one handler object serves all three contracts.
 */
import type { FailedOutputRecord, ProcessingFailedRecord, RawInputRecord } from '../types.js';

/** Where a record failed. */
export type FailureStage = 'production' | 'serialization' | 'deserialization' | 'processing';

/** Any record a handler may be handed. */
export type AnyFailedRecord = FailedOutputRecord | RawInputRecord | ProcessingFailedRecord;

/**
 * Raw input records carry topic and offset; output records carry a topic but
 * no offset; processing records carry neither.
 */
export function detectStage(record: AnyFailedRecord): Exclude<FailureStage, 'serialization'> {
  // the union's members are told apart by which fields they carry; an interface union has no index signature to probe them
  const r = record as unknown as Record<string, unknown>;
  if (typeof r.topic === 'string' && typeof r.offset === 'number') return 'deserialization';
  if (typeof r.topic === 'string') return 'production';
  return 'processing';
}

/** The `KafkaStreams` config key that selects the handler for a stage. */
export function configKeyOf(stage: FailureStage): string {
  switch (stage) {
    case 'production':
    case 'serialization':
      return 'productionExceptionHandler';
    case 'deserialization':
      return 'deserializationExceptionHandler';
    case 'processing':
      return 'processingExceptionHandler';
  }
}

/** `output record`, `input record`, ... for log lines. */
export function describeStage(stage: FailureStage): string {
  switch (stage) {
    case 'production':
      return 'output record that could not be produced';
    case 'serialization':
      return 'output record that could not be serialized';
    case 'deserialization':
      return 'input record that could not be deserialized';
    case 'processing':
      return 'input record a processor threw on';
  }
}
