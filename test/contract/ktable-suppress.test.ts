/**
 * KTable.suppress under exactly_once, on the embedded cluster and on real
 * Kafka: counts per key are held by `Suppressed.untilTimeLimit(1000,
 * unbounded())`; the app is closed while updates are held; a restart (fresh
 * stateDir: everything comes from the changelogs) restores the buffer, and
 * the held counts are emitted once stream time passes their limit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { BufferConfig, Materialized, Serdes, StreamsBuilder, Suppressed } from '../../src/index.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { stateConfig } from '../integration/fixtures/state-api.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';

const S = Serdes.String();
const L = Serdes.Long();
const BUFFER_STORE = 'KTABLE-SUPPRESS-STATE-STORE-0000000004';

await describeOnEachBackend('KTable.suppress: held updates survive a restart (exactly_once)', (backend, fx) => {
  const apps: KafkaStreams[] = [];
  const dirs: string[] = [];
  const ctx = (): BackendContext => fx.ctx;
  const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs, intervalMs: 100, message });
  const timeout = backend.name === 'kafka' ? 180_000 : 60_000;

  async function produce(topic: string, records: Array<[string, number]>): Promise<void> {
    const producer = ctx().cluster.producer({});
    await producer.connect();
    try {
      await producer.produce({ topic, partition: 0, records: records.map(([key, timestamp]) => ({ key: Buffer.from(key), value: Buffer.from('x'), headers: {}, timestamp })) });
    } finally {
      await producer.close();
    }
  }

  async function start(applicationId: string, input: string, output: string): Promise<KafkaStreams> {
    const builder = new StreamsBuilder();
    builder
      .stream(input, { keySerde: S, valueSerde: S })
      .groupByKey()
      .count(Materialized.with(S, L).withCachingDisabled())
      .suppress(Suppressed.untilTimeLimit(1000, BufferConfig.unbounded()))
      .toStream()
      .to(output, { keySerde: S, valueSerde: L });
    const dir = mkdtempSync(join(tmpdir(), 'sluice-suppress-'));
    dirs.push(dir);
    const app = new KafkaStreams(builder.build(), {
      cluster: ctx().cluster,
      ...ctx().consumerTiming,
      applicationId,
      processingGuarantee: 'exactly_once',
      commitIntervalMs: 100,
      ...stateConfig({ stateDir: dir, statestoreCacheMaxBytes: 0 }),
    });
    apps.push(app);
    await app.start();
    return app;
  }

  const committedEqualsEnd = async (groupId: string, topic: string) => {
    const [committed, end] = [await ctx().admin.committedOffsets(groupId, topic), await ctx().admin.endOffsets(topic)];
    return committed.every((c, i) => c === end[i]);
  };
  const outputs = async (topic: string) => (await ctx().read(topic)).map((r) => `${r.key?.toString()}=${Number(r.value?.readBigInt64BE(0))}@${r.timestamp}`);

  it('run, close with updates held, restart on a fresh stateDir → the held counts are emitted after the limit, each once', { timeout }, async () => {
    try {
      const [input, output] = [uniqueTopic(`supp-in-${backend.name}`), uniqueTopic(`supp-out-${backend.name}`)];
      await ctx().admin.createTopic(input, { partitions: 1 });
      await ctx().admin.createTopic(output, { partitions: 1 });
      const applicationId = uniqueGroup(`supp-${backend.name}`);
      const first = await start(applicationId, input, output);
      await produce(input, [['a', 0], ['a', 100], ['b', 200]]);
      await eventually(() => committedEqualsEnd(applicationId, input), 'first run: input committed');
      // Held: nothing emitted (stream time 200 < 0 + 1000); the buffer is in its changelog (a's latest, b).
      expect(await outputs(output)).toEqual([]);
      const logged = await ctx().read(`${applicationId}-${BUFFER_STORE}-changelog`);
      expect(new Set(logged.map((r) => r.key?.toString()))).toEqual(new Set(['a', 'b']));
      await first.close();

      const second = await start(applicationId, input, output);
      await produce(input, [['c', 1500]]);
      await eventually(async () => (await outputs(output)).length >= 2, 'second run: the held counts emitted');
      await eventually(() => committedEqualsEnd(applicationId, input), 'second run: input committed');
      // a (held since 0, latest count 2 at 100) and b (since 200) are due at stream time 1500; c is held.
      expect(await outputs(output)).toEqual(['a=2@100', 'b=1@200']);
      await second.close();
    } finally {
      await Promise.all(apps.splice(0).map((a) => a.close()));
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    }
  });
});
