/**
 * Stream–stream join contract (issue 16): orders left-joined with payments
 * within a window, exactly once, on the embedded cluster and on real Kafka,
 * with a restart on a fresh state directory in the middle (so the join's
 * window stores and its shared store of waiting orders come back from their
 * changelogs). The committed output equals the truth: each paid order once
 * as `order+payment` stamped with the later timestamp, each unpaid order once
 * as `order+null` (emitted when stream time passed its window), nothing else.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { JoinWindows } from '../../src/topology/join-windows.js';
import { StreamJoined } from '../../src/topology/stream-joined.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { stateConfig } from '../integration/fixtures/state-api.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';

const S = Serdes.String();
const PARTITIONS = 3;
const ORDERS = 30;
/** Near the wall clock: a broker deletes old-timestamped records by retention (the join's changelogs have a window's retention). */
const T = Math.floor(Date.now() / 1000) * 1000 - 60_000;
/** Window: payments up to 60 s before or after their order, no grace. */
const WINDOW_MS = 60_000;

function topology(orders: string, payments: string, output: string) {
  const b = new StreamsBuilder();
  const left = b.stream<string, string>(orders, { keySerde: S, valueSerde: S });
  const right = b.stream<string, string>(payments, { keySerde: S, valueSerde: S });
  left
    .leftJoin(right, (order, payment) => `${order}+${String(payment)}`, JoinWindows.ofTimeDifferenceWithNoGrace(WINDOW_MS), StreamJoined.with(S, S, S).withStoreName('op'))
    .to(output, { keySerde: S, valueSerde: S });
  return b.build();
}

await describeOnEachBackend('stream-stream left join, exactly once, across a restart', (backend, fx) => {
  const apps: KafkaStreams[] = [];
  const dirs: string[] = [];
  const ctx = (): BackendContext => fx.ctx;
  const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs, intervalMs: 100, message });
  const timeout = backend.name === 'kafka' ? 180_000 : 60_000;

  async function produce(topic: string, records: Array<{ key: string; value: string; timestamp: number; partition: number }>): Promise<void> {
    const producer = ctx().cluster.producer({});
    await producer.connect();
    try {
      for (let p = 0; p < PARTITIONS; p++) {
        const mine = records.filter((r) => r.partition === p).map((r) => ({ key: Buffer.from(r.key), value: Buffer.from(r.value), headers: {}, timestamp: r.timestamp }));
        if (mine.length > 0) await producer.produce({ topic, partition: p, records: mine });
      }
    } finally {
      await producer.close();
    }
  }

  async function start(applicationId: string, orders: string, payments: string, output: string): Promise<KafkaStreams> {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-ssjoin-'));
    dirs.push(dir);
    const app = new KafkaStreams(topology(orders, payments, output), {
      cluster: ctx().cluster,
      ...ctx().consumerTiming,
      applicationId,
      processingGuarantee: 'exactly_once',
      commitIntervalMs: 100,
      ...stateConfig({ stateDir: dir, statestoreCacheMaxBytes: 0 }),
    });
    apps.push(app);
    await app.start();
    return app;
  }

  const committed = async (output: string) => (await ctx().read(output, 'read_committed')).map((r) => `${r.key!.toString()}=${r.value!.toString()}@${r.timestamp}`);

  it(
    'every paid order joins once, every unpaid one is emitted once with null after its window closed; the stores survive a restart on a fresh state dir',
    async () => {
      const [orders, payments, output] = [uniqueTopic(`orders-${backend.name}`), uniqueTopic(`payments-${backend.name}`), uniqueTopic(`paid-${backend.name}`)];
      for (const t of [orders, payments, output]) await ctx().admin.createTopic(t, { partitions: PARTITIONS });
      const order = (i: number) => ({ key: `o${i}`, value: `order${i}`, timestamp: T + i, partition: i % PARTITIONS });
      const payment = (i: number) => ({ key: `o${i}`, value: `pay${i}`, timestamp: T + i + 5, partition: i % PARTITIONS });
      const paid = Array.from({ length: ORDERS }, (_, i) => i).filter((i) => i % 2 === 0);
      const truth = Array.from({ length: ORDERS }, (_, i) => (i % 2 === 0 ? `o${i}=order${i}+pay${i}@${T + i + 5}` : `o${i}=order${i}+null@${T + i}`));
      const applicationId = uniqueGroup(`ssjoin-${backend.name}`);

      // 1. first run: all orders, the payments of the first half
      const first = await start(applicationId, orders, payments, output);
      await produce(orders, Array.from({ length: ORDERS }, (_, i) => order(i)));
      await produce(payments, paid.filter((i) => i < ORDERS / 2).map(payment));
      const firstJoins = paid.filter((i) => i < ORDERS / 2).length;
      await eventually(async () => (await committed(output)).length === firstJoins, `first run: ${firstJoins} joins committed`);
      await first.close();

      // 2. second run on a fresh state dir: the other payments find their orders in the restored window store
      await start(applicationId, orders, payments, output);
      await produce(payments, paid.filter((i) => i >= ORDERS / 2).map(payment));
      await eventually(async () => (await committed(output)).length === paid.length, `second run: all ${paid.length} joins committed`);

      // 3. advance stream time past every window (after the 1 s emit throttle): unpaid orders come out with null
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await produce(orders, Array.from({ length: PARTITIONS }, (_, p) => ({ key: `tick${p}`, value: 'tick', timestamp: T + 10 * WINDOW_MS, partition: p })));
      await eventually(async () => (await committed(output)).length >= ORDERS, `all ${ORDERS} results committed`);
      await new Promise((resolve) => setTimeout(resolve, 500));

      // 4. the truth, each once
      const results = await committed(output);
      expect([...results].sort()).toEqual([...truth].sort());
      const changelogs = await Promise.all(['op-this-join-store', 'op-outer-other-join-store', 'op-left-shared-join-store'].map((s) => ctx().admin.describeTopic(`${applicationId}-${s}-changelog`)));
      expect(changelogs.map((c) => c.partitions)).toEqual([PARTITIONS, PARTITIONS, PARTITIONS]);
      expect(changelogs.map((c) => c.config['cleanup.policy'])).toEqual(['delete', 'delete', 'compact']);
    },
    timeout,
  );

  afterEach(async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
});
