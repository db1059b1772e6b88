/**
 * `topologyOptimization: 'all'` on real Kafka (Kafka's
 * `reuse.ktable.source.topics`, as RestoreIntegrationTest's
 * shouldRestoreStateFromSourceTopic cases use it): the store of a
 * `builder.table(topic, Materialized.as('prices-store'))` gets no changelog
 * topic, is restored from the source topic after a restart (fresh stateDir:
 * all of it; the records after the committed offset are processed, not
 * restored), and its values equal the truth.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createKafkaCluster } from '../../src/cluster/kafkajs/index.js';
import type { AdminPort } from '../../src/cluster/port.js';
import { KafkaErrorCode, KafkaProtocolError } from '../../src/errors.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { Materialized } from '../../src/index.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { createTopic, describeKafka, quietKafka, uniqueGroup, waitFor } from '../helpers/index.js';
import { queryKeyValueStore, recordRestores, stateConfig } from './fixtures/state-api.js';

const S = Serdes.String();
const STORE = 'prices-store';
const apps: KafkaStreams[] = [];
const admins: AdminPort[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
  await Promise.all(admins.splice(0).map((a) => a.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describeKafka('KTABLE SOURCE CHANGELOG (real Kafka): reuse.ktable.source.topics', (brokers) => {
  async function produce(topic: string, records: Array<[string, string]>): Promise<void> {
    const producer = quietKafka(brokers).producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    try {
      await producer.send({ topic, acks: -1, messages: records.map(([key, value]) => ({ key, value })) });
    } finally {
      await producer.disconnect();
    }
  }

  function tempDir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-srcchg-'));
    dirs.push(dir);
    return dir;
  }

  async function start(applicationId: string, source: string, output: string, dir = tempDir()) {
    const builder = new StreamsBuilder();
    builder.table(source, { keySerde: S, valueSerde: S }, Materialized.as<string, string>(STORE)).toStream().to(output, { keySerde: S, valueSerde: S });
    const app = new KafkaStreams(builder.build({ topologyOptimization: 'all' }), {
      applicationId,
      bootstrapServers: brokers,
      processingGuarantee: 'exactly_once',
      commitIntervalMs: 100,
      autoOffsetReset: 'earliest',
      sessionTimeoutMs: 10_000,
      heartbeatIntervalMs: 500,
      ...stateConfig({ stateDir: dir, statestoreCacheMaxBytes: 0 }),
    });
    apps.push(app);
    const restores = recordRestores(app);
    await app.start();
    return { app, restores };
  }

  it('no changelog topic; a restart restores the store from the source topic up to the committed offset; values equal the truth', { timeout: 180_000 }, async () => {
    const admin = createKafkaCluster({ bootstrapServers: brokers }).admin();
    admins.push(admin);
    const applicationId = uniqueGroup('srcchg');
    const source = await createTopic(brokers, `${applicationId}-prices`, { partitions: 2 });
    const output = await createTopic(brokers, `${applicationId}-out`, { partitions: 2 });
    const firstBatch: Array<[string, string]> = [
      ...Array.from({ length: 20 }, (_, i): [string, string] => [`k${i}`, `v${i}-1`]),
      ...Array.from({ length: 10 }, (_, i): [string, string] => [`k${i}`, `v${i}-2`]),
    ];
    const committedEqualsEnd = async () => {
      const [committed, end] = [await admin.committedOffsets(applicationId, source), await admin.endOffsets(source)];
      return committed.every((c, i) => c === end[i]);
    };

    // Run 1: every record processed and committed.
    const first = await start(applicationId, source, output);
    await produce(source, firstBatch);
    await waitFor(committedEqualsEnd, { timeoutMs: 60_000, intervalMs: 200, message: 'run 1: source offsets committed' });
    await first.app.close();

    // While stopped: two more updates (after the committed offset: processed by run 2, not restored).
    const later: Array<[string, string]> = [['k0', 'v0-3'], ['k19', 'v19-2']];
    await produce(source, later);

    // Run 2, fresh stateDir: the store is restored from the source topic (the 30 committed records), then processes the 2 new ones.
    const second = await start(applicationId, source, output);
    await waitFor(committedEqualsEnd, { timeoutMs: 60_000, intervalMs: 200, message: 'run 2: source offsets committed' });
    const restoredTopics = new Set(second.restores.events.filter((e) => e.storeName === STORE).map((e) => e.topic));
    expect(restoredTopics).toEqual(new Set([source]));
    expect(second.restores.totalRestored(STORE)).toBe(firstBatch.length);

    // No changelog topic was ever created for the store.
    const missing = await admin.describeTopic(`${applicationId}-${STORE}-changelog`).then(
      () => 'exists',
      (error: unknown) => (error instanceof KafkaProtocolError && error.kafkaCode === KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION ? 'missing' : String(error)),
    );
    expect(missing).toBe('missing');

    // The store holds the truth: the latest value of every key.
    const truth = new Map<string, string>();
    for (const [k, v] of [...firstBatch, ...later]) truth.set(k, v);
    let entries = new Map<string, string>();
    await waitFor(
      () => {
        const q = queryKeyValueStore<string, string>(second.app, STORE);
        if (q.ok) entries = q.entries;
        return q.ok && entries.size === truth.size;
      },
      { timeoutMs: 10_000, intervalMs: 200, message: 'store queryable with every key' },
    );
    expect(entries).toEqual(truth);
  });

  it('a persistent store checkpoints the committed source offset: a clean restart on the same stateDir restores nothing', { timeout: 180_000 }, async () => {
    const admin = createKafkaCluster({ bootstrapServers: brokers }).admin();
    admins.push(admin);
    const applicationId = uniqueGroup('srcchg-ckpt');
    const source = await createTopic(brokers, `${applicationId}-prices`, { partitions: 2 });
    const output = await createTopic(brokers, `${applicationId}-out`, { partitions: 2 });
    const committedEqualsEnd = async () => {
      const [committed, end] = [await admin.committedOffsets(applicationId, source), await admin.endOffsets(source)];
      return committed.every((c, i) => c === end[i]);
    };
    const dir = tempDir();
    const first = await start(applicationId, source, output, dir);
    await produce(source, Array.from({ length: 12 }, (_, i): [string, string] => [`k${i % 6}`, `v${i}`]));
    await waitFor(committedEqualsEnd, { timeoutMs: 60_000, intervalMs: 200, message: 'run 1: source offsets committed' });
    await first.app.close();
    const second = await start(applicationId, source, output, dir);
    await produce(source, [['k0', 'last']]);
    await waitFor(committedEqualsEnd, { timeoutMs: 60_000, intervalMs: 200, message: 'run 2: source offsets committed' });
    // harness check: the restore listener saw the store's source partitions
    expect(second.restores.events.some((e) => e.storeName === STORE && e.topic === source)).toBe(true);
    expect(second.restores.totalRestored(STORE)).toBe(0);
    let entries = new Map<string, string>();
    await waitFor(() => {
      const q = queryKeyValueStore<string, string>(second.app, STORE);
      if (q.ok) entries = q.entries;
      return q.ok && entries.get('k0') === 'last';
    }, { timeoutMs: 10_000, intervalMs: 200, message: 'store has the new value' });
    expect(entries).toEqual(new Map([['k0', 'last'], ['k1', 'v7'], ['k2', 'v8'], ['k3', 'v9'], ['k4', 'v10'], ['k5', 'v11']]));
  });
});
