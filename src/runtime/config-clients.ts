/**
 * The settings users tune on sluice's clients and internal topics (issue 27):
 * `replicationFactor` and `topicConfig` of the internal topics (Kafka Streams'
 * `replication.factor` and `topic.*`), the client overrides `producerConfig`,
 * `consumerConfig` and `adminConfig` (Kafka's `producer.*`, `consumer.*`,
 * `admin.*`, under Kafka's dotted key names; the accepted ones are listed in
 * ./config-client-keys.ts), and `repartitionPurgeIntervalMs`
 * (`repartition.purge.interval.ms`). Every problem is a {@link ConfigError}
 * naming the key.
 *
 * Precedence as in Kafka's `StreamsConfig.getProducerConfigs` /
 * `getMainConsumerConfigs`: a client override wins over the top-level key of
 * the same setting (`consumerConfig['session.timeout.ms']` over
 * `sessionTimeoutMs`, `producerConfig['delivery.timeout.ms']` over
 * `deliveryTimeoutMs`, `producerConfig['transaction.timeout.ms']` over
 * `transactionTimeoutMs`, `consumerConfig['auto.offset.reset']` over
 * `autoOffsetReset`); the resolved config carries the winning value.
 */
import type { ClientConnectionOptions } from '../cluster/port.js';
import { ConfigError } from '../errors.js';
import { durationProblem } from '../internal/durations.js';
import { acceptedKeys, CLIENT_KEYS, type ClientKind } from './config-client-keys.js';
import type { GuaranteeProfile } from './internal/guarantee-profile.js';

/** A client override's value: a number, or a string as a properties file gives it (`'5'`), or a boolean. */
export type ClientConfigValue = string | number | boolean;

/** The keys of this module as a user writes them. */
export interface ClientConfig {
  /**
   * Replication factor of every internal topic sluice creates (repartition and changelog topics), as Kafka's
   * `replication.factor`. Default -1: the broker's `default.replication.factor`. A positive integer or -1.
   * The embedded cluster (one broker) accepts any value and records it.
   */
  replicationFactor?: number;
  /**
   * Topic configs of every internal topic sluice creates (Kafka's `topic.` prefix), e.g.
   * `{ 'min.insync.replicas': '2' }`. Merged as Kafka Streams does: sluice's defaults of the topic's kind,
   * then these, then a store's own `withLoggingEnabled(config)`. Values are strings (numbers are stringified).
   */
  topicConfig?: Record<string, string | number>;
  /** Producer overrides under Kafka's key names (`{ 'linger.ms': 5, 'batch.size': 65536 }`); see docs/migrating-from-kafka-streams.md. */
  producerConfig?: Record<string, ClientConfigValue>;
  /** Consumer overrides under Kafka's key names (`{ 'max.poll.interval.ms': 600000 }`). */
  consumerConfig?: Record<string, ClientConfigValue>;
  /** Admin client overrides under Kafka's key names (`{ 'request.timeout.ms': 60000 }`). */
  adminConfig?: Record<string, ClientConfigValue>;
  /**
   * How often (ms) records of repartition topics that every task has committed past are deleted
   * (Kafka's `repartition.purge.interval.ms`, default 30000). A purge runs after a commit, at most this often.
   */
  repartitionPurgeIntervalMs?: number;
}

/** The producer settings the overrides give (absent: sluice's default). */
export interface ProducerClientSettings {
  lingerMs?: number;
  batchBytes?: number;
  bufferMemoryBytes?: number;
  maxRequestSize?: number;
  maxBlockMs?: number;
  retryBackoffMs?: number;
  connection: ClientConnectionOptions;
}

/** The consumer settings the overrides give (absent: the backend's default). */
export interface ConsumerClientSettings {
  rebalanceTimeoutMs?: number;
  maxBytesPerPartition?: number;
  fetchMaxBytes?: number;
  fetchMinBytes?: number;
  fetchMaxWaitMs?: number;
  /** `read_committed` unless `isolation.level=read_uncommitted` under at_least_once. */
  isolationLevel: 'read_committed' | 'read_uncommitted';
  connection: ClientConnectionOptions;
}

/** The keys of this module resolved. */
export interface ResolvedClientConfig {
  replicationFactor: number;
  topicConfig: Record<string, string>;
  repartitionPurgeIntervalMs: number;
  producerSettings: ProducerClientSettings;
  consumerSettings: ConsumerClientSettings;
  adminSettings: { connection: ClientConnectionOptions };
}

/** The resolved top-level keys an override can take the place of, and what the checks read. */
export interface OverridableSettings {
  guarantee: GuaranteeProfile;
  commitIntervalMs: number;
  sessionTimeoutMs: number | undefined;
  heartbeatIntervalMs: number | undefined;
  transactionTimeoutMs: number;
  deliveryTimeoutMs: number;
  autoOffsetReset: 'earliest' | 'latest';
}

/** The keys of {@link ClientConfig}. */
export const CLIENT_CONFIG_KEYS: readonly string[] = ['replicationFactor', 'topicConfig', 'producerConfig', 'consumerConfig', 'adminConfig', 'repartitionPurgeIntervalMs'];

/** Kafka's `repartition.purge.interval.ms` default. */
export const DEFAULT_REPARTITION_PURGE_INTERVAL_MS = 30_000;

const NETWORK_SETTINGS = ['requestTimeoutMs', 'connectionTimeoutMs', 'retryBackoffMs', 'retryBackoffMaxMs', 'retries'] as const;

/**
 * Validates the keys of {@link ClientConfig} in `config` and returns `base` with them added and the
 * overridden top-level settings replaced by the overrides (see the module comment).
 */
export function withClientSettings<T extends OverridableSettings>(config: Record<string, unknown>, base: T): T & ResolvedClientConfig {
  const producer = parseClient(config, 'producer', base.guarantee);
  const consumer = parseClient(config, 'consumer', base.guarantee);
  const admin = parseClient(config, 'admin', base.guarantee);
  const topicConfig = topicConfigOf(config.topicConfig);
  const resolved: T & ResolvedClientConfig = {
    ...base,
    sessionTimeoutMs: num(consumer, 'sessionTimeoutMs') ?? base.sessionTimeoutMs,
    heartbeatIntervalMs: num(consumer, 'heartbeatIntervalMs') ?? base.heartbeatIntervalMs,
    autoOffsetReset: (consumer.get('autoOffsetReset') as 'earliest' | 'latest' | undefined) ?? base.autoOffsetReset,
    transactionTimeoutMs: num(producer, 'transactionTimeoutMs') ?? base.transactionTimeoutMs,
    deliveryTimeoutMs: num(producer, 'deliveryTimeoutMs') ?? base.deliveryTimeoutMs,
    replicationFactor: replicationFactorOf(config.replicationFactor),
    topicConfig,
    repartitionPurgeIntervalMs: purgeIntervalOf(config.repartitionPurgeIntervalMs),
    producerSettings: {
      ...pick(producer, ['lingerMs', 'batchBytes', 'bufferMemoryBytes', 'maxRequestSize', 'maxBlockMs', 'retryBackoffMs']),
      connection: connectionOf(producer),
    },
    consumerSettings: {
      ...pick(consumer, ['rebalanceTimeoutMs', 'maxBytesPerPartition', 'fetchMaxBytes', 'fetchMinBytes', 'fetchMaxWaitMs']),
      isolationLevel: (consumer.get('isolationLevel') as 'read_committed' | 'read_uncommitted' | undefined) ?? base.guarantee.isolationLevel,
      connection: connectionOf(consumer),
    },
    adminSettings: { connection: connectionOf(admin) },
  };
  checkCombinations(resolved, config);
  return resolved;
}

/**
 * The checks across keys:
 * 1. an overriding `transaction.timeout.ms` must still exceed `commitIntervalMs` under exactly_once;
 * 2. `heartbeat.interval.ms` below `session.timeout.ms` (Kafka and kafkajs refuse it otherwise);
 * 3. `topicConfig['segment.bytes']` not below `producerConfig['batch.size']` (Kafka's getMainConsumerConfigs check).
 */
function checkCombinations(resolved: OverridableSettings & ResolvedClientConfig, config: Record<string, unknown>): void {
  // 1.
  if (resolved.guarantee.exactlyOnce && resolved.commitIntervalMs >= resolved.transactionTimeoutMs) {
    throw new ConfigError(
      `Config producerConfig['transaction.timeout.ms'] (${resolved.transactionTimeoutMs}) must be larger than 'commitIntervalMs' (${resolved.commitIntervalMs}) under exactly_once: ` +
        'the coordinator would abort every transaction before it commits',
    );
  }
  // 2.
  const session = resolved.sessionTimeoutMs ?? 30_000;
  const heartbeat = resolved.heartbeatIntervalMs;
  const overridden = ['session.timeout.ms', 'heartbeat.interval.ms'].some((k) => k in ((config.consumerConfig as object | undefined) ?? {}));
  if (overridden && heartbeat !== undefined && heartbeat >= session) {
    throw new ConfigError(`Config consumerConfig['heartbeat.interval.ms'] (${heartbeat}) must be lower than 'session.timeout.ms' (${session}); Kafka advises a third of it`);
  }
  // 3.
  const segment = resolved.topicConfig['segment.bytes'];
  const batch = resolved.producerSettings.batchBytes;
  if (segment !== undefined && batch !== undefined && Number(segment) < batch) {
    throw new ConfigError(
      `Config topicConfig['segment.bytes'] (${segment}) is smaller than producerConfig['batch.size'] (${batch}): a full batch could not be appended to an internal topic. Raise segment.bytes or lower batch.size`,
    );
  }
}

/** Validates one `<client>Config` object: every key in the client's table, every value in range; returns setting → value. */
function parseClient(config: Record<string, unknown>, client: ClientKind, guarantee: GuaranteeProfile): Map<string, number | string> {
  const key = `${client}Config`;
  const given = config[key];
  const out = new Map<string, number | string>();
  if (given === undefined) return out;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new ConfigError(`Config '${key}' must be an object of Kafka ${client} settings, e.g. { 'request.timeout.ms': 60000 }, got ${describe(given)}`);
  }
  const table = CLIENT_KEYS[client];
  for (const [name, value] of Object.entries(given as Record<string, unknown>)) {
    const where = `${key}['${name}']`;
    const spec = Object.hasOwn(table, name) ? table[name] : undefined;
    if (spec === undefined) {
      throw new ConfigError(`Config ${where}: sluice has no equivalent of the ${client} setting '${name}'; accepted keys: ${acceptedKeys(client).join(', ')}`);
    }
    if (spec.kind === 'refused') throw new ConfigError(`Config ${where} cannot be set: ${spec.why}`);
    if (spec.kind === 'int') {
      const n = intOf(value);
      if (n === undefined || n < spec.min) throw new ConfigError(`Config ${where} must be a whole number >= ${spec.min} (${spec.what}), got ${describe(value)}`);
      const overflow = spec.to.endsWith('Ms') ? durationProblem(n, spec.min) : undefined;
      if (overflow !== undefined) throw new ConfigError(`Config ${where} ${overflow}`);
      if (name === 'max.in.flight.requests.per.connection' && n > 5) {
        throw new ConfigError(`Config ${where} can't exceed 5${guarantee.exactlyOnce ? ' when exactly-once processing is enabled' : ": sluice's producers are always idempotent"} (Kafka's rule), got ${n}`);
      }
      out.set(spec.to, n);
      continue;
    }
    const text = typeof value === 'string' ? value.trim() : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
    const choice = text === undefined || !Object.hasOwn(spec.values, text) ? undefined : spec.values[text];
    if (choice === undefined) {
      throw new ConfigError(`Config ${where} must be one of ${Object.keys(spec.values).map((v) => `'${v}'`).join(', ')} (${spec.what}), got ${describe(value)}`);
    }
    if ('refuse' in choice) throw new ConfigError(`Config ${where} = ${describe(value)} is refused: ${choice.refuse}`);
    if (name === 'isolation.level' && text === 'read_uncommitted' && guarantee.refusesReadUncommitted) {
      throw new ConfigError(`Config ${where} = 'read_uncommitted' is refused under exactly_once: the tasks would read aborted records; it would break exactly-once`);
    }
    if (choice.to !== undefined && choice.value !== undefined) out.set(choice.to, choice.value);
  }
  return out;
}

function connectionOf(settings: Map<string, number | string>): ClientConnectionOptions {
  const connection: ClientConnectionOptions = {};
  for (const name of NETWORK_SETTINGS) {
    const value = settings.get(name);
    if (typeof value === 'number') connection[name] = value;
  }
  return connection;
}

function pick<K extends string>(settings: Map<string, number | string>, names: readonly K[]): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  for (const name of names) {
    const value = settings.get(name);
    if (typeof value === 'number') out[name] = value;
  }
  return out;
}

function num(settings: Map<string, number | string>, name: string): number | undefined {
  const value = settings.get(name);
  return typeof value === 'number' ? value : undefined;
}

/** A safe integer, or a string of one (a properties file's value). */
function intOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : undefined;
  return n !== undefined && Number.isSafeInteger(n) ? n : undefined;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}

function replicationFactorOf(value: unknown): number {
  if (value === undefined) return -1;
  if (typeof value !== 'number' || !Number.isInteger(value) || (value < 1 && value !== -1) || value > 32_767) {
    throw new ConfigError(`Config 'replicationFactor' must be a positive integer (at most the number of brokers) or -1 for the broker's default, got ${describe(value)}`);
  }
  return value;
}

function purgeIntervalOf(value: unknown): number {
  if (value === undefined) return DEFAULT_REPARTITION_PURGE_INTERVAL_MS;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new ConfigError(`Config 'repartitionPurgeIntervalMs' must be a whole number of ms >= 0 (how often consumed repartition records are deleted), got ${describe(value)}`);
  }
  return value;
}

function topicConfigOf(value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError(`Config 'topicConfig' must be an object of Kafka topic configs, e.g. { 'min.insync.replicas': '2' }, got ${describe(value)}`);
  }
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
    if (name.trim() === '' || name.startsWith('topic.')) {
      throw new ConfigError(`Config topicConfig['${name}']: name the topic config without a prefix, e.g. 'min.insync.replicas'`);
    }
    if (typeof v === 'string') out[name] = v;
    else if (typeof v === 'number' && Number.isFinite(v)) out[name] = String(v);
    else throw new ConfigError(`Config topicConfig['${name}'] must be a string (or a number), got ${describe(v)}`);
  }
  return out;
}
