/**
 * KTable–KTable key joins through KafkaStreams, exactly_once, on the embedded
 * cluster and on real Kafka: two co-partitioned tables joined inner, left and
 * outer (the outer join materialized into a queryable store), each written to
 * an output topic. Run 1 processes a first batch; the app closes; run 2 starts
 * with a fresh state directory (so every table store is restored from its
 * changelog) and processes a second batch of updates and deletes whose
 * results need the restored rows of the other table. After each run the last
 * committed value per key of every output (null: a delete) equals the join of
 * the tables' true contents, and after run 2 so does the store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { QueryableStoreTypes, type ReadOnlyKeyValueStore } from '../../src/runtime/interactive-queries.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { Materialized } from '../../src/topology/options.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';

const S = Serdes.String();
const PARTITIONS = 2;
const STORE = 'outer-joined';
const joiner = (l: string | null, r: string | null) => `${String(l)}+${String(r)}`;

type Rows = ReadonlyArray<readonly [key: string, value: string | null]>;

/** Batch 1: left k0..k7, right k2..k9. */
const LEFT_1: Rows = Array.from({ length: 8 }, (_, i) => [`k${i}`, `L${i}a`] as const);
const RIGHT_1: Rows = Array.from({ length: 8 }, (_, i) => [`k${i + 2}`, `R${i + 2}a`] as const);
/** Batch 2: updates and deletes on both sides; k2, k3, k5, k6 and k9 join rows restored from run 1. */
const LEFT_2: Rows = [['k0', 'L0b'], ['k2', null], ['k4', 'L4b'], ['k6', 'L6b'], ['k8', 'L8b']];
const RIGHT_2: Rows = [['k0', 'R0b'], ['k3', null], ['k4', 'R4b'], ['k5', 'R5b'], ['k9', null]];

/** The table after `batches`: the last value per key, deletes removed. */
function tableOf(...batches: Rows[]): Map<string, string> {
  const table = new Map<string, string>();
  for (const [key, value] of batches.flat()) {
    if (value === null) table.delete(key);
    else table.set(key, value);
  }
  return table;
}

/** The true joined table of `left` and `right` for `kind`. */
function truth(kind: 'inner' | 'left' | 'outer', left: Map<string, string>, right: Map<string, string>): Map<string, string> {
  const keys = [...new Set([...left.keys(), ...right.keys()])].sort();
  const out = new Map<string, string>();
  for (const key of keys) {
    const [l, r] = [left.get(key) ?? null, right.get(key) ?? null];
    if ((kind === 'inner' && (l === null || r === null)) || (kind === 'left' && l === null)) continue;
    out.set(key, joiner(l, r));
  }
  return out;
}

const partitionOf = (key: string) => Number(key.slice(1)) % PARTITIONS;

await describeOnEachBackend('KTable-KTable joins (exactly_once, restart)', (backend, fx) => {
  const ctx = (): BackendContext => fx.ctx;
  const timeout = backend.name === 'kafka' ? 240_000 : 60_000;
  const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs, intervalMs: 100, message });

  async function produce(topic: string, rows: Rows): Promise<void> {
    const producer = ctx().cluster.producer({});
    await producer.connect();
    try {
      for (let p = 0; p < PARTITIONS; p++) {
        const records = rows
          .filter(([key]) => partitionOf(key) === p)
          .map(([key, value]) => ({ key: Buffer.from(key), value: value === null ? null : Buffer.from(value), headers: {}, timestamp: Date.now() }));
        if (records.length > 0) await producer.produce({ topic, partition: p, records });
      }
    } finally {
      await producer.close();
    }
  }

  /** The committed output's last value per key, deletes removed (the joined table the topic describes). */
  async function tableInTopic(topic: string): Promise<Map<string, string>> {
    const table = new Map<string, string>();
    for (const r of await ctx().read(topic)) {
      const key = r.key!.toString();
      if (r.value === null) table.delete(key);
      else table.set(key, r.value.toString());
    }
    return new Map([...table].sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  function start(topics: Record<'left' | 'right' | 'inner' | 'leftOut' | 'outer', string>, applicationId: string, stateDir: string): KafkaStreams {
    const builder = new StreamsBuilder();
    const left = builder.table(topics.left, { keySerde: S, valueSerde: S });
    const right = builder.table(topics.right, { keySerde: S, valueSerde: S });
    const produced = { keySerde: S, valueSerde: S };
    left.join(right, joiner).toStream().to(topics.inner, produced);
    left.leftJoin(right, joiner).toStream().to(topics.leftOut, produced);
    left.outerJoin(right, joiner, Materialized.as<string, string>(STORE).withKeySerde(S).withValueSerde(S)).toStream().to(topics.outer, produced);
    return new KafkaStreams(builder.build(), {
      cluster: ctx().cluster,
      ...ctx().consumerTiming,
      applicationId,
      processingGuarantee: 'exactly_once',
      commitIntervalMs: 100,
      stateDir,
    });
  }

  it('inner, left and outer joins equal the truth after a batch, a restart from the changelogs and a second batch', { timeout }, async () => {
    const dirs = [mkdtempSync(join(tmpdir(), 'sluice-ttj-')), mkdtempSync(join(tmpdir(), 'sluice-ttj-'))];
    const apps: KafkaStreams[] = [];
    try {
      const topics = {
        left: uniqueTopic(`ttj-left-${backend.name}`),
        right: uniqueTopic(`ttj-right-${backend.name}`),
        inner: uniqueTopic(`ttj-inner-${backend.name}`),
        leftOut: uniqueTopic(`ttj-leftout-${backend.name}`),
        outer: uniqueTopic(`ttj-outer-${backend.name}`),
      };
      for (const topic of Object.values(topics)) await ctx().admin.createTopic(topic, { partitions: PARTITIONS });
      const applicationId = uniqueGroup(`ttj-${backend.name}`);
      const outputsEqual = async (l: Map<string, string>, r: Map<string, string>) =>
        JSON.stringify([...(await tableInTopic(topics.inner)), ...(await tableInTopic(topics.leftOut)), ...(await tableInTopic(topics.outer))]) ===
        JSON.stringify([...truth('inner', l, r), ...truth('left', l, r), ...truth('outer', l, r)]);

      // 1. run 1: the first batch
      const first = start(topics, applicationId, dirs[0]!);
      apps.push(first);
      await first.start();
      await produce(topics.left, LEFT_1);
      await produce(topics.right, RIGHT_1);
      const [left1, right1] = [tableOf(LEFT_1), tableOf(RIGHT_1)];
      await eventually(() => outputsEqual(left1, right1), 'run 1: every output is the join of the first batch');
      expect(await tableInTopic(topics.inner)).toEqual(truth('inner', left1, right1));
      expect(await tableInTopic(topics.leftOut)).toEqual(truth('left', left1, right1));
      expect(await tableInTopic(topics.outer)).toEqual(truth('outer', left1, right1));
      await first.close();

      // 2. run 2, fresh state directory: the stores restore from their changelogs
      const second = start(topics, applicationId, dirs[1]!);
      apps.push(second);
      await second.start();
      await produce(topics.left, LEFT_2);
      await produce(topics.right, RIGHT_2);
      const [left2, right2] = [tableOf(LEFT_1, LEFT_2), tableOf(RIGHT_1, RIGHT_2)];
      await eventually(() => outputsEqual(left2, right2), 'run 2: every output is the join of both batches');
      expect(await tableInTopic(topics.inner)).toEqual(truth('inner', left2, right2));
      expect(await tableInTopic(topics.leftOut)).toEqual(truth('left', left2, right2));
      expect(await tableInTopic(topics.outer)).toEqual(truth('outer', left2, right2));

      // 3. the materialized outer join: its store holds the true joined table
      const store = second.store<ReadOnlyKeyValueStore<string, string>>({ storeName: STORE, queryableStoreType: QueryableStoreTypes.keyValueStore<string, string>() });
      const inStore = new Map(store.all().map(({ key, value }) => [key, value] as const).sort(([a], [b]) => (a < b ? -1 : 1)));
      expect(inStore).toEqual(truth('outer', left2, right2));
      const changelog = await ctx().admin.describeTopic(`${applicationId}-${STORE}-changelog`);
      expect(changelog.partitions).toBe(PARTITIONS);
    } finally {
      await Promise.all(apps.map((a) => a.close()));
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});
