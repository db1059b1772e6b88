/**
 * KTable.groupBy contract (issue 16): a table of users (key user id, value
 * region) grouped by region, counted and aggregated into each region's
 * sorted member list, exactly once, on the embedded cluster and on real
 * Kafka. Users join, move between regions (a subtraction from the old
 * region, an addition to the new one), re-send their region (one record,
 * count unchanged) and leave (tombstones); the app is closed in the middle
 * and started again with a fresh state directory, so the table's store (the
 * old values the subtractions need) and both aggregations are restored from
 * their changelogs. The last committed count and member list per region
 * equal the truth computed from the inputs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { KeyValue } from '../../src/records/key-value.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { Materialized } from '../../src/topology/options.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';

const S = Serdes.String();
const PARTITIONS = 3;
const REGIONS = ['north', 'south', 'east', 'west'];

/** One update of the users table: a region, or null (the user leaves). */
type Update = [user: number, region: string | null];

/** Phase 1: 24 users join; some move, some re-send their region, some leave. */
const phase1: Update[] = [
  ...Array.from({ length: 24 }, (_, u): Update => [u, REGIONS[u % 4]!]),
  ...Array.from({ length: 8 }, (_, i): Update => [i * 3, REGIONS[(i * 3 + 1) % 4]!]), // moves
  [1, REGIONS[1]!], // same region again
  [5, null],
  [10, null],
];
/** Phase 2 (after the restart): more moves, leavers, a leaver returning, new users. */
const phase2: Update[] = [
  ...Array.from({ length: 8 }, (_, i): Update => [i * 3, REGIONS[(i * 3 + 2) % 4]!]), // moved users move again
  [2, null],
  [7, REGIONS[0]!],
  [5, REGIONS[3]!], // a leaver returns
  [1, REGIONS[1]!], // same region again
  ...Array.from({ length: 6 }, (_, i): Update => [24 + i, REGIONS[i % 4]!]),
  [26, null],
];

/** The members of each region after `updates` (every region that ever had a member, possibly empty). */
function truth(updates: readonly Update[]): Map<string, string[]> {
  const regionOf = new Map<number, string>();
  const regions = new Set<string>();
  for (const [user, region] of updates) {
    if (region === null) regionOf.delete(user);
    else {
      regionOf.set(user, region);
      regions.add(region);
    }
  }
  const members = new Map<string, string[]>([...regions].map((r) => [r, []]));
  for (const [user, region] of regionOf) members.get(region)!.push(`u${user}`);
  for (const list of members.values()) list.sort();
  return members;
}

const addMember = (_region: string, user: string, members: string[]): string[] => [...members, user].sort();
const removeMember = (_region: string, user: string, members: string[]): string[] => members.filter((m) => m !== user);

await describeOnEachBackend('KTable.groupBy count and aggregate, exactly once, across a restart', (backend, fx) => {
  const ctx = (): BackendContext => fx.ctx;
  const timeout = backend.name === 'kafka' ? 180_000 : 60_000;

  it('final counts and member lists per region equal the truth; repartition topic and changelogs as Kafka', { timeout }, async () => {
    const apps: KafkaStreams[] = [];
    const dirs: string[] = [];
    const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs, intervalMs: 100, message });
    try {
      const [users, counts, members] = [uniqueTopic(`users-${backend.name}`), uniqueTopic(`region-counts-${backend.name}`), uniqueTopic(`region-members-${backend.name}`)];
      for (const topic of [users, counts, members]) await ctx().admin.createTopic(topic, { partitions: PARTITIONS });
      const applicationId = uniqueGroup(`groupby-${backend.name}`);

      const start = async (): Promise<KafkaStreams> => {
        const builder = new StreamsBuilder();
        const byRegion = builder
          .table(users, { keySerde: S, valueSerde: S })
          .groupBy((user, region) => KeyValue.pair(region, user), { name: 'users-by-region', keySerde: S, valueSerde: S });
        byRegion.count(Materialized.as<string, number>('region-count')).toStream().to(counts, { keySerde: S, valueSerde: Serdes.Long() });
        byRegion
          .aggregate(() => [] as string[], addMember, removeMember, Materialized.as<string, string[]>('region-members').withValueSerde(Serdes.Json<string[]>()))
          .toStream()
          .to(members, { keySerde: S, valueSerde: Serdes.Json<string[]>() });
        const dir = mkdtempSync(join(tmpdir(), 'sluice-groupby-'));
        dirs.push(dir);
        const app = new KafkaStreams(builder.build(), {
          cluster: ctx().cluster,
          ...ctx().consumerTiming,
          applicationId,
          processingGuarantee: 'exactly_once',
          commitIntervalMs: 100,
          stateDir: dir,
          statestoreCacheMaxBytes: 0,
        });
        apps.push(app);
        await app.start();
        return app;
      };

      /** Writes each user's updates, in order, to partition user % PARTITIONS. */
      const produce = async (updates: readonly Update[]): Promise<void> => {
        const producer = ctx().cluster.producer({});
        await producer.connect();
        try {
          for (let p = 0; p < PARTITIONS; p++) {
            const records = updates
              .filter(([user]) => user % PARTITIONS === p)
              .map(([user, region]) => ({ key: Buffer.from(`u${user}`), value: region === null ? null : Buffer.from(region), headers: {}, timestamp: Date.now() }));
            if (records.length > 0) await producer.produce({ topic: users, partition: p, records });
          }
        } finally {
          await producer.close();
        }
      };

      /** The last committed value per region of `topic`. */
      const lastPerRegion = async <T>(topic: string, read: (value: Buffer) => T): Promise<Map<string, T>> => {
        const last = new Map<string, T>();
        for (const r of await ctx().read(topic)) last.set(r.key!.toString(), read(r.value!));
        return last;
      };
      const lastCounts = () => lastPerRegion(counts, (v) => Number(v.readBigInt64BE(0)));
      const lastMembers = () => lastPerRegion(members, (v) => JSON.parse(v.toString()) as string[]);
      const countsOf = (m: Map<string, string[]>) => new Map([...m].map(([region, list]) => [region, list.length]));
      const sorted = <T>(m: Map<string, T>) => new Map([...m].sort(([a], [b]) => a.localeCompare(b)));

      // 1. first run: phase 1 → counts and members equal the truth of phase 1
      const first = await start();
      expect((await ctx().admin.describeTopic(`${applicationId}-users-by-region-repartition`)).partitions).toBe(PARTITIONS);
      await produce(phase1);
      const truth1 = truth(phase1);
      await eventually(async () => JSON.stringify([...sorted(await lastCounts())]) === JSON.stringify([...sorted(countsOf(truth1))]), 'phase 1 counts committed');
      expect(sorted(await lastMembers())).toEqual(sorted(truth1));

      // 2. close; start again with a fresh state directory (every store restored from its changelog)
      await first.close();
      expect(first.state).toBe('NOT_RUNNING');
      await start();

      // 3. phase 2 → the final counts and members equal the truth of both phases
      await produce(phase2);
      const truth2 = truth([...phase1, ...phase2]);
      await eventually(async () => JSON.stringify([...sorted(await lastCounts())]) === JSON.stringify([...sorted(countsOf(truth2))]), 'phase 2 counts committed');
      await eventually(async () => JSON.stringify([...sorted(await lastMembers())]) === JSON.stringify([...sorted(truth2)]), 'phase 2 member lists committed');
      expect(sorted(await lastCounts())).toEqual(sorted(countsOf(truth2)));
      expect(sorted(await lastMembers())).toEqual(sorted(truth2));

      // 4. the stores are changelogged (the table's own store too: its old values drive the subtractions)
      for (const store of [`${users}-STATE-STORE-0000000000`, 'region-count', 'region-members']) {
        const changelog = await ctx().admin.describeTopic(`${applicationId}-${store}-changelog`);
        expect(changelog.partitions).toBe(PARTITIONS);
        expect(changelog.config['cleanup.policy']).toBe('compact');
      }
    } finally {
      await Promise.all(apps.splice(0).map((a) => a.close()));
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    }
  });
});
