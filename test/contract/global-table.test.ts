/**
 * GlobalKTable contract (issue 16): a stream of orders joins a global table
 * of customers, exactly_once, on the embedded cluster and on real Kafka.
 * - two instances: each keeps every customer of every global partition, and
 *   every order (from both stream partitions, whichever instance owns them)
 *   joins its customer;
 * - a restart: the customers written while the app was down are restored
 *   before start() resolves (RUNNING), so orders piped right after start
 *   join them without a miss; customers written while running are seen.
 * The expected outputs are computed from what was written (the truth).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { Materialized, QueryableStoreTypes, type ReadOnlyKeyValueStore, type StateRestoreListener } from '../../src/index.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';

const S = Serdes.String();
const STORE = 'customers-store';

await describeOnEachBackend('GlobalKTable: stream-global join, exactly once', (backend, fx) => {
  const apps: KafkaStreams[] = [];
  const dirs: string[] = [];
  const ctx = (): BackendContext => fx.ctx;
  const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs, intervalMs: 100, message });
  const timeout = backend.name === 'kafka' ? 180_000 : 60_000;

  const cleanup = async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  };
  const stateDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-global-'));
    dirs.push(dir);
    return dir;
  };

  async function topics() {
    const t = { orders: uniqueTopic(`orders-${backend.name}`), customers: uniqueTopic(`customers-${backend.name}`), out: uniqueTopic(`enriched-${backend.name}`) };
    await ctx().admin.createTopic(t.orders, { partitions: 2 });
    await ctx().admin.createTopic(t.customers, { partitions: 3 });
    await ctx().admin.createTopic(t.out, { partitions: 2 });
    return t;
  }

  /** Writes `records` ([key, value, partition]) non-transactionally. */
  async function produce(topic: string, records: Array<[string, string | null, number]>): Promise<void> {
    const producer = ctx().cluster.producer({});
    await producer.connect();
    try {
      for (const [key, value, partition] of records) {
        await producer.produce({ topic, partition, records: [{ key: Buffer.from(key), value: value === null ? null : Buffer.from(value), headers: {}, timestamp: Date.now() }] });
      }
    } finally {
      await producer.close();
    }
  }

  async function start(t: { orders: string; customers: string; out: string }, applicationId: string, dir: string, listener?: StateRestoreListener) {
    const builder = new StreamsBuilder();
    const customers = builder.globalTable(t.customers, { keySerde: S, valueSerde: S }, Materialized.as<string, string>(STORE));
    builder
      .stream(t.orders, { keySerde: S, valueSerde: S })
      .join(customers, (_orderId, customerId) => customerId, (customerId, customer) => `${customerId}=${customer}`)
      .to(t.out, { keySerde: S, valueSerde: S });
    const app = new KafkaStreams(builder.build(), {
      cluster: ctx().cluster,
      ...ctx().consumerTiming,
      applicationId,
      processingGuarantee: 'exactly_once',
      commitIntervalMs: 100,
      stateDir: dir,
      statestoreCacheMaxBytes: 0,
    });
    if (listener) app.setGlobalStateRestoreListener(listener);
    apps.push(app);
    await app.start();
    return app;
  }

  const storeOf = (app: KafkaStreams) => app.store<ReadOnlyKeyValueStore<string, string>>({ storeName: STORE, queryableStoreType: QueryableStoreTypes.keyValueStore<string, string>() });
  const outputs = async (out: string) => (await ctx().read(out)).map((r) => `${r.key!.toString()}:${r.value!.toString()}`).sort();

  it('two instances: each keeps every global row, every order of both stream partitions joins', { timeout }, async () => {
    try {
      const t = await topics();
      const customers: Array<[string, string, number]> = Array.from({ length: 6 }, (_, i) => [`c${i}`, `name${i}`, i % 3]);
      await produce(t.customers, customers);
      const applicationId = uniqueGroup(`global-${backend.name}`);
      const [a, b] = await Promise.all([start(t, applicationId, stateDir()), start(t, applicationId, stateDir())]);
      // both instances hold every row of the three global partitions
      for (const app of [a, b]) expect(storeOf(app).all().map((e) => `${e.key}=${e.value}`).sort()).toEqual(customers.map(([k, v]) => `${k}=${v}`).sort());
      const orders: Array<[string, string, number]> = [];
      for (let i = 0; i < 12; i++) orders.push([`o${i}`, `c${i % 6}`, i % 2]);
      await produce(t.orders, orders);
      const truth = orders.map(([id, c]) => `${id}:${c}=name${c.slice(1)}`).sort();
      await eventually(async () => (await outputs(t.out)).length >= truth.length, `all ${truth.length} joined orders committed`);
      expect(await outputs(t.out)).toEqual(truth);
    } finally {
      await cleanup();
    }
  });

  it('restart: rows written while down are restored before RUNNING; rows written while running are seen', { timeout }, async () => {
    try {
      const t = await topics();
      const applicationId = uniqueGroup(`global-restart-${backend.name}`);
      const dir = stateDir();
      await produce(t.customers, [['c0', 'basic', 0], ['c1', 'one', 1]]);
      const first = await start(t, applicationId, dir);
      expect(storeOf(first).get('c0')).toBe('basic');
      await first.close();
      // while down: an update, a delete and new rows, on every global partition
      await produce(t.customers, [['c0', 'gold', 0], ['c2', 'two', 2], ['c3', 'three', 0], ['c1', null, 1]]);
      const restored: string[] = [];
      const second = await start(t, applicationId, dir, { onRestoreEnd: (tp, store, total) => restored.push(`${store}@${tp.partition}:${total}`) });
      // restored from the checkpoint before start() resolved: only what was written while down
      expect(restored.sort()).toEqual([`${STORE}@0:2`, `${STORE}@1:1`, `${STORE}@2:1`]);
      expect(storeOf(second).all().map((e) => `${e.key}=${e.value}`).sort()).toEqual(['c0=gold', 'c2=two', 'c3=three']);
      // orders piped right after start: no miss (c1 was deleted: its order joins nothing)
      await produce(t.orders, [['o1', 'c0', 0], ['o2', 'c3', 1], ['o3', 'c2', 0], ['o0', 'c1', 1]]);
      await eventually(async () => (await outputs(t.out)).length >= 3, 'the three orders joined');
      // a row written while running is seen by the next order
      await produce(t.customers, [['c4', 'four', 1]]);
      await eventually(() => storeOf(second).get('c4') === 'four', 'the running app sees the new customer');
      await produce(t.orders, [['o4', 'c4', 1], ['o5', 'missing', 0]]);
      await eventually(async () => (await outputs(t.out)).length >= 4, 'the fourth order joined');
      await second.close();
      expect(await outputs(t.out)).toEqual(['o1:c0=gold', 'o2:c3=three', 'o3:c2=two', 'o4:c4=four']);
    } finally {
      await cleanup();
    }
  });
});
