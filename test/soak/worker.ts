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
 * With `threads` > 1 (`--threads N`) the app runs N stream threads; threads
 * 2..N import test/soak/thread-module.ts, which reads the same WorkerConfig.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import type { KafkaStreamsConfig } from '../../src/runtime/config.js';
import { soakTopology } from './topology.js';
import { plainStreamsConfig, readWorkerConfig, say, soakLogger } from './worker-config.js';

export type { WorkerConfig, WorkerEvent } from './worker-config.js';

/** The module every extra stream thread imports (`--threads N`, N > 1). */
const THREAD_MODULE = fileURLToPath(new URL('./thread-module.ts', import.meta.url));

const config = readWorkerConfig();
process.stdin.on('end', () => process.exit(2));
process.stdin.on('close', () => process.exit(2));
process.stdin.resume();

// 1. a logger whose lines the worker reads itself: restoration and task lines become events
const logger = soakLogger(config);

// 2. the app; `stateDir` is passed when this sluice knows the key (it lands with the state work);
//    with --threads N (N > 1): N stream threads, threads 2..N on worker threads running THREAD_MODULE
mkdirSync(config.stateDir, { recursive: true });
const threads = (config.threads ?? 1) > 1 ? { numStreamThreads: config.threads, streamThreadModule: THREAD_MODULE } : {};
const base: KafkaStreamsConfig = { ...plainStreamsConfig(config), ...threads, logger };
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
