/**
 * Task input order and `maxTaskIdleMs` (KIP-353, KIP-695), on the embedded
 * cluster and on real Kafka: a stream left-joined with a table, both topics
 * with one partition (one task reads both). KIP-695's case: the app is
 * caught up, a stream record (timestamp 1000) comes, and a table update for
 * its key with an earlier timestamp (500) is produced after it.
 * - `maxTaskIdleMs` 3000: the task waits for the empty, caught-up table
 *   partition; the update arrives, has the lower timestamp, is processed
 *   first: the join sees it;
 * - `maxTaskIdleMs` -1 (never wait): the stream record is processed as it
 *   comes: the join sees no customer (this is what makes the first case
 *   prove something);
 * - `maxTaskIdleMs` 1000 and no table update: the stream record is processed
 *   once the idle time passed (enforced processing, counted in the metrics);
 * - commits while a record waits: the committed offset of its partition stays
 *   before it (a commit covers processed records only), also at the clean close.
 * Every case first loads a customer (timestamp 0) before the app starts and
 * waits until it is processed: the empty orders partition holds it for
 * `maxTaskIdleMs`, as in Kafka. As in Kafka's `PartitionGroup`, a partition
 * given up on stays given up until it has data again, so the stream record
 * of each case is the first record of the orders partition.
 */
import { afterEach, expect, it } from 'vitest';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { Consumed, StreamsBuilder } from '../../src/index.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { describeOnEachBackend } from './support/handler-suite.js';

const S = Serdes.String();

await describeOnEachBackend('task input order and maxTaskIdleMs (KIP-695)', (backend, fx) => {
  const timeout = backend.name === 'embedded' ? 60_000 : 180_000;
  const apps: KafkaStreams[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  async function setup(maxTaskIdleMs: number, before?: (produce: (topic: 'orders' | 'customers', key: string, value: string, timestamp: number) => Promise<void>) => Promise<void>) {
    const ctx = fx.ctx;
    const [orders, customers, output] = [uniqueTopic('idle-orders'), uniqueTopic('idle-customers'), uniqueTopic('idle-out')];
    for (const topic of [orders, customers, output]) await ctx.admin.createTopic(topic, { partitions: 1 });
    const produce = async (topic: string, key: string, value: string, timestamp: number): Promise<void> => {
      const producer = ctx.cluster.producer({});
      await producer.connect();
      try {
        await producer.produce({ topic, partition: 0, records: [{ key: Buffer.from(key), value: Buffer.from(value), headers: {}, timestamp }] });
      } finally {
        await producer.close();
      }
    };
    const builder = new StreamsBuilder();
    const table = builder.table(customers, Consumed.with(S, S));
    builder.stream(orders, Consumed.with(S, S)).leftJoin(table, (order, name) => `${order}:${name ?? 'none'}`).to(output, { keySerde: S, valueSerde: S });
    // a customer before the start, processed once the empty orders partition was waited for
    await produce(customers, 'c0', 'Zed', 0);
    await before?.((topic, key, value, timestamp) => produce(topic === 'orders' ? orders : customers, key, value, timestamp));
    const applicationId = uniqueGroup('idle');
    const app = new KafkaStreams(builder.build(), {
      cluster: ctx.cluster, ...ctx.consumerTiming, applicationId, processingGuarantee: 'exactly_once', commitIntervalMs: 100,
      statestoreCacheMaxBytes: 0, maxTaskIdleMs,
    });
    apps.push(app);
    await app.start();
    await waitFor(() => app.metrics().recordsProcessed === 1, { timeoutMs: ctx.patienceMs + Math.max(0, maxTaskIdleMs), intervalMs: 50 });
    const joined = async () => (await ctx.read(output)).map((r) => `${r.key?.toString()}=${r.value?.toString()}`);
    const eventually = (count: number, timeoutMs = ctx.patienceMs) => waitFor(async () => ((await joined()).length >= count ? joined() : false), { timeoutMs, intervalMs: 100 });
    return { app, produce, orders, customers, eventually, applicationId };
  }

  it(
    'maxTaskIdleMs 3000: a table update produced after a stream record but with an earlier timestamp is seen by the join',
    async () => {
      const { produce, orders, customers, eventually, app } = await setup(3000);
      await produce(orders, 'c1', 'o1', 1000);
      await new Promise((resolve) => setTimeout(resolve, 500)); // the order is fetched and waits for the table
      await produce(customers, 'c1', 'Ada', 500);
      // Ada first (timestamp 500); then o1 waits once more for the table partition, empty again (Kafka's readyToProcess)
      expect(await eventually(1, fx.ctx.patienceMs + 3000)).toEqual(['c1=o1:Ada']);
      expect(app.metrics().recordsProcessed).toBe(3);
    },
    timeout,
  );

  it(
    'maxTaskIdleMs -1 (never wait): the same stream record is joined as it comes, before the update',
    async () => {
      const { produce, orders, customers, eventually, app } = await setup(-1);
      await produce(orders, 'c1', 'o1', 1000);
      expect(await eventually(1)).toEqual(['c1=o1:none']);
      await produce(customers, 'c1', 'Ada', 500);
      await produce(orders, 'c1', 'o2', 1001);
      expect(await eventually(2)).toEqual(['c1=o1:none', 'c1=o2:Ada']);
      expect(app.metrics().enforcedProcessing).toBe(0);
    },
    timeout,
  );

  it(
    'maxTaskIdleMs 1000 with no table update: the stream record is processed once the idle time passed (enforced processing)',
    async () => {
      const { produce, orders, eventually, app } = await setup(1000);
      const sentAt = Date.now();
      await produce(orders, 'c2', 'o3', 2000);
      expect(await eventually(1, fx.ctx.patienceMs + 1000)).toEqual(['c2=o3:none']);
      expect(Date.now() - sentAt).toBeGreaterThanOrEqual(1000);
      // the customer waited for the orders partition, the order for the customers partition
      expect(app.metrics().enforcedProcessing).toBe(2);
    },
    timeout,
  );

  it(
    'commits while a record waits for the idle time: its partition\'s committed offset stays before it, also at the clean close',
    async () => {
      // the order (timestamp 1000) is there at the start with the customer (timestamp 0): the customer is processed, the order waits 60 s
      const { app, orders, customers, applicationId } = await setup(60_000, (produce) => produce('orders', 'c1', 'o1', 1000));
      const admin = fx.ctx.admin;
      await waitFor(async () => (await admin.committedOffsets(applicationId, customers))[0] === 1, { timeoutMs: fx.ctx.patienceMs, intervalMs: 100 });
      expect(app.metrics().recordsProcessed).toBe(1);
      expect((await admin.committedOffsets(applicationId, orders))[0] ?? -1).toBeLessThanOrEqual(0);
      await app.close();
      expect((await admin.committedOffsets(applicationId, orders))[0] ?? -1).toBeLessThanOrEqual(0);
      expect((await admin.committedOffsets(applicationId, customers))[0]).toBe(1);
    },
    timeout,
  );
});
