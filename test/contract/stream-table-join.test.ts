/**
 * Stream–table join contract (issue 16), exactly once, on the embedded
 * cluster and on real Kafka: orders (key: order id, value: `<order id>@<customer id>`) are
 * re-keyed by customer and left-joined with the customers table
 * (`builder.table`, materialized and changelogged). Orders come on 3
 * partitions, customers on 2: the join's repartition topic is created with 2
 * (the table's count, as Kafka's co-partitioning). Customer updates and
 * deletes are interleaved with orders; the app is closed in the middle and
 * started again on a fresh state directory (the table is restored from its
 * changelog). The committed output equals the truth, each order once.
 * Second case: a join of topics with 3 and 2 partitions fails to start with
 * TOPICS_NOT_COPARTITIONED naming both.
 *
 * Each phase first writes the customer changes and waits until their
 * changelog records are committed (so they are in the table), then writes
 * the orders: what each order joins is then determined.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { partitionFor } from '../../src/records/partitioner.js';
import { Consumed, Joined, Materialized, StreamsBuilder } from '../../src/index.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';

const S = Serdes.String();
const STORE = 'customers-store';

/** One phase: customer changes (null: delete), then orders `[orderId, customerId]`. */
interface Phase {
  customers: Array<[string, string | null]>;
  orders: Array<[string, string]>;
}

const PHASES: Phase[] = [
  { customers: [['c1', 'Ada'], ['c2', 'Bob'], ['c3', 'Cy']], orders: [['o1', 'c1'], ['o2', 'c2'], ['o3', 'c4'], ['o4', 'c3']] },
  { customers: [['c1', 'Ada L.'], ['c2', null], ['c4', 'Dee']], orders: [['o5', 'c1'], ['o6', 'c2'], ['o7', 'c4'], ['o8', 'c3']] },
  // restart here
  { customers: [['c2', 'Bob II'], ['c3', null]], orders: [['o9', 'c2'], ['o10', 'c3'], ['o11', 'c1'], ['o12', 'c4']] },
  { customers: [['c1', null], ['c5', 'Eve'], ['c4', 'Dee K.']], orders: [['o13', 'c1'], ['o14', 'c5'], ['o15', 'c4'], ['o16', 'c2']] },
];

/** The joined value of an order: `<orderId>:<customer name or "none">`. */
const joinedValue = (orderId: string, name: string | null) => `${orderId}:${name ?? 'none'}`;

/** The true output: each order with the name its customer had when the order came, keyed by customer. */
function truth(): string[] {
  const table = new Map<string, string>();
  const out: string[] = [];
  for (const phase of PHASES) {
    for (const [id, name] of phase.customers) {
      if (name === null) table.delete(id);
      else table.set(id, name);
    }
    for (const [orderId, customer] of phase.orders) out.push(`${customer}=${joinedValue(orderId, table.get(customer) ?? null)}`);
  }
  return out.sort();
}

await describeOnEachBackend('stream-table join (exactly once, restart in the middle)', (backend, fx) => {
  const ctx = (): BackendContext => fx.ctx;
  const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs, intervalMs: 100, message });
  const timeout = backend.name === 'kafka' ? 180_000 : 60_000;

  function enrichment(orders: string, customers: string, output: string) {
    const builder = new StreamsBuilder();
    const table = builder.table(customers, Consumed.with(S, S), Materialized.as<string, string>(STORE));
    builder
      .stream(orders, Consumed.with(S, S))
      .selectKey((_orderId, order) => order.split('@')[1]!)
      .leftJoin(table, (order, name) => joinedValue(order.split('@')[0]!, name), Joined.with(S, S, S, 'orders-by-customer'))
      .to(output, { keySerde: S, valueSerde: S });
    return builder.build();
  }

  /** Writes `records` one by one: keyed by murmur2 of the key (as Java's producer), or round-robin over the partitions. */
  async function produce(topic: string, partitions: number, records: Array<[string, string | null]>, placement: 'by-key' | 'round-robin' = 'by-key'): Promise<void> {
    const producer = ctx().cluster.producer({});
    await producer.connect();
    try {
      for (const [i, [key, value]] of records.entries()) {
        const partition = placement === 'by-key' ? partitionFor(Buffer.from(key), partitions) : i % partitions;
        await producer.produce({ topic, partition, records: [{ key: Buffer.from(key), value: value === null ? null : Buffer.from(value), headers: {}, timestamp: Date.now() }] });
      }
    } finally {
      await producer.close();
    }
  }

  /** True when the last changelog record of each key of `table` has its value (null: a tombstone, or no record). */
  function sameRows(changelog: Array<{ key: Buffer | null; value: Buffer | null }>, table: ReadonlyMap<string, string | null>): boolean {
    const latest = new Map<string, string | null>();
    for (const r of changelog) latest.set(r.key!.toString(), r.value === null ? null : r.value.toString());
    return [...table].every(([id, name]) => (latest.get(id) ?? null) === name);
  }

  it(
    'orders enriched from a customers table with updates and deletes, restarted in the middle: the output equals the truth, each order once',
    async () => {
      const [orders, customers, output] = [uniqueTopic(`stj-orders-${backend.name}`), uniqueTopic(`stj-customers-${backend.name}`), uniqueTopic(`stj-out-${backend.name}`)];
      await ctx().admin.createTopic(orders, { partitions: 3 });
      await ctx().admin.createTopic(customers, { partitions: 2 });
      await ctx().admin.createTopic(output, { partitions: 2 });
      const applicationId = uniqueGroup(`stj-${backend.name}`);
      const changelog = `${applicationId}-${STORE}-changelog`;
      const dirs: string[] = [];
      const start = async () => {
        const stateDir = mkdtempSync(join(tmpdir(), 'sluice-stj-'));
        dirs.push(stateDir);
        const app = new KafkaStreams(enrichment(orders, customers, output), {
          cluster: ctx().cluster,
          ...ctx().consumerTiming,
          applicationId,
          processingGuarantee: 'exactly_once',
          commitIntervalMs: 100,
          stateDir,
          statestoreCacheMaxBytes: 0,
        });
        await app.start();
        return app;
      };
      const output$ = async () => (await ctx().read(output)).map((r) => `${r.key!.toString()}=${r.value!.toString()}`);
      let app = await start();
      try {
        const table = new Map<string, string | null>();
        let joined = 0;
        for (const [index, phase] of PHASES.entries()) {
          if (index === 2) {
            // restart in the middle, on a fresh state directory: the table comes back from its changelog
            await app.close();
            expect(app.state).toBe('NOT_RUNNING');
            app = await start();
          }
          await produce(customers, 2, phase.customers);
          for (const [id, name] of phase.customers) table.set(id, name);
          await eventually(async () => sameRows(await ctx().read(changelog), table), `phase ${index}: the table changes committed to ${changelog}`);
          await produce(orders, 3, phase.orders.map(([orderId, customer]) => [orderId, `${orderId}@${customer}`]), 'round-robin');
          joined += phase.orders.length;
          await eventually(async () => (await output$()).length === joined, `phase ${index}: ${joined} joined orders committed`);
        }
        // the repartition topic has the table's partition count, not the orders'
        expect((await ctx().admin.describeTopic(`${applicationId}-orders-by-customer-repartition`)).partitions).toBe(2);
        expect((await output$()).sort()).toEqual(truth());
      } finally {
        await app.close();
        for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
      }
    },
    timeout,
  );

  it(
    'a join of topics with 3 and 2 partitions fails to start with TOPICS_NOT_COPARTITIONED naming both',
    async () => {
      const [orders, customers] = [uniqueTopic(`stj-orders-${backend.name}`), uniqueTopic(`stj-customers-${backend.name}`)];
      await ctx().admin.createTopic(orders, { partitions: 3 });
      await ctx().admin.createTopic(customers, { partitions: 2 });
      const builder = new StreamsBuilder();
      builder.stream(orders, Consumed.with(S, S)).join(builder.table(customers, Consumed.with(S, S)), (o, c) => `${o}:${c}`).to(uniqueTopic('stj-unused'), { keySerde: S, valueSerde: S });
      const app = new KafkaStreams(builder.build(), { cluster: ctx().cluster, ...ctx().consumerTiming, applicationId: uniqueGroup(`stj-${backend.name}`) });
      try {
        const failure = await app.start().then(() => undefined, (error: unknown) => error);
        expect(failure).toMatchObject({ code: 'TOPICS_NOT_COPARTITIONED' });
        expect((failure as Error).message).toContain(`Topics not co-partitioned: [${orders} (3 partitions), ${customers} (2 partitions)]`);
        expect(app.state).toBe('ERROR');
      } finally {
        await app.close();
      }
    },
    timeout,
  );
});
