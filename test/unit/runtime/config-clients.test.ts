/**
 * The client and internal-topic settings (src/runtime/config-clients.ts): every validation rule, the
 * precedence of an override over its top-level key, and what each setting resolves to. The StreamsConfigTest
 * cases of Kafka that map are ported with their inputs (named on each test).
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig, type KafkaStreamsConfig } from '../../../src/runtime/config.js';
import { ConfigError } from '../../../src/errors.js';
import { acceptedKeys } from '../../../src/runtime/config-client-keys.js';

const base = { applicationId: 'clients-config', bootstrapServers: 'localhost:9092' };
const resolve = (extra: Record<string, unknown>) => resolveConfig({ ...base, ...extra } as KafkaStreamsConfig);
const refused = (extra: Record<string, unknown>, message: RegExp) => {
  expect(() => resolve(extra)).toThrow(ConfigError);
  expect(() => resolve(extra)).toThrow(message);
};

describe('replicationFactor, topicConfig, repartitionPurgeIntervalMs', () => {
  it('defaults: the broker default RF (-1, as Kafka 3+), no topic config, purge every 30 s, no client override', () => {
    const c = resolveConfig(base);
    expect([c.replicationFactor, c.topicConfig, c.repartitionPurgeIntervalMs]).toEqual([-1, {}, 30_000]);
    expect(c.producerSettings).toEqual({ connection: {} });
    expect(c.consumerSettings).toEqual({ isolationLevel: 'read_committed', connection: {} });
    expect(c.adminSettings).toEqual({ connection: {} });
  });

  it('takes the values given; topic config numbers are stringified', () => {
    const c = resolve({ replicationFactor: 3, topicConfig: { 'min.insync.replicas': 2, 'segment.bytes': '1073741824' }, repartitionPurgeIntervalMs: 0 });
    expect(c.replicationFactor).toBe(3);
    expect(c.topicConfig).toEqual({ 'min.insync.replicas': '2', 'segment.bytes': '1073741824' });
    expect(c.repartitionPurgeIntervalMs).toBe(0);
  });

  it.each([
    [{ replicationFactor: 0 }, /'replicationFactor' must be a positive integer .* or -1/],
    [{ replicationFactor: -2 }, /'replicationFactor'.*got -2/],
    [{ replicationFactor: 1.5 }, /'replicationFactor'/],
    [{ replicationFactor: '3' }, /'replicationFactor'.*got "3"/],
    [{ topicConfig: 'retention.ms=1' }, /'topicConfig' must be an object/],
    [{ topicConfig: { 'retention.ms': true } }, /topicConfig\['retention.ms'\] must be a string/],
    [{ topicConfig: { 'retention.ms': null } }, /topicConfig\['retention.ms'\] must be a string/],
    [{ topicConfig: { 'retention.ms': Number.NaN } }, /topicConfig\['retention.ms'\]/],
    [{ topicConfig: { 'topic.retention.ms': '1' } }, /without a prefix/],
    [{ repartitionPurgeIntervalMs: -1 }, /'repartitionPurgeIntervalMs' must be a whole number of milliseconds from 0 to 2147483647, got -1/],
  ])('rejects %o naming the key', (extra, message) => refused(extra, message));
});

describe('producerConfig / consumerConfig / adminConfig', () => {
  it('maps every accepted producer key to its setting (numbers or strings as a properties file gives them)', () => {
    const c = resolve({
      producerConfig: {
        'linger.ms': '20', 'batch.size': 65536, 'buffer.memory': 8_388_608, 'max.request.size': 2_097_152, 'max.block.ms': 0,
        'retry.backoff.ms': 50, 'retry.backoff.max.ms': 2000, 'request.timeout.ms': 40_000, 'socket.connection.setup.timeout.ms': 5000,
        acks: 'all', 'enable.idempotence': true, 'max.in.flight.requests.per.connection': 5,
      },
    });
    expect(c.producerSettings).toEqual({
      lingerMs: 20, batchBytes: 65536, bufferMemoryBytes: 8_388_608, maxRequestSize: 2_097_152, maxBlockMs: 0, retryBackoffMs: 50,
      connection: { retryBackoffMs: 50, retryBackoffMaxMs: 2000, requestTimeoutMs: 40_000, connectionTimeoutMs: 5000 },
    });
  });

  it('maps every accepted consumer and admin key', () => {
    const c = resolve({
      consumerConfig: {
        'max.poll.interval.ms': 120_000, 'max.partition.fetch.bytes': 524_288, 'fetch.max.bytes': 5_242_880, 'fetch.min.bytes': 1024,
        'fetch.max.wait.ms': 200, 'isolation.level': 'read_committed', 'enable.auto.commit': 'false', 'request.timeout.ms': 31_000,
      },
      adminConfig: { retries: 3, 'retry.backoff.ms': 200, 'request.timeout.ms': 90_000 },
    });
    expect(c.consumerSettings).toEqual({
      rebalanceTimeoutMs: 120_000, maxBytesPerPartition: 524_288, fetchMaxBytes: 5_242_880, fetchMinBytes: 1024, fetchMaxWaitMs: 200,
      isolationLevel: 'read_committed', connection: { requestTimeoutMs: 31_000 },
    });
    expect(c.adminSettings).toEqual({ connection: { retries: 3, retryBackoffMs: 200, requestTimeoutMs: 90_000 } });
  });

  // StreamsConfigTest.shouldOverrideStreamsDefaultConsumerConfigs / ...ProducerConfigs: the prefixed setting wins.
  it('an override wins over the top-level key of the same setting (Kafka: the prefixed config wins)', () => {
    const c = resolve({
      sessionTimeoutMs: 10_000, heartbeatIntervalMs: 3000, deliveryTimeoutMs: 60_000, transactionTimeoutMs: 30_000, autoOffsetReset: 'earliest',
      consumerConfig: { 'session.timeout.ms': 45_000, 'heartbeat.interval.ms': 5000, 'auto.offset.reset': 'latest' },
      producerConfig: { 'delivery.timeout.ms': 90_000, 'transaction.timeout.ms': 20_000 },
    });
    expect([c.sessionTimeoutMs, c.heartbeatIntervalMs, c.autoOffsetReset, c.deliveryTimeoutMs, c.transactionTimeoutMs]).toEqual([45_000, 5000, 'latest', 90_000, 20_000]);
    const plain = resolve({ sessionTimeoutMs: 10_000, deliveryTimeoutMs: 60_000 });
    expect([plain.sessionTimeoutMs, plain.deliveryTimeoutMs]).toEqual([10_000, 60_000]);
  });

  // StreamsConfigTest.shouldOverrideStreamsDefaultProducerConfigs (inputs "10000", "30000")
  it('producer overrides given as strings: linger.ms "10000", transaction.timeout.ms "30000"', () => {
    const c = resolve({ producerConfig: { 'linger.ms': '10000', 'transaction.timeout.ms': '30000' } });
    expect([c.producerSettings.lingerMs, c.transactionTimeoutMs]).toEqual([10_000, 30_000]);
  });

  // StreamsConfigTest.shouldOverrideStreamsDefaultConsumerConfigs (auto.offset.reset "latest"; max.poll.records has no equivalent)
  it('consumer override auto.offset.reset "latest"', () => {
    expect(resolve({ consumerConfig: { 'auto.offset.reset': 'latest' } }).autoOffsetReset).toBe('latest');
  });

  // StreamsConfigTest.shouldNotThrowIfTransactionTimeoutSmallerThanCommitIntervalForAtLeastOnce (10000, 3000)
  it('transaction.timeout.ms below commitIntervalMs is fine under at_least_once', () => {
    expect(() => resolve({ processingGuarantee: 'at_least_once', commitIntervalMs: 10_000, producerConfig: { 'transaction.timeout.ms': 3000 } })).not.toThrow();
  });

  // StreamsConfigTest.shouldAllowToSpecifyMaxInFlightRequestsPerConnectionAsStringIfEosV2Enabled ("3")
  it('max.in.flight.requests.per.connection "3" is accepted under exactly_once', () => {
    expect(() => resolve({ producerConfig: { 'max.in.flight.requests.per.connection': '3' } })).not.toThrow();
  });

  // StreamsConfigTest.shouldAllowSettingConsumerIsolationLevelIfEosDisabled
  it('isolation.level=read_uncommitted is taken under at_least_once', () => {
    const c = resolve({ processingGuarantee: 'at_least_once', consumerConfig: { 'isolation.level': 'read_uncommitted' } });
    expect(c.consumerSettings.isolationLevel).toBe('read_uncommitted');
  });

  describe('refused where it would break exactly-once', () => {
    it.each([
      // StreamsConfigTest.shouldThrowExceptionIfMaxInFlightRequestsGreaterThanFiveIfEosV2Enabled (input 7)
      [{ producerConfig: { 'max.in.flight.requests.per.connection': 7 } }, /producerConfig\['max.in.flight.requests.per.connection'\] can't exceed 5 when exactly-once processing is enabled/],
      // StreamsConfigTest.shouldThrowConfigExceptionIfMaxInFlightRequestsPerConnectionIsInvalidStringIfEosEnabled (input "not-a-number")
      [{ producerConfig: { 'max.in.flight.requests.per.connection': 'not-a-number' } }, /must be a whole number >= 1/],
      [{ producerConfig: { 'enable.idempotence': false } }, /producerConfig\['enable.idempotence'\] = false is refused: it would break exactly-once/],
      [{ producerConfig: { acks: 1 } }, /producerConfig\['acks'\] = 1 is refused: it would break exactly-once/],
      [{ producerConfig: { acks: '0' } }, /refused: it would break exactly-once/],
      [{ producerConfig: { 'transactional.id': 'x' } }, /producerConfig\['transactional.id'\] cannot be set: sluice sets it per task/],
      [{ consumerConfig: { 'isolation.level': 'read_uncommitted' } }, /consumerConfig\['isolation.level'\] = 'read_uncommitted' is refused under exactly_once/],
      [{ consumerConfig: { 'enable.auto.commit': true } }, /consumerConfig\['enable.auto.commit'\] = true is refused/],
      [{ consumerConfig: { 'group.id': 'other' } }, /consumerConfig\['group.id'\] cannot be set: the group id is the 'applicationId'/],
      [{ producerConfig: { 'transaction.timeout.ms': 100 } }, /producerConfig\['transaction.timeout.ms'\] \(100\) must be larger than 'commitIntervalMs' \(100\)/],
    ])('%o', (extra, message) => refused(extra, message));

    it('max.in.flight 1..5 is accepted; > 5 is refused under at_least_once too (the producers are always idempotent)', () => {
      expect(() => resolve({ producerConfig: { 'max.in.flight.requests.per.connection': 1 } })).not.toThrow();
      refused({ processingGuarantee: 'at_least_once', producerConfig: { 'max.in.flight.requests.per.connection': 6 } }, /can't exceed 5: sluice's producers are always idempotent/);
    });
  });

  it.each([
    [{ producerConfig: { 'linger.ms': -1 } }, /producerConfig\['linger.ms'\] must be a whole number >= 0/],
    [{ producerConfig: { 'buffer.memory': 0 } }, /producerConfig\['buffer.memory'\] must be a whole number >= 1/],
    [{ producerConfig: { 'batch.size': 1.5 } }, /producerConfig\['batch.size'\]/],
    [{ producerConfig: { 'linger.ms': '5ms' } }, /producerConfig\['linger.ms'\].*got "5ms"/],
    [{ consumerConfig: { 'session.timeout.ms': 0 } }, /consumerConfig\['session.timeout.ms'\] must be a whole number >= 1/],
    [{ consumerConfig: { 'fetch.max.wait.ms': null } }, /consumerConfig\['fetch.max.wait.ms'\]/],
    [{ consumerConfig: { 'auto.offset.reset': 'none' } }, /refused: sluice has no 'none'/],
    [{ consumerConfig: { 'isolation.level': 'READ_COMMITTED' } }, /must be one of 'read_committed', 'read_uncommitted'/],
    [{ consumerConfig: { 'heartbeat.interval.ms': 30_000 } }, /heartbeat.interval.ms'\] \(30000\) must be lower than 'session.timeout.ms' \(30000\)/],
    [{ adminConfig: { retries: -1 } }, /adminConfig\['retries'\] must be a whole number >= 0/],
    [{ producerConfig: 'linger.ms=5' }, /'producerConfig' must be an object of Kafka producer settings/],
    [{ consumerConfig: [] }, /'consumerConfig' must be an object/],
    [{ producerConfig: { 'compression.type': 'lz4' } }, /compression.type'\] cannot be set: set the top-level 'compressionType'/],
    [{ producerConfig: { retries: 0 } }, /producerConfig\['retries'\] cannot be set: sluice retries a retriable send until 'delivery.timeout.ms'/],
    [{ adminConfig: { 'bootstrap.servers': 'x:1' } }, /adminConfig\['bootstrap.servers'\] cannot be set: set the top-level 'bootstrapServers'/],
    // StreamsConfig.getMainConsumerConfigs' check (no Kafka test): segment.bytes below batch.size is refused
    [{ topicConfig: { 'segment.bytes': 1024 }, producerConfig: { 'batch.size': 2048 } }, /topicConfig\['segment.bytes'\] \(1024\) is smaller than producerConfig\['batch.size'\] \(2048\)/],
  ])('rejects %o naming the key', (extra, message) => refused(extra, message));

  it('a key sluice has no equivalent for is an error naming it and listing the accepted ones', () => {
    refused({ consumerConfig: { 'max.poll.records': 10 } }, /consumerConfig\['max.poll.records'\]: sluice has no equivalent of the consumer setting 'max.poll.records'; accepted keys: .*fetch.max.bytes/);
    refused({ adminConfig: { 'linger.ms': 5 } }, new RegExp(`accepted keys: ${acceptedKeys('admin').join(', ')}$`));
    refused({ producerConfig: { __proto__x: 1 } }, /no equivalent/);
  });

  it('the accepted keys per client', () => {
    expect(acceptedKeys('producer')).toEqual([
      'acks', 'batch.size', 'buffer.memory', 'delivery.timeout.ms', 'enable.idempotence', 'linger.ms', 'max.block.ms', 'max.in.flight.requests.per.connection',
      'max.request.size', 'request.timeout.ms', 'retry.backoff.max.ms', 'retry.backoff.ms', 'socket.connection.setup.timeout.ms', 'transaction.timeout.ms',
    ]);
    expect(acceptedKeys('consumer')).toEqual([
      'auto.offset.reset', 'enable.auto.commit', 'fetch.max.bytes', 'fetch.max.wait.ms', 'fetch.min.bytes', 'heartbeat.interval.ms', 'isolation.level',
      'max.partition.fetch.bytes', 'max.poll.interval.ms', 'request.timeout.ms', 'retry.backoff.max.ms', 'retry.backoff.ms', 'session.timeout.ms',
      'socket.connection.setup.timeout.ms',
    ]);
    expect(acceptedKeys('admin')).toEqual(['request.timeout.ms', 'retries', 'retry.backoff.max.ms', 'retry.backoff.ms', 'socket.connection.setup.timeout.ms']);
  });
});
