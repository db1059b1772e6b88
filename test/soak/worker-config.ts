/**
 * What a soak worker process (worker.ts) and its extra stream threads
 * (thread-module.ts, `--threads N`) share: the {@link WorkerConfig} the driver
 * passes as `argv[2]`, the progress lines, the logger that turns app log lines
 * into progress lines, and the app's config as plain data.
 */
import { pino, type Logger } from 'pino';
import type { KafkaStreamsConfig } from '../../src/runtime/config.js';
import type { SoakStoreType, SoakTopics } from './topology.js';

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
  /** Stream threads of the worker's app (`--threads`, `numStreamThreads`); default 1. */
  threads?: number;
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

/** Writes one progress line to stdout (a worker thread's stdout goes to its process's). */
export const say = (event: WorkerEvent): void => void process.stdout.write(`${JSON.stringify(event)}\n`);

/** The WorkerConfig of this process: `argv[2]` (worker threads see their process's argv). */
export function readWorkerConfig(argv: readonly string[] = process.argv): WorkerConfig {
  return JSON.parse(argv[2] ?? '') as WorkerConfig;
}

/**
 * A logger whose lines the worker reads itself: restoration and task lines
 * become progress lines; warnings and errors go to stderr.
 */
export function soakLogger(config: WorkerConfig): Logger {
  return pino({ level: 'info', base: { slot: config.slot } }, {
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
}

/** The soak app's config without its logger: plain data only, what a stream thread receives from its process. */
export function plainStreamsConfig(config: WorkerConfig): Omit<KafkaStreamsConfig, 'logger'> {
  return {
    applicationId: config.applicationId,
    bootstrapServers: config.brokers,
    processingGuarantee: 'exactly_once',
    commitIntervalMs: config.commitIntervalMs,
    sessionTimeoutMs: config.sessionTimeoutMs,
    heartbeatIntervalMs: Math.max(100, Math.floor(config.sessionTimeoutMs / 6)),
    // the verification reads the whole repartition topic (its transactions and offsets): no purge during the soak
    // (the purge itself is proven by test/contract/internal-topic-settings.test.ts)
    repartitionPurgeIntervalMs: 2_147_483_647,
  };
}
