/**
 * The data of the property mapping (properties-map.ts): which Kafka key
 * becomes which sluice key and how its value is read, which client keys go to
 * which client's config, which keys are ignored and why, and the reasons
 * given for keys sluice has no equivalent of.
 */
import { CLIENT_KEYS as RUNTIME_CLIENT_KEYS } from '../../runtime/config-client-keys.js';
import { PROCESSING_GUARANTEE_NAMES } from '../../runtime/config-values.js';
import type { PropertyReader } from './property-reader.js';

/** The clients a plain Kafka client key goes to. */
export type Client = 'producer' | 'consumer' | 'admin';

/** A Kafka key with a sluice key of its own; `parse` reads and checks the value (undefined: nothing to set). */
export interface KeyRule {
  sluice: string;
  parse(r: PropertyReader, key: string): unknown;
}

const ms = (sluice: string, min = 1): KeyRule => ({ sluice, parse: (r, k) => r.int(k, min) });
const str = (sluice: string): KeyRule => ({ sluice, parse: (r, k) => r.text(k) });
/** A value sluice always uses; any other is an error naming the reason. */
const fixed = (allowed: readonly string[], why: string): KeyRule => ({
  sluice: '',
  parse: (r, k) => {
    const v = r.get(k);
    if (v !== undefined && !allowed.includes(v.toLowerCase())) throw r.error(k, `must be ${allowed.join(' or ')}: ${why}, got '${v}'`);
    return undefined;
  },
});

const CONSUMER_RULES: Readonly<Record<string, KeyRule>> = {
  'session.timeout.ms': ms('sessionTimeoutMs'),
  'heartbeat.interval.ms': ms('heartbeatIntervalMs'),
  'auto.offset.reset': {
    sluice: 'autoOffsetReset',
    parse: (r, k) => r.oneOf(k, ['earliest', 'latest'] as const, ' (sluice has no "none" nor "by_duration": a committed offset always wins)'),
  },
  'group.instance.id': str('groupInstanceId'),
  'enable.auto.commit': fixed(['false'], 'sluice commits offsets itself, as Kafka Streams'),
  'group.protocol': fixed(['classic'], 'kafkajs speaks the classic group protocol only (no KIP-848)'),
  'isolation.level': fixed(['read_committed', 'read_uncommitted'], 'sluice sets it from processing.guarantee, as Kafka Streams'),
  'allow.auto.create.topics': fixed(['false'], 'sluice never creates topics by fetching them (Kafka Streams sets false too)'),
};

const PRODUCER_RULES: Readonly<Record<string, KeyRule>> = {
  'transaction.timeout.ms': ms('transactionTimeoutMs'),
  'delivery.timeout.ms': ms('deliveryTimeoutMs'),
  'compression.type': { sluice: 'compressionType', parse: (r, k) => r.oneOf(k, ['none', 'gzip', 'snappy', 'lz4', 'zstd'] as const) },
  acks: fixed(['all', '-1'], "sluice's producers are idempotent (and transactional under exactly_once): every in-sync replica acknowledges"),
  'enable.idempotence': fixed(['true'], "sluice's producers are always idempotent"),
};

/** Keys with a sluice key of their own: Streams keys, and client keys unprefixed or as `<client>:<name>` for the prefixed form. */
export const KEY_RULES: Readonly<Record<string, KeyRule>> = {
  'application.id': str('applicationId'),
  'bootstrap.servers': {
    sluice: 'bootstrapServers',
    parse: (r, k) => {
      const list = r.list(k);
      if (list !== undefined && list.length === 0) throw r.error(k, 'must name at least one broker as host:port');
      return list;
    },
  },
  'client.id': str('clientId'),
  'processing.guarantee': {
    sluice: 'processingGuarantee',
    parse: (r, k) => r.oneOf(k, PROCESSING_GUARANTEE_NAMES),
  },
  'replication.factor': {
    sluice: 'replicationFactor',
    parse: (r, k) => {
      const n = r.int(k, -1);
      if (n === 0) throw r.error(k, 'must be -1 (the broker default) or at least 1, got 0');
      return n;
    },
  },
  'num.standby.replicas': { sluice: 'numStandbyReplicas', parse: (r, k) => r.int(k, 0) },
  'state.dir': str('stateDir'),
  'commit.interval.ms': ms('commitIntervalMs'),
  'statestore.cache.max.bytes': { sluice: 'statestoreCacheMaxBytes', parse: (r, k) => r.int(k, 0) },
  'cache.max.bytes.buffering': { sluice: 'statestoreCacheMaxBytes', parse: (r, k) => r.int(k, 0) },
  'state.cleanup.delay.ms': ms('stateCleanupDelayMs'),
  'application.server': { sluice: 'applicationServer', parse: (r, k) => (r.get(k) === '' ? undefined : r.get(k)) },
  'acceptable.recovery.lag': { sluice: 'acceptableRecoveryLag', parse: (r, k) => r.int(k, 0) },
  'max.warmup.replicas': ms('maxWarmupReplicas'),
  'probing.rebalance.interval.ms': ms('probingRebalanceIntervalMs'),
  'num.stream.threads': { sluice: 'numStreamThreads', parse: (r, k) => r.int(k, 1) },
  'max.task.idle.ms': { sluice: 'maxTaskIdleMs', parse: (r, k) => r.int(k, -1) },
  'buffered.records.per.partition': ms('bufferedRecordsPerPartition'),
  'async.call.timeout.ms': ms('asyncCallTimeoutMs'),
  'repartition.purge.interval.ms': ms('repartitionPurgeIntervalMs', 0),
  'default.dsl.store': fixed(['rocksdb'], "sluice's DSL stores are lmdb by default; for in-memory ones set dslStoreSuppliers: BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers in the module's config, or Materialized.withStoreType('in_memory') per store"),
  ...CONSUMER_RULES,
  ...PRODUCER_RULES,
  ...Object.fromEntries(Object.entries(CONSUMER_RULES).map(([k, v]) => [`consumer:${k}`, v])),
  ...Object.fromEntries(Object.entries(PRODUCER_RULES).map(([k, v]) => [`producer:${k}`, v])),
};

const CLIENTS: readonly Client[] = ['producer', 'consumer', 'admin'];

/**
 * Kafka client keys without a sluice key of their own that sluice's client
 * overrides accept (runtime/config-client-keys.ts, the one table the runtime
 * validates `producerConfig` / `consumerConfig` / `adminConfig` with): an
 * unprefixed one goes to every client whose table accepts it (as Kafka Streams
 * hands a common key to every client), so the mapping never produces a key the
 * runtime refuses.
 */
export const CLIENT_KEYS: Readonly<Record<string, Client[]>> = (() => {
  const out: Record<string, Client[]> = {};
  for (const c of CLIENTS) {
    for (const [key, spec] of Object.entries(RUNTIME_CLIENT_KEYS[c])) if (spec.kind !== 'refused') (out[key] ??= []).push(c);
  }
  return out;
})();

const NOT_YET_CLIENT = "sluice's clients (kafkajs underneath) have no such setting";
const names = (list: string, why: string): [string, string][] => list.split(' ').map((k) => [k, why]);

/**
 * Keys Kafka knows that sluice has no equivalent of *yet* (an error naming the
 * key and this reason): Streams keys not implemented, and Kafka producer,
 * consumer and common client keys (Kafka's ProducerConfig, ConsumerConfig,
 * CommonClientConfigs) the client overrides do not take. Unprefixed or with a
 * client prefix.
 */
export const NOT_YET: Readonly<Record<string, string>> = Object.fromEntries([
  ...names('compression.gzip.level compression.lz4.level compression.zstd.level', "compression levels are the codecs' defaults"),
  ...names('partitioner.adaptive.partitioning.enable partitioner.availability.timeout.ms partitioner.ignore.keys', "sluice's sinks partition by key hash (murmur2, as Kafka) or by a partitioner given in code (Produced.withStreamPartitioner)"),
  ...names(
    'metadata.max.idle.ms check.crcs auto.commit.interval.ms exclude.internal.topics reconnect.backoff.ms reconnect.backoff.max.ms connections.max.idle.ms metadata.max.age.ms socket.connection.setup.timeout.max.ms send.buffer.bytes receive.buffer.bytes default.api.timeout.ms client.rack metadata.recovery.strategy',
    NOT_YET_CLIENT,
  ),
]);

const POLL_RECORDS = 'sluice has no poll loop: its tasks process whole fetched batches (bound a fetch with max.partition.fetch.bytes or fetch.max.bytes)';
const METRICS = "sluice's metrics are app.metrics() and the CLI's Prometheus endpoint (--metrics-port)";

/** Keys that mean nothing for sluice and change nothing: accepted, logged once at start as ignored. */
export const IGNORED_KEYS: Readonly<Record<string, string>> = {
  'metrics.recording.level': METRICS,
  'metrics.num.samples': METRICS,
  'metrics.sample.window.ms': METRICS,
  'metric.reporters': METRICS,
  'auto.include.jmx.reporter': METRICS,
  'enable.metrics.push': METRICS,
  'built.in.metrics.version': METRICS,
  'log.summary.interval.ms': 'sluice logs no periodic summary (see the progress line and --metrics-port)',
  'poll.ms': "sluice's fetch loop has no poll timeout to set",
  'max.poll.records': POLL_RECORDS,
  'consumer.max.poll.records': POLL_RECORDS,
  'main.consumer.max.poll.records': POLL_RECORDS,
  'client.dns.lookup': 'Node.js resolves the broker host names itself (every address is tried)',
  'ssl.keymanager.algorithm': 'a JVM TLS setting; Node.js uses OpenSSL',
  'ssl.trustmanager.algorithm': 'a JVM TLS setting; Node.js uses OpenSSL',
  'ssl.secure.random.implementation': 'a JVM TLS setting; Node.js uses OpenSSL',
  'ssl.provider': 'a JVM TLS setting; Node.js uses OpenSSL',
  'ssl.protocol': 'Node.js negotiates the highest TLS version both sides allow (limit it with ssl.enabled.protocols)',
  'schema.registry.url': "Schema Registry settings are read by serdes, not by sluice's config: give them to the serde in code",
};

/** Why sluice has no equivalent of these keys (used in the error). */
export const NO_EQUIVALENT: Readonly<Record<string, string>> = {
  'group.id': 'the consumer group id is application.id',
  'transactional.id': 'the transactional ids are <application.id>-<task id>',
  'partition.assignment.strategy': "sluice's own task assignor is always used",
  'key.serializer': 'serdes are given per topic in the topology, or as default.key.serde / default.value.serde',
  'value.serializer': 'serdes are given per topic in the topology, or as default.key.serde / default.value.serde',
  'key.deserializer': 'serdes are given per topic in the topology, or as default.key.serde / default.value.serde',
  'value.deserializer': 'serdes are given per topic in the topology, or as default.key.serde / default.value.serde',
  'interceptor.classes': 'client interceptors are Java classes',
  'partitioner.class': 'give a partitioner per sink in code (Produced.streamPartitioner)',
  'upgrade.from': 'sluice instances cannot share a group with Java ones, so there is nothing to upgrade from',
  'task.timeout.ms': 'sluice retries retriable errors per its error table and fails the task otherwise',
  'rocksdb.config.setter': "sluice's persistent stores have no RocksDB options",
  'dsl.store.suppliers.class': "set dslStoreSuppliers in the module's config (BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers, LmdbDslStoreSuppliers or your own DslStoreSuppliers)",
  'task.assignor.class': "sluice's task assignor is built in",
  'default.client.supplier': 'sluice creates its kafkajs clients itself',
  'window.size.ms': 'windowed serdes are created in code (WindowedSerdes)',
  'windowed.inner.class.serde': 'windowed serdes are created in code (WindowedSerdes)',
  'windowstore.changelog.additional.retention.ms': 'window changelogs keep retention + 1 day, as Kafka\'s default',
  'rack.aware.assignment.strategy': 'rack-aware assignment is not implemented',
  'rack.aware.assignment.tags': 'rack-aware assignment is not implemented',
  'rack.aware.assignment.non_overlap_cost': 'rack-aware assignment is not implemented',
  'rack.aware.assignment.traffic_cost': 'rack-aware assignment is not implemented',
  'errors.dead.letter.queue.topic.name': "use deadLetterQueueHandler({ topic }) in the handler slot, in the module's config",
  'default.list.key.serde.inner': 'list serdes are created in code',
  'default.list.key.serde.type': 'list serdes are created in code',
  'default.list.value.serde.inner': 'list serdes are created in code',
  'default.list.value.serde.type': 'list serdes are created in code',
};
