/**
 * The instances of a scenario, behind one interface: worker processes on real
 * Kafka ({@link processFleet}: SIGKILL is a real kill) or in-process apps on
 * any cluster port ({@link inProcessFleet}: a "kill" is
 * {@link SpyCluster.crash} — no final commit, members gone without leaving on
 * the embedded cluster — then the app is dropped).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ClusterPort } from '../../src/cluster/port.js';
import type { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { buildHaApp, type InstanceEvent, type InstanceSpec } from './app.js';

const WORKER = fileURLToPath(new URL('../../test/integration/fixtures/ha-worker.ts', import.meta.url));

/** One run of an instance (a slot restarted is a new Instance with the same slot and state directory). */
export interface Instance {
  readonly spec: InstanceSpec;
  readonly events: InstanceEvent[];
  readonly startedAt: number;
  /** Set when stopped (killed, terminated or exited). */
  stoppedAt: number | undefined;
  /** Tasks owned now (from the last assignment event). */
  owned(): string[];
  isRunning(): boolean;
  /** SIGKILL / crash: no final commit. */
  kill(): Promise<void>;
  /** SIGTERM / close(): clean close with its final commit. */
  terminate(): Promise<void>;
  /** Why it failed, if it did (stderr tail / app error). */
  failure(): string | undefined;
}

/** Starts instances. */
export interface Fleet {
  readonly kind: 'process' | 'in-process';
  /** Starts an instance of `spec` (on a spare made by {@link prepare} for the same spec when there is one). */
  start(spec: InstanceSpec): Instance;
  /** Readies a spare for a later {@link start} of the same spec: a process with its modules loaded, waiting (no-op in-process). */
  prepare(spec: InstanceSpec): { ready(): boolean };
}

abstract class BaseInstance {
  readonly events: InstanceEvent[] = [];
  startedAt = Date.now();
  stoppedAt: number | undefined;
  constructor(readonly spec: InstanceSpec) {}
  owned(): string[] {
    for (let i = this.events.length - 1; i >= 0; i--) {
      const e = this.events[i]!;
      if (e.kind === 'assignment') return e.tasks;
    }
    return [];
  }
  isRunning(): boolean {
    return this.stoppedAt === undefined && this.events.some((e) => e.kind === 'running');
  }
}

class ProcessInstance extends BaseInstance implements Instance {
  readonly child: ChildProcess;
  readonly #stderr: string[] = [];
  readonly #exit: Promise<void>;

  constructor(spec: InstanceSpec, brokers: string[], deferred: boolean) {
    super(spec);
    this.child = spawn(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(spec)], {
      env: { ...process.env, VITEST: '', KAFKA_BROKERS: brokers.join(','), LOG_LEVEL: process.env.HA_WORKER_LOG_LEVEL ?? 'warn', HA_DEFERRED: deferred ? '1' : '0' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdin!.on('error', () => undefined);
    this.#exit = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => {
        this.stoppedAt ??= Date.now();
        this.events.push({ kind: 'exit', ts: Date.now(), code, signal });
        resolve();
      }),
    );
    let buffer = '';
    this.child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        try {
          const event = JSON.parse(line) as InstanceEvent & { ha?: number };
          if (event.ha === 1) this.events.push(event);
        } catch {
          this.#stderr.push(line);
        }
      }
    });
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.#stderr.push(chunk.toString());
      if (this.#stderr.length > 50) this.#stderr.shift();
    });
  }

  /** Lets a deferred (spare) worker start its app now. */
  go(): void {
    this.startedAt = Date.now();
    this.child.stdin!.write('go\n');
  }

  async kill(): Promise<void> {
    this.stoppedAt ??= Date.now();
    this.child.kill('SIGKILL');
    await this.#exit;
  }

  async terminate(): Promise<void> {
    this.stoppedAt ??= Date.now();
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    await this.#exit;
    clearTimeout(timer);
  }

  exited(): boolean {
    return this.events.some((e) => e.kind === 'exit');
  }

  failure(): string | undefined {
    const exit = this.events.find((e) => e.kind === 'exit');
    if (exit?.kind === 'exit' && exit.signal === null && exit.code !== 0) return `worker ${this.spec.slot} exited ${exit.code}: ${this.#stderr.join('').slice(-1500)}`;
    return undefined;
  }
}

class InProcessInstance extends BaseInstance implements Instance {
  readonly app: KafkaStreams;
  readonly #crash: () => Promise<void>;
  #error: string | undefined;

  constructor(spec: InstanceSpec, cluster: ClusterPort) {
    super(spec);
    const built = buildHaApp(cluster, spec, (event) => this.events.push(event));
    this.app = built.app;
    this.#crash = () => built.spy.crash();
    this.app.start().then(
      () => this.events.push({ kind: 'running', ts: Date.now() }),
      (error: unknown) => (this.#error = (error as Error).message),
    );
  }

  async kill(): Promise<void> {
    this.stoppedAt ??= Date.now();
    await this.#crash();
  }

  /** After a kill: frees the dead app's timers (its requests all fail; nothing is committed). */
  async dispose(): Promise<void> {
    await this.app.close().catch(() => undefined);
  }

  async terminate(): Promise<void> {
    this.stoppedAt ??= Date.now();
    await this.app.close();
  }

  failure(): string | undefined {
    return this.#error ?? (this.stoppedAt === undefined && this.app.error ? this.app.error.message : undefined);
  }
}

/** Worker processes (test/integration/fixtures/ha-worker.ts) on the brokers. */
export function processFleet(brokers: string[]): Fleet & { stopAll(): Promise<void> } {
  const all: ProcessInstance[] = [];
  const spares = new Map<string, ProcessInstance>();
  return {
    kind: 'process',
    prepare(spec) {
      const key = JSON.stringify(spec);
      let spare = spares.get(key);
      if (!spare) {
        spare = new ProcessInstance(spec, brokers, true);
        all.push(spare);
        spares.set(key, spare);
      }
      const ready = spare;
      return { ready: () => ready.events.some((e) => e.kind === 'loaded') };
    },
    start(spec) {
      const key = JSON.stringify(spec);
      const spare = spares.get(key);
      spares.delete(key);
      if (spare && !spare.exited()) {
        spare.go();
        return spare;
      }
      const instance = new ProcessInstance(spec, brokers, false);
      all.push(instance);
      return instance;
    },
    async stopAll() {
      await Promise.all(all.map((i) => i.kill()));
    },
  };
}

/** In-process apps on `cluster` (the embedded cluster: a kill is a crash of its members). */
export function inProcessFleet(cluster: ClusterPort): Fleet & { stopAll(): Promise<void> } {
  const all: InProcessInstance[] = [];
  return {
    kind: 'in-process',
    prepare: () => ({ ready: () => true }),
    start(spec) {
      const instance = new InProcessInstance(spec, cluster);
      all.push(instance);
      return instance;
    },
    async stopAll() {
      await Promise.all(all.map((i) => (i.stoppedAt === undefined ? i.terminate().catch(() => undefined) : i.dispose())));
    },
  };
}
