/**
 * A stream thread on a Node.js worker thread (`numStreamThreads` with a
 * `streamThreadModule`): its own event loop, so its own core. The worker
 * runs stream-thread-main, which loads the module, builds the app's
 * topology and runs a one-thread `KafkaStreams` with the instance's
 * identity; it reports its state, a metrics snapshot every
 * `snapshotIntervalMs`, a failure, and its end (stream-thread-identity.ts,
 * `ThreadToInstance`).
 *
 * Start, in steps (the code mirrors them):
 * 1. spawn the worker on a small bootstrap that registers tsx first when the
 *    module or sluice itself is TypeScript (tests, `tsx app.ts`), then imports
 *    stream-thread-main;
 * 2. resolve when the thread reports RUNNING, reject when it reports a failure
 *    or exits first.
 * Close: ask it to close (it commits and closes its tasks), wait for its
 * `closed` (at most `closeTimeoutMs`), then end the worker.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { StreamsError } from '../../errors.js';
import type { Logger } from '../../internal/logger.js';
import type { KafkaStreamsMetrics } from '../metrics.js';
import type { ThreadMetadata } from '../streams-metadata.js';
import type { AppState } from './app-state.js';
import type { InstanceToThread, ThreadToInstance, WorkerThreadData } from './stream-thread-identity.js';
import type { StreamThreadEvents, StreamThreadHandle } from './stream-threads.js';

/** The worker's bootstrap (CommonJS, run with `eval`): tsx first when needed, then the thread's main module. */
const BOOTSTRAP = `
const { workerData, parentPort } = require('node:worker_threads');
(async () => {
  if (workerData.tsxApi) (await import(workerData.tsxApi)).register();
  await import(workerData.main);
})().catch((error) => parentPort.postMessage({ t: 'failed', message: 'stream thread could not start: ' + (error && error.message || String(error)) }));
`;

const TYPESCRIPT = /\.[mc]?ts$/;

/** Where stream-thread-main is, next to this file (`.ts` when sluice runs from source, `.js` when built). */
function mainUrl(): string {
  const here = import.meta.url;
  return here.replace(/worker-stream-thread\.([mc]?[jt]s)$/, 'stream-thread-main.$1');
}

/** tsx's register API when this sluice or the module is TypeScript; a clear error when tsx is missing then. */
function tsxApiFor(moduleUrl: string): string | undefined {
  if (!TYPESCRIPT.test(new URL(import.meta.url).pathname) && !TYPESCRIPT.test(new URL(moduleUrl).pathname)) return undefined;
  try {
    // the ESM entry (`exports['./esm/api'].import`): require.resolve would give the CommonJS one
    const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
    return pathToFileURL(join(dirname(manifest), 'dist', 'esm', 'api', 'index.mjs')).href;
  } catch (error) {
    throw new StreamsError(`Config 'streamThreadModule' ${moduleUrl} is TypeScript: install tsx (npm i -D tsx) or point it at the compiled .js module`, {
      code: 'INVALID_CONFIG',
      cause: error,
    });
  }
}

export class WorkerStreamThread implements StreamThreadHandle {
  #state: AppState = 'CREATED';
  #worker: Worker | undefined;
  #metrics: KafkaStreamsMetrics | undefined;
  #threads: ThreadMetadata[] = [];
  #closing = false;
  #closed: Promise<void> | undefined;
  #settleStart: { resolve: () => void; reject: (error: Error) => void } | undefined;
  #onClosed: (() => void) | undefined;

  constructor(
    readonly index: number,
    private readonly data: WorkerThreadData,
    private readonly events: StreamThreadEvents,
    private readonly log: Logger,
    private readonly closeTimeoutMs: number,
  ) {}

  get state(): AppState {
    return this.#state;
  }

  start(): Promise<void> {
    const started = new Promise<void>((resolve, reject) => (this.#settleStart = { resolve, reject }));
    // 1. spawn
    const tsxApi = tsxApiFor(this.data.moduleUrl);
    const worker = new Worker(BOOTSTRAP, {
      eval: true,
      workerData: { ...this.data, main: mainUrl(), ...(tsxApi ? { tsxApi } : {}) },
      argv: process.argv.slice(2),
      name: `sluice-stream-thread-${this.index}`,
    });
    this.#worker = worker;
    worker.on('message', (message: ThreadToInstance) => this.#receive(message));
    worker.on('error', (error) => this.#fail(error));
    worker.on('exit', (code) => {
      this.#onClosed?.();
      if (!this.#closing) this.#fail(new Error(`stream thread ${this.index} exited (code ${code}) while running`));
    });
    // 2. settled by its first RUNNING or its failure
    return started;
  }

  #receive(message: ThreadToInstance): void {
    switch (message.t) {
      case 'state':
        this.#state = message.state;
        this.events.onState(this.index, message.state);
        if (message.state === 'RUNNING') this.#settleStart?.resolve();
        return;
      case 'snapshot':
        this.#metrics = message.metrics;
        this.#threads = message.threads;
        return;
      case 'failed':
        this.#fail(new StreamsError(`Stream thread ${this.index} failed: ${message.message}`, { code: 'STREAM_THREAD_FAILED' }));
        return;
      case 'closed':
        this.#onClosed?.();
        return;
    }
  }

  #fail(error: Error): void {
    if (this.#closing) return;
    this.#state = 'ERROR';
    this.#settleStart?.reject(error);
    this.events.onFailed(this.index, error);
  }

  close(): Promise<void> {
    this.#closed ??= this.#close();
    return this.#closed;
  }

  async #close(): Promise<void> {
    const worker = this.#worker;
    this.#closing = true;
    this.#settleStart?.reject(new Error(`stream thread ${this.index} was closed before it was running`));
    if (worker === undefined) return;
    const closed = new Promise<void>((resolve) => (this.#onClosed = resolve));
    worker.postMessage({ t: 'close' } satisfies InstanceToThread);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.closeTimeoutMs)));
    await Promise.race([closed, timedOut]);
    clearTimeout(timer);
    if (this.#state !== 'ERROR') this.#state = 'NOT_RUNNING';
    await worker.terminate().catch((error: unknown) => this.log.debug({ err: error, thread: this.index }, 'ending the worker thread failed'));
  }

  metrics(): KafkaStreamsMetrics | undefined {
    return this.#metrics;
  }

  threads(): ThreadMetadata[] {
    return this.#threads;
  }
}
