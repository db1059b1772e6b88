/**
 * A worker slot of the soak driver: one worker process at a time (test/soak/worker.ts),
 * restarted after every kill with the same state directory, as a crashed
 * instance comes back on the same machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { WorkerConfig, WorkerEvent } from './worker-config.js';

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));
const TAIL = 40;

type Listener = (event: WorkerEvent) => void;

/** One live worker process of a slot. */
class WorkerRun {
  readonly child: ChildProcess;
  readonly startedAt = Date.now();
  exited = false;
  exitCode: number | null = null;
  exitSignal: NodeJS.Signals | null = null;
  running = false;
  /** A restoration was reported and not (yet) reported ended. */
  restoring = false;
  readonly exit: Promise<void>;

  constructor(config: WorkerConfig, onEvent: (event: WorkerEvent) => void, onStderr: (line: string) => void) {
    this.child = spawn(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(config)], {
      env: { ...process.env, VITEST: '', LOG_LEVEL: process.env.SOAK_WORKER_LOG_LEVEL ?? 'info' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.exit = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        this.exited = true;
        this.exitCode = code;
        this.exitSignal = signal;
        resolve();
      }),
    );
    lines(this.child.stdout!, (line) => {
      let event: WorkerEvent;
      try {
        event = JSON.parse(line) as WorkerEvent;
      } catch {
        onStderr(`[stdout] ${line}`);
        return;
      }
      if (event.e === 'running') this.running = true;
      if (event.e === 'restoring') this.restoring = event.phase !== 'end';
      onEvent(event);
    });
    lines(this.child.stderr!, onStderr);
    this.child.stdin!.on('error', () => undefined); // EPIPE after the worker died
  }
}

function lines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let buffer = '';
  stream.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.length > 0) onLine(line);
    }
  });
}

/** A slot: starts, kills and restarts its worker, and lets the driver wait for its events. */
export class WorkerSlot {
  #run: WorkerRun | undefined;
  readonly #listeners = new Set<Listener>();
  /** The last stderr lines of this slot's workers (diagnostics for timeouts and failures). */
  readonly stderrTail: string[] = [];
  /** Worker exits the driver did not cause (code, signal, last error line). */
  readonly unexpectedExits: string[] = [];
  /** Events seen per kind, over every run of the slot. */
  readonly eventCounts = new Map<string, number>();
  /** Processes started. */
  starts = 0;
  /** The last `progress` line of the live worker (undefined right after a start). */
  lastProgress: Extract<WorkerEvent, { e: 'progress' }> | undefined;
  /** `committed` lines of the live worker: > 0 once it does work (the chaos kills only such workers). */
  commitsSinceStart = 0;
  /** Whether the last started worker's sluice accepted `stateDir`. */
  stateDir: 'used' | 'unsupported' | undefined;
  #lastError = '';
  #expectExit = false;

  constructor(readonly slot: number, private readonly config: WorkerConfig) {}

  /** True while a worker process of this slot lives. */
  get alive(): boolean {
    return this.#run !== undefined && !this.#run.exited;
  }

  /** True once the live worker's start() resolved. */
  get running(): boolean {
    return this.alive && this.#run!.running;
  }

  /** True while the live worker reported a restoration that has not ended. */
  get restoring(): boolean {
    return this.alive && this.#run!.restoring;
  }

  /** Starts a worker process (the slot must have none alive). */
  start(): void {
    if (this.alive) throw new Error(`soak: slot ${this.slot} already has a live worker`);
    this.starts += 1;
    this.#expectExit = false;
    this.lastProgress = undefined;
    this.commitsSinceStart = 0;
    const run = new WorkerRun(this.config, (event) => this.#onEvent(event), (line) => this.#onStderr(line));
    this.#run = run;
    void run.exit.then(() => {
      if (this.#expectExit || this.#run !== run) return;
      this.unexpectedExits.push(`slot ${this.slot}: exit code ${run.exitCode} signal ${run.exitSignal}${this.#lastError ? ` (${this.#lastError})` : ''}`);
    });
  }

  /** Subscribes to this slot's events; returns the unsubscribe function. */
  on(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves with the first event matching `predicate` within `timeoutMs`, else `undefined`. */
  next(predicate: (event: WorkerEvent) => boolean, timeoutMs: number): Promise<WorkerEvent | undefined> {
    return new Promise((resolve) => {
      const off = this.on((event) => {
        if (!predicate(event)) return;
        clearTimeout(timer);
        off();
        resolve(event);
      });
      const timer = setTimeout(() => {
        off();
        resolve(undefined);
      }, timeoutMs);
    });
  }

  /** SIGKILLs the live worker (no-op when none) and waits for its exit. */
  async kill(): Promise<void> {
    const run = this.#run;
    if (!run || run.exited) return;
    this.#expectExit = true;
    run.child.kill('SIGKILL');
    await run.exit;
  }

  /** SIGTERM (clean close); SIGKILL after `timeoutMs`. Resolves with how it ended. */
  async stop(timeoutMs = 30_000): Promise<'clean' | 'error' | 'killed' | 'not-running'> {
    const run = this.#run;
    if (!run || run.exited) return 'not-running';
    this.#expectExit = true;
    run.child.kill('SIGTERM');
    const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), timeoutMs).unref());
    if ((await Promise.race([run.exit.then(() => 'exited' as const), timer])) === 'timeout') {
      run.child.kill('SIGKILL');
      await run.exit;
      return 'killed';
    }
    return run.exitCode === 0 ? 'clean' : 'error';
  }

  /** Synchronous last resort on driver exit: SIGKILL without waiting. */
  killNow(): void {
    if (this.alive) this.#run!.child.kill('SIGKILL');
  }

  #onEvent(event: WorkerEvent): void {
    this.eventCounts.set(event.e, (this.eventCounts.get(event.e) ?? 0) + 1);
    if (event.e === 'error') this.#lastError = event.message;
    if (event.e === 'progress') this.lastProgress = event;
    if (event.e === 'committed') this.commitsSinceStart += 1;
    if (event.e === 'started') this.stateDir = event.stateDir;
    for (const listener of [...this.#listeners]) listener(event);
  }

  #onStderr(line: string): void {
    this.stderrTail.push(`[slot ${this.slot}] ${line.slice(0, 500)}`);
    if (this.stderrTail.length > TAIL) this.stderrTail.shift();
  }
}
