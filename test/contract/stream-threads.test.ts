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
 *    once; `metrics()` sums both threads; on Kafka some outputs were made by
 *    the worker thread (its module's topology tags them) and some by this
 *    one. close() stops both threads.
 * 2. On Kafka: a worker thread that cannot build the app (its module throws)
 *    fails the instance with an error naming the thread and the reason.
 */
import { afterEach, expect, it } from 'vitest';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import type { KafkaStreamsConfig } from '../../src/runtime/config.js';
import { kafkaBrokers, uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { describeOnEachBackend } from './support/handler-suite.js';
import { threadsTopology } from './support/threads-app.js';

const PARTITIONS = 4;
const RECORDS = 2000;
const MODULE = new URL('./support/threads-app.ts', import.meta.url);
const ENV = ['SLUICE_THREADS_TEST_INPUT', 'SLUICE_THREADS_TEST_OUTPUT'] as const;
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
  }
});
