/**
 * Versioned tables survive restarts (issue 30, acceptance 1), exactly once, on
 * the embedded cluster and on real Kafka, for both versioned engines
 * (`Stores.persistentVersionedKeyValueStore`, lmdb, and
 * `Stores.inMemoryVersionedKeyValueStore`):
 *
 * 1. A `prices` table is materialized on the versioned store with an
 *    out-of-order history: versions put behind newer ones, tombstones (also out
 *    of order) and updates older than the history retention (dropped).
 * 2. A `queries` stream asks `get(key, asOf)` for every key at many timestamps
 *    (a processor connected to the table's store writes the whole
 *    `VersionedRecord` to `answers`), and joins the table (`leftJoin`: the
 *    lookup is as of the query record's timestamp, which is `asOf`).
 * 3. The app is closed and started again on the same state directory: the
 *    same queries give the same answers. More history comes, including
 *    updates older than the retention that would change answers if the
 *    restored store had lost its stream time.
 * 4. The app is closed and started again with the local state wiped (a fresh
 *    state directory): the store is rebuilt from its changelog and the
 *    queries give the same answers as before.
 *
 * Every answer is compared with a model of Kafka's versioned store
 * (RocksDBVersionedStore semantics: per-partition stream time, history
 * retention = grace period, `get(key, asOf)` is null below
 * `streamTime - historyRetention`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { Consumed, KafkaStreams, Materialized, Serdes, StreamsBuilder, Stores, type ProcessorSupplier, type VersionedKeyValueStore } from '../../src/index.js';
import type { Record as StreamRecord } from '../../src/processors/record.js';
import { partitionFor } from '../../src/records/partitioner.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';
import { VersionedModel, keysOnPartitions, type Update } from './support/versioned-model.js';

const S = Serdes.String();
const STORE = 'prices-versioned';
const PARTITIONS = 2;
/** History retention (and grace period) of the store: 60 s. */
const RETENTION_MS = 60_000;
/** Seconds are offsets from BASE (two hours ago, so a real broker's retention keeps every record). */
const BASE = Math.floor(Date.now() / 1000) * 1000 - 2 * 3_600_000;
const at = (seconds: number) => BASE + seconds * 1000;

/** Four keys on each partition: KEYS[p] = [a, b, c, d] (the history has the same shape on both partitions). */
const KEYS = keysOnPartitions(PARTITIONS, 4, 'price');

/** The history before the first restart, per partition: [key index, second, value?] (value absent: `key:second`; null: tombstone). */
const PHASE_A: Array<[number, number, (string | null)?]> = [
  [0, 10], [1, 5], [0, 30], [2, 15], [0, 20], // a@20 out of order
  [1, 35], [2, 25, null], [0, 50, null], [2, 45], // c@25: an out-of-order tombstone
  [0, 40], [3, 30], [1, 70], // a@40 out of order before a's tombstone; stream time 70, bound 10
  [2, 38], [2, 8], // c@8 is older than the retention: dropped
];
/** The history after the first restart (same state directory). */
const PHASE_B: Array<[number, number, (string | null)?]> = [
  [3, 5], // older than the bound (10): dropped; if it were put, get(d, 20) would answer d:5 instead of null
  [2, 12], // c@12 out of order, within the retention
  [1, 90], // stream time 90, bound 30
  [0, 85], [3, 25], // d@25 older than the bound (30): dropped
  [1, 75], [3, 60, null], [0, 45, 'a:45 (late)'],
];
/** Query times (seconds): every 5 s over the history, plus the edges around the bounds. */
const AS_OF = [...Array.from({ length: 21 }, (_, i) => i * 5), 9, 11, 29, 31, 39, 41, 49, 51];

function updates(phase: Array<[number, number, (string | null)?]>): Update[] {
  return KEYS.flatMap((keys) => phase.map(([k, s, value]): Update => ({ key: keys[k]!, timestamp: at(s), value: value === undefined ? `${keys[k]}:${s}` : value })));
}

/** Answers `get(key, asOf)` of the table's store for each query record (value: `<round>|<asOf>`). */
const asOfReader: ProcessorSupplier<string, string, string, string> = {
  get() {
    let store: VersionedKeyValueStore<string, string>;
    let forward: (record: StreamRecord<string, string>) => void;
    return {
      init(context) {
        store = context.getStateStore(STORE);
        forward = (record) => context.forward(record);
      },
      process(record) {
        const asOf = Number(record.value.split('|')[1]);
        forward(record.withValue(`${record.value}|${JSON.stringify(store.get(record.key, asOf))}`));
      },
    };
  },
};

await describeOnEachBackend('versioned table restored (close/restart, wiped state directory)', (backend, fx) => {
  const ctx = (): BackendContext => fx.ctx;
  const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs, intervalMs: 100, message });
  const timeout = backend.name === 'embedded' ? 60_000 : 240_000;

  function topology(kind: 'persistent' | 'in-memory', topics: { prices: string; queries: string; answers: string; joined: string }) {
    const supplier = kind === 'persistent' ? Stores.persistentVersionedKeyValueStore(STORE, RETENTION_MS) : Stores.inMemoryVersionedKeyValueStore(STORE, RETENTION_MS);
    const builder = new StreamsBuilder();
    const prices = builder.table(topics.prices, Consumed.with(S, S), Materialized.as<string, string>(supplier));
    const queries = builder.stream(topics.queries, Consumed.with(S, S));
    queries.process(asOfReader, STORE).to(topics.answers, { keySerde: S, valueSerde: S });
    queries.leftJoin(prices, (query, price) => `${query}|${price ?? 'none'}`).to(topics.joined, { keySerde: S, valueSerde: S });
    return builder.build();
  }

  async function produce(topic: string, records: Array<{ key: string; value: string | null; timestamp: number }>): Promise<void> {
    const producer = ctx().cluster.producer({});
    await producer.connect();
    try {
      for (let p = 0; p < PARTITIONS; p++) {
        const mine = records.filter((r) => partitionFor(Buffer.from(r.key), PARTITIONS) === p);
        if (mine.length === 0) continue;
        await producer.produce({ topic, partition: p, records: mine.map((r) => ({ key: Buffer.from(r.key), value: r.value === null ? null : Buffer.from(r.value), headers: {}, timestamp: r.timestamp })) });
      }
    } finally {
      await producer.close();
    }
  }

  for (const kind of ['persistent', 'in-memory'] as const) {
    it(
      `${kind}: out-of-order history answers get(key, asOf) the same after a restart and after a restart on a wiped state directory`,
      async () => {
        const topics = { prices: uniqueTopic(`vr-prices-${backend.name}`), queries: uniqueTopic(`vr-queries-${backend.name}`), answers: uniqueTopic(`vr-answers-${backend.name}`), joined: uniqueTopic(`vr-joined-${backend.name}`) };
        for (const topic of Object.values(topics)) await ctx().admin.createTopic(topic, { partitions: PARTITIONS });
        const applicationId = uniqueGroup(`vr-${kind}-${backend.name}`);
        const changelog = `${applicationId}-${STORE}-changelog`;
        const dirs = [mkdtempSync(join(tmpdir(), 'sluice-vr-'))];
        const start = async (stateDir: string) => {
          const app = new KafkaStreams(topology(kind, topics), { cluster: ctx().cluster, ...ctx().consumerTiming, applicationId, processingGuarantee: 'exactly_once', commitIntervalMs: 100, stateDir });
          await app.start();
          return app;
        };
        const model = new VersionedModel(PARTITIONS, RETENTION_MS);
        let written = 0;
        /** Writes `phase` and waits until every update is in the changelog (a dropped one too: the store logs what was asked, as Kafka's). */
        const history = async (phase: Update[]) => {
          for (const u of phase) model.put(u);
          await produce(topics.prices, phase);
          written += phase.length;
          await eventually(async () => (await ctx().read(changelog)).length === written, `${written} updates in ${changelog}`);
        };
        let round = 0;
        /** Asks every key at every AS_OF; returns the answers and joins of this round, sorted, after checking them against the model. */
        const ask = async () => {
          round += 1;
          const queries = KEYS.flat().flatMap((key) => AS_OF.map((s) => ({ key, value: `${round}|${at(s)}`, timestamp: at(s) })));
          await produce(topics.queries, queries);
          const mine = (rows: Array<{ key: Buffer | null; value: Buffer | null }>) => rows.map((r) => `${r.key!.toString()}|${r.value!.toString()}`).filter((r) => r.split('|')[1] === String(round));
          let answers: string[] = [];
          let joined: string[] = [];
          await eventually(async () => {
            answers = mine(await ctx().read(topics.answers));
            joined = mine(await ctx().read(topics.joined));
            return answers.length === queries.length && joined.length === queries.length;
          }, `round ${round}: ${queries.length} answers and joins committed`);
          const expected = queries.map((q) => ({ key: q.key, asOf: q.timestamp, record: model.get(q.key, q.timestamp) }));
          const parsed = answers.map((a) => a.split('|')).map(([key, , asOf, record]) => ({ key, asOf: Number(asOf), record: JSON.parse(record!) as unknown }));
          expect(sortBy(parsed)).toEqual(sortBy(expected));
          expect(joined.sort()).toEqual(expected.map((e) => `${e.key}|${round}|${e.asOf}|${e.record?.value ?? 'none'}`).sort());
          return { answers: parsed.map((a) => `${a.key}@${a.asOf}=${JSON.stringify(a.record)}`).sort(), joined: joined.map((j) => j.replace(`|${round}|`, '|')).sort() };
        };

        let app = await start(dirs[0]!);
        try {
          // 1. the out-of-order history, 2. the answers
          await history(updates(PHASE_A));
          expect(model.dropped.map((u) => `${u.key}@${(u.timestamp - BASE) / 1000}`)).toEqual(KEYS.map((k) => `${k[2]}@8`));
          const first = await ask();
          expect(first.answers.filter((a) => !a.endsWith('=null')).length).toBeGreaterThan(60);

          // 3. closed and started again on the same state directory: the same answers; then more history
          await app.close();
          app = await start(dirs[0]!);
          expect(await ask()).toEqual(first);
          await history(updates(PHASE_B));
          expect(model.dropped.length).toBe(3 * PARTITIONS);
          const second = await ask();
          expect(second).not.toEqual(first);

          // 4. closed and started again with the local state wiped: rebuilt from the changelog, the same answers
          await app.close();
          dirs.push(mkdtempSync(join(tmpdir(), 'sluice-vr-')));
          app = await start(dirs[1]!);
          expect(await ask()).toEqual(second);
        } finally {
          await app.close();
          for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
        }
      },
      timeout,
    );
  }
});

function sortBy<T extends { key: string | undefined; asOf: number }>(rows: T[]): T[] {
  return [...rows].sort((x, y) => (x.key! < y.key! ? -1 : x.key! > y.key! ? 1 : x.asOf - y.asOf));
}
