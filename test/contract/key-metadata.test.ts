/**
 * The task assignor and key metadata across instances (issue 19), on the
 * embedded cluster and on real Kafka: several instances of one stateful app
 * (a count per key in store 'counts') in one process, each with its own
 * `applicationServer` and state directory.
 * - every instance's `queryMetadataForKey` agrees, and the named active host
 *   really has the key in its local store; after one instance closes and the
 *   group rebalances the metadata moves and still matches;
 * - stickiness: when a member joins, tasks stay where they were as far as
 *   balance allows;
 * - a restarted instance with state on disk gets its tasks back.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { KeyQueryMetadata } from '../../src/runtime/streams-metadata.js';
import { QueryableStoreTypes } from '../../src/runtime/interactive-queries.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { Materialized } from '../../src/topology/options.js';
import { partitionFor } from '../../src/records/partitioner.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { produceKeyed } from './support/keyed-produce.js';
import { describeOnEachBackend } from './support/handler-suite.js';

/** Partitions of the input topic: 4, 8 in the restart case (a random placement then rarely gives the same tasks back). */
let PARTITIONS = 4;
const KEYS = Array.from({ length: 24 }, (_, i) => `key-${i}`);

await describeOnEachBackend('task assignor and key metadata across instances', (backend, fx) => {
  const ctx = (): BackendContext => fx.ctx;
  const timeout = backend.name === 'kafka' ? 240_000 : 60_000;
  const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs * 2, intervalMs: 100, message });
  const apps: KafkaStreams[] = [];
  const dirs: string[] = [];

  const cleanup = async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  };
  const stateDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-meta-'));
    dirs.push(dir);
    return dir;
  };

  /** Writes each key `times` times to the partition the default partitioner gives it. */
  const produce = (input: string, times = 1): Promise<void> => produceKeyed(ctx().cluster, input, { keys: KEYS, partitions: PARTITIONS, times });

  async function start(applicationId: string, input: string, host: string, dir: string): Promise<KafkaStreams> {
    const builder = new StreamsBuilder();
    builder.stream<string, string>(input, { keySerde: Serdes.String(), valueSerde: Serdes.String() }).groupByKey().count(Materialized.as('counts'));
    const app = new KafkaStreams(builder.build(), {
      cluster: ctx().cluster,
      ...ctx().consumerTiming,
      applicationId,
      applicationServer: host,
      stateDir: dir,
      commitIntervalMs: 100,
      statestoreCacheMaxBytes: 0,
    });
    apps.push(app);
    await app.start();
    return app;
  }

  const owned = (app: KafkaStreams) => Object.entries(app.metrics().tasks).filter(([, t]) => t.owned).map(([id]) => id).sort();

  /** The local count of `key` in `app`, or undefined when not local (or not queryable now). */
  function localCount(app: KafkaStreams, key: string): number | undefined {
    try {
      return app.store({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() }).get(key) ?? undefined;
    } catch {
      return undefined;
    }
  }

  /** Every app agrees on every key's metadata, and the named host's local store has the key at `count`. */
  function metadataMatches(byHost: Map<string, KafkaStreams>, count: number): boolean {
    const running = [...byHost.values()];
    for (const key of KEYS) {
      const answers = running.map((a) => a.queryMetadataForKey('counts', key, Serdes.String()));
      const [first] = answers;
      if (first === undefined || first === KeyQueryMetadata.NOT_AVAILABLE) return false;
      if (answers.some((m) => m.activeHost.host !== first.activeHost.host || m.activeHost.port !== first.activeHost.port || m.partition !== first.partition)) return false;
      if (first.partition !== partitionFor(Buffer.from(key), PARTITIONS)) return false;
      const owner = byHost.get(`${first.activeHost.host}:${first.activeHost.port}`);
      if (owner === undefined || localCount(owner, key) !== count) return false;
    }
    return true;
  }

  async function setUp(prefix: string, partitions = 4) {
    PARTITIONS = partitions;
    const input = uniqueTopic(`${prefix}-in-${backend.name}`);
    await ctx().admin.createTopic(input, { partitions: PARTITIONS });
    return { input, applicationId: uniqueGroup(`${prefix}-${backend.name}`) };
  }

  it('every instance names the same owner for a key, the owner has it locally, and the metadata follows a rebalance', { timeout }, async () => {
    try {
      const { input, applicationId } = await setUp('meta');
      const hosts = ['host-a:7001', 'host-b:7002', 'host-c:7003'];
      const byHost = new Map<string, KafkaStreams>();
      for (const host of hosts) byHost.set(host, await start(applicationId, input, host, stateDir()));
      await produce(input, 2);
      await eventually(() => metadataMatches(byHost, 2), 'all instances agree on every key and its owner holds it (count 2)');
      // the three instances' metadata of all clients: three hosts, the store everywhere it runs, every partition once
      const all = byHost.get('host-a:7001')!.metadataForAllStreamsClients();
      expect(all.map((m) => `${m.host}:${m.port}`).sort()).toEqual(hosts);
      expect(all.flatMap((m) => m.topicPartitions.map((tp) => tp.partition)).sort()).toEqual([0, 1, 2, 3]);
      expect(byHost.get('host-b:7002')!.streamsMetadataForStore('counts').every((m) => m.stateStoreNames.includes('counts'))).toBe(true);
      expect(() => byHost.get('host-b:7002')!.queryMetadataForKey('no-such-store', 'k', Serdes.String())).toThrow(/No state store 'no-such-store'.*'counts'/);
      // a key the named owner does not hold is held by nobody else
      for (const key of KEYS) {
        const owner = byHost.get('host-a:7001')!.queryMetadataForKey('counts', key, Serdes.String());
        for (const [host, app] of byHost) if (host !== `${owner.activeHost.host}:${owner.activeHost.port}`) expect(localCount(app, key), `${key} on ${host}`).toBeUndefined();
      }

      // one instance leaves: the metadata moves to the remaining two and still matches
      await byHost.get('host-c:7003')!.close();
      byHost.delete('host-c:7003');
      await produce(input, 1);
      await eventually(() => metadataMatches(byHost, 3), 'after host-c left: the two instances agree and the owners hold every key (count 3)');
      const after = byHost.get('host-a:7001')!.metadataForAllStreamsClients();
      expect(after.map((m) => m.host).sort()).toEqual(['host-a', 'host-b']);
    } finally {
      await cleanup();
    }
  });

  it('a member joining takes tasks only from the most loaded members; the others keep theirs', { timeout }, async () => {
    try {
      const { input, applicationId } = await setUp('sticky');
      const a = await start(applicationId, input, 'host-a:7001', stateDir());
      const b = await start(applicationId, input, 'host-b:7002', stateDir());
      await eventually(() => owned(a).length === 2 && owned(b).length === 2, 'a and b own two tasks each');
      const before = { a: owned(a), b: owned(b) };
      const c = await start(applicationId, input, 'host-c:7003', stateDir());
      await eventually(() => owned(c).length === 1 && owned(a).length + owned(b).length === 3, 'c owns one task, a and b three');
      // no task moved between a and b; c's task came from one of them
      for (const t of owned(a)) expect(before.a).toContain(t);
      for (const t of owned(b)) expect(before.b).toContain(t);
      expect([...before.a, ...before.b]).toContain(owned(c)[0]);
    } finally {
      await cleanup();
    }
  });

  it('a restarted instance with its state on disk gets its tasks back', { timeout }, async () => {
    try {
      const { input, applicationId } = await setUp('restart', 8);
      // b starts first (all tasks, nothing to count yet), a joins and takes half; five rounds of updates
      // follow, so b's state on disk is far behind on a's tasks and current on its own
      const bDir = stateDir();
      let b = await start(applicationId, input, 'host-b:7002', bDir);
      const a = await start(applicationId, input, 'host-a:7001', stateDir());
      await eventually(() => owned(a).length === 4 && owned(b).length === 4, 'four tasks each');
      await produce(input, 5);
      await eventually(() => metadataMatches(new Map([['host-a:7001', a], ['host-b:7002', b]]), 5), 'every key counted five times');
      const bTasks = owned(b);
      // b closes: a runs every task; one more round arrives meanwhile
      await b.close();
      await eventually(() => owned(a).length === 8, 'a owns all eight tasks');
      await produce(input, 1);
      await eventually(() => metadataMatches(new Map([['host-a:7001', a]]), 6), 'a holds every key (count 6)');
      // b comes back with its state directory: the tasks it is closest on (its own, one round behind) return to it,
      // not those a plain sticky assignor would give back (the ones a was given last)
      b = await start(applicationId, input, 'host-b:7002', bDir);
      await eventually(() => owned(b).length === 4 && owned(a).length === 4, 'four tasks each again');
      expect(owned(b)).toEqual(bTasks);
      // and it restored only what it missed: one count update per key of its partitions (a fresh copy would read two)
      const missed = KEYS.filter((k) => bTasks.includes(`0_${partitionFor(Buffer.from(k), PARTITIONS)}`)).length;
      await eventually(() => b.restoreMetrics().activeRestorations === 0, 'b restored');
      expect(b.restoreMetrics().restoredRecords).toBe(missed);
      await eventually(() => metadataMatches(new Map([['host-a:7001', a], ['host-b:7002', b]]), 6), 'the metadata matches after the restart (count 6)');
    } finally {
      await cleanup();
    }
  });
});
