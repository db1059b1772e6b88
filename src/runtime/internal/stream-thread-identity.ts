/**
 * Who a `KafkaStreams` is when it runs as stream thread 2..N of an instance
 * (`numStreamThreads`): its thread index and the instance's `processId`. The
 * parent instance puts it on the config it gives the thread under a symbol
 * key, so it is no config key a user could set, and what the parent sends a
 * worker thread is the plain part of its config ({@link plainConfig}).
 */
import { isMainThread, workerData, type MessagePort } from 'node:worker_threads';
import { ConfigError } from '../../errors.js';
import type { KafkaStreamsConfig } from '../config.js';
import type { KafkaStreamsMetrics } from '../metrics.js';
import type { ThreadMetadata } from '../streams-metadata.js';
import type { AppState } from './app-state.js';

/** The symbol key of a stream thread's identity on its config. */
export const STREAM_THREAD_IDENTITY: unique symbol = Symbol.for('sluice.streamThreadIdentity');

/** A stream thread's identity within its instance. */
export interface StreamThreadIdentity {
  /** 2..N (thread 1 is the instance itself and has no identity). */
  readonly index: number;
  /** The instance's process id, shared by all its threads (Kafka's process UUID). */
  readonly processId: string;
}

/** The identity a config carries, if it is a stream thread's. */
export function identityOf(config: KafkaStreamsConfig): StreamThreadIdentity | undefined {
  return (config as { [STREAM_THREAD_IDENTITY]?: StreamThreadIdentity })[STREAM_THREAD_IDENTITY];
}

/** `config` for stream thread `identity.index`: one thread, carrying its identity. */
export function threadConfig(config: KafkaStreamsConfig, identity: StreamThreadIdentity): KafkaStreamsConfig {
  return Object.assign({ ...config, numStreamThreads: 1 }, { [STREAM_THREAD_IDENTITY]: identity });
}

/**
 * The part of `config` a worker thread can receive: strings, numbers,
 * booleans, `undefined`, byte arrays (TLS keys), arrays and plain objects of those. Functions and
 * class instances (handlers, serdes, a logger, a cluster) are left out: the
 * thread takes them from its module's `config`. Returns the kept config and
 * the names of the keys left out.
 */
export function plainConfig(config: KafkaStreamsConfig): { plain: Record<string, unknown>; dropped: string[] } {
  const plain: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    if (value instanceof URL) plain[key] = value.href;
    else if (isPlain(value)) plain[key] = value;
    else dropped.push(key);
  }
  return { plain, dropped };
}

function isPlain(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean' || value instanceof Uint8Array) return true;
  if (Array.isArray(value)) return value.every(isPlain);
  if (type !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return (proto === Object.prototype || proto === null) && Object.values(value as object).every(isPlain);
}

/**
 * Throws when this code runs on a stream thread's worker and an app there
 * asks for more threads: the `streamThreadModule` starts an app itself (it is
 * the main script, not a module that only defines the app), and every thread
 * would start threads again.
 */
export function refuseNestedThreads(numStreamThreads: number): void {
  if (isMainThread || (workerData as Partial<WorkerThreadData> | null)?.sluiceStreamThread !== true) return;
  throw new ConfigError(
    `A KafkaStreams with numStreamThreads ${numStreamThreads} was started on stream thread ${(workerData as WorkerThreadData).identity.index}: ` +
      `'streamThreadModule' must name a module that only defines the app (export default defineApp({ topology, config })), not the script that starts it`,
  );
}

/** What a worker thread is given (`workerData`). */
export interface WorkerThreadData {
  /** Marks a sluice stream thread's worker. */
  readonly sluiceStreamThread: true;
  readonly identity: StreamThreadIdentity;
  /** The module's file URL (`streamThreadModule`). */
  readonly moduleUrl: string;
  /** The plain part of the instance's config. */
  readonly config: Record<string, unknown>;
  /** How often the thread sends its metrics and thread metadata (ms). */
  readonly snapshotIntervalMs: number;
  /** Where the instance asks the thread's stores (thread-store-calls.ts), and the flag the thread raises when it answered. */
  readonly storePort?: MessagePort;
  readonly storeFlag?: SharedArrayBuffer;
}

/** What the live UI shows of a thread: its tasks and the records each node processed. */
export interface ThreadUi {
  readonly tasks: ReadonlyArray<{ id: string; state: string; partitions: ReadonlyArray<{ topic: string; partition: number }> }>;
  readonly nodes: ReadonlyArray<readonly [string, number]>;
}

/** What a worker thread tells the instance. */
export type ThreadToInstance =
  | { readonly t: 'state'; readonly state: AppState }
  | { readonly t: 'snapshot'; readonly metrics: KafkaStreamsMetrics; readonly threads: ThreadMetadata[]; readonly ui: ThreadUi }
  | { readonly t: 'failed'; readonly message: string; readonly code?: string }
  | { readonly t: 'closed' };

/** What the instance tells a worker thread. */
export type InstanceToThread = { readonly t: 'close' };
