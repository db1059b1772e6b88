/**
 * Sliding windows contract (issue 17): a windowed count by
 * `SlidingWindows.ofTimeDifferenceAndGrace(2 s, 1 s)` of clicks per user,
 * exactly once through `KafkaStreams`, on the embedded cluster and on real
 * Kafka. The app is closed after the first phase and started again with a
 * fresh state directory, so the window store (the windows a new record's
 * left and right windows are built from) is restored from its changelog;
 * phase 2's records fall into windows phase 1 opened.
 *
 * The truth is computed from the inputs alone, by the definition of sliding
 * windows (not by the algorithm under test): each record at `t` has a left
 * window `[t - d, t]`, and a right window `[t + 1, t + 1 + d]` when a later
 * record of its key falls into it; a window's count is the number of the
 * key's records in it. The output topic's keys are decoded as Kafka's
 * `TimeWindowedSerializer` writes them (key bytes | 8-byte window start).
 * Exactly once: the counts each window published are consecutive (a replayed
 * update would repeat one). Last, a late record is dropped and counted.
 *
 * A second case emits on window close (`EmitStrategy.onWindowClose()`, no
 * grace): each closed window is published once with its final count, and
 * none again after a restart on a fresh state directory (the last emit close
 * time is restored from the `<store>-emit-close-time` changelog).
 */
import { rmSync } from 'node:fs';
import { expect, it } from 'vitest';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { EmitStrategy } from '../../src/topology/emit-strategy.js';
import { SlidingWindows } from '../../src/topology/sliding-windows.js';
import { Materialized } from '../../src/topology/options.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';
import { startEosApp } from './support/eos-app.js';

const S = Serdes.String();
const PARTITIONS = 3;
const USERS = 5;
const DIFFERENCE_MS = 2000;
const GRACE_MS = 1000;
/** Near now, so the broker's retention keeps the records (whole seconds: readable logs). */
const BASE = Math.floor((Date.now() - 10 * 60_000) / 1000) * 1000;

/** One click: user index and timestamp. */
type Click = [user: number, timestamp: number];

/** `count` clicks from `from` on, in timestamp order, users and gaps varying (gaps 0..900 ms, repeats included). */
function clicks(from: number, count: number, offset: number): Click[] {
  const out: Click[] = [];
  let t = from;
  for (let i = 0; i < count; i++) {
    out.push([(i * 7 + offset) % USERS, t]);
    t += ((i * 37 + offset) % 10) * 100;
  }
  return out;
}

const phase1 = clicks(BASE, 60, 0);
const phase2 = clicks(phase1.at(-1)![1] + 500, 60, 3);

/** `user@windowStart` → count, from the definition of sliding windows. */
function truth(all: readonly Click[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const user of new Set(all.map(([u]) => u))) {
    const times = all.filter(([u]) => u === user).map(([, t]) => t);
    const countIn = (start: number): number => times.filter((t) => t >= start && t <= start + DIFFERENCE_MS).length;
    for (const t of times) {
      counts.set(`u${user}@${t - DIFFERENCE_MS}`, countIn(t - DIFFERENCE_MS));
      if (times.some((u) => u > t && u <= t + 1 + DIFFERENCE_MS)) counts.set(`u${user}@${t + 1}`, countIn(t + 1));
    }
  }
  return counts;
}

/** Kafka's time-windowed key layout: the key's bytes, then the window start (8 bytes, big-endian). */
function windowedKey(bytes: Buffer): string {
  return `${bytes.subarray(0, bytes.length - 8).toString()}@${Number(bytes.readBigInt64BE(bytes.length - 8))}`;
}

await describeOnEachBackend('SlidingWindows count, exactly once, across a restart', (backend, fx) => {
  const ctx = (): BackendContext => fx.ctx;
  const timeout = backend.name === 'kafka' ? 180_000 : 60_000;

  it('every window\'s last count equals the truth; counts consecutive per window; a late record is dropped and counted', { timeout }, async () => {
    const apps: KafkaStreams[] = [];
    const dirs: string[] = [];
    const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs, intervalMs: 100, message });
    try {
      const [input, output] = [uniqueTopic(`clicks-${backend.name}`), uniqueTopic(`sliding-counts-${backend.name}`)];
      for (const topic of [input, output]) await ctx().admin.createTopic(topic, { partitions: PARTITIONS });
      const applicationId = uniqueGroup(`sliding-${backend.name}`);

      const start = async (): Promise<KafkaStreams> => {
        const builder = new StreamsBuilder();
        builder
          .stream(input, { keySerde: S, valueSerde: S })
          .groupByKey()
          .windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(DIFFERENCE_MS, GRACE_MS))
          .count(Materialized.as<string, number>('clicks-per-user'))
          .toStream()
          .to(output);
        return startEosApp(ctx(), builder.build(), { applicationId, dirPrefix: 'sluice-sliding-', apps, dirs, extra: { statestoreCacheMaxBytes: 0 } });
      };

      /** Writes the clicks, in timestamp order, each user to partition user % PARTITIONS. */
      const produce = async (batch: readonly Click[]): Promise<void> => {
        const producer = ctx().cluster.producer({});
        await producer.connect();
        try {
          for (let p = 0; p < PARTITIONS; p++) {
            const records = batch
              .filter(([user]) => user % PARTITIONS === p)
              .map(([user, timestamp]) => ({ key: Buffer.from(`u${user}`), value: Buffer.from('click'), headers: {}, timestamp }));
            if (records.length > 0) await producer.produce({ topic: input, partition: p, records });
          }
        } finally {
          await producer.close();
        }
      };

      /** Every committed count per window, in order. */
      const published = async (): Promise<Map<string, number[]>> => {
        const all = new Map<string, number[]>();
        for (const r of await ctx().read(output)) {
          const key = windowedKey(r.key!);
          all.set(key, [...(all.get(key) ?? []), Number(r.value!.readBigInt64BE(0))]);
        }
        return all;
      };
      const lastCounts = async (): Promise<Map<string, number>> => new Map([...(await published())].map(([key, counts]) => [key, counts.at(-1)!]));
      const sorted = <T>(m: Map<string, T>) => new Map([...m].sort(([a], [b]) => a.localeCompare(b)));
      const same = async (expected: Map<string, number>): Promise<boolean> => JSON.stringify([...sorted(await lastCounts())]) === JSON.stringify([...sorted(expected)]);

      // 1. first run: phase 1 → every window's last count equals the truth of phase 1
      const first = await start();
      await produce(phase1);
      const truth1 = truth(phase1);
      await eventually(() => same(truth1), 'phase 1 window counts committed');

      // 2. close; start again on a fresh state directory (the window store restored from its changelog)
      await first.close();
      const changelog = await ctx().admin.describeTopic(`${applicationId}-clicks-per-user-changelog`);
      expect(changelog.config['cleanup.policy']).toBe('compact,delete');
      expect(changelog.config['retention.ms']).toBe(String(2 * DIFFERENCE_MS + GRACE_MS + 24 * 60 * 60 * 1000));
      const second = await start();

      // 3. phase 2 → the last counts equal the truth of both phases; each window's counts are consecutive
      await produce(phase2);
      const truth2 = truth([...phase1, ...phase2]);
      await eventually(() => same(truth2), 'phase 2 window counts committed');
      expect(sorted(await lastCounts())).toEqual(sorted(truth2));
      for (const [key, counts] of await published()) {
        expect(counts.slice(1), `counts of window ${key}`).toEqual(counts.slice(1).map((_, i) => counts[0]! + i + 1));
      }

      // 4. a record older than the window close time (stream time - grace) is dropped and counted; nothing is published for it
      const before = second.metrics().recordsSkipped;
      await produce([[0, BASE]]);
      await eventually(() => second.metrics().recordsSkipped > before, 'the late record counted as skipped');
      expect(sorted(await lastCounts())).toEqual(sorted(truth2));
    } finally {
      await Promise.all(apps.splice(0).map((a) => a.close()));
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    }
  });

  it('on window close: each closed window published once with its final count, none again after a restart on a fresh state dir', { timeout }, async () => {
    const apps: KafkaStreams[] = [];
    const dirs: string[] = [];
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    try {
      const [input, output] = [uniqueTopic(`close-clicks-${backend.name}`), uniqueTopic(`sliding-finals-${backend.name}`)];
      for (const topic of [input, output]) await ctx().admin.createTopic(topic, { partitions: PARTITIONS });
      const applicationId = uniqueGroup(`sliding-close-${backend.name}`);
      const base = Math.floor((Date.now() - 5 * 60_000) / 1000) * 1000;
      /** One user per partition (user % PARTITIONS) advances that partition's stream time. */
      const advance = (t: number): Click[] => [30, 31, 32].map((user): Click => [user, t]);
      const sent: Click[] = [];

      const start = async (): Promise<KafkaStreams> => {
        const builder = new StreamsBuilder();
        builder
          .stream(input, { keySerde: S, valueSerde: S })
          .groupByKey()
          .windowedBy(SlidingWindows.ofTimeDifferenceWithNoGrace(DIFFERENCE_MS))
          .emitStrategy(EmitStrategy.onWindowClose())
          .count(Materialized.as<string, number>('final-clicks').withRetention(3_600_000))
          .toStream()
          .to(output);
        return startEosApp(ctx(), builder.build(), { applicationId, dirPrefix: 'sluice-sliding-close-', apps, dirs });
      };
      /** Writes the clicks (in timestamp order: without grace an older one would be late), user to partition user % PARTITIONS. */
      const produce = async (batch: readonly Click[]): Promise<void> => {
        sent.push(...batch);
        const producer = ctx().cluster.producer({});
        await producer.connect();
        try {
          for (let p = 0; p < PARTITIONS; p++) {
            const records = batch
              .filter(([user]) => user % PARTITIONS === p)
              .map(([user, timestamp]) => ({ key: Buffer.from(`u${user}`), value: Buffer.from('click'), headers: {}, timestamp }));
            if (records.length > 0) await producer.produce({ topic: input, partition: p, records });
          }
        } finally {
          await producer.close();
        }
      };
      /** Every committed final result: `user@windowStart` → the counts published for it, in order. */
      const published = async (): Promise<Array<[string, number[]]>> => {
        const all = new Map<string, number[]>();
        for (const r of await ctx().read(output)) {
          const key = windowedKey(r.key!);
          all.set(key, [...(all.get(key) ?? []), Number(r.value!.readBigInt64BE(0))]);
        }
        return [...all].sort(([a], [b]) => a.localeCompare(b));
      };
      /** The windows closed by stream time `closeTime` (end before it, no grace), each with its one final count. */
      const closedTruth = (closeTime: number): Array<[string, number[]]> =>
        [...truth(sent)].filter(([key]) => Number(key.split('@')[1]) + DIFFERENCE_MS < closeTime).map(([key, n]): [string, number[]] => [key, [n]]).sort(([a], [b]) => a.localeCompare(b));
      /**
       * Advances every partition's stream time to `closeTime` until the closed windows are published: the
       * emission is throttled to once a second of wall-clock time, so the advancing records are sent again
       * (same timestamp) until one comes after the throttle.
       */
      const closeUpTo = async (closeTime: number, message: string): Promise<void> => {
        const deadline = Date.now() + Math.max(ctx().patienceMs, 30_000);
        for (;;) {
          await produce(advance(closeTime));
          for (let i = 0; i < 10; i++) {
            await pause(200);
            if (JSON.stringify(await published()) === JSON.stringify(closedTruth(closeTime))) {
              await pause(500);
              expect(await published(), message).toEqual(closedTruth(closeTime));
              return;
            }
          }
          if (Date.now() > deadline) {
            expect(await published(), message).toEqual(closedTruth(closeTime));
            return;
          }
        }
      };

      // 1. first run: phase 1, then stream time past every phase 1 window: each published once
      const first = await start();
      const phase1Close = clicks(base, 60, 0);
      await produce(phase1Close);
      const close1 = phase1Close.at(-1)![1] + DIFFERENCE_MS + 2;
      await closeUpTo(close1, 'phase 1 final results committed');

      // 2. close; start again on a fresh state directory: window store and last emit close time restored
      await first.close();
      const closeTimes = await ctx().admin.describeTopic(`${applicationId}-final-clicks-emit-close-time-changelog`);
      expect(closeTimes.config['cleanup.policy']).toBe('compact');
      await start();

      // 3. phase 2, then stream time past it: the new windows published once, phase 1's not again
      //    (a lost last emit close time would publish the retained phase 1 windows a second time)
      const phase2Close = clicks(close1 + 500, 60, 3);
      await produce(phase2Close);
      await closeUpTo(phase2Close.at(-1)![1] + DIFFERENCE_MS + 2, 'phase 2 final results committed, none twice');
    } finally {
      await Promise.all(apps.splice(0).map((a) => a.close()));
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    }
  });
});
