/**
 * WordCountDemo survives (issue 15): Kafka Streams' WordCountDemo
 * (examples/wordcount, ported from WordCountDemo.java) run, closed and started
 * again with the same applicationId keeps counting where it stopped, with a
 * persistent store (same or fresh stateDir) and with an in-memory one, and
 * when a second instance joins the moved tasks continue their counts. On the
 * embedded cluster and on real Kafka.
 *
 * Every case first proves its harness on what works without durable state
 * (the first run's counts, the restarted app running, the second instance
 * owning tasks), then asserts the counts that need the state to survive.
 * Stateful API names are reached through test/integration/fixtures/state-api.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import type { Materialized } from '../../src/topology/options.js';
import { createWordCountStream } from '../../examples/wordcount/word-count-demo.js';
import { inMemoryKeyValueStore, stateConfig } from '../integration/fixtures/state-api.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';

const WORDS = ['apple', 'banana', 'cherry', 'date', 'elder', 'fig', 'grape'];

/** Line i of the rebalance case: three words of WORDS. */
const lineOf = (i: number) => [WORDS[i % 7]!, WORDS[(i * 3 + 1) % 7]!, WORDS[(i * 5 + 2) % 7]!].join(' ');

/** How often each word occurs in `lines` (split as the demo splits). */
function trueCounts(lines: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of lines.flatMap((l) => l.toLowerCase().split(/\W+/).filter(Boolean))) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

await describeOnEachBackend('WordCountDemo survives a restart and a rebalance', (backend, fx) => {
  const apps: KafkaStreams[] = [];
  const dirs: string[] = [];
  const ctx = (): BackendContext => fx.ctx;
  const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs, intervalMs: 100, message });
  const timeout = backend.name === 'kafka' ? 180_000 : 60_000;

  const cleanup = async () => {
    await Promise.all(apps.splice(0).map((a) => a.close()));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  };

  const stateDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-wc-'));
    dirs.push(dir);
    return dir;
  };

  async function topics(partitions: number): Promise<{ input: string; output: string }> {
    const [input, output] = [uniqueTopic(`wc-lines-${backend.name}`), uniqueTopic(`wc-counts-${backend.name}`)];
    await ctx().admin.createTopic(input, { partitions });
    await ctx().admin.createTopic(output, { partitions });
    return { input, output };
  }

  /** Writes line i (key `line<offset + i>`) to partition (offset + i) % partitions, non-transactionally. */
  async function produceLines(input: string, partitions: number, lines: readonly string[], offset = 0): Promise<void> {
    const producer = ctx().cluster.producer({});
    await producer.connect();
    try {
      for (let p = 0; p < partitions; p++) {
        const records = lines
          .map((line, i) => ({ line, i: offset + i }))
          .filter(({ i }) => i % partitions === p)
          .map(({ line, i }) => ({ key: Buffer.from(`line${i}`), value: Buffer.from(line), headers: {}, timestamp: Date.now() }));
        if (records.length > 0) await producer.produce({ topic: input, partition: p, records });
      }
    } finally {
      await producer.close();
    }
  }

  /** The committed count updates per word, in output order per partition (a word's updates share one partition). */
  async function updatesByWord(output: string): Promise<Map<string, number[]>> {
    const byWord = new Map<string, number[]>();
    for (const r of await ctx().read(output)) {
      const word = r.key!.toString();
      byWord.set(word, [...(byWord.get(word) ?? []), Number(r.value!.readBigInt64BE(0))]);
    }
    return byWord;
  }

  const outputCount = async (output: string) => [...(await updatesByWord(output)).values()].reduce((n, u) => n + u.length, 0);

  /** Starts the demo's topology with the demo's serdes, commit every 100 ms, cache disabled (every update visible). */
  async function startDemo(opts: { applicationId: string; input: string; output: string; stateDir: string; materialized?: Materialized<string, number> }) {
    const builder = new StreamsBuilder<string, string>();
    const storeName = createWordCountStream(builder, { inputTopic: opts.input, outputTopic: opts.output, ...(opts.materialized ? { materialized: opts.materialized } : {}) });
    const app = new KafkaStreams(builder.build(), {
      cluster: ctx().cluster,
      ...ctx().consumerTiming,
      applicationId: opts.applicationId,
      commitIntervalMs: 100,
      defaultKeySerde: Serdes.String(),
      defaultValueSerde: Serdes.String(),
      ...stateConfig({ stateDir: opts.stateDir, statestoreCacheMaxBytes: 0 }),
    });
    apps.push(app);
    await app.start();
    return { app, storeName };
  }

  /**
   * Run 1: "hello world", "hello kafka streams"; close; run 2 (same
   * applicationId, `secondStateDir`): "hello again", "kafka". Returns what a
   * case checks afterwards.
   */
  async function runCloseRestart(materialized: Materialized<string, number> | undefined, secondStateDir: (first: string) => string) {
    const { input, output } = await topics(3);
    const applicationId = uniqueGroup(`wc-${backend.name}`);
    const firstDir = stateDir();
    const first = await startDemo({ applicationId, input, output, stateDir: firstDir, ...(materialized ? { materialized } : {}) });
    await produceLines(input, 3, ['hello world', 'hello kafka streams']);
    await eventually(async () => (await outputCount(output)) === 5, 'first run: 5 count updates committed');
    // harness check: the first run counts as Kafka's demo does
    expect(await updatesByWord(output)).toEqual(new Map([['hello', [1, 2]], ['world', [1]], ['kafka', [1]], ['streams', [1]]]));
    await first.app.close();
    expect(first.app.state).toBe('NOT_RUNNING');

    const second = await startDemo({ applicationId, input, output, stateDir: secondStateDir(firstDir), ...(materialized ? { materialized } : {}) });
    expect(second.app.state).toBe('RUNNING');
    await produceLines(input, 3, ['hello again', 'kafka'], 2);
    await eventually(async () => (await outputCount(output)) === 8, 'second run: 3 more count updates committed');
    return { applicationId, input, output, storeName: second.storeName };
  }

  async function expectChangelog(applicationId: string, storeName: string, partitions: number): Promise<void> {
    const changelog = await ctx().admin.describeTopic(`${applicationId}-${storeName}-changelog`);
    expect(changelog.partitions).toBe(partitions);
    expect(changelog.config['cleanup.policy']).toBe('compact');
  }

  const continued = new Map([['hello', [1, 2, 3]], ['world', [1]], ['kafka', [1, 2]], ['streams', [1]], ['again', [1]]]);

  it('persistent store (default), same stateDir: run, close, start again → counts continue (hello 1, 2, then 3)', { timeout }, async () => {
    try {
      const { applicationId, output, storeName } = await runCloseRestart(undefined, (first) => first);
      expect(await updatesByWord(output)).toEqual(continued);
      await expectChangelog(applicationId, storeName, 3);
    } finally {
      await cleanup();
    }
  });

  it('in-memory store: restart → restored from the changelog, counts continue', { timeout }, async () => {
    try {
      const materialized: Materialized<string, number> = { storeName: 'counts', storeSupplier: inMemoryKeyValueStore('counts') };
      const { applicationId, output } = await runCloseRestart(materialized, (first) => first);
      expect(await updatesByWord(output)).toEqual(continued);
      await expectChangelog(applicationId, 'counts', 3);
    } finally {
      await cleanup();
    }
  });

  it('persistent store, fresh stateDir on restart → restored fully from the changelog, counts continue', { timeout }, async () => {
    try {
      const { applicationId, output, storeName } = await runCloseRestart(undefined, () => stateDir());
      expect(await updatesByWord(output)).toEqual(continued);
      await expectChangelog(applicationId, storeName, 3);
    } finally {
      await cleanup();
    }
  });

  it('a second instance joins → the moved tasks continue their counts (last value per word = true count)', { timeout }, async () => {
    try {
      const partitions = 4;
      const { input, output } = await topics(partitions);
      const applicationId = uniqueGroup(`wc-${backend.name}`);
      const firstBatch = Array.from({ length: 40 }, (_, i) => lineOf(i));
      const secondBatch = Array.from({ length: 40 }, (_, i) => lineOf(40 + i));
      const a = await startDemo({ applicationId, input, output, stateDir: stateDir() });
      await produceLines(input, partitions, firstBatch);
      await eventually(async () => (await outputCount(output)) === 120, 'first batch: 120 count updates committed');
      const firstCounts = trueCounts(firstBatch);
      // harness check: before the join every word's updates are 1..n
      for (const [word, updates] of await updatesByWord(output)) expect(updates, word).toEqual(Array.from({ length: firstCounts.get(word)! }, (_, i) => i + 1));

      const b = await startDemo({ applicationId, input, output, stateDir: stateDir() });
      await eventually(() => Object.values(b.app.metrics().tasks).some((t) => t.owned), 'second instance owns tasks');
      await eventually(() => Object.values(a.app.metrics().tasks).filter((t) => t.owned).length < 2 * partitions, 'first instance gave tasks away');
      await produceLines(input, partitions, secondBatch, 40);
      await eventually(async () => (await outputCount(output)) === 240, 'second batch: 240 count updates committed');
      expect(b.app.metrics().recordsProcessed).toBeGreaterThan(0);

      const expected = trueCounts([...firstBatch, ...secondBatch]);
      const updates = await updatesByWord(output);
      const last = new Map([...updates].map(([word, u]) => [word, u.at(-1)]));
      expect(last).toEqual(expected);
      for (const [word, n] of expected) expect(updates.get(word), word).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      await expectChangelog(applicationId, b.storeName, partitions);
    } finally {
      await cleanup();
    }
  });
});
