/**
 * Configuration of a {@link KafkaStreams} application (API.md "Running it")
 * and its validation. Every problem is a {@link ConfigError} naming the key.
 */
import { resolveTimestampExtractor, type ResolvedExtractor, type TimestampExtractor } from '../processors/timestamp-extractors.js';
import type { Logger } from 'pino';
import type { ClusterPort } from '../cluster/port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../errors.js';
import { COMPRESSION_TYPES, type CompressionType } from '../records/compression.js';
import type {
  DeserializationExceptionHandler,
  ProcessingExceptionHandler,
  ProductionExceptionHandler,
} from '../handlers/types.js';
import { FailProductionExceptionHandler, LogAndFailDeserializationExceptionHandler, LogAndFailProcessingExceptionHandler } from '../handlers/fail.js';
import { checkBrokerList } from './bootstrap-servers.js';
import { defined } from '../internal/defined.js';
import { checkDurations } from './config-durations.js';
import { javaKeyHint } from './java-key-hint.js';
import { TASK_INPUT_KEYS, resolveTaskInput, type TaskInputConfig, type ResolvedTaskInputConfig } from './config-task-input.js';
import { HIGH_AVAILABILITY_KEYS, resolveHighAvailability, type HighAvailabilityConfig, type ResolvedHighAvailabilityConfig } from './config-ha.js';
import { CONNECTION_SECURITY_KEYS, resolveConnectionSecurity, type ConnectionSecurityConfig, type ResolvedConnectionSecurityConfig } from './config-connection.js';
import type { Serde } from '../serdes/serde.js';
import { resolveDslStoreSuppliers, type DslStoreSuppliers } from '../state/dsl-store-suppliers.js';
import { CLIENT_CONFIG_KEYS, withClientSettings, type ClientConfig, type ResolvedClientConfig } from './config-clients.js';
import { guaranteeProfile, type GuaranteeProfile, type ProcessingGuarantee } from './internal/guarantee-profile.js';
import { applicationIdOf, oneOf, positiveInt, processingGuaranteeOf, showValue } from './config-values.js';
import { appLogger, checkAcceptableRecoveryLag, checkApplicationServer, checkNumStreamThreads, checkStreamThreadModule, LOG_LEVELS, type AutoOffsetReset, type LogLevel } from './config-conveniences.js';

export type { AutoOffsetReset, LogLevel } from './config-conveniences.js';

export type { ProcessingGuarantee } from './processing-guarantee.js';

/**
 * What happens when a task fails with an error that is not fencing and not fatal
 * (e.g. a handler answered `FAIL`):
 * - `SHUTDOWN_CLIENT` (default): the transaction is aborted and the whole app
 *   stops in state `ERROR` (Kafka Streams' SHUTDOWN_CLIENT).
 * - `RESTART_TASK`: the transaction is aborted and only that task is closed and
 *   re-created from its last committed offset after `taskRestartBackoffMs`
 *   (the per-task analogue of Kafka Streams' REPLACE_THREAD).
 * Fatal errors (a handler that throws, authorization, unsupported version) always stop the app in `ERROR`.
 */
export type UncaughtExceptionPolicy = 'SHUTDOWN_CLIENT' | 'RESTART_TASK';

/** The configuration of a {@link KafkaStreams} application. */
export interface KafkaStreamsConfig extends HighAvailabilityConfig, TaskInputConfig, ClientConfig, ConnectionSecurityConfig {
  /** Required. Consumer group id and transactional-id prefix (`<applicationId>-<taskId>`). */
  applicationId: string;
  /** Brokers of a real Kafka cluster (kafkajs). Exactly one of `bootstrapServers` and `cluster`. */
  bootstrapServers?: string[] | string;
  /** A cluster port, e.g. an `EmbeddedKafkaCluster`. Exactly one of `bootstrapServers` and `cluster`. */
  cluster?: ClusterPort;
  /** Default `exactly_once`; `exactly_once_v2` (Kafka Streams' name) is accepted as an alias of `exactly_once`. */
  processingGuarantee?: ProcessingGuarantee | 'exactly_once_v2';
  /**
   * Where a task starts reading an input partition that has no committed
   * offset: `earliest` (default, as Kafka Streams) or `latest` (only records
   * written after the task started). A committed offset always wins.
   */
  autoOffsetReset?: AutoOffsetReset;
  /**
   * The level of sluice's logging, so an app need not import pino. Without a
   * `logger` sluice logs JSON to stdout at this level (default: `LOG_LEVEL`
   * from the environment, else `warn`; `silent` under vitest). With a `logger`,
   * its child at this level.
   */
  logLevel?: LogLevel;
  /**
   * Kafka's `num.stream.threads` (default 1, at most 64): how many stream
   * threads this instance runs. Each is its own consumer-group member with
   * its own tasks, producers, consumer and stores; the threads of one
   * instance share its `processId` and `applicationServer`, so standby
   * replicas never land on the instance that runs the task. Thread 1 runs on
   * the calling thread; threads 2..N run on Node.js worker threads when
   * `streamThreadModule` names the module they load the app from (or under
   * `sluice run`), else on the same event loop (group members only, no
   * extra core; the embedded cluster always does this).
   */
  numStreamThreads?: number;
  /**
   * sluice-specific: the module that stream threads 2..N (`numStreamThreads`)
   * load on their worker threads, as a file URL or an absolute path. Its
   * default export (or its export `app`) is an `AppDefinition`
   * (`defineApp({ topology, config })`): each thread calls `topology()` and
   * runs with the module's `config` overlaid by this config's plain values
   * (strings, numbers, booleans, arrays, plain objects); functions and class
   * instances (handlers, serdes, a logger) come from the module's `config`.
   */
  streamThreadModule?: string | URL;
  /** How often each task commits. Default 100 under `exactly_once`, 30000 under `at_least_once`. */
  commitIntervalMs?: number;
  /** Asked when an output record cannot be serialized or produced. Default: FAIL. */
  productionExceptionHandler?: ProductionExceptionHandler;
  /** Asked when an input record cannot be deserialized. Default: FAIL. */
  deserializationExceptionHandler?: DeserializationExceptionHandler;
  /** Asked when a processor throws. Default: FAIL. */
  processingExceptionHandler?: ProcessingExceptionHandler;
  /** Default `SHUTDOWN_CLIENT`; see {@link UncaughtExceptionPolicy}. */
  uncaughtExceptionPolicy?: UncaughtExceptionPolicy;
  /** Back-off before a failed task is re-created under `RESTART_TASK` (ms). Default 1000. */
  taskRestartBackoffMs?: number;
  /** A pino logger; sluice logs through child loggers `{ component, taskId }`. */
  logger?: Logger;
  /**
   * Backpressure bound: a task's processing (and so fetching of its partitions) pauses while more outputs than this
   * are unacknowledged, and resumes once half of them are. Default 2000: every pending output is latency (a record
   * waits behind the ones before it) and memory; 2000 per task keeps produce requests large enough to be cheap.
   */
  maxPendingOutputRecordsPerTask?: number;
  /** Consumer group session timeout (ms). Default: the client's (30000 for kafkajs). */
  sessionTimeoutMs?: number;
  /** Consumer heartbeat interval (ms). Default: the client's. */
  heartbeatIntervalMs?: number;
  /**
   * Transaction timeout of each task's producer (ms). Default 60000. Under
   * `exactly_once` it must be larger than `commitIntervalMs` (else the
   * coordinator aborts every transaction before it can commit).
   */
  transactionTimeoutMs?: number;
  /** Time an output record may take from send to acknowledgement, retries included (ms), handed to every task producer. Default 120000. */
  deliveryTimeoutMs?: number;
  /**
   * Codec of every record batch the task producers write (outputs, changelogs,
   * repartition topics), Kafka's `compression.type`: `'none'` (default),
   * `'gzip'`, `'snappy'`, `'lz4'` or `'zstd'`, in the byte formats Java's
   * producer writes. Compressed input topics are read whatever this says.
   */
  compressionType?: CompressionType;
  /** Client id prefix for logs and broker metrics. Default: the applicationId. */
  clientId?: string;
  /**
   * Key serde of every `builder.stream(topic)` that names none (and of the
   * sinks and stores that inherit it), as Kafka Streams' `default.key.serde`;
   * resolved when the app is created. A StreamsBuilder's own default wins.
   * Default `Serdes.Buffer()`.
   */
  defaultKeySerde?: Serde<unknown>;
  /** Value serde counterpart of {@link KafkaStreamsConfig.defaultKeySerde} (`default.value.serde`). */
  defaultValueSerde?: Serde<unknown>;
  /**
   * The timestamp extractor of every source that configures none
   * (`Consumed.withTimestampExtractor`), as Kafka's `default.timestamp.extractor`:
   * an object with `extract(record, partitionTime)`, its class
   * (`WallclockTimestampExtractor`), or a function `(record, partitionTime) => ms`.
   * Default `FailOnInvalidTimestamp` (the record's timestamp; a negative one fails the task).
   */
  defaultTimestampExtractor?: TimestampExtractor;
  /**
   * The engine of the stores the DSL creates (aggregations, joins, tables,
   * suppression-free state), as Kafka's `dsl.store.suppliers.class`: a
   * {@link DslStoreSuppliers} class or instance, e.g.
   * `BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers`. Default
   * `BuiltInDslStoreSuppliers.LmdbDslStoreSuppliers` (persistent, lmdb). A
   * store's own `Materialized.withStoreType` / store supplier wins.
   */
  dslStoreSuppliers?: DslStoreSuppliers | (new () => DslStoreSuppliers);
  /** Root of the state directories (`<stateDir>/<applicationId>/<taskId>/`, one lock per task folder). Default `<os tmpdir>/sluice`. */
  stateDir?: string;
  /** The record cache's byte budget for all caching stores of the instance, as Kafka's `statestore.cache.max.bytes`. Default 10 MiB; 0 disables caching. */
  statestoreCacheMaxBytes?: number;
  /** Task folders of the state directory unused for this long (ms) are deleted (Kafka's `state.cleanup.delay.ms`). Default 600000. */
  stateCleanupDelayMs?: number;
  /**
   * `host:port` of this instance's query endpoint, as the other instances reach it (Kafka's
   * `application.server`): advertised to the group, so `app.queryMetadataForKey` on any instance names
   * the instance holding a key. Default: none (the instance is not listed in the key metadata).
   */
  applicationServer?: string;
  /**
   * How far (records) behind the changelog end a member's local state may be to count as caught up on a
   * task (Kafka's `acceptable.recovery.lag`): the task assignor prefers caught-up members. Default 10000.
   */
  acceptableRecoveryLag?: number;
}

/** The validated configuration with every default filled in. */
export interface ResolvedConfig extends ResolvedHighAvailabilityConfig, ResolvedTaskInputConfig, ResolvedClientConfig, ResolvedConnectionSecurityConfig {
  applicationId: string;
  bootstrapServers: string[] | undefined;
  cluster: ClusterPort | undefined;
  processingGuarantee: ProcessingGuarantee;
  /** Everything the guarantee decides (transactions, isolation levels, send option, transactional ids), resolved once. */
  guarantee: GuaranteeProfile;
  autoOffsetReset: AutoOffsetReset;
  numStreamThreads: number;
  /** `streamThreadModule` as a file URL string. */
  streamThreadModule: string | undefined;
  commitIntervalMs: number;
  productionExceptionHandler: ProductionExceptionHandler;
  deserializationExceptionHandler: DeserializationExceptionHandler;
  processingExceptionHandler: ProcessingExceptionHandler;
  uncaughtExceptionPolicy: UncaughtExceptionPolicy;
  taskRestartBackoffMs: number;
  /** The given logger (at `logLevel` if set), else a default pino logger (see {@link KafkaStreamsConfig.logLevel}). */
  logger: Logger;
  maxPendingOutputRecordsPerTask: number;
  sessionTimeoutMs: number | undefined;
  heartbeatIntervalMs: number | undefined;
  transactionTimeoutMs: number;
  deliveryTimeoutMs: number;
  compressionType: CompressionType;
  clientId: string;
  stateDir: string;
  statestoreCacheMaxBytes: number;
  stateCleanupDelayMs: number;
  applicationServer: string | undefined;
  acceptableRecoveryLag: number;
  /** The validated {@link KafkaStreamsConfig.defaultTimestampExtractor}; `undefined`: FailOnInvalidTimestamp. */
  defaultTimestampExtractor: ResolvedExtractor | undefined;
  /** The validated {@link KafkaStreamsConfig.dslStoreSuppliers}; `undefined`: lmdb. */
  dslStoreSuppliers: DslStoreSuppliers | undefined;
}

const KNOWN_KEYS: ReadonlySet<string> = new Set([
  'applicationId', 'bootstrapServers', 'cluster', 'processingGuarantee', 'commitIntervalMs',
  'productionExceptionHandler', 'deserializationExceptionHandler', 'processingExceptionHandler',
  'uncaughtExceptionPolicy', 'taskRestartBackoffMs', 'logger', 'maxPendingOutputRecordsPerTask',
  'sessionTimeoutMs', 'heartbeatIntervalMs', 'transactionTimeoutMs', 'deliveryTimeoutMs', 'clientId',
  'autoOffsetReset', 'logLevel', 'numStreamThreads', 'streamThreadModule', 'defaultKeySerde', 'defaultValueSerde', 'defaultTimestampExtractor',
  'dslStoreSuppliers', 'stateDir', 'statestoreCacheMaxBytes', 'stateCleanupDelayMs', 'applicationServer', 'acceptableRecoveryLag',
  'compressionType',
  ...HIGH_AVAILABILITY_KEYS,
  ...TASK_INPUT_KEYS,
  ...CLIENT_CONFIG_KEYS,
  ...CONNECTION_SECURITY_KEYS,
]);

/** The default of each handler slot: the built-in FAIL handler of that stage (logs one ERROR naming the record and the key to change). */
const DEFAULT_HANDLERS: Readonly<Record<string, () => object>> = {
  productionExceptionHandler: () => new FailProductionExceptionHandler(),
  deserializationExceptionHandler: () => new LogAndFailDeserializationExceptionHandler(),
  processingExceptionHandler: () => new LogAndFailProcessingExceptionHandler(),
};

function handlerOf<T>(config: Record<string, unknown>, key: string): T {
  const value = config[key];
  if (value === undefined) return defined(DEFAULT_HANDLERS[key], `default handler of ${key}`)() as T;
  if (typeof value !== 'object' || value === null || typeof (value as { handle?: unknown }).handle !== 'function') {
    throw new ConfigError(`Config '${key}' must be an object with a handle(context, record, error) method`);
  }
  return value as T;
}

function bootstrapOf(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const wellTyped = typeof value === 'string' || (Array.isArray(value) && value.every((s) => typeof s === 'string'));
  const checked = wellTyped ? checkBrokerList(value as string | string[]) : { problem: `got ${showValue(value)}` };
  if ('problem' in checked) {
    throw new ConfigError(`Config 'bootstrapServers' must be a non-empty list of 'host:port' strings: ${checked.problem}`);
  }
  return checked.brokers;
}

/**
 * Under exactly-once a transaction stays open for about `commitIntervalMs`; when
 * that reaches `transactionTimeoutMs` the coordinator aborts every transaction
 * and the app livelocks with no commit (and misleading fencing errors).
 */
function checkCommitFitsTransaction(guarantee: GuaranteeProfile, commitIntervalMs: number, transactionTimeoutMs: number): void {
  if (!guarantee.exactlyOnce || commitIntervalMs < transactionTimeoutMs) return;
  throw new ConfigError(
    `Config 'commitIntervalMs' (${commitIntervalMs}) must be smaller than 'transactionTimeoutMs' (${transactionTimeoutMs}) under exactly_once: ` +
      `the coordinator would abort every transaction before it commits. Lower commitIntervalMs or raise transactionTimeoutMs`,
  );
}

/** Validates a user config and fills in defaults. Throws {@link ConfigError} naming the offending key. */
export function resolveConfig(input: KafkaStreamsConfig): ResolvedConfig {
  if (typeof input !== 'object' || input === null) throw new ConfigError('KafkaStreams needs a config object with at least applicationId');
  // read as a plain record to find unknown keys (a JavaScript caller may pass any): the typed interface has no index signature
  const config = input as unknown as Record<string, unknown>;
  for (const key of Object.keys(config)) {
    if (key === 'topologyOptimization') {
      // Kafka applies topology.optimization when the topology is built (builder.build(props)); so does sluice.
      throw new ConfigError("topologyOptimization is applied when the topology is built: pass it to builder.build({ topologyOptimization: 'all' }) (Kafka's builder.build(props)), not to KafkaStreams");
    }
    if (!KNOWN_KEYS.has(key)) {
      throw new ConfigError(`Unknown config key '${key}'${javaKeyHint(key, KNOWN_KEYS)}; known keys: ${[...KNOWN_KEYS].join(', ')}`);
    }
  }
  checkDurations(config);
  const applicationId = applicationIdOf(config);
  const bootstrapServers = bootstrapOf(config.bootstrapServers);
  const cluster = config.cluster as ClusterPort | undefined;
  if ((bootstrapServers === undefined) === (cluster === undefined)) {
    throw new ConfigError(`Exactly one of config 'bootstrapServers' and 'cluster' must be set`);
  }
  if (cluster !== undefined && (typeof cluster !== 'object' || typeof cluster.consumer !== 'function')) {
    throw new ConfigError(`Config 'cluster' must be a ClusterPort (e.g. an EmbeddedKafkaCluster)`);
  }
  const guarantee = guaranteeProfile(processingGuaranteeOf(config), applicationId);
  const givenLogger = config.logger as Logger | undefined;
  if (givenLogger !== undefined && (typeof givenLogger !== 'object' || typeof givenLogger.child !== 'function')) {
    throw new ConfigError(`Config 'logger' must be a pino logger`);
  }
  const logLevel = config.logLevel === undefined ? undefined : oneOf<LogLevel>(config, 'logLevel', LOG_LEVELS, 'warn');
  const logger = appLogger(givenLogger, logLevel);
  const clientId = config.clientId ?? applicationId;
  if (typeof clientId !== 'string' || clientId.length === 0) throw new ConfigError(`Config 'clientId' must be a non-empty string`);
  const commitIntervalMs = positiveInt(config, 'commitIntervalMs', guarantee.defaultCommitIntervalMs);
  const transactionTimeoutMs = positiveInt(config, 'transactionTimeoutMs', 60_000);
  checkCommitFitsTransaction(guarantee, commitIntervalMs, transactionTimeoutMs);
  return withClientSettings(config, {
    applicationId,
    bootstrapServers,
    cluster,
    processingGuarantee: guarantee.guarantee,
    guarantee,
    autoOffsetReset: oneOf(config, 'autoOffsetReset', ['earliest', 'latest'] as const, 'earliest'),
    numStreamThreads: checkNumStreamThreads(config.numStreamThreads),
    streamThreadModule: checkStreamThreadModule(config.streamThreadModule),
    commitIntervalMs,
    productionExceptionHandler: handlerOf<ProductionExceptionHandler>(config, 'productionExceptionHandler'),
    deserializationExceptionHandler: handlerOf<DeserializationExceptionHandler>(config, 'deserializationExceptionHandler'),
    processingExceptionHandler: handlerOf<ProcessingExceptionHandler>(config, 'processingExceptionHandler'),
    uncaughtExceptionPolicy: oneOf(config, 'uncaughtExceptionPolicy', ['SHUTDOWN_CLIENT', 'RESTART_TASK'] as const, 'SHUTDOWN_CLIENT'),
    taskRestartBackoffMs: positiveInt(config, 'taskRestartBackoffMs', 1000),
    logger,
    maxPendingOutputRecordsPerTask: positiveInt(config, 'maxPendingOutputRecordsPerTask', 2_000),
    sessionTimeoutMs: positiveInt(config, 'sessionTimeoutMs', undefined),
    heartbeatIntervalMs: positiveInt(config, 'heartbeatIntervalMs', undefined),
    transactionTimeoutMs,
    deliveryTimeoutMs: positiveInt(config, 'deliveryTimeoutMs', 120_000),
    compressionType: oneOf(config, 'compressionType', COMPRESSION_TYPES, 'none'),
    clientId,
    stateDir: stateDirOf(config),
    statestoreCacheMaxBytes: cacheBytesOf(config),
    stateCleanupDelayMs: positiveInt(config, 'stateCleanupDelayMs', 600_000),
    applicationServer: checkApplicationServer(config.applicationServer),
    acceptableRecoveryLag: checkAcceptableRecoveryLag(config.acceptableRecoveryLag),
    defaultTimestampExtractor:
      config.defaultTimestampExtractor === undefined ? undefined : resolveTimestampExtractor(config.defaultTimestampExtractor, "Config 'defaultTimestampExtractor'"),
    dslStoreSuppliers: resolveDslStoreSuppliers(config.dslStoreSuppliers),
    ...resolveHighAvailability(config),
    ...resolveTaskInput(config),
    ...resolveConnectionSecurity(config),
  });
}

function stateDirOf(config: Record<string, unknown>): string {
  const dir = config.stateDir ?? join(tmpdir(), 'sluice');
  if (typeof dir !== 'string' || dir.trim() === '') throw new ConfigError(`Config 'stateDir' must be a non-empty directory path, got ${showValue(dir)}`);
  return dir;
}

function cacheBytesOf(config: Record<string, unknown>): number {
  const bytes = config.statestoreCacheMaxBytes ?? 10 * 1024 * 1024;
  if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0) {
    throw new ConfigError(`Config 'statestoreCacheMaxBytes' must be a whole number of bytes >= 0 (0 disables the record cache), got ${showValue(bytes)}`);
  }
  return bytes;
}
