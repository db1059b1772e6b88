/**
 * The client overrides reach the clients that use them (issue 27 item 5):
 * 1. on the kafkajs backend: the options kafkajs receives for the Kafka instance, the consumer, the
 *    producer and the admin client (a fake kafkajs `Kafka` records them);
 * 2. through the runtime: what a running app hands the cluster port (consumer, producers, admin,
 *    restore reader), and that sluice's own producer path honours `batch.size` and `max.request.size`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createKafkaCluster } from '../../../src/cluster/kafkajs/index.js';
import { sluiceKafkaJs } from '../../../src/cluster/kafkajs/internal/patches.js';
import { PRODUCER_RETRY } from '../../../src/cluster/kafkajs/internal/raw-producer.js';
import type { AdminOptions, ClusterPort, GroupConsumerOptions, ProduceBatch, RawProducerOptions } from '../../../src/cluster/port.js';
import { resolveConfig, type KafkaStreamsConfig } from '../../../src/runtime/config.js';
import { consumerOverrides, producerOverrides } from '../../../src/runtime/internal/client-overrides.js';
import { Closer, EmbeddedKafkaCluster, upperTopology } from './fixtures.js';
import { waitFor } from '../../helpers/index.js';
import { LogAndContinueProductionExceptionHandler } from '../../../src/handlers/log-and-continue.js';

const overrides = {
  producerConfig: { 'request.timeout.ms': 41_000, 'socket.connection.setup.timeout.ms': 4_000, 'retry.backoff.ms': 150, 'retry.backoff.max.ms': 900, 'linger.ms': 7 },
  consumerConfig: {
    'request.timeout.ms': 42_000, 'max.poll.interval.ms': 90_000, 'max.partition.fetch.bytes': 65_536, 'fetch.max.bytes': 262_144,
    'fetch.min.bytes': 16, 'fetch.max.wait.ms': 250, 'retry.backoff.ms': 120, 'session.timeout.ms': 12_000, 'heartbeat.interval.ms': 2_000,
  },
  adminConfig: { 'request.timeout.ms': 43_000, retries: 2, 'retry.backoff.ms': 333 },
};

describe('kafkajs backend: the options kafkajs receives', () => {
  type Recorded = { kafka: Array<Record<string, unknown>>; consumer: Array<Record<string, unknown>>; producer: Array<Record<string, unknown>>; admin: Array<Record<string, unknown> | undefined> };
  const patched = sluiceKafkaJs().kafkajs as unknown as { Kafka: unknown };
  const original = patched.Kafka;
  afterEach(() => {
    patched.Kafka = original;
  });

  function fakeKafka(): Recorded {
    const seen: Recorded = { kafka: [], consumer: [], producer: [], admin: [] };
    const client = { on: () => () => undefined, events: {}, connect: async () => undefined, disconnect: async () => undefined };
    patched.Kafka = class {
      constructor(options: Record<string, unknown>) {
        seen.kafka.push(options);
      }
      consumer(options: Record<string, unknown>) {
        seen.consumer.push(options);
        return { ...client, events: { GROUP_JOIN: 'group_join', CRASH: 'crash', FETCH_START: 'fetch_start', STOP: 'stop', REBALANCING: 'rebalancing' } };
      }
      producer(options: Record<string, unknown>) {
        seen.producer.push(options);
        return client;
      }
      admin(options?: Record<string, unknown>) {
        seen.admin.push(options);
        return client;
      }
    };
    return seen;
  }

  it('consumer, producer and admin each get their own request/connection timeouts, retry and fetch settings', () => {
    const seen = fakeKafka();
    const config = resolveConfig({ applicationId: 'spy', bootstrapServers: '127.0.0.1:1', ...overrides });
    const cluster = createKafkaCluster({ bootstrapServers: ['127.0.0.1:1'], clientId: 'spy' });
    cluster.consumer({ groupId: 'spy', ...consumerOverrides(config), sessionTimeoutMs: config.sessionTimeoutMs, heartbeatIntervalMs: config.heartbeatIntervalMs, clientId: 'spy-consumer' });
    cluster.producer({ transactionalId: 'spy-0_0', clientId: 'spy-0_0', ...(producerOverrides(config).connection ? { connection: producerOverrides(config).connection } : {}) });
    cluster.admin({ connection: config.adminSettings.connection });

    const kafkaOf = (clientId: string) => seen.kafka.filter((k) => k.clientId === clientId);
    expect(kafkaOf('spy-consumer')).toEqual([expect.objectContaining({ requestTimeout: 42_000, connectionTimeout: 3_000 })]);
    expect(kafkaOf('spy-0_0')).toEqual([expect.objectContaining({ requestTimeout: 41_000, connectionTimeout: 4_000 })]);
    expect(kafkaOf('spy')).toEqual([expect.objectContaining({ requestTimeout: 43_000 })]);

    expect(seen.consumer[0]).toMatchObject({
      groupId: 'spy', sessionTimeout: 12_000, heartbeatInterval: 2_000, rebalanceTimeout: 90_000, maxBytesPerPartition: 65_536,
      maxBytes: 262_144, minBytes: 16, maxWaitTimeInMs: 250, readUncommitted: false, retry: expect.objectContaining({ initialRetryTime: 120 }),
    });
    expect(seen.producer[0]).toMatchObject({ transactionalId: 'spy-0_0', retry: { ...PRODUCER_RETRY, initialRetryTime: 150, maxRetryTime: 900 } });
    // the admin the cluster port creates (the consumer's committed-offsets reader makes another, without overrides)
    expect(seen.admin).toContainEqual({ retry: { retries: 2, initialRetryTime: 333 } });
  });

  it('without overrides kafkajs gets sluice\'s defaults (nothing changes for existing apps)', () => {
    const seen = fakeKafka();
    const config = resolveConfig({ applicationId: 'spy', bootstrapServers: '127.0.0.1:1' });
    const cluster = createKafkaCluster({ bootstrapServers: ['127.0.0.1:1'] });
    cluster.consumer({ groupId: 'spy', ...consumerOverrides(config) });
    cluster.producer({ transactionalId: 't' });
    // one kafkajs Kafka per client (architecture §6: per-client Kafka copies), each with the defaults
    expect(seen.kafka.length).toBeGreaterThan(0);
    for (const kafka of seen.kafka) expect(kafka).toEqual(expect.objectContaining({ requestTimeout: 30_000, connectionTimeout: 3_000 }));
    expect(seen.consumer[0]).toMatchObject({ maxBytesPerPartition: 1_048_576, maxWaitTimeInMs: 500 });
    expect(seen.consumer[0]).not.toHaveProperty('rebalanceTimeout');
    expect(seen.producer[0]).toMatchObject({ retry: { ...PRODUCER_RETRY } });
  });
});

describe('through the runtime: what an app hands the cluster (embedded)', () => {
  const closer = new Closer();
  afterEach(() => closer.closeAll());

  /** The embedded cluster, recording every client's options and every produce request to `topic`. */
  function recording(cluster: EmbeddedKafkaCluster, topic: string) {
    const seen = { consumers: [] as GroupConsumerOptions[], producers: [] as RawProducerOptions[], admins: [] as Array<AdminOptions | undefined>, produced: [] as number[] };
    const port: ClusterPort = {
      kind: 'embedded',
      admin: (o) => (seen.admins.push(o), cluster.admin()),
      consumer: (o) => (seen.consumers.push(o), cluster.consumer(o)),
      reader: (o) => cluster.reader(o),
      producer: (o) => {
        seen.producers.push(o);
        const inner = cluster.producer(o);
        return {
          transactionalId: inner.transactionalId,
          connect: () => inner.connect(),
          beginTransaction: () => inner.beginTransaction(),
          produce: (batch: ProduceBatch) => {
            if (batch.topic === topic) seen.produced.push(batch.records.length);
            return inner.produce(batch);
          },
          sendOffsets: (groupId, offsets) => inner.sendOffsets(groupId, offsets),
          commitTransaction: () => inner.commitTransaction(),
          abortTransaction: () => inner.abortTransaction(),
          close: () => inner.close(),
        };
      },
    };
    return { port, seen };
  }

  async function run(extra: Partial<KafkaStreamsConfig>, records = 20) {
    const cluster = closer.cluster();
    await cluster.createTopic('in', { partitions: 1 });
    await cluster.createTopic('out', { partitions: 1 });
    await cluster.produce('in', Array.from({ length: records }, (_, i) => ({ key: `k${i}`, value: `value-${i}` })));
    const { port, seen } = recording(cluster, 'out');
    const app = closer.app(upperTopology('in', 'out'), { applicationId: `overrides-${Math.random()}`, cluster: port, commitIntervalMs: 1_000, ...extra });
    await app.start();
    return { cluster, app, seen };
  }

  it('the consumer, every task producer and the admin get their overrides', async () => {
    const { seen, app } = await run(overrides);
    expect(seen.consumers[0]).toMatchObject({
      isolationLevel: 'read_committed', sessionTimeoutMs: 12_000, heartbeatIntervalMs: 2_000, rebalanceTimeoutMs: 90_000, maxBytesPerPartition: 65_536,
      maxBytes: 262_144, minBytes: 16, maxWaitMs: 250, connection: { requestTimeoutMs: 42_000, retryBackoffMs: 120 },
    });
    await waitFor(() => seen.producers.some((p) => p.transactionalId !== undefined), { timeoutMs: 5_000, message: 'a task producer' });
    for (const p of seen.producers.filter((x) => x.transactionalId !== undefined)) {
      expect(p.connection).toEqual({ requestTimeoutMs: 41_000, connectionTimeoutMs: 4_000, retryBackoffMs: 150, retryBackoffMaxMs: 900 });
    }
    expect(seen.admins[0]).toEqual({ connection: { requestTimeoutMs: 43_000, retries: 2, retryBackoffMs: 333 } });
    await app.close();
  });

  it("batch.size reaches sluice's producer path: batch.size 1 sends every record in its own request, the default batches them", async () => {
    const small = await run({ producerConfig: { 'batch.size': 1 } });
    await waitFor(async () => (await small.cluster.readCommitted('out')).length === 20, { timeoutMs: 10_000, message: 'all 20 records out' });
    expect(small.seen.produced.every((n) => n === 1)).toBe(true);
    expect(small.seen.produced.length).toBe(20);
    const large = await run({ producerConfig: { 'linger.ms': 50 } });
    await waitFor(async () => (await large.cluster.readCommitted('out')).length === 20, { timeoutMs: 10_000, message: 'all 20 records out' });
    expect(large.seen.produced.length).toBeLessThan(20);
  });

  it("max.request.size reaches sluice's producer path: a record larger than it fails alone (RecordTooLarge) and the handler's CONTINUE drops it", async () => {
    const cluster = closer.cluster();
    await cluster.createTopic('in', { partitions: 1 });
    await cluster.createTopic('out', { partitions: 1 });
    await cluster.produce('in', [{ key: 'small', value: 'x' }, { key: 'big', value: 'y'.repeat(4_000) }, { key: 'after', value: 'z' }]);
    const app = closer.app(upperTopology('in', 'out'), {
      applicationId: `max-request-${Math.random()}`, cluster, producerConfig: { 'max.request.size': 1_024 },
      productionExceptionHandler: new LogAndContinueProductionExceptionHandler(),
    });
    await app.start();
    await waitFor(async () => (await cluster.readCommitted('out')).length === 2, { timeoutMs: 10_000, message: 'the two small records out' });
    expect((await cluster.readCommitted('out')).map((r) => r.key?.toString())).toEqual(['small', 'after']);
  });
});
