/**
 * Stream threads 2..N of one instance (`numStreamThreads`, Kafka's
 * `num.stream.threads`). Thread 1 is the `KafkaStreams` itself; each extra
 * thread is a whole group member of its own (consumer, producers, tasks,
 * stores in its own state folder) sharing the instance's `processId`:
 * - on a worker thread (worker-stream-thread.ts) when the app names a
 *   `streamThreadModule` and runs on Kafka: its own event loop, its own core;
 * - else on the instance's event loop (`InLoopStreamThread` below): the same
 *   group semantics without another core (the embedded cluster lives in this
 *   thread's memory, so it always runs threads this way).
 * The instance is RUNNING when every thread is; one thread that fails fails
 * the instance (Kafka's default `SHUTDOWN_CLIENT`).
 */
import type { KafkaStreamsMetrics } from '../metrics.js';
import type { ThreadMetadata } from '../streams-metadata.js';
import type { AppState } from './app-state.js';

/** What the instance sees of one extra stream thread. */
export interface StreamThreadHandle {
  readonly index: number;
  /** The thread's last known state. */
  readonly state: AppState;
  /** Starts the thread; resolves when it started (its first assignment handled), rejects when it could not. */
  start(): Promise<void>;
  /** Closes the thread (its tasks commit and close as in `close()`); never rejects. */
  close(): Promise<void>;
  /** The thread's latest metrics (a worker thread's are at most one snapshot interval old). */
  metrics(): KafkaStreamsMetrics | undefined;
  /** The thread's `ThreadMetadata`. */
  threads(): ThreadMetadata[];
}

/** What a thread tells the instance. */
export interface StreamThreadEvents {
  onState(index: number, state: AppState): void;
  onFailed(index: number, error: Error): void;
}

/** The part of a `KafkaStreams` an in-loop thread uses. */
export interface ThreadApp {
  readonly state: AppState;
  readonly error: Error | undefined;
  readonly state$: { subscribe(next: (state: AppState) => void): { unsubscribe(): void } };
  start(): Promise<void>;
  close(): Promise<void>;
  metrics(): KafkaStreamsMetrics;
  metadataForLocalThreads(): ThreadMetadata[];
}

/** A stream thread on the instance's own event loop: a `KafkaStreams` of one thread with the instance's identity. */
export class InLoopStreamThread implements StreamThreadHandle {
  readonly #app: ThreadApp;
  #subscription: { unsubscribe(): void } | undefined;

  constructor(
    readonly index: number,
    app: ThreadApp,
    events: StreamThreadEvents,
  ) {
    this.#app = app;
    this.#subscription = app.state$.subscribe((state) => {
      events.onState(index, state);
      if (state === 'ERROR') events.onFailed(index, app.error ?? new Error(`stream thread ${index} stopped in ERROR`));
    });
  }

  get state(): AppState {
    return this.#app.state;
  }

  start(): Promise<void> {
    return this.#app.start();
  }

  async close(): Promise<void> {
    await this.#app.close().catch(() => undefined);
    this.#subscription?.unsubscribe();
    this.#subscription = undefined;
  }

  metrics(): KafkaStreamsMetrics {
    return this.#app.metrics();
  }

  threads(): ThreadMetadata[] {
    return this.#app.metadataForLocalThreads();
  }
}

/** Every extra thread of an instance. */
export class StreamThreads {
  constructor(readonly handles: readonly StreamThreadHandle[]) {}

  /** Starts every thread at once; resolves when all started, rejects with the first failure. */
  async start(): Promise<void> {
    await Promise.all(this.handles.map((h) => h.start()));
  }

  /** True when every extra thread runs. */
  allRunning(): boolean {
    return this.handles.every((h) => h.state === 'RUNNING');
  }

  /** Closes every thread at once. */
  async close(): Promise<void> {
    await Promise.all(this.handles.map((h) => h.close()));
  }

  metrics(): KafkaStreamsMetrics[] {
    return this.handles.flatMap((h) => {
      const m = h.metrics();
      return m === undefined ? [] : [m];
    });
  }

  threads(): ThreadMetadata[] {
    return this.handles.flatMap((h) => h.threads());
  }
}
