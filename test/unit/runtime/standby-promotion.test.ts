/**
 * Promotion of a standby (issue 31 item 2, `src/runtime/internal/standby-handover.ts`)
 * and the one changelog reader per instance (`changelog-reader.ts`), on the
 * embedded cluster: two instances of a count per key with one standby
 * replica; instance b leaves, so a's standbys of b's tasks become active on a.
 * - in-memory store: the promoted standby's stores are the active task's, so
 *   a restores nothing (was: the whole changelog, the standby's copy dropped);
 *   the counts go on from where they were and the new counts are logged;
 * - the standby held back (its reads of the changelog answered "nothing new"
 *   until the promotion): a restores only the tail it had not read (one record
 *   per key of b's tasks), for the in-memory store and for the persistent
 *   (lmdb) store alike;
 * - control: without standbys the in-memory store restores its changelog in full;
 * - each instance opens exactly one partition reader (`<clientId>-changelog`),
 *   for restoration and standbys together, and for the global stores under
 *   exactly_once; under at_least_once the global stores read uncommitted, on a
 *   second port of the same reader (`<clientId>-changelog-uncommitted`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClusterPort, PartitionReaderOptions, PartitionReaderPort } from '../../../src/cluster/port.js';
import { KafkaStreams, Materialized, QueryableStoreTypes, Serdes, Stores, StreamsBuilder } from '../../../src/index.js';
import { EmbeddedKafkaCluster } from '../../../src/testing.js';
import { partitionFor } from '../../../src/records/partitioner.js';
import { waitFor } from '../../helpers/index.js';
import { produceKeyed } from '../../contract/support/keyed-produce.js';

const PARTITIONS = 4;
const KEYS = Array.from({ length: 24 }, (_, i) => `key-${i}`);
const S = Serdes.String();

/** The cluster as one instance sees it: its readers counted, and a gate that can hold back its reads of the changelog. */
interface Watched extends ClusterPort {
  readers: string[];
  /** While set, fetches of the changelog at or beyond this offset of each partition answer "nothing new"; the first end-offset read of the changelog (an active restoration) lifts it. */
  holdChangelog: boolean;
}

function watched(cluster: EmbeddedKafkaCluster, changelog: string): Watched {
  const w: Watched = {
    kind: cluster.kind,
    readers: [],
    holdChangelog: false,
    admin: () => cluster.admin(),
    producer: (o) => cluster.producer(o),
    consumer: (o) => cluster.consumer(o),
    reader: (o?: PartitionReaderOptions): PartitionReaderPort => {
      w.readers.push(o?.clientId ?? '?');
      const inner = cluster.reader(o);
      return {
        endOffsets: async (topic) => {
          if (topic === changelog) w.holdChangelog = false;
          return inner.endOffsets(topic);
        },
        fetch: async (tp, offset, options) => (w.holdChangelog && tp.topic === changelog ? { records: [], nextOffset: offset, endOffset: offset } : inner.fetch(tp, offset, options)),
        close: () => inner.close(),
      };
    },
  };
  return w;
}

const apps: KafkaStreams[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function scenario(o: { store: 'memory' | 'lmdb'; standbys: number; holdBack: boolean; cacheBytes?: number }) {
  const cluster = new EmbeddedKafkaCluster();
  const input = 'promotion-in';
  const applicationId = `promotion-${o.store}-${o.standbys}-${o.holdBack}-${o.cacheBytes ?? 0}`;
  const changelog = `${applicationId}-counts-changelog`;
  await cluster.createTopic(input, { partitions: PARTITIONS });
  const start = async (host: string, port: ClusterPort): Promise<KafkaStreams> => {
    const builder = new StreamsBuilder();
    const supplier = o.store === 'memory' ? Stores.inMemoryKeyValueStore('counts') : Stores.persistentKeyValueStore('counts');
    builder.stream<string, string>(input, { keySerde: S, valueSerde: S }).groupByKey().count(Materialized.as<string, number>(supplier));
    const stateDir = mkdtempSync(join(tmpdir(), 'sluice-promotion-'));
    dirs.push(stateDir);
    const app = new KafkaStreams(builder.build(), {
      cluster: port, applicationId, applicationServer: host, stateDir, commitIntervalMs: 100, statestoreCacheMaxBytes: o.cacheBytes ?? 0, numStandbyReplicas: o.standbys, clientId: host.split(':')[0],
    });
    apps.push(app);
    await app.start();
    return app;
  };
  const aPort = watched(cluster, changelog);
  const a = await start('a:7001', aPort);
  const b = await start('b:7002', cluster);
  const owned = (app: KafkaStreams) => Object.entries(app.metrics().tasks).filter(([, t]) => t.owned).map(([id]) => id).sort();
  const count = (app: KafkaStreams, key: string, stale = false): number | undefined => {
    try {
      return app.store({ storeName: 'counts', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>(), enableStaleStores: stale }).get(key) ?? undefined;
    } catch {
      return undefined;
    }
  };
  await waitFor(() => owned(a).length === 2 && owned(b).length === 2, { timeoutMs: 20_000, message: 'two tasks each' });
  await produceKeyed(cluster, input, { keys: KEYS, partitions: PARTITIONS, times: 5 });
  await waitFor(() => KEYS.every((k) => count(a, k) === 5 || count(b, k) === 5), { timeoutMs: 20_000, message: 'every key counted five times' });
  if (o.standbys > 0) await waitFor(() => KEYS.every((k) => count(a, k, true) === 5), { timeoutMs: 20_000, message: "a's standbys caught up" });
  const bTasks = owned(b);
  const bKeys = KEYS.filter((k) => bTasks.includes(`0_${partitionFor(Buffer.from(k), PARTITIONS)}`));
  if (o.holdBack) {
    // one more count per key that a's standbys do not read: the tail a restores on promotion
    aPort.holdChangelog = true;
    await produceKeyed(cluster, input, { keys: KEYS, partitions: PARTITIONS, times: 1 });
    await waitFor(() => KEYS.every((k) => count(a, k) === 6 || count(b, k) === 6), { timeoutMs: 20_000, message: 'every key counted six times' });
  }
  const restored = new Map<string, number>();
  const before = a.restoreMetrics().restoredRecords;
  await b.close();
  await waitFor(() => owned(a).length === 4 && a.state === 'RUNNING' && a.restoreMetrics().activeRestorations === 0, { timeoutMs: 20_000, message: 'a runs all four tasks' });
  restored.set('total', a.restoreMetrics().restoredRecords - before);
  const counted = o.holdBack ? 6 : 5;
  // the counts go on where they were, and the promoted stores log the new counts
  await produceKeyed(cluster, input, { keys: KEYS, partitions: PARTITIONS, times: 1 });
  await waitFor(() => KEYS.every((k) => count(a, k) === counted + 1), { timeoutMs: 20_000, message: `a counts every key ${counted + 1} times` });
  const loggedCounts = async () => new Map((await cluster.readCommitted(changelog)).map((r) => [r.key?.toString() ?? '', r.value?.readBigInt64BE(0)] as const));
  await waitFor(async () => [...(await loggedCounts()).values()].filter((v) => v === BigInt(counted + 1)).length === KEYS.length, { timeoutMs: 20_000, message: 'the new counts committed to the changelog' });
  const logged = await loggedCounts();
  return { restored: restored.get('total') ?? -1, bKeys, logged, readers: aPort.readers, counted };
}

describe('standby promotion and the one changelog reader', () => {
  it('in-memory: a promoted standby restores nothing and counts on; the instance opened one partition reader', { timeout: 60_000 }, async () => {
    const r = await scenario({ store: 'memory', standbys: 1, holdBack: false });
    expect(r.bKeys.length).toBeGreaterThan(0);
    expect(r.restored).toBe(0);
    for (const key of KEYS) expect(r.logged.get(key), key).toBe(6n);
    expect(r.readers).toEqual(['a-changelog']);
  });

  it('in-memory with the record cache: the promoted stores cache and log through the active task', { timeout: 60_000 }, async () => {
    const r = await scenario({ store: 'memory', standbys: 1, holdBack: false, cacheBytes: 1024 * 1024 });
    expect(r.restored).toBe(0);
    for (const key of KEYS) expect(r.logged.get(key), key).toBe(6n);
  });

  it('in-memory, standby held back: only the tail it had not read is restored (one record per key of the moved tasks)', { timeout: 60_000 }, async () => {
    const r = await scenario({ store: 'memory', standbys: 1, holdBack: true });
    expect(r.restored).toBe(r.bKeys.length);
    for (const key of KEYS) expect(r.logged.get(key), key).toBe(7n);
  });

  it('lmdb, standby held back: only the tail is restored too', { timeout: 60_000 }, async () => {
    const r = await scenario({ store: 'lmdb', standbys: 1, holdBack: true });
    expect(r.restored).toBe(r.bKeys.length);
    for (const key of KEYS) expect(r.logged.get(key), key).toBe(7n);
  });

  it('control: without standbys the in-memory store restores its changelog in full', { timeout: 60_000 }, async () => {
    const r = await scenario({ store: 'memory', standbys: 0, holdBack: false });
    expect(r.restored).toBe(r.bKeys.length * 5);
  });

  it.each([
    ['exactly_once', ['g-changelog']],
    ['at_least_once', ['g-changelog', 'g-changelog-uncommitted']],
  ] as const)('a global table and a count under %s: the instance opens %j', { timeout: 60_000 }, async (processingGuarantee, expected) => {
    const cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('orders', { partitions: 2 });
    await cluster.createTopic('customers', { partitions: 2 });
    await cluster.produce('customers', [{ key: 'c1', value: 'Ann' }]);
    const port = watched(cluster, 'none');
    const builder = new StreamsBuilder();
    const customers = builder.globalTable<string, string>('customers', { keySerde: S, valueSerde: S });
    builder.stream<string, string>('orders', { keySerde: S, valueSerde: S }).join(customers, (k) => k, (o, c) => `${o}:${c}`).groupByKey().count(Materialized.as<string, number>('per-customer'));
    const stateDir = mkdtempSync(join(tmpdir(), 'sluice-promotion-'));
    dirs.push(stateDir);
    const app = new KafkaStreams(builder.build(), { cluster: port, applicationId: `readers-${processingGuarantee}`, stateDir, clientId: 'g', processingGuarantee, commitIntervalMs: 100 });
    apps.push(app);
    await app.start();
    await cluster.produce('orders', [{ key: 'c1', value: 'o1' }]);
    await waitFor(() => app.store({ storeName: 'per-customer', queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() }).get('c1') === 1, { timeoutMs: 20_000, message: 'the order joined and counted' });
    expect([...port.readers].sort()).toEqual(expected);
  });
});
