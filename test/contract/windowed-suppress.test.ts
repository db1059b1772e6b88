/**
 * Final results of windows (`windowedBy(...).count().suppress(untilWindowCloses)`)
 * under exactly_once, on the embedded cluster and on real Kafka: a window
 * is emitted once, when a later record closes it, with its final count; the
 * app is closed while a window is held; a restart on a fresh stateDir
 * (window store and suppression buffer from their changelogs) emits the held
 * window once a record closes it, with the count of both runs.
 * Timestamps are near the wall clock (the broker's retention).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { BufferConfig, Serdes, StreamsBuilder, Suppressed, TimeWindows, Windowed, WindowedSerdes } from '../../src/index.js';
import type { Serde } from '../../src/index.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { stateConfig } from '../integration/fixtures/state-api.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';

const S = Serdes.String();
const L = Serdes.Long() as unknown as Serde<number>;
const SIZE = 1000;
const windowedSerde = WindowedSerdes.timeWindowedSerdeFrom(S, SIZE);
const BUFFER_STORE = 'KTABLE-SUPPRESS-STATE-STORE-0000000004';

await describeOnEachBackend('suppress(untilWindowCloses): final window results survive a restart (exactly_once)', (backend, fx) => {
  const apps: KafkaStreams[] = [];
  const dirs: string[] = [];
  const ctx = (): BackendContext => fx.ctx;
  const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs, intervalMs: 100, message });
  const timeout = backend.name === 'kafka' ? 180_000 : 60_000;
  const base = Math.floor(Date.now() / SIZE) * SIZE - 60_000;

  async function produce(topic: string, records: Array<[string, number]>): Promise<void> {
    const producer = ctx().cluster.producer({});
    await producer.connect();
    try {
      await producer.produce({ topic, partition: 0, records: records.map(([key, at]) => ({ key: Buffer.from(key), value: Buffer.from('x'), headers: {}, timestamp: base + at })) });
    } finally {
      await producer.close();
    }
  }

  async function start(applicationId: string, input: string, output: string): Promise<KafkaStreams> {
    const builder = new StreamsBuilder();
    builder
      .stream(input, { keySerde: S, valueSerde: S })
      .groupByKey()
      .windowedBy(TimeWindows.ofSizeWithNoGrace(SIZE))
      .count()
      .suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded()))
      .toStream()
      .to(output, { keySerde: windowedSerde, valueSerde: L });
    const dir = mkdtempSync(join(tmpdir(), 'sluice-wsuppress-'));
    dirs.push(dir);
    const app = new KafkaStreams(builder.build(), {
      cluster: ctx().cluster,
      ...ctx().consumerTiming,
      applicationId,
      processingGuarantee: 'exactly_once',
      commitIntervalMs: 100,
      ...stateConfig({ stateDir: dir }),
    });
    apps.push(app);
    await app.start();
    return app;
  }

  const committedEqualsEnd = async (groupId: string, topic: string) => {
    const [committed, end] = [await ctx().admin.committedOffsets(groupId, topic), await ctx().admin.endOffsets(topic)];
    return committed.every((c, i) => c === end[i]);
  };
  const outputs = async (topic: string) =>
    (await ctx().read(topic)).map((r) => {
      const key = windowedSerde.deserialize(topic, r.key as Buffer);
      return `${Windowed.toString({ key: key.key, window: { start: key.window.start - base, end: key.window.end - base } })}=${Number(r.value?.readBigInt64BE(0))}@${r.timestamp - base}`;
    });

  it('window [0,1000) emitted once closed; [1000,2000) held across a restart on a fresh stateDir, then emitted with both runs’ count', { timeout }, async () => {
    try {
      const [input, output] = [uniqueTopic(`wsupp-in-${backend.name}`), uniqueTopic(`wsupp-out-${backend.name}`)];
      await ctx().admin.createTopic(input, { partitions: 1 });
      await ctx().admin.createTopic(output, { partitions: 1 });
      const applicationId = uniqueGroup(`wsupp-${backend.name}`);
      const first = await start(applicationId, input, output);
      await produce(input, [['a', 0], ['a', 500], ['b', 900], ['a', 1100], ['b', 1200]]);
      await eventually(() => committedEqualsEnd(applicationId, input), 'first run: input committed');
      await eventually(async () => (await outputs(output)).length >= 2, 'first run: window 0 emitted');
      // Window 0 is closed by stream time 1200 (end 1000 + grace 0): its final counts, once each.
      expect(await outputs(output)).toEqual(['[a@0/1000]=2@500', '[b@0/1000]=1@900']);
      // Window 1 is held; the buffer changelog has its keys (and tombstones for window 0's).
      const logged = await ctx().read(`${applicationId}-${BUFFER_STORE}-changelog`);
      expect(logged.some((r) => r.value !== null)).toBe(true);
      await first.close();

      const second = await start(applicationId, input, output);
      await produce(input, [['a', 1300], ['c', 2500]]);
      await eventually(async () => (await outputs(output)).length >= 4, 'second run: window 1 emitted');
      await eventually(() => committedEqualsEnd(applicationId, input), 'second run: input committed');
      // a@1 counts both runs (1100, 1300); b@1 was held across the restart; c@2 is still open.
      expect(await outputs(output)).toEqual(['[a@0/1000]=2@500', '[b@0/1000]=1@900', '[a@1000/2000]=2@1300', '[b@1000/2000]=1@1200']);
      await second.close();
    } finally {
      await Promise.all(apps.splice(0).map((a) => a.close()));
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    }
  });
});
