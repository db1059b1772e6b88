/**
 * JOINS under rebalance and crash (real Kafka): the joins app of
 * fixtures/join-topology.ts runs in worker processes; workers are killed
 * with SIGKILL (open transactions, uncommitted offsets) and replaced, which
 * also rebalances the tasks over the live workers, while
 * 1. orders stream through a stream–table join with the customers table, and
 * 2. customers move between regions and regions are renamed, flowing through
 *    a foreign-key join (subscription and response topics, state on both sides).
 * Afterwards every order is enriched exactly once with its customer's name,
 * and the foreign-key join's table (last value per key of its topic) equals
 * the join of the final customers and regions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import type { AdminPort } from '../../src/cluster/port.js';
import { createKafkaCluster } from '../../src/cluster/kafkajs/index.js';
import { partitionFor } from '../../src/records/partitioner.js';
import { createTopic, describeKafka, uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { Customer, CustomerRegion, EnrichedOrder, JoinTopics, Order, Region } from './fixtures/join-topology.js';
import { StateWorkerProcess } from './fixtures/state-worker-process.js';
import { readCommittedByMarkers } from './support.js';

const WORKER = fileURLToPath(new URL('./fixtures/join-worker.ts', import.meta.url));
const PARTITIONS = 3;
const REGION_PARTITIONS = 2;
const CUSTOMERS = 60;
const REGIONS = 5;
const ORDERS = 2_000;
const workers: StateWorkerProcess[] = [];
const admins: AdminPort[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await Promise.all(admins.splice(0).map((a) => a.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes JSON rows keyed by string to the partition Kafka's default partitioner picks (murmur2 of the key). */
async function produce(brokers: string[], topic: string, partitions: number, rows: ReadonlyArray<{ key: string; value: unknown }>): Promise<void> {
  const cluster = createKafkaCluster({ bootstrapServers: brokers });
  const producer = cluster.producer({ clientId: 'joins-crash-input' });
  await producer.connect();
  try {
    const byPartition = new Map<number, Array<{ key: Buffer; value: Buffer | null; headers: Record<string, never>; timestamp: number }>>();
    for (const row of rows) {
      const key = Buffer.from(row.key);
      const p = partitionFor(key, partitions);
      const list = byPartition.get(p) ?? [];
      list.push({ key, value: row.value === null ? null : Buffer.from(JSON.stringify(row.value)), headers: {}, timestamp: Date.now() });
      byPartition.set(p, list);
    }
    for (const [partition, records] of byPartition) {
      for (let i = 0; i < records.length; i += 500) await producer.produce({ topic, partition, records: records.slice(i, i + 500) });
    }
  } finally {
    await producer.close();
  }
}

const customer = (i: number, version: number): Customer => ({ id: `c-${i}`, name: `Customer ${i}`, regionId: `r-${(i + version) % REGIONS}` });
const region = (j: number, version: number): Region => ({ id: `r-${j}`, name: `Region ${j} v${version}` });

describeKafka('JOINS: stream-table and foreign-key joins under rebalance and SIGKILL (real Kafka)', (brokers) => {
  it('every order enriched exactly once; the foreign-key table equals the join of the final tables', { timeout: 300_000 }, async () => {
    const t: JoinTopics = {
      orders: await createTopic(brokers, uniqueTopic('jc-orders'), { partitions: PARTITIONS }),
      customers: await createTopic(brokers, uniqueTopic('jc-customers'), { partitions: PARTITIONS, config: { 'cleanup.policy': 'compact' } }),
      regions: await createTopic(brokers, uniqueTopic('jc-regions'), { partitions: REGION_PARTITIONS, config: { 'cleanup.policy': 'compact' } }),
      enriched: await createTopic(brokers, uniqueTopic('jc-enriched'), { partitions: PARTITIONS }),
      customerRegions: await createTopic(brokers, uniqueTopic('jc-customer-regions'), { partitions: PARTITIONS }),
    };
    const applicationId = uniqueGroup('joins-crash');
    const admin = createKafkaCluster({ bootstrapServers: brokers }).admin();
    admins.push(admin);
    const consumed = async (topic: string, rows: number): Promise<boolean> => (await admin.committedOffsets(applicationId, topic)).reduce((s, o) => s + Math.max(0, o), 0) >= rows;
    const start = (): StateWorkerProcess => {
      const stateDir = mkdtempSync(join(tmpdir(), 'sluice-joins-'));
      dirs.push(stateDir);
      const w = new StateWorkerProcess({ brokers, applicationId, input: t.orders, output: t.enriched, stateDir, worker: WORKER, extraEnv: { TOPICS: JSON.stringify(t) }, commitIntervalMs: 200 });
      workers.push(w);
      return w;
    };
    const running = (w: StateWorkerProcess) => waitFor(() => w.running, { timeoutMs: 60_000, message: `worker running (stderr: ${w.stderr.join('')})` });

    // 1. two workers; the tables' first versions, consumed before any order exists
    const a = start();
    const b = start();
    await Promise.all([running(a), running(b)]);
    await produce(brokers, t.regions, REGION_PARTITIONS, Array.from({ length: REGIONS }, (_, j) => ({ key: `r-${j}`, value: region(j, 0) })));
    await produce(brokers, t.customers, PARTITIONS, Array.from({ length: CUSTOMERS }, (_, i) => ({ key: `c-${i}`, value: customer(i, 0) })));
    await waitFor(async () => (await consumed(t.customers, CUSTOMERS)) && (await consumed(t.regions, REGIONS)), { timeoutMs: 60_000, intervalMs: 300, message: 'tables consumed' });

    // 2. orders; worker a is killed in the middle and replaced by c (tasks move: rebalance + crash)
    const orders: Order[] = Array.from({ length: ORDERS }, (_, n) => ({ id: `o-${n}`, customerId: `c-${n % CUSTOMERS}`, amount: n }));
    await produce(brokers, t.orders, PARTITIONS, orders.slice(0, ORDERS / 2).map((o) => ({ key: o.customerId, value: o })));
    await waitFor(() => (a.metrics?.commits ?? 0) > 0 && (a.metrics?.recordsProcessed ?? 0) > 0, { timeoutMs: 60_000, message: 'worker a committed work' });
    await a.stop('SIGKILL');
    const c = start();
    await produce(brokers, t.orders, PARTITIONS, orders.slice(ORDERS / 2).map((o) => ({ key: o.customerId, value: o })));
    await running(c);
    await waitFor(() => consumed(t.orders, ORDERS), { timeoutMs: 90_000, intervalMs: 500, message: 'all orders committed' });

    // 3. customers move region and regions are renamed; worker b is killed meanwhile and replaced by d
    await produce(brokers, t.customers, PARTITIONS, Array.from({ length: CUSTOMERS }, (_, i) => ({ key: `c-${i}`, value: customer(i, 1) })));
    await b.stop('SIGKILL');
    const d = start();
    await produce(brokers, t.regions, REGION_PARTITIONS, Array.from({ length: REGIONS }, (_, j) => ({ key: `r-${j}`, value: region(j, 1) })));
    await running(d);
    // one customer deleted: its foreign-key row must be deleted too
    await produce(brokers, t.customers, PARTITIONS, [{ key: 'c-0', value: null }]);

    // 4. the stream-table join: every order exactly once, with its customer's name
    const enriched = (await readCommittedByMarkers(brokers, t.enriched)).map((r) => JSON.parse(r.value!.toString()) as EnrichedOrder);
    expect(enriched).toHaveLength(ORDERS);
    expect(new Set(enriched.map((e) => e.orderId)).size).toBe(ORDERS);
    for (const e of enriched) expect(e.customerName).toBe(`Customer ${Number(e.customerId.slice(2))}`);

    // 5. the foreign-key join converges on the join of the final tables
    const truth = new Map<string, CustomerRegion>();
    for (let i = 1; i < CUSTOMERS; i++) {
      const cust = customer(i, 1);
      const j = Number(cust.regionId.slice(2));
      truth.set(cust.id, { customerId: cust.id, regionId: cust.regionId, regionName: region(j, 1).name });
    }
    let table = new Map<string, CustomerRegion | null>();
    await waitFor(
      async () => {
        table = new Map();
        for (const r of await readCommittedByMarkers(brokers, t.customerRegions)) table.set(r.key!.toString(), r.value === null ? null : (JSON.parse(r.value.toString()) as CustomerRegion));
        for (const [k, v] of [...table]) if (v === null) table.delete(k);
        return table.size === truth.size && [...truth].every(([k, v]) => JSON.stringify(table.get(k)) === JSON.stringify(v));
      },
      { timeoutMs: 90_000, intervalMs: 1_000, message: 'foreign-key join table equals the truth' },
    ).catch(() => undefined);
    expect(Object.fromEntries(table)).toEqual(Object.fromEntries(truth));
    await Promise.all([c.stop('SIGTERM'), d.stop('SIGTERM')]);
  });
});
