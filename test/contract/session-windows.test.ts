/**
 * Session windows contract (issue 17): a session-windowed count per key
 * (inactivity gap 1 s, grace 60 s), exactly once, on the embedded cluster
 * and on real Kafka. Phase 1 builds three sessions per key; the app is
 * closed and started again on a fresh state directory (the session store is
 * restored from its changelog); phase 2 sends a record that bridges two
 * restored sessions (they merge), one that extends a session, and one that
 * opens a new session. Then, read committed:
 * - the output table (last value per windowed key, a tombstone deleting it)
 *   holds exactly the true sessions per key with their counts: merged
 *   sessions' old entries are gone (their last record is a tombstone);
 * - the changelog (last record per store key) holds the same sessions, and
 *   is `compact,delete` with retention = store retention + 1 day.
 * A second case emits on window close (KIP-825) across a restart on a fresh
 * state directory: each closed session exactly once, with its true count,
 * none emitted again after the restart although the restored store still
 * holds them.
 * Timestamps are near `Date.now()` (the broker's retention deletes old segments).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { WindowedSerdes } from '../../src/state/windowed-serdes.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { Grouped, Materialized } from '../../src/topology/options.js';
import { EmitStrategy } from '../../src/topology/emit-strategy.js';
import { SessionWindows } from '../../src/topology/session-windows.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';
import { startEosApp } from './support/eos-app.js';

const S = Serdes.String();
const PARTITIONS = 3;
const KEYS = 9;
const GAP_MS = 1000;
const GRACE_MS = 60_000;
const SESSION_SERDE = WindowedSerdes.sessionWindowedSerdeFrom(S);

/** Offsets (ms from the base time) of each key's records: [0,500], [2400,3000], [8000]. */
const phase1 = [0, 500, 2400, 3000, 8000];
/** 1450 bridges [0,500] and [2400,3000] (950 ms from each); 8500 extends [8000]; 20000 opens a session. */
const phase2 = [1450, 8500, 20000];

/** The true sessions of one key's timestamps: sorted, split where two neighbours are more than the gap apart. */
function sessionsOf(timestamps: readonly number[]): Array<{ start: number; end: number; count: number }> {
  const sorted = [...timestamps].sort((a, b) => a - b);
  const out: Array<{ start: number; end: number; count: number }> = [];
  for (const t of sorted) {
    const last = out.at(-1);
    if (last !== undefined && t - last.end <= GAP_MS) {
      last.end = t;
      last.count++;
    } else out.push({ start: t, end: t, count: 1 });
  }
  return out;
}

/** `key@start/end=count` lines of the truth after `offsets`, every key shifted by its index (ms). */
function truth(base: number, offsets: readonly number[]): string[] {
  const lines: string[] = [];
  for (let k = 0; k < KEYS; k++) {
    for (const s of sessionsOf(offsets.map((o) => base + k * 7 + o))) lines.push(`k${k}@${s.start}/${s.end}=${s.count}`);
  }
  return lines.sort();
}

await describeOnEachBackend('session-windowed count, exactly once, across a restart', (backend, fx) => {
  const ctx = (): BackendContext => fx.ctx;
  const timeout = backend.name === 'kafka' ? 180_000 : 60_000;

  it('sessions per key equal the truth; merged sessions are gone from the table and the changelog', { timeout }, async () => {
    const apps: KafkaStreams[] = [];
    const dirs: string[] = [];
    const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs, intervalMs: 100, message });
    try {
      const [input, output] = [uniqueTopic(`clicks-${backend.name}`), uniqueTopic(`sessions-${backend.name}`)];
      for (const topic of [input, output]) await ctx().admin.createTopic(topic, { partitions: PARTITIONS });
      const applicationId = uniqueGroup(`session-${backend.name}`);
      const base = Date.now() - 10 * 60_000;

      const start = async (): Promise<KafkaStreams> => {
        const builder = new StreamsBuilder();
        builder
          .stream<string, string>(input, { keySerde: S, valueSerde: S })
          .groupByKey(Grouped.with(S, S))
          .windowedBy(SessionWindows.ofInactivityGapAndGrace(GAP_MS, GRACE_MS))
          .count(Materialized.as<string, number>('sessions'))
          .toStream()
          .to(output, { keySerde: SESSION_SERDE, valueSerde: Serdes.Long() });
        return startEosApp(ctx(), builder.build(), { applicationId, dirPrefix: 'sluice-session-', apps, dirs });
      };

      /** Writes each key's records, in the order given, to partition k % PARTITIONS. */
      const produce = async (offsets: readonly number[]): Promise<void> => {
        const producer = ctx().cluster.producer({});
        await producer.connect();
        try {
          for (let p = 0; p < PARTITIONS; p++) {
            const records = [];
            for (const o of offsets) {
              for (let k = p; k < KEYS; k += PARTITIONS) records.push({ key: Buffer.from(`k${k}`), value: Buffer.from(`v${o}`), headers: {}, timestamp: base + k * 7 + o });
            }
            await producer.produce({ topic: input, partition: p, records });
          }
        } finally {
          await producer.close();
        }
      };

      /** The live sessions of `topic` (last record per key bytes; a null value deletes), as `key@start/end=count`. */
      const liveSessions = async (topic: string): Promise<string[]> => {
        const last = new Map<string, Buffer | null>();
        for (const r of await ctx().read(topic)) last.set(r.key!.toString('hex'), r.value);
        const lines: string[] = [];
        for (const [hex, value] of last) {
          if (value === null) continue;
          const w = SESSION_SERDE.deserialize(topic, Buffer.from(hex, 'hex'));
          lines.push(`${w.key}@${w.window.start}/${w.window.end}=${Number(value.readBigInt64BE(0))}`);
        }
        return lines.sort();
      };
      const changelog = `${applicationId}-sessions-changelog`;

      // 1. first run: phase 1 → three sessions per key
      const first = await start();
      await produce(phase1);
      const truth1 = truth(base, phase1);
      expect(truth1).toHaveLength(3 * KEYS);
      await eventually(async () => JSON.stringify(await liveSessions(output)) === JSON.stringify(truth1), 'phase 1 sessions committed');

      // 2. close; start again on a fresh state directory (the session store restored from its changelog)
      await first.close();
      expect(first.state).toBe('NOT_RUNNING');
      await start();

      // 3. phase 2: the bridge merges two restored sessions, one session grows, one opens
      await produce(phase2);
      const truth2 = truth(base, [...phase1, ...phase2]);
      expect(truth2).toHaveLength(3 * KEYS);
      expect(truth2.filter((l) => l.startsWith('k0@'))).toEqual([`k0@${base}/${base + 3000}=5`, `k0@${base + 20000}/${base + 20000}=1`, `k0@${base + 8000}/${base + 8500}=2`].sort());
      await eventually(async () => JSON.stringify(await liveSessions(output)) === JSON.stringify(truth2), 'phase 2 sessions committed');
      expect(await liveSessions(output)).toEqual(truth2);

      // 4. the changelog holds the same live sessions; its configs are Kafka's windowed changelog's
      await eventually(async () => JSON.stringify(await liveSessions(changelog)) === JSON.stringify(truth2), 'changelog settled');
      const described = await ctx().admin.describeTopic(changelog);
      expect(described.partitions).toBe(PARTITIONS);
      expect(described.config['cleanup.policy']).toBe('compact,delete');
      expect(described.config['retention.ms']).toBe(String(GAP_MS + GRACE_MS + 24 * 60 * 60 * 1000));
    } finally {
      await Promise.all(apps.splice(0).map((a) => a.close()));
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    }
  });

  it('onWindowClose(): every closed session emitted exactly once with its true count, none again after the restart', { timeout }, async () => {
    const apps: KafkaStreams[] = [];
    const dirs: string[] = [];
    try {
      const [input, output] = [uniqueTopic(`final-in-${backend.name}`), uniqueTopic(`final-out-${backend.name}`)];
      for (const topic of [input, output]) await ctx().admin.createTopic(topic, { partitions: PARTITIONS });
      const applicationId = uniqueGroup(`session-final-${backend.name}`);
      const base = Date.now() - 10 * 60_000;
      const start = async (): Promise<KafkaStreams> => {
        const builder = new StreamsBuilder();
        builder
          .stream<string, string>(input, { keySerde: S, valueSerde: S })
          .groupByKey(Grouped.with(S, S))
          .windowedBy(SessionWindows.ofInactivityGapWithNoGrace(GAP_MS))
          .emitStrategy(EmitStrategy.onWindowClose())
          .count()
          .toStream()
          .to(output, { keySerde: SESSION_SERDE, valueSerde: Serdes.Long() });
        const dir = mkdtempSync(join(tmpdir(), 'sluice-session-final-'));
        dirs.push(dir);
        const app = new KafkaStreams(builder.build(), { cluster: ctx().cluster, ...ctx().consumerTiming, applicationId, processingGuarantee: 'exactly_once', commitIntervalMs: 100, stateDir: dir });
        apps.push(app);
        await app.start();
        return app;
      };
      const produce = async (offsets: readonly number[]): Promise<void> => {
        const producer = ctx().cluster.producer({});
        await producer.connect();
        try {
          for (let p = 0; p < PARTITIONS; p++) {
            const records = [];
            for (const o of offsets) {
              for (let k = p; k < KEYS; k += PARTITIONS) records.push({ key: Buffer.from(`k${k}`), value: Buffer.from(`v${o}`), headers: {}, timestamp: base + k * 7 + o });
            }
            await producer.produce({ topic: input, partition: p, records });
          }
        } finally {
          await producer.close();
        }
      };
      /** Every committed output record as `key@start/end=count`, duplicates kept. */
      const emitted = async (): Promise<string[]> =>
        (await ctx().read(output))
          .map((r) => {
            const w = SESSION_SERDE.deserialize(output, r.key!);
            return `${w.key}@${w.window.start}/${w.window.end}=${Number(r.value!.readBigInt64BE(0))}`;
          })
          .sort();
      /** The sessions of `offsets` per key that end before `closedBefore` (each key shifted as produced). */
      const closed = (offsets: readonly number[], closedBefore: number): string[] => {
        const lines: string[] = [];
        for (let k = 0; k < KEYS; k++) {
          // stream time is the task's: the last key of the partition sets it
          for (const s of sessionsOf(offsets.map((o) => base + k * 7 + o))) if (s.end - base < closedBefore) lines.push(`k${k}@${s.start}/${s.end}=${s.count}`);
        }
        return lines.sort();
      };
      const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx().patienceMs, intervalMs: 100, message });

      // 1. phase 1: [0,500] and [2400,3000] close when 8000 arrives
      const first = await start();
      const final1 = [0, 500, 2400, 3000, 8000];
      await produce(final1);
      const expected1 = closed(final1, 7000 - 7 * KEYS);
      expect(expected1).toHaveLength(2 * KEYS);
      await eventually(async () => JSON.stringify(await emitted()) === JSON.stringify(expected1), 'phase 1 closed sessions emitted');

      // 2. restart on a fresh state directory (closed sessions still in the restored store)
      await first.close();
      await start();

      // 3. phase 2: 8500 extends [8000], 20000 closes it, 30000 closes [20000]; nothing from phase 1 again
      const final2 = [8500, 20000, 30000];
      await produce(final2);
      const expected2 = closed([...final1, ...final2], 29000 - 7 * KEYS);
      expect(expected2).toHaveLength(4 * KEYS);
      await eventually(async () => JSON.stringify(await emitted()) === JSON.stringify(expected2), 'phase 2 closed sessions emitted once');
      expect(await emitted()).toEqual(expected2);
    } finally {
      await Promise.all(apps.splice(0).map((a) => a.close()));
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    }
  });
});
