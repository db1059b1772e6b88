/**
 * Cogroup (KIP-150) across restarts, on the embedded cluster and on real
 * Kafka: two input topics (`clicks`, `views`) cogrouped per key, each with its
 * own aggregator (a click adds 1, a view adds 1000), into a persistent,
 * changelogged store, plain (`aggregate`) and windowed
 * (`windowedBy(TimeWindows).aggregate`). Exactly once, caching off.
 *
 * Each case, in three runs:
 * 1. batch 1 → the committed results (and, for the plain store, the store
 *    read through interactive queries) equal the truth of batch 1;
 * 2. the app closed and started again on the same state directory: the store
 *    holds the same contents before any new input; batch 2 is aggregated on
 *    top of them;
 * 3. closed and started again on a fresh (wiped) state directory, so the store
 *    is restored from its changelog: the same contents again; batch 3 too.
 * The last committed result per key (and window) equals the truth of all
 * batches: an aggregate that lost its store would start again from 0.
 *
 * Timestamps are near `Date.now()` (the broker's retention would delete
 * old-timestamped segments).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { QueryableStoreTypes, type ReadOnlyKeyValueStore } from '../../src/index.js';
import { partitionFor } from '../../src/records/partitioner.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { WindowedSerdes } from '../../src/state/windowed-serdes.js';
import { Materialized } from '../../src/topology/options.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { TimeWindows } from '../../src/topology/time-windows.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';

const S = Serdes.String();
const L = Serdes.Long();
const PARTITIONS = 3;
const SIZE_MS = 10_000;
const GRACE_MS = 3_600_000;
const KEYS = 5;
const STORE = 'cogroup-totals';

/** One input: its topic (0 clicks, 1 views), key and offset in ms from the run's base time. */
type Input = [topic: 0 | 1, key: number, offsetMs: number];

/** Three batches, each touching every key on both topics, in the same windows (0-30 s) as the earlier ones. */
const batches: Input[][] = [0, 1, 2].map((b) => Array.from({ length: 24 }, (_, i): Input => [((i + b) % 2) as 0 | 1, (i * 3 + b) % KEYS, ((i * 7_919 + b * 1_237) % 30_000) + 1]));

/** The aggregate of `inputs` per `key` (plain) or `key@windowStart` (windowed). */
function truth(inputs: readonly Input[], base: number, windowed: boolean): Map<string, number> {
  const totals = new Map<string, number>();
  for (const [topic, key, offset] of inputs) {
    const id = windowed ? `k${key}@${Math.floor((base + offset) / SIZE_MS) * SIZE_MS}` : `k${key}`;
    totals.set(id, (totals.get(id) ?? 0) + (topic === 0 ? 1 : 1000));
  }
  return totals;
}

const sorted = <T>(m: Map<string, T>): Array<[string, T]> => [...m].sort(([a], [b]) => a.localeCompare(b));

await describeOnEachBackend('cogroup aggregate across restarts (same state dir, then a wiped one)', (backend, fx) => {
  const ctx = (): BackendContext => fx.ctx;
  const timeout = backend.name === 'kafka' ? 240_000 : 60_000;

  for (const windowed of [false, true]) {
    it(`${windowed ? 'windowedBy(TimeWindows).aggregate' : 'aggregate'}: the store keeps its contents across both restarts; results equal the truth`, { timeout }, async () => {
      const apps: KafkaStreams[] = [];
      const dirs: string[] = [];
      const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs, intervalMs: 100, message });
      const windowedSerde = WindowedSerdes.timeWindowedSerdeFrom(S, SIZE_MS);
      try {
        const tag = `${backend.name}-${windowed ? 'w' : 'p'}`;
        const [clicks, views, out] = [uniqueTopic(`cg-clicks-${tag}`), uniqueTopic(`cg-views-${tag}`), uniqueTopic(`cg-out-${tag}`)];
        for (const topic of [clicks, views, out]) await ctx().admin.createTopic(topic, { partitions: PARTITIONS });
        const applicationId = uniqueGroup(`cogroup-restart-${tag}`);
        const base = Math.floor((Date.now() - 60_000) / SIZE_MS) * SIZE_MS;

        const start = async (dir: string): Promise<KafkaStreams> => {
          const builder = new StreamsBuilder();
          const clicked = builder.stream(clicks, { keySerde: S, valueSerde: S }).groupByKey();
          const viewed = builder.stream(views, { keySerde: S, valueSerde: S }).groupByKey();
          const cogrouped = clicked.cogroup((_k, _v, total: number) => total + 1).cogroup(viewed, (_k, _v, total: number) => total + 1000);
          const materialized = Materialized.as<string, number>(STORE).withValueSerde(L);
          if (windowed) {
            cogrouped.windowedBy(TimeWindows.ofSizeAndGrace(SIZE_MS, GRACE_MS)).aggregate(() => 0, materialized).toStream().to(out, { keySerde: windowedSerde, valueSerde: L });
          } else {
            cogrouped.aggregate(() => 0, materialized).toStream().to(out, { keySerde: S, valueSerde: L });
          }
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
        const newDir = (): string => {
          const dir = mkdtempSync(join(tmpdir(), 'sluice-cogroup-restart-'));
          dirs.push(dir);
          return dir;
        };

        /** Writes each key's inputs, in order, to the key's partition of its topic. */
        const produce = async (batch: readonly Input[]): Promise<void> => {
          const producer = ctx().cluster.producer({});
          await producer.connect();
          try {
            for (const [t, topic] of [clicks, views].entries()) {
              for (let p = 0; p < PARTITIONS; p++) {
                const records = batch
                  .filter(([bt, key]) => bt === t && partitionFor(S.serialize(topic, `k${key}`)!, PARTITIONS) === p)
                  .map(([, key, offset]) => ({ key: Buffer.from(`k${key}`), value: Buffer.from('e'), headers: {}, timestamp: base + offset }));
                if (records.length > 0) await producer.produce({ topic, partition: p, records });
              }
            }
          } finally {
            await producer.close();
          }
        };

        /** The last committed result per key (or `key@windowStart`). */
        const lastResults = async (): Promise<Map<string, number>> => {
          const last = new Map<string, number>();
          for (const r of await ctx().read(out)) {
            const id = windowed
              ? ((w) => `${w.key}@${w.window.start}`)(windowedSerde.deserialize(out, r.key!))
              : (S.deserialize(out, r.key!) as string);
            last.set(id, Number(r.value!.readBigInt64BE(0)));
          }
          return last;
        };
        /** The plain store's contents through interactive queries (undefined while it cannot be queried). */
        const storeContents = (app: KafkaStreams): Map<string, number> | undefined => {
          try {
            const store = app.store<ReadOnlyKeyValueStore<string, number>>({ storeName: STORE, queryableStoreType: QueryableStoreTypes.keyValueStore<string, number>() });
            return new Map(store.all().map((kv) => [kv.key, kv.value]));
          } catch {
            return undefined;
          }
        };
        const same = (a: Map<string, number> | undefined, b: Map<string, number>): boolean => a !== undefined && JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));

        const dir = newDir();
        let seen: Input[] = [];
        for (const [run, batch] of batches.entries()) {
          // run 0 starts on a new dir; run 1 on the same dir (a plain restart); run 2 on a wiped one (restored from the changelog)
          const app = await start(run === 2 ? newDir() : dir);
          if (!windowed && run > 0) {
            // the store holds what the last run left, before any new input
            const before = truth(seen, base, false);
            await eventually(() => same(storeContents(app), before), `run ${run}: store contents as before the restart`);
            expect(sorted(storeContents(app)!)).toEqual(sorted(before));
          }
          await produce(batch);
          seen = [...seen, ...batch];
          const expected = truth(seen, base, windowed);
          await eventually(async () => same(await lastResults(), expected), `run ${run}: results committed`);
          expect(sorted(await lastResults())).toEqual(sorted(expected));
          if (!windowed) {
            await eventually(() => same(storeContents(app), expected), `run ${run}: store contents`);
          }
          await app.close();
          expect(app.state).toBe('NOT_RUNNING');
        }

        // the store's changelog exists with one partition per input partition
        const changelog = await ctx().admin.describeTopic(`${applicationId}-${STORE}-changelog`);
        expect(changelog.partitions).toBe(PARTITIONS);
        expect(changelog.config['cleanup.policy']).toBe(windowed ? 'compact,delete' : 'compact');
      } finally {
        await Promise.all(apps.splice(0).map((a) => a.close()));
        for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
      }
    });
  }
});
