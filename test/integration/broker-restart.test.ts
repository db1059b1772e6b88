/**
 * The broker scripts can restart a broker with its data kept (as a crashed broker
 * comes back), which soaks need: committed transactional records and committed
 * group offsets survive a SIGKILL of the broker and a restart.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Kafka, logLevel } from 'kafkajs';
import { restartBroker, startBroker, type RunningBroker } from '../../scripts/kafka/broker.mjs';
import { freePort } from '../../scripts/kafka/process.mjs';
import { describeKafka } from '../helpers/kafka-env.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KafkaStreams, Materialized, QueryableStoreTypes, Serdes, StreamsBuilder } from '../../src/index.js';
import { waitFor } from '../helpers/index.js';

describeKafka('broker restart keeps the data (scripts/kafka restartBroker)', () => {
  let broker: RunningBroker;
  beforeAll(async () => {
    broker = await startBroker({ port: await freePort(), ownerPid: process.pid, heap: '-Xmx512m -Xms128m', log: () => {} });
  }, 120_000);
  afterAll(async () => {
    await broker?.stop({ keepLog: false });
  });

  it('after a SIGKILL and a restart, committed records and group offsets are still there', async () => {
    const kafka = () => new Kafka({ clientId: 'restart-test', brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
    const admin = kafka().admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'kept', numPartitions: 2 }], waitForLeaders: true });
    const producer = kafka().producer({ transactionalId: 'restart-tx', idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const txn = await producer.transaction();
    await txn.send({ topic: 'kept', messages: Array.from({ length: 50 }, (_, i) => ({ key: `k${i}`, value: `v${i}`, partition: i % 2 })) });
    await txn.commit();
    await producer.disconnect();
    await admin.setOffsets({ groupId: 'kept-group', topic: 'kept', partitions: [{ partition: 0, offset: '7' }] });
    const before = await admin.fetchTopicOffsets('kept');
    await admin.disconnect();

    const restarted = await restartBroker({ port: broker.port, kill: true });
    expect(restarted.pid).not.toBe(broker.pid);

    const after = kafka().admin();
    await after.connect();
    expect((await after.fetchTopicOffsets('kept')).map((p) => p.high).sort()).toEqual(before.map((p) => p.high).sort());
    const offsets = await after.fetchOffsets({ groupId: 'kept-group', topics: ['kept'] });
    expect(offsets[0]?.partitions.find((p) => p.partition === 0)?.offset).toBe('7');
    await after.disconnect();
    // maxWaitTimeInMs: disconnect() waits for a fetch in flight (kafkajs' default long poll: 5 s)
    const consumer = kafka().consumer({ groupId: 'restart-reader', readUncommitted: false, maxWaitTimeInMs: 100 });
    await consumer.connect();
    await consumer.subscribe({ topic: 'kept', fromBeginning: true });
    const values: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`read ${values.length} of 50 records after the restart`)), 30_000);
      void consumer.run({
        eachMessage: async ({ message }) => {
          values.push(message.value?.toString() ?? '');
          if (values.length === 50) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });
    await consumer.disconnect();
    expect(new Set(values).size).toBe(50);
  }, 120_000);

  it('a running stateful app rides through a broker SIGKILL and restart: it never goes to ERROR and its counts end right', async () => {
    const kafka = () => new Kafka({ clientId: 'restart-app-test', brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
    const admin = kafka().admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'words', numPartitions: 2 }, { topic: 'word-counts', numPartitions: 2 }], waitForLeaders: true });
    const producer = kafka().producer();
    await producer.connect();
    const send = (n: number) => producer.send({ topic: 'words', messages: Array.from({ length: n }, (_, i) => ({ key: `w${i % 5}`, value: 'x' })) });
    await send(50);
    const builder = new StreamsBuilder();
    builder.stream('words', { keySerde: Serdes.String(), valueSerde: Serdes.String() }).groupByKey().count(Materialized.as('counts')).toStream().to('word-counts', { keySerde: Serdes.String(), valueSerde: Serdes.Long() });
    const app = new KafkaStreams(builder.build(), { applicationId: 'restart-app', bootstrapServers: [broker.bootstrap], stateDir: mkdtempSync(join(tmpdir(), 'sluice-restart-')), commitIntervalMs: 100 });
    const states: string[] = [];
    app.state$.subscribe((state) => states.push(state));
    await app.start();
    const committed = async (): Promise<number> => (await admin.fetchOffsets({ groupId: 'restart-app', topics: ['words'] }))[0]!.partitions.reduce((n, p) => n + Math.max(0, Number(p.offset)), 0);
    await waitFor(async () => (await committed()) === 50, { timeoutMs: 30_000 });
    await admin.disconnect();
    await producer.disconnect();

    await restartBroker({ port: broker.port, kill: true });

    const again = kafka().producer();
    await again.connect();
    await again.send({ topic: 'words', messages: Array.from({ length: 50 }, (_, i) => ({ key: `w${i % 5}`, value: 'x' })) });
    await again.disconnect();
    const check = kafka().admin();
    await check.connect();
    try {
      await waitFor(async () => (await check.fetchOffsets({ groupId: 'restart-app', topics: ['words'] }))[0]!.partitions.reduce((n, p) => n + Math.max(0, Number(p.offset)), 0) === 100, { timeoutMs: 90_000 });
    } finally {
      await check.disconnect();
    }
    const store = app.store({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() });
    await waitFor(() => store.get('w0') === 20, { timeoutMs: 30_000 });
    expect(['w0', 'w1', 'w2', 'w3', 'w4'].map((w) => store.get(w))).toEqual([20, 20, 20, 20, 20]);
    expect(states).not.toContain('ERROR');
    expect(app.state === 'RUNNING' || app.state === 'REBALANCING').toBe(true);
    await app.close();
  }, 240_000);
});
