/**
 * `numStreamThreads: 2` (Kafka's `num.stream.threads`, issue 32), exactly
 * once, on the embedded cluster and on real Kafka. On Kafka the app names a
 * `streamThreadModule` (./support/threads-app.ts), so thread 2 runs on a
 * worker thread with its own event loop; on the embedded cluster it runs on
 * the instance's event loop (the cluster lives in this thread's memory).
 *
 * 1. 2,000 records over 4 partitions: each thread is its own group member
 *    (`<clientId>-StreamThread-<n>`, its own consumer) and owns active tasks,
 *    together every task once; every input is in read_committed output exactly
 *    once; `metrics()` and the live UI's `/snapshot` (tasks, records per node)
 *    cover both threads; on Kafka some outputs were made by
 *    the worker thread (its module's topology tags them) and some by this
 *    one. close() stops both threads.
 * 2. A count per key (persistent store) on two threads, closed and started
 *    again on the same state directory: thread 2 keeps its state in
 *    `<stateDir>/<applicationId>/stream-thread-2`, every count is exact after
 *    the restart (read_committed), and `app.store()` answers for the keys of
 *    both threads, from a key-value and a window store (on Kafka, thread 2's
 *    stores are read on its worker thread).
 * 3. On Kafka: a worker thread that cannot build the app (its module throws)
 *    fails the instance with an error naming the thread and the reason; so
 *    does a module that starts threads again (the main script given as its
 *    own `streamThreadModule`).
 */
import { afterEach, expect, it } from 'vitest';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import type { KafkaStreamsConfig } from '../../src/runtime/config.js';
import { kafkaBrokers, uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { describeOnEachBackend } from './support/handler-suite.js';
import { countTopology, threadsTopology } from './support/threads-app.js';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryableStoreTypes } from '../../src/runtime/interactive-queries.js';

const PARTITIONS = 4;
const RECORDS = 2000;
const MODULE = new URL('./support/threads-app.ts', import.meta.url);
const ENV = ['SLUICE_THREADS_TEST_KIND', 'SLUICE_THREADS_TEST_INPUT', 'SLUICE_THREADS_TEST_OUTPUT', 'SLUICE_THREADS_TEST_APP', 'SLUICE_THREADS_TEST_BROKERS'] as const;
const apps: KafkaStreams[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
  for (const key of ENV) delete process.env[key];
});

await describeOnEachBackend('stream threads (numStreamThreads: 2)', (backend, fx) => {
  const onKafka = backend.name !== 'embedded';
  const timeout = onKafka ? 120_000 : 60_000;

  const appConfig = (applicationId: string): KafkaStreamsConfig => ({
    applicationId,
    processingGuarantee: 'exactly_once',
    commitIntervalMs: 100,
    numStreamThreads: 2,
    ...fx.ctx.consumerTiming,
    ...(onKafka ? { bootstrapServers: kafkaBrokers() ?? [], streamThreadModule: MODULE } : { cluster: fx.ctx.cluster }),
  });

  const produce = async (topic: string): Promise<void> => {
    const producer = fx.ctx.cluster.producer({});
    await producer.connect();
    try {
      for (let p = 0; p < PARTITIONS; p++) {
        const records = [];
        for (let i = p; i < RECORDS; i += PARTITIONS) records.push({ key: Buffer.from(`k${i}`), value: Buffer.from(String(i)), headers: {}, timestamp: Date.now() });
        await producer.produce({ topic, partition: p, records });
      }
    } finally {
      await producer.close();
    }
  };

  it('two threads, two group members, every task once, every input once; metrics sum both', { timeout }, async () => {
    const input = uniqueTopic('threads-in');
    const output = uniqueTopic('threads-out');
    await fx.ctx.admin.createTopic(input, { partitions: PARTITIONS });
    await fx.ctx.admin.createTopic(output, { partitions: PARTITIONS });
    process.env.SLUICE_THREADS_TEST_INPUT = input;
    process.env.SLUICE_THREADS_TEST_OUTPUT = output;
    const applicationId = uniqueGroup('threads-app');
    const app = new KafkaStreams(threadsTopology(input, output, 'main'), appConfig(applicationId));
    apps.push(app);
    await app.start();
    await produce(input);
    await waitFor(() => app.metrics().recordsProcessed >= RECORDS && app.metrics().commits > 0, { timeoutMs: fx.ctx.patienceMs * 4, message: 'both threads processed every record' });

    const threads = app.metadataForLocalThreads();
    expect(threads.map((t) => [t.threadName, t.consumerClientId])).toEqual([
      [`${applicationId}-StreamThread-1`, `${applicationId}-consumer`],
      [`${applicationId}-StreamThread-2`, `${applicationId}-StreamThread-2-consumer`],
    ]);
    const tasksOf = (n: number) => threads[n]!.activeTasks.map((t) => t.taskId).sort();
    expect(tasksOf(0).length, 'thread 1 owns tasks').toBeGreaterThan(0);
    expect(tasksOf(1).length, 'thread 2 owns tasks').toBeGreaterThan(0);
    expect([...tasksOf(0), ...tasksOf(1)].sort()).toEqual(['0_0', '0_1', '0_2', '0_3']);
    expect(app.metrics().recordsProcessed).toBe(RECORDS);
    // the live UI shows every thread's tasks and counts every thread's records per node
    const ui = await app.serveUi({ port: 0 });
    try {
      await waitFor(async () => ((await (await fetch(`${ui.url}snapshot`)).json()) as { tasks: unknown[] }).tasks.length === PARTITIONS, { timeoutMs: 5000, message: 'UI lists 4 tasks' });
      const snap = (await (await fetch(`${ui.url}snapshot`)).json()) as { tasks: Array<{ id: string }>; nodes: Record<string, number> };
      expect(snap.tasks.map((t) => t.id).sort()).toEqual(['0_0', '0_1', '0_2', '0_3']);
      expect(Math.max(...Object.values(snap.nodes))).toBe(RECORDS);
    } finally {
      await ui.close();
    }

    await waitFor(async () => (await fx.ctx.read(output, 'read_committed')).length >= RECORDS, { timeoutMs: fx.ctx.patienceMs * 2, message: 'every output committed' });
    const outputs = await fx.ctx.read(output, 'read_committed');
    const seen = outputs.map((r) => Number(r.value!.toString().split('@')[0]));
    expect(seen.length).toBe(RECORDS);
    expect(new Set(seen).size).toBe(RECORDS);
    // who made the outputs: on Kafka thread 2 is a worker thread running the module's topology (tag 'worker')
    const tags = new Set(outputs.map((r) => r.value!.toString().split('@')[1]));
    expect([...tags].sort()).toEqual(onKafka ? ['main', 'worker'] : ['main']);

    await app.close();
    expect(app.state).toBe('NOT_RUNNING');
    expect(app.metadataForLocalThreads()[1]!.threadState).toBe('NOT_RUNNING');
  });

  it('a count per key on two threads survives a restart on the same state directory, each thread in its own folder', { timeout: timeout * 2 }, async () => {
    const input = uniqueTopic('threads-count-in');
    const output = uniqueTopic('threads-count-out');
    await fx.ctx.admin.createTopic(input, { partitions: PARTITIONS });
    await fx.ctx.admin.createTopic(output, { partitions: PARTITIONS });
    Object.assign(process.env, { SLUICE_THREADS_TEST_KIND: 'count', SLUICE_THREADS_TEST_INPUT: input, SLUICE_THREADS_TEST_OUTPUT: output });
    const applicationId = uniqueGroup('threads-count');
    const stateDir = mkdtempSync(join(tmpdir(), 'sluice-threads-'));
    const KEYS = 40;
    const produceRound = async (): Promise<void> => {
      const producer = fx.ctx.cluster.producer({});
      await producer.connect();
      try {
        for (let p = 0; p < PARTITIONS; p++) {
          const records = [];
          for (let i = 0; i < 10 * KEYS; i++) if (i % PARTITIONS === p) records.push({ key: Buffer.from(`key-${i % KEYS}`), value: Buffer.from('x'), headers: {}, timestamp: Date.now() });
          await producer.produce({ topic: input, partition: p, records });
        }
      } finally {
        await producer.close();
      }
    };
    const run = async (round: number): Promise<KafkaStreams> => {
      const app = new KafkaStreams(countTopology(input, output), { ...appConfig(applicationId), stateDir });
      apps.push(app);
      await app.start();
      await produceRound();
      await waitFor(() => app.metrics().recordsProcessed >= 10 * KEYS && app.metrics().commits > 0, { timeoutMs: fx.ctx.patienceMs * 4, message: `round ${round} processed` });
      return app;
    };
    try {
      const first = await run(1);
      await first.close();
      const threadDir = join(stateDir, applicationId, 'stream-thread-2');
      expect(existsSync(threadDir), 'thread 2 keeps its state in its own folder').toBe(true);
      expect(readdirSync(threadDir).filter((n) => /^\d+_\d+$/.test(n)).length, 'thread 2 task folders').toBeGreaterThan(0);

      const second = await run(2);
      const latest = async (): Promise<Map<string, number>> => {
        const counts = new Map<string, number>();
        for (const r of await fx.ctx.read(output, 'read_committed')) counts.set(r.key!.toString(), Number(r.value!.readBigInt64BE()));
        return counts;
      };
      await waitFor(async () => [...(await latest()).values()].filter((n) => n === 20).length === KEYS, { timeoutMs: fx.ctx.patienceMs * 4, message: 'every key counted 20 after the restart' });
      const counts = await latest();
      expect(counts.size).toBe(KEYS);
      expect([...counts.values()].every((n) => n === 20)).toBe(true);
      // the instance's store view reads both threads (on Kafka thread 2's stores are read on its worker thread)
      await waitFor(() => second.state === 'RUNNING' && second.metadataForLocalThreads().every((t) => t.activeTasks.length > 0), {
        timeoutMs: fx.ctx.patienceMs,
        message: 'RUNNING, both threads owning tasks',
      });
      const store = second.store({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() });
      for (let k = 0; k < KEYS; k++) expect(store.get(`key-${k}`), `key-${k}`).toBe(20);
      expect(store.all().length).toBe(KEYS);
      expect(store.approximateNumEntries()).toBe(KEYS);
      // a window store too: every record counted once in some hour window of its key
      const hourly = second.store({ storeName: 'hourly', queryableStoreType: QueryableStoreTypes.windowStore<string, number>() });
      const windows = hourly.fetchAll(0, Date.now());
      expect(new Set(windows.map((w) => w.key.key)).size).toBe(KEYS);
      expect(windows.reduce((sum, w) => sum + w.value, 0)).toBe(20 * KEYS);
      expect(hourly.fetch('key-7', 0, Date.now()).reduce((sum, w) => sum + w.value, 0)).toBe(20);
      await second.close();
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  if (onKafka) {
    it('a worker thread that cannot build the app fails the instance, naming the thread and the reason', { timeout }, async () => {
      const input = uniqueTopic('threads-bad-in');
      const output = uniqueTopic('threads-bad-out');
      await fx.ctx.admin.createTopic(input, { partitions: 2 });
      await fx.ctx.admin.createTopic(output, { partitions: 2 });
      // no SLUICE_THREADS_TEST_* in the environment: the module's topology() throws on the worker thread
      const app = new KafkaStreams(threadsTopology(input, output, 'main'), appConfig(uniqueGroup('threads-bad')));
      apps.push(app);
      await expect(app.start()).rejects.toThrow(/Stream thread 2 failed: .*SLUICE_THREADS_TEST_INPUT and SLUICE_THREADS_TEST_OUTPUT must be set/);
      expect(app.state).toBe('ERROR');
    });

    it('a streamThreadModule that starts an app with threads itself is refused on the worker thread, naming the fix', { timeout }, async () => {
      const input = uniqueTopic('threads-nested-in');
      const output = uniqueTopic('threads-nested-out');
      await fx.ctx.admin.createTopic(input, { partitions: 2 });
      await fx.ctx.admin.createTopic(output, { partitions: 2 });
      const applicationId = uniqueGroup('threads-nested');
      Object.assign(process.env, { SLUICE_THREADS_TEST_INPUT: input, SLUICE_THREADS_TEST_OUTPUT: output, SLUICE_THREADS_TEST_APP: applicationId, SLUICE_THREADS_TEST_BROKERS: (kafkaBrokers() ?? []).join(',') });
      const app = new KafkaStreams(threadsTopology(input, output, 'main'), { ...appConfig(applicationId), streamThreadModule: new URL('./support/threads-main-script.ts', import.meta.url) });
      apps.push(app);
      await expect(app.start()).rejects.toThrow(/Stream thread 2 failed: .*numStreamThreads 2 was started on stream thread 2: 'streamThreadModule' must name a module that only defines the app/);
      expect(app.state).toBe('ERROR');
    });
  }
});
