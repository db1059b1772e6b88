/**
 * Windowed count contract (issue 17): events per key counted in tumbling
 * 10-second windows (`windowedBy(TimeWindows.ofSizeAndGrace(10 s, 1 h)).count()`),
 * exactly once, on the embedded cluster and on real Kafka. The app is closed
 * after the first batch and started again with a fresh state directory, so
 * the window store is restored from its changelog: the second batch adds to
 * windows the first one opened (and opens new ones). The last committed
 * count per key and window equals the truth computed from the inputs; every
 * windowed key lands on its inner key's partition (Kafka's
 * `WindowedStreamPartitioner`); the changelog topic has Kafka's windowed
 * configs (`cleanup.policy=compact,delete`, `retention.ms` = size + grace + 1 day).
 *
 * Timestamps are near `Date.now()` (the broker's retention would delete
 * old-timestamped segments).
 */
import { rmSync } from 'node:fs';
import { expect, it } from 'vitest';
import { WindowedSerdes } from '../../src/state/windowed-serdes.js';
import { partitionFor } from '../../src/records/partitioner.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { Materialized } from '../../src/topology/options.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { TimeWindows } from '../../src/topology/time-windows.js';
import { EmitStrategy } from '../../src/topology/emit-strategy.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';
import { startEosApp } from './support/eos-app.js';

const S = Serdes.String();
const PARTITIONS = 3;
const SIZE_MS = 10_000;
const GRACE_MS = 3_600_000;
const KEYS = 7;

/** One event: its key and its offset in ms from the run's base time. */
type Event = [key: number, offsetMs: number];

/** Phase 1: every key in the first three windows, unevenly. */
const phase1: Event[] = Array.from({ length: 60 }, (_, i): Event => [i % KEYS, ((i * 7_919) % 30_000) + (i % 3)]);
/** Phase 2 (after the restart): more events in the same windows, and a fourth and fifth window. */
const phase2: Event[] = Array.from({ length: 45 }, (_, i): Event => [(i * 3) % KEYS, ((i * 4_999) % 50_000) + 1]);

/** `[key, windowStart]` → count after `events`, with `base` the run's first window start. */
function truth(events: readonly Event[], base: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [key, offset] of events) {
    const start = Math.floor((base + offset) / SIZE_MS) * SIZE_MS;
    const id = `k${key}@${start}`;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

const sorted = <T>(m: Map<string, T>): Array<[string, T]> => [...m].sort(([a], [b]) => a.localeCompare(b));

await describeOnEachBackend('windowedBy(TimeWindows).count(), exactly once, across a restart', (backend, fx) => {
  const ctx = (): BackendContext => fx.ctx;
  const timeout = backend.name === 'kafka' ? 180_000 : 60_000;

  it('final windowed counts equal the truth; windowed keys on their key partition; changelog configs as Kafka', { timeout }, async () => {
    const apps: KafkaStreams[] = [];
    const dirs: string[] = [];
    const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs, intervalMs: 100, message });
    const windowedSerde = WindowedSerdes.timeWindowedSerdeFrom(S, SIZE_MS);
    try {
      const [events, counts] = [uniqueTopic(`events-${backend.name}`), uniqueTopic(`windowed-counts-${backend.name}`)];
      for (const topic of [events, counts]) await ctx().admin.createTopic(topic, { partitions: PARTITIONS });
      const applicationId = uniqueGroup(`windowed-count-${backend.name}`);
      // the run's first window start, a minute back so every event lies in the past
      const base = Math.floor((Date.now() - 60_000) / SIZE_MS) * SIZE_MS;

      const start = async (): Promise<KafkaStreams> => {
        const builder = new StreamsBuilder();
        builder
          .stream(events, { keySerde: S, valueSerde: S })
          .groupByKey()
          .windowedBy(TimeWindows.ofSizeAndGrace(SIZE_MS, GRACE_MS))
          .count(Materialized.as<string, number>('event-counts'))
          .toStream()
          .to(counts, { valueSerde: Serdes.Long() });
        return startEosApp(ctx(), builder.build(), { applicationId, dirPrefix: 'sluice-windowed-count-', apps, dirs, extra: { statestoreCacheMaxBytes: 0 } });
      };

      /** Writes each key's events, in order, to the key's partition. */
      const produce = async (batch: readonly Event[]): Promise<void> => {
        const producer = ctx().cluster.producer({});
        await producer.connect();
        try {
          for (let p = 0; p < PARTITIONS; p++) {
            const records = batch
              .filter(([key]) => partitionFor(S.serialize(events, `k${key}`)!, PARTITIONS) === p)
              .map(([key, offset]) => ({ key: Buffer.from(`k${key}`), value: Buffer.from('e'), headers: {}, timestamp: base + offset }));
            if (records.length > 0) await producer.produce({ topic: events, partition: p, records });
          }
        } finally {
          await producer.close();
        }
      };

      /** The last committed count per `key@windowStart`; checks each record's partition on the way. */
      const lastCounts = async (): Promise<Map<string, number>> => {
        const last = new Map<string, number>();
        for (const r of await ctx().read(counts)) {
          const windowed = windowedSerde.deserialize(counts, r.key!);
          expect(r.partition, `partition of ${windowed.key}`).toBe(partitionFor(S.serialize(counts, windowed.key)!, PARTITIONS));
          last.set(`${windowed.key}@${windowed.window.start}`, Number(r.value!.readBigInt64BE(0)));
        }
        return last;
      };

      // 1. first run: phase 1 → the counts equal the truth of phase 1
      const first = await start();
      await produce(phase1);
      const truth1 = truth(phase1, base);
      await eventually(async () => JSON.stringify(sorted(await lastCounts())) === JSON.stringify(sorted(truth1)), 'phase 1 windowed counts committed');

      // 2. close; start again with a fresh state directory (the window store restored from its changelog)
      await first.close();
      expect(first.state).toBe('NOT_RUNNING');
      await start();

      // 3. phase 2 → the final counts equal the truth of both phases (restored windows counted on)
      await produce(phase2);
      const truth2 = truth([...phase1, ...phase2], base);
      await eventually(async () => JSON.stringify(sorted(await lastCounts())) === JSON.stringify(sorted(truth2)), 'phase 2 windowed counts committed');
      expect(sorted(await lastCounts())).toEqual(sorted(truth2));

      // 4. the window store's changelog: Kafka's windowed topic configs
      const changelog = await ctx().admin.describeTopic(`${applicationId}-event-counts-changelog`);
      expect(changelog.partitions).toBe(PARTITIONS);
      expect(changelog.config['cleanup.policy']).toBe('compact,delete');
      expect(changelog.config['retention.ms']).toBe(String(SIZE_MS + GRACE_MS + 24 * 60 * 60 * 1000));
    } finally {
      await Promise.all(apps.splice(0).map((a) => a.close()));
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    }
  });
  it('on window close: each closed window emitted once with its true count, none again after a restart on a fresh state dir', { timeout }, async () => {
    const apps: KafkaStreams[] = [];
    const dirs: string[] = [];
    const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs, intervalMs: 100, message });
    const windowedSerde = WindowedSerdes.timeWindowedSerdeFrom(S, SIZE_MS);
    try {
      const [events, finals] = [uniqueTopic(`close-events-${backend.name}`), uniqueTopic(`final-counts-${backend.name}`)];
      for (const topic of [events, finals]) await ctx().admin.createTopic(topic, { partitions: PARTITIONS });
      const applicationId = uniqueGroup(`windowed-close-${backend.name}`);
      const base = Math.floor((Date.now() - 120_000) / SIZE_MS) * SIZE_MS;
      // one key per partition advances stream time past the windows of a phase
      const advancers = Array.from({ length: PARTITIONS }, (_, p) => {
        for (let k = 100; ; k++) if (partitionFor(S.serialize(events, `k${k}`)!, PARTITIONS) === p) return k;
      });

      const start = async (): Promise<KafkaStreams> => {
        const builder = new StreamsBuilder();
        builder
          .stream(events, { keySerde: S, valueSerde: S })
          .groupByKey()
          .windowedBy(TimeWindows.ofSizeWithNoGrace(SIZE_MS))
          .emitStrategy(EmitStrategy.onWindowClose())
          .count(Materialized.as<string, number>('final-counts').withRetention(3_600_000))
          .toStream()
          .to(finals, { valueSerde: Serdes.Long() });
        return startEosApp(ctx(), builder.build(), { applicationId, dirPrefix: 'sluice-windowed-close-', apps, dirs });
      };
      const produce = async (batch: readonly Event[]): Promise<void> => {
        const producer = ctx().cluster.producer({});
        await producer.connect();
        try {
          for (let p = 0; p < PARTITIONS; p++) {
            const records = batch
              .filter(([key]) => partitionFor(S.serialize(events, `k${key}`)!, PARTITIONS) === p)
              .map(([key, offset]) => ({ key: Buffer.from(`k${key}`), value: Buffer.from('e'), headers: {}, timestamp: base + offset }));
            if (records.length > 0) await producer.produce({ topic: events, partition: p, records });
          }
        } finally {
          await producer.close();
        }
      };
      /** Every committed final result: `key@start` → the counts emitted for it, in order. */
      const emitted = async (): Promise<Map<string, number[]>> => {
        const all = new Map<string, number[]>();
        for (const r of await ctx().read(finals)) {
          const windowed = windowedSerde.deserialize(finals, r.key!);
          const id = `${windowed.key}@${windowed.window.start}`;
          all.set(id, [...(all.get(id) ?? []), Number(r.value!.readBigInt64BE(0))]);
        }
        return all;
      };
      const closedTruth = (batch: readonly Event[], closeOffset: number) =>
        new Map([...truth(batch, base)].filter(([id]) => Number(id.split('@')[1]) + SIZE_MS <= base + closeOffset).map(([id, n]) => [id, [n]]));
      const settledOn = async (expected: Map<string, number[]>, message: string) => {
        await eventually(async () => JSON.stringify(sorted(await emitted())) === JSON.stringify(sorted(expected)), message);
        expect(sorted(await emitted())).toEqual(sorted(expected));
      };
      const advance = (offset: number): Event[] => advancers.map((k): Event => [k, offset]);
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

      // 1. first run: phase 1 (windows 0-30 s), then, past the 1 s emit interval, stream time to 35 s: windows 0-30 s close
      const first = await start();
      // in time order: with no grace, an event older than its partition's stream time would be late
      const inOrder = (batch: readonly Event[]): Event[] => [...batch].sort((a, b) => a[1] - b[1]);
      await produce(inOrder(phase1));
      await pause(1_500);
      await produce(advance(35_000));
      const batch1 = [...phase1, ...advance(35_000)];
      await settledOn(closedTruth(batch1, 35_000), 'phase 1 final results committed');

      // 2. close; start again with a fresh state directory: store and last emit close time restored
      await first.close();
      await start();

      // 3. phase 2 events in 35-70 s; stream time to 75 s: every window to 70 s closes, each emitted once
      //    (a lost last emit close time would emit the restored 20-30 s windows again)
      const phase2Late = inOrder(phase2.map(([key, offset]): Event => [key, 35_000 + (offset % 35_000)]));
      await produce(phase2Late);
      await pause(1_500);
      await produce(advance(75_000));
      await settledOn(closedTruth([...batch1, ...phase2Late, ...advance(75_000)], 75_000), 'phase 2 final results committed, none twice');
    } finally {
      await Promise.all(apps.splice(0).map((a) => a.close()));
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    }
  });
});
