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
  SchemaRegistryError,
  RecordTooLargeError,
  InvalidRecordError,
  InvalidTimestampError,
  DeliveryTimeoutError,
  UnknownTopicError,
  IllegalArgumentError,
  ProducerFencedError,
  TransactionAbortableError,
  KafkaProtocolError,
  KafkaErrorCode,
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
  ProcessingFailedRecord,
} from './handlers/types.js';
// One factory per behaviour (each serves all three handler slots) and the class it returns.
export { FailExceptionHandler, failHandler } from './handlers/fail.js';
export type { FailHandlerOptions } from './handlers/fail.js';
export { LogAndContinueExceptionHandler, logAndContinueHandler } from './handlers/log-and-continue.js';
export type { LogAndContinueHandlerOptions } from './handlers/log-and-continue.js';
export { DeadLetterQueueExceptionHandler, DeadLetterHeaders, deadLetterQueueHandler } from './handlers/dead-letter-queue.js';
export type { DeadLetterQueueHandlerOptions, DeadLetterPayload } from './handlers/dead-letter-queue.js';
export type { Serde, Serializer, Deserializer, JsonSerde } from './serdes/serde.js';
export type { Headers, TopicPartition, ConsumedRecord } from './records/types.js';
export { TxnSendOption } from './eos/txn-send-option.js';
export { TransactionalProducer, ProducerState } from './runtime/transactional-producer.js';
export type {
  ProducerRecord,
  RecordMetadata,
  SendCallback,
  TransactionalProducerOptions,
  ProducerStateName,
} from './runtime/transactional-producer.js';
export { KafkaStreams } from './runtime/kafka-streams.js';
export type { KafkaStreamsState, StateListener } from './runtime/kafka-streams.js';
export type { KafkaStreamsConfig, ProcessingGuarantee, UncaughtExceptionPolicy, AutoOffsetReset, LogLevel } from './runtime/config.js';
export type { CompressionType } from './records/compression.js';
export type { HighAvailabilityConfig } from './runtime/config-ha.js';
export type { TaskInputConfig } from './runtime/config-task-input.js';
export type { ClientConfig, ClientConfigValue } from './runtime/config-clients.js';
export type { ConnectionSecurityConfig, SaslConfig, SaslPasswordConfig, SaslOAuthBearerConfig, SslConfig } from './runtime/config-connection.js';
export type { AsyncProcessorMetrics, KafkaStreamsMetrics, TaskMetrics } from './runtime/metrics.js';
export { QueryableStoreTypes, InvalidStateStoreError } from './runtime/interactive-queries.js';
export type { QueryableStoreType, ReadOnlyKeyValueStore, StoreQueryParameters, TimestampedValue } from './runtime/interactive-queries.js';
// versioned-store queries (KIP-960/968) on app.store(QueryableStoreTypes.versionedKeyValueStore())
export { VersionedKeyQuery, MultiVersionedKeyQuery, ResultOrder } from './runtime/versioned-queries.js';
export type { ReadOnlyVersionedKeyValueStore, QueryInstant } from './runtime/versioned-queries.js';
export { KeyQueryMetadata, UnknownStateStoreError } from './runtime/streams-metadata.js';
export type { HostInfo, StreamsMetadata, TaskMetadata, ThreadMetadata } from './runtime/streams-metadata.js';
// The query API across instances (`serveQueries(app, ...)`, `sluice run --query-port`).
export { serveQueries } from './runtime/query-server.js';
export type { QueryServer, QueryServerOptions, QueryableApp } from './runtime/query-server.js';
// TLS of the query, UI and metrics servers (`tls` option), and the kinds of stores the query API tells apart.
export type { ServerTls } from './ui/types.js';
export type { StoreKind } from './processors/store-kind.js';
export type { StateRestoreListener, RestoreMetrics } from './runtime/state-restore-listener.js';
// The live UI (`app.serveUi()`, `sluice run --ui-port`): its options, server handle and the JSON it serves.
export type {
  UiServer,
  UiServerOptions,
  UiSnapshot,
  UiTopology,
  UiTopologyNode,
  UiTask,
  UiRestoration,
  UiHandlerDecision,
} from './ui/types.js';
// ---- topology, Processor API, state stores, serdes (issue #3) ----
export { StreamsBuilder } from './topology/streams-builder.js';
export type { StreamsBuilderOptions } from './topology/streams-builder.js';
export type { BuildProps } from './topology/streams-builder.js';
export type { ConsumedWithSerdes } from './topology/options.js';
export type { KStream, KGroupedStream, KTable, KGroupedTable } from './topology/dsl-interfaces.js';
export type { CogroupedKStream, TimeWindowedCogroupedKStream, SessionWindowedCogroupedKStream } from './topology/dsl-interfaces.js';
export { GlobalKTable } from './topology/global-ktable.js';
export { JoinWindows } from './topology/join-windows.js';
export { StreamJoined } from './topology/stream-joined.js';
export { Joined } from './topology/joined.js';
export type { FluentJoined } from './topology/joined.js';
export { TableJoined } from './topology/table-joined.js';
export type { FluentTableJoined } from './topology/table-joined.js';
export { Suppressed, BufferConfig } from './topology/suppressed.js';
export type { BufferFullStrategy } from './topology/suppressed.js';
export type { ValueJoiner, ForeignKeyExtractor } from './topology/joiners.js';
export { ValueJoinerWithKey } from './topology/joiners.js';
export type { ValueMapper } from './topology/value-mappers.js';
export { ValueMapperWithKey } from './topology/value-mappers.js';
export { Branched } from './topology/dsl-interfaces.js';
export type { BranchedKStream } from './topology/dsl-interfaces.js';
export { Named, Consumed, Produced, Grouped, Materialized } from './topology/options.js';
export { Printed } from './topology/printed.js';
export type { FluentConsumed, FluentProduced, FluentGrouped, FluentMaterialized, Unset, MaterializedStoreSupplier } from './topology/options.js';
export { Repartitioned } from './topology/repartitioned.js';
export type { FluentRepartitioned } from './topology/repartitioned.js';
export type { SourceTopics } from './topology/topology.js';
export { Topology } from './topology/topology.js';
export type { SourceOptions, SinkOptions } from './topology/topology.js';
export type {
  TopologyDescription,
  SubtopologyDescription,
  NodeDescription,
  SourceNodeDescription,
  ProcessorNodeDescription,
  SinkNodeDescription,
  GlobalStoreDescription,
} from './topology/description.js';
export { KeyValue } from './records/key-value.js';
export { Record } from './processors/record.js';
/**
 * The Processor API {@link Record} under a name that does not shadow
 * TypeScript's global `Record<K, V>` when imported: the same class
 * (`StreamRecord === Record`), so `new StreamRecord(key, value, timestamp)`,
 * `record.withValue(...)` and `instanceof` behave identically.
 */
export { Record as StreamRecord } from './processors/record.js';
export type {
  Processor,
  ProcessorContext,
  ProcessorSupplier,
  PunctuationType,
  Punctuator,
  Cancellable,
  // Kafka Streams' processor.api.RecordMetadata (input coordinates); `RecordMetadata` above is the producer's (where a send landed, with its timestamp).
  RecordMetadata as ProcessorRecordMetadata,
  RecordContext,
  TopicNameExtractor,
  StreamPartitioner,
  ConnectedStoreProvider,
} from './processors/processor.js';
// asynchronous steps per key, exactly once (issue 33)
export { asyncFixedKeyProcessor, asyncProcessor } from './processors/async-processor.js';
export type { AsyncOptions, AsyncProcessorOptions } from './processors/async-processor.js';
export { FixedKeyRecord } from './processors/fixed-key-record.js';
export type { FixedKeyProcessor, FixedKeyProcessorContext, FixedKeyProcessorSupplier } from './processors/fixed-key-processor.js';
export type { ValueTransformerWithKey, ValueTransformerWithKeySupplier } from './processors/dsl/ktable-transform-values-types.js';
export { Stores } from './state/stores.js';
export { BuiltInDslStoreSuppliers } from './state/dsl-store-suppliers.js';
export type { DslStoreSuppliers, DslStoreType, DslKeyValueParams, DslWindowParams, DslSessionParams } from './state/dsl-store-suppliers.js';
export {
  ExtractRecordMetadataTimestamp,
  FailOnInvalidTimestamp,
  LogAndSkipOnInvalidTimestamp,
  UsePartitionTimeOnInvalidTimestamp,
  WallclockTimestampExtractor,
} from './processors/timestamp-extractors.js';
export type { ExtractorRecord, TimestampExtractor, TimestampExtractorFunction, TimestampExtractorObject } from './processors/timestamp-extractors.js';
export type { BytesEntry, KeyValueBytesStore, KeyValueBytesStoreSupplier } from './state/bytes-store-contract.js';
export type { KeyValueStore, StateStore, StoreBuilder } from './state/state-store.js';
export type { TimestampedKeyValueStore } from './state/timestamped-key-value-store.js';
export { ValueAndTimestamp } from './state/value-and-timestamp.js';
// versioned key-value stores (KIP-889)
export { VersionedKeyValueStore } from './state/versioned/versioned-key-value-store.js';
export type { VersionedRecord } from './state/versioned/versioned-key-value-store.js';
export type { VersionedBytesStoreSupplier } from './state/versioned/versioned-store-builder.js';
export type { VersionedBytesStore } from './state/versioned/versioned-bytes-store.js';
export type { VersionRead } from './state/versioned/version-list.js';
// window and session stores
export { TimeWindow, SessionWindow, Windowed } from './state/window-types.js';
export { WindowedSerdes } from './state/windowed-serdes.js';
export { Windows } from './topology/windows.js';
export { TimeWindows } from './topology/time-windows.js';
export { UnlimitedWindows } from './topology/unlimited-windows.js';
export { SlidingWindows } from './topology/sliding-windows.js';
export { SessionWindows } from './topology/session-windows.js';
export { EmitStrategy } from './topology/emit-strategy.js';
export type { EmitStrategyType } from './topology/emit-strategy.js';
export type { TimeWindowedKStream, SessionWindowedKStream } from './topology/dsl-interfaces.js';
export type { Initializer, Aggregator, Reducer, Merger } from './topology/aggregation-functions.js';
export type { Window } from './state/window-types.js';
export type {
  ReadOnlyWindowStore,
  WindowStore,
  TimestampedWindowStore,
  WindowBytesStore,
  WindowBytesEntry,
  WindowBytesStoreSupplier,
  BytesStoreLifecycle,
  BytesEngineFactory,
} from './state/window-store.js';
export type {
  ReadOnlySessionStore,
  SessionStore,
  SessionBytesStore,
  SessionBytesEntry,
  SessionBytesStoreSupplier,
} from './state/session-store.js';
export { WindowStoreBuilder, TimestampedWindowStoreBuilder, SessionStoreBuilder } from './state/window-store-builders.js';
export { formatTaskId, parseTaskId } from './records/task-id.js';
export type { TaskId } from './records/task-id.js';
export { Serdes } from './serdes/serdes.js';
// ---- Schema Registry serdes (issue 34) ----
export { SchemaRegistrySerdes } from './serdes/schema-registry/schema-registry-serdes.js';
export type { SchemaRegistrySerdeConfig } from './serdes/schema-registry/schema-registry-serdes.js';
export type { SubjectNameStrategy } from './serdes/schema-registry/subject-name-strategy.js';
// ---- the sluice CLI's app modules (issue #8) ----
export { defineApp } from './cli/define-app.js';
export type { AppDefinition, AppContext, AppSetupContext, TopologySource } from './cli/define-app.js';
export type { AdminPort, ClusterPort, NewTopic, TopicDescription } from './cluster/port.js';
export type { AdminOptions, ClientConnectionOptions } from './cluster/port.js';
// ---- types the public signatures above refer to (issue 31: the API report names each missing one) ----
export type { HandlerHooks } from './handlers/types.js';
export type { WireRecord } from './records/types.js';
export type { StreamsProducer } from './eos/streams-producer.js';
export type { StreamsProducerOptions } from './eos/producer-types.js';
export type {
  GroupConsumerOptions,
  GroupConsumerPort,
  GroupDescription,
  PartitionReaderOptions,
  PartitionReaderPort,
  RawProducerOptions,
  RawProducerPort,
  GroupAssignor,
  GroupConsumerHandlers,
  PartitionReadResult,
  ProduceAck,
  ProduceBatch,
  FetchedBatch,
  GroupMemberAssignment,
  GroupMemberSubscription,
} from './cluster/port.js';
export type { TopicPartitionOffset } from './records/types.js';
export type { AnyValueJoiner } from './topology/joiners.js';
export type { FluentStreamJoined } from './topology/stream-joined.js';
export type { WindowedSerde } from './state/windowed-serdes.js';
