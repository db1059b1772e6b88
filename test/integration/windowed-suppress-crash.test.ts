/**
 * Final results of windows under crash (real Kafka, exactly_once_v2): the
 * windowed-count app of fixtures/windowed-count-topology.ts (1-second
 * tumbling windows, no grace, `suppress(untilWindowCloses(unbounded()))`)
 * runs in worker processes; workers are killed with SIGKILL (open
 * transactions, uncommitted offsets, suppression buffers held in memory) and
 * replaced on fresh state directories, so window stores and suppression
 * buffers come back from their changelogs. Afterwards every closed window of
 * every key was emitted exactly once, with its true count: none lost, none
 * duplicated, no intermediate count.
 *
 * Timestamps are near the wall clock (the broker's retention would delete
 * historic ones); within a partition they never go back past a closed window.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import type { AdminPort } from '../../src/cluster/port.js';
import { createKafkaCluster } from '../../src/cluster/kafkajs/index.js';
import { partitionFor } from '../../src/records/partitioner.js';
import { Windowed } from '../../src/index.js';
import { createTopic, describeKafka, uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { windowedKeySerde } from './fixtures/windowed-count-topology.js';
import { StateWorkerProcess } from './fixtures/state-worker-process.js';
import { readCommittedByMarkers } from './support.js';

const WORKER = fileURLToPath(new URL('./fixtures/windowed-count-worker.ts', import.meta.url));
const PARTITIONS = 3;
const KEYS = 30;
const WINDOWS = 8;
const WINDOW_MS = 1000;
/** Records of key k in window w (1 to 5). */
const countOf = (k: number, w: number) => ((k * 7 + w * 3) % 5) + 1;

const workers: StateWorkerProcess[] = [];
const admins: AdminPort[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await Promise.all(admins.splice(0).map((a) => a.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

type Row = { key: string; timestamp: number };

/** Writes `rows` (value 'x') to the partition murmur2 of the key picks, in order. */
async function produce(brokers: string[], topic: string, rows: readonly Row[]): Promise<void> {
  const producer = createKafkaCluster({ bootstrapServers: brokers }).producer({ clientId: 'windowed-suppress-input' });
  await producer.connect();
  try {
    const byPartition = new Map<number, Array<{ key: Buffer; value: Buffer; headers: Record<string, never>; timestamp: number }>>();
    for (const row of rows) {
      const key = Buffer.from(row.key);
      const p = partitionFor(key, PARTITIONS);
      byPartition.set(p, [...(byPartition.get(p) ?? []), { key, value: Buffer.from('x'), headers: {}, timestamp: row.timestamp }]);
    }
    for (const [partition, records] of byPartition) {
      for (let i = 0; i < records.length; i += 500) await producer.produce({ topic, partition, records: records.slice(i, i + 500) });
    }
  } finally {
    await producer.close();
  }
}

/** The input rows of windows [from, to): every key's records of a window, spread over the window. */
function windows(base: number, from: number, to: number): Row[] {
  const rows: Row[] = [];
  for (let w = from; w < to; w++) {
    for (let k = 0; k < KEYS; k++) for (let i = 0; i < countOf(k, w); i++) rows.push({ key: `k-${k}`, timestamp: base + w * WINDOW_MS + ((k * 31 + i * 97) % WINDOW_MS) });
  }
  return rows;
}

/** One key per partition (`tick-<n>`), to move every partition's stream time. */
function ticks(timestamp: number): Row[] {
  const keys = new Map<number, string>();
  for (let n = 0; keys.size < PARTITIONS; n++) {
    const key = `tick-${n}`;
    const p = partitionFor(Buffer.from(key), PARTITIONS);
    if (!keys.has(p)) keys.set(p, key);
  }
  return [...keys.values()].map((key) => ({ key, timestamp }));
}

describeKafka('Final results of windows under SIGKILL (real Kafka)', (brokers) => {
  it('every closed window emitted exactly once with its true count', { timeout: 300_000 }, async () => {
    const input = await createTopic(brokers, uniqueTopic('ws-in'), { partitions: PARTITIONS });
    const output = await createTopic(brokers, uniqueTopic('ws-out'), { partitions: PARTITIONS });
    const applicationId = uniqueGroup('windowed-suppress-crash');
    const admin = createKafkaCluster({ bootstrapServers: brokers }).admin();
    admins.push(admin);
    const committed = async (rows: number) => (await admin.committedOffsets(applicationId, input)).reduce((s, o) => s + Math.max(0, o), 0) >= rows;
    const start = (): StateWorkerProcess => {
      const stateDir = mkdtempSync(join(tmpdir(), 'sluice-wsupp-'));
      dirs.push(stateDir);
      const w = new StateWorkerProcess({ brokers, applicationId, input, output, stateDir, worker: WORKER, extraEnv: { WINDOW_MS: String(WINDOW_MS) }, commitIntervalMs: 200 });
      workers.push(w);
      return w;
    };
    const running = (w: StateWorkerProcess) => waitFor(() => w.running, { timeoutMs: 60_000, message: `worker running (stderr: ${w.stderr.join('')})` });
    const base = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS - 10 * 60_000;

    // 1. two workers; windows 0-3: 0-2 close, window 3 is held in the suppression buffers
    const a = start();
    const b = start();
    await Promise.all([running(a), running(b)]);
    const first = windows(base, 0, 4);
    await produce(brokers, input, first);
    await waitFor(() => committed(first.length), { timeoutMs: 90_000, intervalMs: 300, message: 'first windows committed' });

    // 2. a is killed with windows held; c replaces it (fresh stateDir: buffers and counts from the changelogs)
    await a.stop('SIGKILL');
    const c = start();
    const second = windows(base, 4, 6);
    await produce(brokers, input, second);
    await running(c);

    // 3. b is killed mid-stream; d replaces it; the last windows, then ticks close every window
    await b.stop('SIGKILL');
    const d = start();
    const third = [...windows(base, 6, WINDOWS), ...ticks(base + WINDOWS * WINDOW_MS)];
    await produce(brokers, input, third);
    await running(d);
    await waitFor(() => committed(first.length + second.length + third.length), { timeoutMs: 120_000, intervalMs: 500, message: 'all input committed' });

    // 4. every window of every key exactly once, with its true count
    const serde = windowedKeySerde(WINDOW_MS);
    const emitted = (await readCommittedByMarkers(brokers, output)).map((r) => {
      const key = serde.deserialize(output, r.key!);
      return `${Windowed.toString({ key: key.key, window: { start: key.window.start - base, end: key.window.end - base } })}=${Number(r.value!.readBigInt64BE(0))}`;
    });
    const truth: string[] = [];
    for (let k = 0; k < KEYS; k++) for (let w = 0; w < WINDOWS; w++) truth.push(`[k-${k}@${w * WINDOW_MS}/${(w + 1) * WINDOW_MS}]=${countOf(k, w)}`);
    expect(emitted.length).toBe(truth.length);
    expect([...emitted].sort()).toEqual([...truth].sort());
    await Promise.all([c.stop('SIGTERM'), d.stop('SIGTERM')]);
  });
});
