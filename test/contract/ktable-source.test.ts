/**
 * The KTable core end to end, exactly-once, on the embedded cluster and on
 * real Kafka: builder.table → filter → mapValues (materialized, changelogged)
 * → toStream → topic, with the app closed and started again in the middle
 * (same stateDir, and a fresh one that must restore from the changelog).
 * Asserts every input update gives exactly one committed output record (no
 * duplicates across the restart), the last output per key is the true table
 * (a delete is a null value), and the materialized store queried through
 * `app.store(...)` holds the true table, keys last written before the restart
 * included.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { QueryableStoreTypes } from '../../src/runtime/interactive-queries.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { Materialized } from '../../src/topology/options.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';

const S = Serdes.String();
const PARTITIONS = 2;
const STORE = 'ops-mapped';

/** Update i: key `k<i % keys>`, value `String(i)`, every seventh a tombstone. */
const update = (i: number, keys: number) => ({ key: `k${i % keys}`, value: i % 7 === 6 ? null : String(i) });
// Batch 2 touches k0..k4 only: k5..k7 keep what batch 1 left, so the store must survive the restart for them.
const BATCH_1 = Array.from({ length: 24 }, (_, i) => update(i, 8));
const BATCH_2 = Array.from({ length: 20 }, (_, i) => update(24 + i, 5));

/** The table the topology computes: even values × 10 (as strings); odd, deleted or absent keys have none. */
function truth(updates: ReadonlyArray<{ key: string; value: string | null }>): Map<string, string | null> {
  const table = new Map<string, string | null>();
  for (const { key, value } of updates) table.set(key, value !== null && Number(value) % 2 === 0 ? String(Number(value) * 10) : null);
  return table;
}

await describeOnEachBackend('KTable core: table → filter → mapValues(materialized) → toStream, exactly-once, restart', (backend, fx) => {
  const apps: KafkaStreams[] = [];
  const dirs: string[] = [];
  const ctx = (): BackendContext => fx.ctx;
  const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs * 4, intervalMs: 100, message });
  const timeout = backend.name === 'kafka' ? 180_000 : 60_000;

  const stateDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-ktable-'));
    dirs.push(dir);
    return dir;
  };

  const cleanup = async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  };

  async function produce(topic: string, updates: ReadonlyArray<{ key: string; value: string | null }>): Promise<void> {
    const producer = ctx().cluster.producer({});
    await producer.connect();
    try {
      for (let p = 0; p < PARTITIONS; p++) {
        const records = updates
          .filter(({ key }) => Number(key.slice(1)) % PARTITIONS === p)
          .map(({ key, value }) => ({ key: Buffer.from(key), value: value === null ? null : Buffer.from(value), headers: {}, timestamp: Date.now() }));
        if (records.length > 0) await producer.produce({ topic, partition: p, records });
      }
    } finally {
      await producer.close();
    }
  }

  async function start(applicationId: string, input: string, output: string, dir: string): Promise<KafkaStreams> {
    const builder = new StreamsBuilder();
    builder
      .table(input, { keySerde: S, valueSerde: S })
      .filter((_k, v) => Number(v) % 2 === 0)
      .mapValues((v) => String(Number(v) * 10), Materialized.as<string, string>(STORE).withValueSerde(S))
      .toStream()
      .to(output, { keySerde: S, valueSerde: S });
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
  }

  const outputs = async (output: string) => (await ctx().read(output, 'read_committed')).map((r) => ({ key: r.key!.toString(), value: r.value === null ? null : r.value.toString() }));

  async function runRestartRun(secondDir: (first: string) => string) {
    const [input, output] = [uniqueTopic(`kt-in-${backend.name}`), uniqueTopic(`kt-out-${backend.name}`)];
    await ctx().admin.createTopic(input, { partitions: PARTITIONS });
    await ctx().admin.createTopic(output, { partitions: PARTITIONS });
    const applicationId = uniqueGroup(`kt-${backend.name}`);
    const firstDir = stateDir();

    const first = await start(applicationId, input, output, firstDir);
    await produce(input, BATCH_1);
    await eventually(async () => (await outputs(output)).length === BATCH_1.length, `run 1: ${BATCH_1.length} outputs committed`);
    // harness check: run 1 computes the table of batch 1
    const lastOf = (records: Array<{ key: string; value: string | null }>) => new Map(records.map((r) => [r.key, r.value]));
    expect(lastOf(await outputs(output))).toEqual(truth(BATCH_1));
    await first.close();

    const second = await start(applicationId, input, output, secondDir(firstDir));
    expect(second.state).toBe('RUNNING');
    await produce(input, BATCH_2);
    await eventually(async () => (await outputs(output)).length === BATCH_1.length + BATCH_2.length, 'run 2: every update once');
    return { applicationId, output, second, lastOf };
  }

  async function expectTrueTable(run: Awaited<ReturnType<typeof runRestartRun>>): Promise<void> {
    const expected = truth([...BATCH_1, ...BATCH_2]);
    const records = await outputs(run.output);
    // exactly once: one committed output per input update, none repeated by the restart
    expect(records).toHaveLength(BATCH_1.length + BATCH_2.length);
    expect(run.lastOf(records)).toEqual(expected);
    // the materialized store is the true table (deleted keys absent), k5..k7 from before the restart
    const store = run.second.store<{ all(): Array<{ key: string; value: string }> }>({ storeName: STORE, queryableStoreType: QueryableStoreTypes.keyValueStore() });
    const live = new Map([...expected].filter(([, v]) => v !== null));
    await eventually(() => {
      const rows = new Map(store.all().map((kv) => [kv.key, kv.value]));
      return rows.size === live.size && [...live].every(([k, v]) => rows.get(k) === v);
    }, 'store equals the true table');
    expect(new Map(store.all().map((kv) => [kv.key, kv.value]))).toEqual(live);
    expect(['k5', 'k6', 'k7'].filter((k) => live.has(k)).length).toBeGreaterThan(0);
    const changelog = await ctx().admin.describeTopic(`${run.applicationId}-${STORE}-changelog`);
    expect(changelog.partitions).toBe(PARTITIONS);
  }

  it('restart with the same stateDir: every update once, the output and the store are the true table', { timeout }, async () => {
    try {
      await expectTrueTable(await runRestartRun((first) => first));
    } finally {
      await cleanup();
    }
  });

  it('restart with a fresh stateDir: the store is restored from its changelog and equals the true table', { timeout }, async () => {
    try {
      await expectTrueTable(await runRestartRun(() => stateDir()));
    } finally {
      await cleanup();
    }
  });
});
