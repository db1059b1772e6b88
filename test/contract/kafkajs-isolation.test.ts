/**
 * sluice's kafkajs patches reach sluice's clients only (issue 13 item 5): a
 * user's own kafkajs producer and consumer, created in the same process after
 * sluice's clients exist, behave exactly as unpatched kafkajs 2.2.4, while
 * sluice's clients keep Produce v8 and the correct read_committed filter.
 */
import { createRequire } from 'node:module';
import kafkajs, { type Consumer, type Producer } from 'kafkajs';
import { afterEach, expect, it } from 'vitest';
import { createKafkaCluster } from '../../src/cluster/kafkajs/index.js';
import type { ClusterPort, RawProducerPort, WireRecord } from '../../src/cluster/port.js';
import { KafkaProtocolError } from '../../src/errors.js';
import { describeKafka, uniqueGroup, uniqueName, uniqueTopic, waitFor } from '../helpers/index.js';

const rec = (key: string | null, value: string): WireRecord => ({ key: key === null ? null : Buffer.from(key), value: Buffer.from(value), headers: {}, timestamp: Date.now() });
const require = createRequire(import.meta.url);
type ProduceDefinitions = { versions: string[]; protocol: unknown };

describeKafka('kafkajs patches are contained to sluice clients (real broker)', (brokers) => {
  const open: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).reverse().map((close) => close().catch(() => undefined)));
  });
  const sharedProduce = require('kafkajs/src/protocol/requests/produce/index.js') as ProduceDefinitions;
  const pristine = { versions: [...sharedProduce.versions], protocol: sharedProduce.protocol };

  async function sluiceProducer(cluster: ClusterPort, transactionalId?: string): Promise<RawProducerPort> {
    const p = cluster.producer({ transactionalId });
    open.push(() => p.close());
    await p.connect();
    return p;
  }
  function userKafka() {
    return new kafkajs.Kafka({ clientId: uniqueName('user'), brokers, logLevel: kafkajs.logLevel.NOTHING, retry: { retries: 2, initialRetryTime: 100 } });
  }
  async function userConsume(consumer: Consumer, topic: string, expected: number): Promise<string[]> {
    const seen: string[] = [];
    open.push(() => consumer.disconnect());
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void seen.push(message.value?.toString() ?? '') });
    await waitFor(() => seen.length >= expected, { message: `${expected} records`, timeoutMs: 20_000 });
    await new Promise((r) => setTimeout(r, 500));
    return seen;
  }

  it('a user producer speaks kafkajs’ own Produce version and gets kafkajs’ own errors; sluice’s gets v8 record_errors', async () => {
    const cluster = createKafkaCluster({ bootstrapServers: brokers });
    const admin = cluster.admin();
    open.push(() => admin.close());
    const topic = uniqueTopic('iso-v8');
    await admin.createTopic(topic, { partitions: 1, config: { 'cleanup.policy': 'compact' } });
    const mine = await sluiceProducer(cluster);
    const sluiceError = await mine.produce({ topic, partition: 0, records: [rec('k', 'good'), rec(null, 'bad')] }).catch((e: unknown) => e);
    expect(sluiceError).toBeInstanceOf(KafkaProtocolError);
    expect((sluiceError as KafkaProtocolError).recordErrors).toEqual([{ batchIndex: 1, message: expect.stringMatching(/without key/) }]);

    // the user's own kafkajs, after sluice's clients exist
    expect(require('kafkajs')).toBe(kafkajs);
    expect(sharedProduce.versions).toEqual(pristine.versions);
    expect(sharedProduce.protocol).toBe(pristine.protocol);
    const producer: Producer = userKafka().producer({ allowAutoTopicCreation: false, retry: { retries: 0 } });
    open.push(() => producer.disconnect());
    const versions: number[] = [];
    producer.on(producer.events.REQUEST, (e) => {
      if (e.payload.apiName === 'Produce') versions.push(e.payload.apiVersion);
    });
    await producer.connect();
    await producer.send({ topic, messages: [{ key: 'k', value: 'user-good' }] });
    const userError = await producer.send({ topic, messages: [{ key: null, value: 'user-bad' }] }).catch((e: unknown) => e);
    expect(versions.length).toBeGreaterThan(0);
    expect(new Set(versions)).toEqual(new Set([Math.max(...pristine.versions.map(Number))])); // 7: kafkajs' own maximum
    const root = (e: unknown): Record<string, unknown> => {
      const cause = (e as { cause?: unknown }).cause;
      return cause ? root(cause) : (e as Record<string, unknown>);
    };
    expect(root(userError)).toMatchObject({ name: 'KafkaJSProtocolError', type: 'INVALID_RECORD' });
    expect(root(userError)).not.toHaveProperty('recordErrors');
    expect(root(userError)).not.toHaveProperty('sluiceProduceV8');
    expect(root(userError)).toBeInstanceOf(kafkajs.KafkaJSProtocolError); // the shared class, not sluice's copy
  });

  it('a user read_committed consumer gives kafkajs’ own result (its interleaved-abort leak); sluice’s consumer filters correctly', async () => {
    const cluster = createKafkaCluster({ bootstrapServers: brokers });
    const admin = cluster.admin();
    open.push(() => admin.close());
    const topic = uniqueTopic('iso-rc');
    await admin.createTopic(topic, { partitions: 1 });
    // A writes offset 0, B offset 1, B aborts (2), A aborts (3): the broker lists B's abort before A's.
    const a = await sluiceProducer(cluster, uniqueName('iso-a'));
    const b = await sluiceProducer(cluster, uniqueName('iso-b'));
    await a.beginTransaction();
    await a.produce({ topic, partition: 0, records: [rec('k', 'aborted-a')] });
    await b.beginTransaction();
    await b.produce({ topic, partition: 0, records: [rec('k', 'aborted-b')] });
    await b.abortTransaction();
    await a.abortTransaction();
    const plain = await sluiceProducer(cluster);
    await plain.produce({ topic, partition: 0, records: [rec('k', 'committed')] });

    const consumer = cluster.consumer({ groupId: uniqueGroup('iso-sluice'), sessionTimeoutMs: 10_000, heartbeatIntervalMs: 500 });
    open.push(() => consumer.close());
    const sluiceSeen: string[] = [];
    await consumer.subscribe([topic]);
    await consumer.run({ onAssignment: async () => undefined, eachBatch: async (batch) => void sluiceSeen.push(...batch.records.map((r) => r.value!.toString())) });
    await waitFor(() => sluiceSeen.length >= 1, { message: 'sluice consumer', timeoutMs: 20_000 });

    // The user's consumer, created after sluice's: kafkajs 2.2.4's filterAbortedMessages, bug included.
    const userSeen = await userConsume(userKafka().consumer({ groupId: uniqueGroup('iso-user') }), topic, 2);
    expect(userSeen).toEqual(['aborted-a', 'committed']);
    expect(sluiceSeen).toEqual(['committed']);
    const uncommitted = await userConsume(userKafka().consumer({ groupId: uniqueGroup('iso-user-ru'), readUncommitted: true }), topic, 3);
    expect(uncommitted).toEqual(['aborted-a', 'aborted-b', 'committed']);
  });
});
