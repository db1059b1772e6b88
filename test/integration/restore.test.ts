/**
 * Restoration of state stores (real Kafka): the cases of Kafka Streams'
 * RestoreIntegrationTest
 * (streams/src/test/java/org/apache/kafka/streams/integration/RestoreIntegrationTest.java)
 * that apply without KTables, and the restart cost of issue 15 with the
 * restore listener's counts: an in-memory store restores everything, a
 * persistent one restores nothing after a clean stop and at most its last
 * committed transaction after a SIGKILL (of a child worker, as crash.test.ts).
 *
 * Each case first checks what works without durable state (records
 * processed, the app restarted), then the continued state, then the restore
 * counts, then store contents through `app.store()`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createKafkaCluster } from '../../src/cluster/kafkajs/index.js';
import type { AdminPort } from '../../src/cluster/port.js';
import type { Processor, ProcessorContext } from '../../src/processors/processor.js';
import type { KeyValueStore } from '../../src/state/state-store.js';
import { Stores } from '../../src/state/stores.js';
import { partitionFor } from '../../src/records/partitioner.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import type { AppState } from '../../src/runtime/internal/app-state.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { createTopic, describeKafka, quietKafka, uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { computeExpectedResult, lastCommittedTransactionSizes, perKey, prepareData, readCommitted, writeInputData } from './fixtures/long-io.js';
import { queryKeyValueStore, recordRestores, stateConfig, type StoreQuery } from './fixtures/state-api.js';
import { StateWorkerProcess } from './fixtures/state-worker-process.js';
import { STORE_NAME, sumTopology } from './fixtures/sum-topology.js';

const I = Serdes.Integer();
const apps: KafkaStreams[] = [];
const workers: StateWorkerProcess[] = [];
const admins: AdminPort[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await Promise.all(apps.splice(0).map((a) => a.close()));
  await Promise.all(admins.splice(0).map((a) => a.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-restore-'));
  dirs.push(dir);
  return dir;
};

/** Every entry of `storeName` (retried while it restores). */
async function storeContent<K, V>(app: KafkaStreams, storeName: string): Promise<StoreQuery<K, V>> {
  let last: StoreQuery<K, V> = { ok: false, reason: 'not queried' };
  await waitFor(() => (last = queryKeyValueStore<K, V>(app, storeName)).ok, { timeoutMs: 10_000, intervalMs: 200 }).catch(() => undefined);
  return last;
}

describeKafka('RESTORE (real Kafka): RestoreIntegrationTest cases and the restart cost', (brokers) => {
  const admin = () => {
    const a = createKafkaCluster({ bootstrapServers: brokers }).admin();
    admins.push(a);
    return a;
  };

  /** RestoreIntegrationTest.props: cache disabled, Integer default serdes, commit every 1000 ms, earliest. */
  function props(applicationId: string, stateDir: string) {
    return {
      applicationId,
      bootstrapServers: brokers,
      defaultKeySerde: I,
      defaultValueSerde: I,
      commitIntervalMs: 1000,
      autoOffsetReset: 'earliest' as const,
      sessionTimeoutMs: 10_000,
      heartbeatIntervalMs: 500,
      ...stateConfig({ stateDir, statestoreCacheMaxBytes: 0 }),
    };
  }

  /** RestoreIntegrationTest.createStateForRestoration: keys = values = startingOffset + i, i < numberOfKeys (Integer), Kafka's default partitioner. */
  async function createStateForRestoration(topic: string, startingOffset: number, numberOfKeys: number, partitions: number): Promise<void> {
    const producer = quietKafka(brokers).producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    try {
      const messages = Array.from({ length: numberOfKeys }, (_, i) => {
        const bytes = I.serialize(topic, startingOffset + i)!;
        return { key: bytes, value: bytes, partition: partitionFor(bytes, partitions) };
      });
      for (let i = 0; i < messages.length; i += 2000) await producer.send({ topic, acks: -1, messages: messages.slice(i, i + 2000) });
    } finally {
      await producer.disconnect();
    }
  }

  /** The states an app went through. */
  function statesOf(app: KafkaStreams): AppState[] {
    const states: AppState[] = [];
    app.state$.subscribe((s) => states.push(s));
    return states;
  }

  // RestoreIntegrationTest.shouldRestoreStateFromChangelogTopic (the Java case writes .checkpoint files at offset 1000 per
  // partition and restores 10000 - 2 * 1000; sluice's checkpoint lives in its store, so here the store is in-memory and
  // restores the whole changelog: 10000. Java's builder.table(...) is a stream + a processor putting into the store.)
  it('restores state from the changelog topic before processing', { timeout: 180_000 }, async () => {
    const numberOfKeys = 10_000;
    const appId = uniqueGroup('restore-changelog');
    const inputStream = await createTopic(brokers, `${appId}-input-stream`, { partitions: 2 });
    const changelog = await createTopic(brokers, `${appId}-store-changelog`, { partitions: 2, config: { 'cleanup.policy': 'compact' } });
    // restoring 0 to 10000, and then process 10000 to 20000 over the two partitions
    await createStateForRestoration(changelog, 0, numberOfKeys, 2);
    await createStateForRestoration(inputStream, 10_000, numberOfKeys, 2);

    let numReceived = 0;
    const builder = new StreamsBuilder();
    builder.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore('store'), I, I));
    builder.stream<number, number>(inputStream, { keySerde: I, valueSerde: I }).process((): Processor<number, number, never, never> => {
      let store: KeyValueStore<number, number>;
      return {
        init: (context: ProcessorContext<never, never>) => void (store = context.getStateStore<KeyValueStore<number, number>>('store')),
        process: (record) => {
          store.put(record.key, record.value);
          numReceived++;
        },
      };
    }, 'store');
    const kafkaStreams = new KafkaStreams(builder.build(), props(appId, tempDir()));
    apps.push(kafkaStreams);
    const states = statesOf(kafkaStreams);
    const restores = recordRestores(kafkaStreams);
    await kafkaStreams.start();
    expect(states).toContain('RUNNING');

    await waitFor(() => numReceived === numberOfKeys, { timeoutMs: 60_000, message: `processed ${numberOfKeys} (have ${numReceived})` });
    expect(numReceived).toBe(numberOfKeys);
    const restoredInBatches = restores.events.reduce((n, e) => n + (e.kind === 'batch' ? e.numRestored : 0), 0);
    expect(restoredInBatches, 'records restored (TrackingStateRestoreListener)').toBe(numberOfKeys);
    expect(restores.totalRestored('store')).toBe(numberOfKeys);
    const content = await storeContent<number, number>(kafkaStreams, 'store');
    expect(content.ok ? content.entries.size : content.reason, 'restored keys + processed keys in the store').toBe(2 * numberOfKeys);
  });

  // RestoreIntegrationTest.shouldSuccessfullyStartWhenLoggingDisabled
  it('starts with a logging-disabled store (no changelog topic)', { timeout: 120_000 }, async () => {
    const appId = uniqueGroup('restore-nolog');
    const inputStream = await createTopic(brokers, `${appId}-input-stream`, { partitions: 2 });
    const builder = new StreamsBuilder();
    builder
      .stream<number, number>(inputStream, { keySerde: I, valueSerde: I })
      .groupByKey()
      .reduce((a, b) => a + b, { storeName: 'reduce-store', loggingEnabled: false });
    const kafkaStreams = new KafkaStreams(builder.build(), props(appId, tempDir()));
    apps.push(kafkaStreams);
    const states = statesOf(kafkaStreams);
    await kafkaStreams.start();
    await waitFor(() => kafkaStreams.state === 'RUNNING', { timeoutMs: 30_000 });
    expect(states.indexOf('RUNNING')).toBeGreaterThan(states.indexOf('REBALANCING'));
    expect(await admin().listTopics()).not.toContain(`${appId}-reduce-store-changelog`);
  });

  // RestoreIntegrationTest.shouldProcessDataFromStoresWithLoggingDisabled (Java's Stores.lruMap: an in-memory store here)
  it('processes data into a logging-disabled store', { timeout: 120_000 }, async () => {
    const appId = uniqueGroup('restore-nolog-data');
    const inputStream = await createTopic(brokers, `${appId}-input-stream`, { partitions: 2 });
    const producer = quietKafka(brokers).producer();
    await producer.connect();
    await producer.send({
      topic: inputStream,
      acks: -1,
      messages: [[1, 1], [2, 2], [3, 3]].map(([k, v]) => {
        const key = I.serialize(inputStream, k!)!;
        return { key, value: I.serialize(inputStream, v!), partition: partitionFor(key, 2) };
      }),
    });
    await producer.disconnect();

    const builder = new StreamsBuilder();
    builder.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(inputStream), I, I).withLoggingDisabled());
    let processorLatch = 3;
    builder.stream<number, number>(inputStream, { keySerde: I, valueSerde: I }).process((): Processor<number, number, never, never> => {
      let store: KeyValueStore<number, number>;
      return {
        init: (context: ProcessorContext<never, never>) => void (store = context.getStateStore<KeyValueStore<number, number>>(inputStream)),
        process: (record) => {
          if (record.key !== null) {
            store.put(record.key, record.value);
            processorLatch--;
          }
        },
      };
    }, inputStream);
    const kafkaStreams = new KafkaStreams(builder.build(), props(appId, tempDir()));
    apps.push(kafkaStreams);
    await kafkaStreams.start();
    await waitFor(() => processorLatch === 0, { timeoutMs: 30_000, message: 'the processor saw the 3 records' });
    expect(await admin().listTopics()).not.toContain(`${appId}-${inputStream}-changelog`);
  });

  /** Sum app (sum-topology.ts) in this process; commit every 100 ms. */
  function sumApp(applicationId: string, input: string, output: string, stateDir: string, store: 'persistent' | 'in-memory') {
    const app = new KafkaStreams(sumTopology({ input, output, store, requestCommits: false }), {
      applicationId,
      bootstrapServers: brokers,
      commitIntervalMs: 100,
      sessionTimeoutMs: 10_000,
      heartbeatIntervalMs: 500,
      ...stateConfig({ stateDir, statestoreCacheMaxBytes: 0 }),
    });
    apps.push(app);
    return app;
  }

  async function sumTopics() {
    return {
      input: await createTopic(brokers, uniqueTopic('restore-in'), { partitions: 2 }),
      output: await createTopic(brokers, uniqueTopic('restore-out'), { partitions: 2 }),
    };
  }

  for (const store of ['in-memory', 'persistent'] as const) {
    const restored = store === 'in-memory' ? 'restores every changelog record' : 'restores nothing';
    it(`${store} store, clean stop and restart with the same stateDir: ${restored}, the sums continue`, { timeout: 180_000 }, async () => {
      const { input, output } = await sumTopics();
      const applicationId = uniqueGroup(`restore-${store}`);
      const stateDir = tempDir();
      const keys = Array.from({ length: 100 }, (_, k) => k);
      const first = prepareData(0, 10, ...keys);
      const second = prepareData(10, 11, ...keys);
      await writeInputData(brokers, input, 2, first);
      const app = sumApp(applicationId, input, output, stateDir, store);
      await app.start();
      await readCommitted(brokers, output, first.length);
      await app.close();
      expect(app.state).toBe('NOT_RUNNING');

      const restarted = sumApp(applicationId, input, output, stateDir, store);
      const restores = recordRestores(restarted);
      await restarted.start();
      expect(restarted.state).toBe('RUNNING');
      await writeInputData(brokers, input, 2, second);
      const all = await readCommitted(brokers, output, first.length + second.length);
      expect(perKey(all), 'the sums continue after the restart').toEqual(perKey(computeExpectedResult([...first, ...second])));

      expect(restores.attached, 'app.setGlobalStateRestoreListener exists').toBe(true);
      expect(restores.totalRestored(STORE_NAME)).toBe(store === 'in-memory' ? first.length : 0);
    });
  }

  it('persistent store after a SIGKILL of its worker: restores at most its last committed transaction per partition', { timeout: 240_000 }, async () => {
    const { input, output } = await sumTopics();
    const applicationId = uniqueGroup('restore-kill');
    const stateDir = tempDir();
    const keys = Array.from({ length: 200 }, (_, k) => k);
    // value-major (every key gets its value v before any key gets v + 1), so any committed offset splits every key's sum
    const data = prepareData(0, 100, ...keys).sort((a, b) => a.value - b.value || a.key - b.key);

    const worker = new StateWorkerProcess({ brokers, applicationId, input, output, stateDir, commitIntervalMs: 200 });
    workers.push(worker);
    await waitFor(() => worker.running, { timeoutMs: 60_000, message: `worker running (stderr: ${worker.stderr.join('')})` });
    // the input arrives in 40 chunks while the worker runs, so it is killed with work committed and work open
    const writing = (async () => {
      for (let i = 0; i < data.length; i += 500) {
        await writeInputData(brokers, input, 2, data.slice(i, i + 500));
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    await waitFor(() => (worker.metrics?.commits ?? 0) >= 4 && (worker.metrics?.recordsProcessed ?? 0) >= 5_000, {
      timeoutMs: 60_000,
      message: `worker committed some work (${JSON.stringify(worker.history.at(-1))}; stderr: ${worker.stderr.join('')})`,
    });
    await worker.stop('SIGKILL');
    const killedAt = worker.metrics!.recordsProcessed;
    await writing;
    expect(killedAt, 'killed mid-run').toBeLessThan(data.length);
    const changelog = `${applicationId}-${STORE_NAME}-changelog`;
    const changelogEndAtKill = await admin().endOffsets(changelog).catch(() => undefined);

    const restarted = sumApp(applicationId, input, output, stateDir, 'persistent');
    const restores = recordRestores(restarted);
    await restarted.start();
    const all = await readCommitted(brokers, output, data.length, 180_000);
    expect(perKey(all), 'every sum committed once and right after the kill').toEqual(perKey(computeExpectedResult(data)));

    expect(restores.attached, 'app.setGlobalStateRestoreListener exists').toBe(true);
    expect(changelogEndAtKill, `changelog ${changelog} existed at the kill`).toBeDefined();
    const lastTransaction = await lastCommittedTransactionSizes(brokers, changelog, changelogEndAtKill);
    const ends = restores.ends(STORE_NAME);
    for (const e of ends) expect(e.totalRestored, `restored from ${e.topic}-${e.partition}`).toBeLessThanOrEqual(lastTransaction.get(e.partition) ?? 0);
    const content = await storeContent<number, number>(restarted, STORE_NAME);
    expect(content.ok ? content.entries.size : content.reason).toBe(keys.length);
  });
});
