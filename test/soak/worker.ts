/**
 * A soak worker process (Kafka Streams' `EosTestClient`): runs the soak app
 * (test/soak/topology.ts) until SIGTERM (clean close, exit 0) or SIGKILL.
 *
 *   node --import tsx test/soak/worker.ts '<WorkerConfig as JSON>'
 *
 * Progress goes to stdout as one JSON object per line, `{ "e": <event>, ... }`
 * (see {@link WorkerEvent}); the driver (test/soak/worker-slot.ts) watches them to
 * kill the process at chosen moments:
 * - `running`: start() resolved (first assignment handled);
 * - `committed`: the app's commit count grew (polled every 5 ms from
 *   `app.metrics()`, so the line follows the commit within a few ms);
 * - `restoring`: a store restoration started or progressed, from the app's
 *   restore listener (`setGlobalStateRestoreListener`, when this sluice has it)
 *   or from any app log line mentioning restoration;
 * - `task-initialized`, `state`, `progress` (every 500 ms), `error` (then exit 1).
 * The worker exits when its stdin closes (the driver is gone), so no worker
 * outlives a killed driver. App warnings and errors go to stderr.
 */
import { mkdirSync } from 'node:fs';
import { pino } from 'pino';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import type { KafkaStreamsConfig } from '../../src/runtime/config.js';
import { soakTopology, type SoakStoreType, type SoakTopics } from './topology.js';

/** What the driver passes (argv[2], JSON). */
export interface WorkerConfig {
  slot: number;
  brokers: string[];
  applicationId: string;
  topics: SoakTopics;
  groups: number;
  store: SoakStoreType;
  /** The stateless branch as an async step (`--async-step`). */
  asyncStep?: boolean;
  /** This slot's own state directory (kept across restarts of the slot). */
  stateDir: string;
  commitIntervalMs: number;
  sessionTimeoutMs: number;
}

/** One progress line of a worker. */
export type WorkerEvent =
  | { e: 'started'; pid: number; stateDir: 'used' | 'unsupported' }
  | { e: 'running' }
  | { e: 'state'; state: string }
  | { e: 'committed'; commits: number; processed: number }
  | { e: 'restoring'; phase: 'start' | 'batch' | 'end' | 'log'; store?: string; detail?: string }
  | { e: 'task-initialized'; taskId?: string }
  | { e: 'progress'; processed: number; commits: number; aborts: number; restarts: number }
  | { e: 'error'; message: string };

const say = (event: WorkerEvent): void => void process.stdout.write(`${JSON.stringify(event)}\n`);
const config = JSON.parse(process.argv[2] ?? '') as WorkerConfig;
process.stdin.on('end', () => process.exit(2));
process.stdin.on('close', () => process.exit(2));
process.stdin.resume();

// 1. a logger whose lines the worker reads itself: restoration and task lines become events
const logger = pino({ level: 'info', base: { slot: config.slot } }, {
  write(line: string): void {
    let entry: { level?: number; msg?: string; taskId?: string; component?: string };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      return;
    }
    const msg = entry.msg ?? '';
    if (/restor/i.test(msg)) say({ e: 'restoring', phase: /complete|done|finished|ended/i.test(msg) ? 'end' : 'log', detail: msg.slice(0, 120) });
    else if (msg.startsWith('task initialized')) say({ e: 'task-initialized', ...(entry.taskId ? { taskId: entry.taskId } : {}) });
    if ((entry.level ?? 0) >= 40) process.stderr.write(line.endsWith('\n') ? line : `${line}\n`);
  },
});

// 2. the app; `stateDir` is passed when this sluice knows the key (it lands with the state work)
mkdirSync(config.stateDir, { recursive: true });
const base: KafkaStreamsConfig = {
  applicationId: config.applicationId,
  bootstrapServers: config.brokers,
  processingGuarantee: 'exactly_once',
  commitIntervalMs: config.commitIntervalMs,
  sessionTimeoutMs: config.sessionTimeoutMs,
  heartbeatIntervalMs: Math.max(100, Math.floor(config.sessionTimeoutMs / 6)),
  // the verification reads the whole repartition topic (its transactions and offsets): no purge during the soak
  // (the purge itself is proven by test/contract/internal-topic-settings.test.ts)
  repartitionPurgeIntervalMs: 2_147_483_647,
  logger,
};
const topology = () => soakTopology(config.topics, { groups: config.groups, store: config.store, asyncStep: config.asyncStep === true });
let app: KafkaStreams;
let stateDir: 'used' | 'unsupported' = 'used';
try {
  app = new KafkaStreams(topology(), { ...base, stateDir: config.stateDir } as KafkaStreamsConfig);
} catch (error) {
  if (!/Unknown config key 'stateDir'/.test((error as Error).message)) throw error;
  stateDir = 'unsupported';
  app = new KafkaStreams(topology(), base);
}
say({ e: 'started', pid: process.pid, stateDir });

// 3. restoration events from the restore listener, when the app has one
type RestoreListener = { onRestoreStart(...a: unknown[]): void; onBatchRestored(...a: unknown[]): void; onRestoreEnd(...a: unknown[]): void };
const withListener = app as unknown as { setGlobalStateRestoreListener?: (l: RestoreListener) => void };
const storeOf = (args: unknown[]): string | undefined => args.find((a): a is string => typeof a === 'string');
withListener.setGlobalStateRestoreListener?.({
  onRestoreStart: (...args) => say({ e: 'restoring', phase: 'start', store: storeOf(args) }),
  onBatchRestored: (...args) => say({ e: 'restoring', phase: 'batch', store: storeOf(args) }),
  onRestoreEnd: (...args) => say({ e: 'restoring', phase: 'end', store: storeOf(args) }),
});

// 4. state changes; ERROR ends the process (the driver restarts the slot)
app.state$.subscribe((state) => {
  say({ e: 'state', state });
  if (state === 'ERROR') {
    say({ e: 'error', message: app.error?.message ?? 'app in ERROR' });
    setTimeout(() => process.exit(1), 50);
  }
});

// 5. commit and progress lines from the metrics
let commits = 0;
setInterval(() => {
  const m = app.metrics();
  if (m.commits > commits) {
    commits = m.commits;
    say({ e: 'committed', commits, processed: m.recordsProcessed });
  }
}, 5);
setInterval(() => {
  const m = app.metrics();
  say({ e: 'progress', processed: m.recordsProcessed, commits: m.commits, aborts: m.aborts, restarts: m.taskRestarts });
}, 500);

// 6. SIGTERM: clean close
process.on('SIGTERM', () => {
  void app.close().then(
    () => process.exit(app.error ? 1 : 0),
    () => process.exit(1),
  );
});

try {
  await app.start();
  say({ e: 'running' });
} catch (error) {
  say({ e: 'error', message: (error as Error).message });
  process.exit(1);
}
