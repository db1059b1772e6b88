/**
 * The public API of sluice. Only what is exported here (and from
 * `sluice/testing`) is supported; everything under `internal/` is private.
 */
export {
  StreamsError,
  IllegalStateError,
  ConfigError,
  TopologyError,
  SerializationError,
  RecordTooLargeError,
  InvalidRecordError,
  InvalidTimestampError,
  DeliveryTimeoutError,
  ProducerFencedError,
  TransactionAbortableError,
  KafkaProtocolError,
  KafkaErrorCode,
  classifyKafkaErrorCode,
  kafkaErrorName,
} from './errors.js';
export type { ErrorKind, StreamsErrorOptions, RecordErrorEntry } from './errors.js';
export {
  ProductionExceptionHandlerResponse,
  DeserializationHandlerResponse,
  ProcessingHandlerResponse,
} from './handlers/types.js';
export type {
  HandlerResponse,
  HandlerAnswer,
  HandlerResult,
  DeadLetterRecord,
  ErrorHandlerContext,
  FailedOutputRecord,
  RawInputRecord,
  ProductionExceptionHandler,
  DeserializationExceptionHandler,
  ProcessingExceptionHandler,
} from './handlers/types.js';
export type { Serde, Serializer, Deserializer } from './serdes/serde.js';
export type { Headers, TopicPartition, ConsumedRecord } from './client/port.js';
