/**
 * A stream–table join over a VERSIONED table under SIGKILL (real Kafka, issue
 * 30, acceptance 2). The worker (fixtures/versioned-join-worker.ts,
 * exactly_once_v2) left-joins orders with a prices table materialized on
 * `Stores.persistentVersionedKeyValueStore`: each order joins the price valid
 * at the order's timestamp. The input comes in phases; each phase
 * 1. writes price updates out of order (late ones reach back into the previous
 *    phase's time window, some are tombstones) and waits until they are committed,
 * 2. writes orders whose timestamps spread over the same window (older and
 *    newer than the latest prices), and waits until they are committed.
 * Meanwhile the worker is SIGKILLed (open transaction, uncommitted offsets)
 * while it processes orders, and while it processes price updates, and is
 * restarted on the same state directory, once on a wiped one.
 *
 * Afterwards the read_committed output has every order exactly once, each
 * joined with the price its key had at the order's timestamp given the
 * prices written up to the order's phase (computed from the inputs with the
 * model of test/contract/support/versioned-model.ts).
 *
 * CI size: 4 phases, 3 kills (~30-60 s). The soak (`npm run soak:versioned`)
 * sets SOAK_VERSIONED_PHASES / SOAK_VERSIONED_ORDERS (orders per phase) /
 * SOAK_VERSIONED_STORE (persistent | in-memory).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import type { AdminPort } from '../../src/cluster/port.js';
import { createKafkaCluster } from '../../src/cluster/kafkajs/index.js';
import { partitionFor } from '../../src/records/partitioner.js';
import { seededRandom } from '../soak/chaos.js';
import { createTopic, describeKafka, uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { VersionedModel, keysOnPartitions, type Update } from '../contract/support/versioned-model.js';
import type { VersionedJoinTopics } from './fixtures/versioned-join-worker.js';
import { StateWorkerProcess } from './fixtures/state-worker-process.js';
import { readCommittedByMarkers } from './support.js';

const WORKER = fileURLToPath(new URL('./fixtures/versioned-join-worker.ts', import.meta.url));
const PARTITIONS = 3;
const PHASES = Number(process.env.SOAK_VERSIONED_PHASES ?? 4);
const ORDERS_PER_PHASE = Number(process.env.SOAK_VERSIONED_ORDERS ?? 240);
const STORE = process.env.SOAK_VERSIONED_STORE === 'in-memory' ? 'in-memory' : 'persistent';
/** Each phase's time window is WINDOW_S seconds; its prices and orders spread over it and the previous window. */
const WINDOW_S = 100;
/** No update is older than the retention here: every difference in the output is the version lookup's. */
const RETENTION_MS = Math.max(3_600_000, (PHASES + 2) * WINDOW_S * 1000);
/** Timestamps start well in the past so that the newest are not in the future; within the broker's retention. */
const BASE = Date.now() - (PHASES + 2) * WINDOW_S * 1000;
/** Two keys per partition. */
const KEYS = keysOnPartitions(PARTITIONS, 2, 'product').flat();
const PRICE_UPDATES_PER_KEY = 6;

type Row = { key: string; value: string | null; timestamp: number };

const workers: StateWorkerProcess[] = [];
const admins: AdminPort[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await Promise.all(admins.splice(0).map((a) => a.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes rows to the partition Kafka's default partitioner picks for their key, with their timestamps. */
async function produce(brokers: string[], topic: string, rows: readonly Row[]): Promise<void> {
  const producer = createKafkaCluster({ bootstrapServers: brokers }).producer({ clientId: 'versioned-join-crash-input' });
  await producer.connect();
  try {
    for (let p = 0; p < PARTITIONS; p++) {
      const records = rows.filter((r) => partitionFor(Buffer.from(r.key), PARTITIONS) === p).map((r) => ({ key: Buffer.from(r.key), value: r.value === null ? null : Buffer.from(r.value), headers: {}, timestamp: r.timestamp }));
      for (let i = 0; i < records.length; i += 500) await producer.produce({ topic, partition: p, records: records.slice(i, i + 500) });
    }
  } finally {
    await producer.close();
  }
}

/** The inputs of phase `k`: price updates (out of order, ~1 in 8 a tombstone) and orders over windows k-1 and k. */
function phaseInputs(k: number, random: () => number, firstOrder: number): { prices: Update[]; orders: Row[] } {
  const from = (k - 1) * WINDOW_S * 1000;
  const span = 2 * WINDOW_S * 1000;
  const prices: Update[] = [];
  for (const key of KEYS) {
    const times = new Set<number>();
    while (times.size < PRICE_UPDATES_PER_KEY) times.add(from + Math.floor(random() * span / 1000) * 1000);
    for (const t of times) prices.push({ key, timestamp: BASE + t, value: random() < 0.125 ? null : `${key}:p${k}@${t / 1000}` });
  }
  prices.sort(() => random() - 0.5); // across keys too: the topic order is not the time order
  const orders = Array.from({ length: ORDERS_PER_PHASE }, (_, i): Row => ({ key: KEYS[Math.floor(random() * KEYS.length)]!, value: `o-${firstOrder + i}`, timestamp: BASE + from + Math.floor(random() * span) }));
  return { prices, orders };
}

describeKafka('versioned-table join under SIGKILL (real Kafka)', (brokers) => {
  it(`${STORE}: every order exactly once, joined with the price version valid at its timestamp`, { timeout: 60_000 + PHASES * 45_000 }, async () => {
    const topics: VersionedJoinTopics = {
      prices: await createTopic(brokers, uniqueTopic('vjc-prices'), { partitions: PARTITIONS }),
      orders: await createTopic(brokers, uniqueTopic('vjc-orders'), { partitions: PARTITIONS }),
      output: await createTopic(brokers, uniqueTopic('vjc-output'), { partitions: PARTITIONS }),
    };
    const applicationId = uniqueGroup('versioned-join-crash');
    const admin = createKafkaCluster({ bootstrapServers: brokers }).admin();
    admins.push(admin);
    const committed = async (topic: string, count: number) => (await admin.committedOffsets(applicationId, topic)).reduce((s, o) => s + Math.max(0, o), 0) >= count;
    const start = (stateDir: string): StateWorkerProcess => {
      const w = new StateWorkerProcess({
        brokers, applicationId, input: topics.orders, output: topics.output, stateDir, worker: WORKER, commitIntervalMs: 100,
        extraEnv: { TOPICS: JSON.stringify(topics), HISTORY_RETENTION_MS: String(RETENTION_MS), STORE },
      });
      workers.push(w);
      return w;
    };
    const running = (w: StateWorkerProcess) => waitFor(() => w.running, { timeoutMs: 60_000, message: `worker running (stderr: ${w.stderr.join('')})` });
    const newDir = () => {
      dirs.push(mkdtempSync(join(tmpdir(), 'sluice-vjc-')));
      return dirs[dirs.length - 1]!;
    };

    const random = seededRandom(30);
    const model = new VersionedModel(PARTITIONS, RETENTION_MS);
    const expected = new Map<string, string>();
    let asOfDiffersFromLatest = 0;
    let [pricesWritten, ordersWritten, kills] = [0, 0, 0];
    let stateDir = newDir();
    let worker = start(stateDir);
    await running(worker);
    /** SIGKILL, then a new worker on the same state directory (or a wiped one). */
    const killAndRestart = async (wipe: boolean) => {
      await worker.stop('SIGKILL');
      kills += 1;
      if (wipe) stateDir = newDir();
      worker = start(stateDir);
    };

    for (let k = 0; k < PHASES; k++) {
      const { prices, orders } = phaseInputs(k, random, ordersWritten);
      // 1. prices, out of order; every third phase the worker is killed while it applies them
      for (const u of prices) model.put(u);
      await produce(brokers, topics.prices, prices);
      pricesWritten += prices.length;
      if (k % 3 === 2) await killAndRestart(false);
      await waitFor(() => committed(topics.prices, pricesWritten), { timeoutMs: 90_000, intervalMs: 300, message: `phase ${k}: ${pricesWritten} price updates committed` });
      // 2. orders: each joins the version valid at its timestamp (the truth, from the inputs)
      for (const o of orders) {
        const price = model.get(o.key, o.timestamp)?.value ?? 'none';
        expected.set(o.value!, `${o.key}|${o.value}|${price}`);
        if (price !== (model.get(o.key, Number.MAX_SAFE_INTEGER)?.value ?? 'none')) asOfDiffersFromLatest += 1;
      }
      const half = Math.floor(orders.length / 2);
      await produce(brokers, topics.orders, orders.slice(0, half));
      if (k % 3 !== 2 && k > 0) {
        // killed mid-run: after it has processed some of this phase's orders (on the same state directory; every third kill on a wiped one)
        const processed = worker.metrics?.recordsProcessed ?? 0;
        await waitFor(() => (worker.metrics?.recordsProcessed ?? 0) >= processed + 10, { timeoutMs: 60_000, message: `phase ${k}: the worker processes orders` });
        await killAndRestart(k % 3 === 0);
      }
      await produce(brokers, topics.orders, orders.slice(half));
      ordersWritten += orders.length;
      await waitFor(() => committed(topics.orders, ordersWritten), { timeoutMs: 90_000, intervalMs: 300, message: `phase ${k}: ${ordersWritten} orders committed` });
    }
    await worker.stop('SIGTERM');

    // the inputs make the versions matter, and the worker was killed as planned
    expect(asOfDiffersFromLatest).toBeGreaterThan(ordersWritten / 10);
    expect(kills).toBe(PHASES - 1);
    // every order exactly once, each with the price valid at its timestamp
    const output = (await readCommittedByMarkers(brokers, topics.output)).map((r) => `${r.key!.toString()}|${r.value!.toString()}`);
    const byOrder = new Map<string, string[]>();
    for (const line of output) byOrder.set(line.split('|')[1]!, [...(byOrder.get(line.split('|')[1]!) ?? []), line]);
    const duplicates = [...byOrder].filter(([, lines]) => lines.length > 1);
    const missing = [...expected.keys()].filter((id) => !byOrder.has(id));
    const wrong = [...byOrder].filter(([id, lines]) => lines[0] !== expected.get(id)).map(([id, lines]) => `${lines[0]} (expected ${expected.get(id)})`);
    expect({ duplicates: duplicates.slice(0, 5), missing: missing.slice(0, 5), wrong: wrong.slice(0, 5) }).toEqual({ duplicates: [], missing: [], wrong: [] });
    expect(output).toHaveLength(ordersWritten);
  });
});
