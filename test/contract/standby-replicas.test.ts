/**
 * Standby replicas and warm-ups (issue 19) on the embedded cluster and on real
 * Kafka: instances of one stateful app (a count per key in store 'counts',
 * persistent, logged) in one process, each with its own state directory and
 * `applicationServer`.
 * - with `numStandbyReplicas: 1` every task has a standby copy on the other
 *   instance, the metadata names it, it follows the active copy (stale reads
 *   only when asked), and when the active instance leaves its tasks move to
 *   the standby, which restores only what it had not read yet (nothing);
 *   without standbys the same move restores the changelog in full (control);
 *   with an in-memory store too: the standby is promoted, its stores become
 *   the active task's (issue 31), so nothing is restored either;
 * - a new instance joining a stateful group first warms up (warm-up replicas,
 *   no task moves to it while it is not caught up), and a probing rebalance
 *   then moves tasks to it once it is caught up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import type { KafkaStreamsConfig } from '../../src/runtime/config.js';
import { KeyQueryMetadata } from '../../src/runtime/streams-metadata.js';
import { QueryableStoreTypes } from '../../src/runtime/interactive-queries.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { Materialized } from '../../src/topology/options.js';
import { Stores } from '../../src/state/stores.js';
import { partitionFor } from '../../src/records/partitioner.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { produceKeyed } from './support/keyed-produce.js';
import { describeOnEachBackend } from './support/handler-suite.js';

const PARTITIONS = 4;
const KEYS = Array.from({ length: 24 }, (_, i) => `key-${i}`);

await describeOnEachBackend('standby replicas and warm-ups', (backend, fx) => {
  const ctx = (): BackendContext => fx.ctx;
  const timeout = backend.name === 'kafka' ? 240_000 : 60_000;
  const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs * 3, intervalMs: 100, message });
  const apps: KafkaStreams[] = [];
  const dirs: string[] = [];
  const cleanup = async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  };

  /** Writes each key `times` times to the partition the default partitioner gives it. */
  const produce = (input: string, times: number): Promise<void> => produceKeyed(ctx().cluster, input, { keys: KEYS, partitions: PARTITIONS, times });

  async function start(applicationId: string, input: string, host: string, extra: Partial<KafkaStreamsConfig>, inMemory = false): Promise<KafkaStreams> {
    const builder = new StreamsBuilder();
    const counts = inMemory ? Materialized.as<string, number>(Stores.inMemoryKeyValueStore('counts')) : Materialized.as<string, number>('counts');
    builder.stream<string, string>(input, { keySerde: Serdes.String(), valueSerde: Serdes.String() }).groupByKey().count(counts);
    const dir = mkdtempSync(join(tmpdir(), 'sluice-standby-'));
    dirs.push(dir);
    const app = new KafkaStreams(builder.build(), {
      cluster: ctx().cluster, ...ctx().consumerTiming, applicationId, applicationServer: host, stateDir: dir, commitIntervalMs: 100, statestoreCacheMaxBytes: 0, ...extra,
    });
    apps.push(app);
    await app.start();
    return app;
  }

  const owned = (app: KafkaStreams) => Object.entries(app.metrics().tasks).filter(([, t]) => t.owned).map(([id]) => id).sort();
  const standbys = (app: KafkaStreams) => Object.keys(app.metrics().standbyTasks ?? {}).sort();
  const view = (app: KafkaStreams, stale: boolean) => app.store({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>(), enableStaleStores: stale });
  const count = (app: KafkaStreams, key: string, stale = false): number | undefined => {
    try {
      return view(app, stale).get(key) ?? undefined;
    } catch {
      return undefined;
    }
  };
  const keysOf = (tasks: readonly string[]) => KEYS.filter((k) => tasks.includes(`0_${partitionFor(Buffer.from(k), PARTITIONS)}`));

  async function setUp(prefix: string) {
    const input = uniqueTopic(`${prefix}-in-${backend.name}`);
    await ctx().admin.createTopic(input, { partitions: PARTITIONS });
    return { input, applicationId: uniqueGroup(`${prefix}-${backend.name}`) };
  }

  /** Two instances, five rounds counted; then `b` leaves and `a` takes b's tasks. Returns what a restored for them. */
  async function failover(prefix: string, numStandbyReplicas: number, inMemory = false): Promise<{ restored: number; bKeys: number }> {
    const { input, applicationId } = await setUp(prefix);
    const a = await start(applicationId, input, 'host-a:7001', { numStandbyReplicas }, inMemory);
    const b = await start(applicationId, input, 'host-b:7002', { numStandbyReplicas }, inMemory);
    await eventually(() => owned(a).length === 2 && owned(b).length === 2, 'two tasks each');
    await produce(input, 5);
    await eventually(() => KEYS.every((k) => count(a, k) === 5 || count(b, k) === 5), 'every key counted five times by its owner');
    if (numStandbyReplicas > 0) {
      // every task has its standby on the other instance, named in the metadata, and it caught up
      await eventually(() => standbys(a).join() === owned(b).join() && standbys(b).join() === owned(a).join(), "each instance has standbys of the other's tasks");
      for (const key of KEYS) {
        const meta = a.queryMetadataForKey('counts', key, Serdes.String());
        expect(meta).not.toBe(KeyQueryMetadata.NOT_AVAILABLE);
        const other = meta.activeHost.port === 7001 ? { host: 'host-b', port: 7002 } : { host: 'host-a', port: 7001 };
        expect(meta.standbyHosts, key).toEqual([other]);
      }
      await eventually(() => KEYS.every((k) => count(a, k, true) === 5 && count(b, k, true) === 5), 'both instances read every key at 5 with stale reads (active or standby copy)');
      // metadataForLocalThreads: one thread per instance, its active tasks and the standbys of the other's
      const [thread] = a.metadataForLocalThreads();
      expect(thread?.activeTasks.map((t) => t.taskId).sort()).toEqual(owned(a));
      expect(thread?.standbyTasks.map((t) => t.taskId).sort()).toEqual(owned(b));
      expect(thread?.standbyTasks[0]?.topicPartitions).toEqual([{ topic: input, partition: Number(owned(b)[0]?.split('_')[1]) }]);
      // stale reads only when asked: b's keys are not readable on a without enableStaleStores
      const bKey = keysOf(owned(b))[0] ?? '';
      expect(count(a, bKey, false)).toBeUndefined();
    }
    const bTasks = owned(b);
    const before = a.restoreMetrics().restoredRecords;
    await b.close();
    await eventually(() => owned(a).length === 4, 'a runs all four tasks');
    await eventually(() => a.restoreMetrics().activeRestorations === 0 && a.state === 'RUNNING', 'a restored and running');
    await produce(input, 1);
    await eventually(() => KEYS.every((k) => count(a, k) === 6), 'a counts every key six times');
    return { restored: a.restoreMetrics().restoredRecords - before, bKeys: keysOf(bTasks).length };
  }

  it('a standby follows its active task; when the active instance leaves, the standby takes over and restores nothing', { timeout }, async () => {
    try {
      const { restored } = await failover('standby', 1);
      expect(restored).toBe(0);
    } finally {
      await cleanup();
    }
  });

  it('in-memory store: the standby is promoted when the active instance leaves, so nothing is restored either', { timeout }, async () => {
    try {
      const { restored } = await failover('standby-mem', 1, true);
      expect(restored).toBe(0);
    } finally {
      await cleanup();
    }
  });

  it('control: without standby replicas the moved tasks restore their changelogs in full', { timeout }, async () => {
    try {
      const { restored, bKeys } = await failover('nostandby', 0);
      expect(restored).toBeGreaterThanOrEqual(bKeys);
    } finally {
      await cleanup();
    }
  });

  it('a joining instance warms up first (no task moves to it), then a probing rebalance moves tasks to it once caught up', { timeout }, async () => {
    try {
      const { input, applicationId } = await setUp('warmup');
      const ha = { maxWarmupReplicas: 4, probingRebalanceIntervalMs: 1_500, acceptableRecoveryLag: 0 };
      const a = await start(applicationId, input, 'host-a:7001', ha);
      await eventually(() => owned(a).length === 4, 'a runs all four tasks');
      await produce(input, 5);
      await eventually(() => KEYS.every((k) => count(a, k) === 5), 'a counted every key five times');
      // committed: the changelog's last stable offsets cover the 120 updates (the assignor reads those)
      const changelog = `${applicationId}-counts-changelog`;
      await eventually(async () => (await ctx().admin.endOffsets(changelog)).reduce((x, y) => x + y, 0) >= KEYS.length * 5, 'the count updates committed to the changelog');
      const b = await start(applicationId, input, 'host-b:7002', ha);
      // b is not caught up on any task: it gets warm-ups, a keeps every task active
      expect(owned(a)).toHaveLength(4);
      expect(owned(b)).toEqual([]);
      await eventually(() => standbys(b).length === 2, 'b warms up two tasks');
      // the probing rebalance moves the caught-up warm-ups to b as active tasks; b restored (almost) nothing for them
      await eventually(() => owned(b).length === 2 && owned(a).length === 2, 'after a probing rebalance: two tasks each');
      await eventually(() => b.restoreMetrics().activeRestorations === 0, 'b restored');
      expect(b.restoreMetrics().restoredRecords).toBe(0);
      await produce(input, 1);
      await eventually(() => KEYS.every((k) => count(a, k) === 6 || count(b, k) === 6), 'every key counted six times by its owner');
    } finally {
      await cleanup();
    }
  });
});
