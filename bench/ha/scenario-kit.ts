/**
 * What every HA scenario does around its measurement:
 * 1. fresh names (application id, input and output topics of `partitions`
 *    partitions) and topics;
 * 2. the load: one record per key ({@link loadKeys});
 * 3. the output tail from the beginning ({@link OutputTail});
 * 4. instances on the fleet, then {@link ScenarioRun.caughtUp}: every input
 *    committed and every output seen;
 * 5. the trickle and the tail's recording ({@link ScenarioRun.steady});
 * 6. the scenario's own steps;
 * 7. {@link ScenarioRun.finish}: trickle stopped, everything committed and
 *    seen, then the exact check per key (no loss, no duplicate), then the
 *    instances, the tail and the topics go.
 */
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import type { AdminPort, ClusterPort } from '../../src/cluster/port.js';
import type { HaKeys, InstanceSpec } from './app.js';
import type { Fleet, Instance } from './fleet.js';
import { countMismatches, loadKeys, OutputTail, Trickle, type SequenceBreak } from './io.js';

/** Sizes and timings of a scenario. */
export interface ScenarioOptions {
  /** Distinct keys loaded (= records of state). */
  keys: number;
  /** Input partitions (= tasks); default 6. */
  partitions?: number;
  commitIntervalMs?: number;
  /** Default 6000: a SIGKILLed member is noticed after it. */
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  /** One trickle record per partition every this many ms; default 50. */
  trickleEveryMs?: number;
  /** Bound of every wait (ms); default 120 s + 0.2 ms per key. */
  patienceMs?: number;
  log?: (line: string) => void;
}

/** Where a scenario runs. */
export interface ScenarioEnv {
  cluster: ClusterPort;
  fleet: Fleet & { stopAll(): Promise<void> };
  /** Parent of the instances' state directories. */
  stateRoot: string;
}

/** The exactness check of {@link ScenarioRun.finish}. */
export interface Exactness {
  inputs: number;
  outputs: number;
  /** Keys whose last committed count is not what was sent. */
  lost: number;
  /** Breaks of a key's 1, 2, 3, ... sequence (duplicates or gaps). */
  breaks: number;
  sample: SequenceBreak[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One scenario's topics, instances and observers. */
export class ScenarioRun {
  readonly partitions: number;
  readonly commitIntervalMs: number;
  readonly sessionTimeoutMs: number;
  readonly heartbeatIntervalMs: number;
  readonly patienceMs: number;
  readonly applicationId: string;
  readonly input: string;
  readonly output: string;
  readonly tail: OutputTail;
  readonly trickle: Trickle;
  readonly instances: Instance[] = [];
  readonly log: (line: string) => void;
  readonly #admin: AdminPort;

  constructor(readonly env: ScenarioEnv, readonly name: string, readonly options: ScenarioOptions) {
    this.partitions = options.partitions ?? 6;
    this.commitIntervalMs = options.commitIntervalMs ?? 100;
    this.sessionTimeoutMs = options.sessionTimeoutMs ?? 6000;
    this.heartbeatIntervalMs = options.heartbeatIntervalMs ?? 500;
    this.patienceMs = options.patienceMs ?? 120_000 + options.keys / 5;
    this.log = options.log ?? (() => undefined);
    this.applicationId = `ha-${name}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
    this.input = `${this.applicationId}-in`;
    this.output = `${this.applicationId}-out`;
    this.tail = new OutputTail(this.partitions);
    this.trickle = new Trickle(env.cluster, this.input, this.partitions, options.keys);
    this.#admin = env.cluster.admin();
  }

  /** Steps 1-3. */
  async prepare(): Promise<void> {
    await this.#admin.createTopic(this.input, { partitions: this.partitions });
    await this.#admin.createTopic(this.output, { partitions: this.partitions });
    const t0 = Date.now();
    await loadKeys(this.env.cluster, this.input, this.partitions, this.options.keys);
    this.log(`  loaded ${this.options.keys} keys in ${Date.now() - t0} ms`);
    await this.tail.start(this.env.cluster, this.output, `${this.applicationId}-tail`);
  }

  /** The spec of slot `slot` (its state directory is the slot's, kept across restarts). */
  spec(slot: number, ha: HaKeys): InstanceSpec {
    return {
      slot,
      applicationId: this.applicationId,
      input: this.input,
      output: this.output,
      stateDir: join(this.env.stateRoot, this.applicationId, `w${slot}`),
      commitIntervalMs: this.commitIntervalMs,
      sessionTimeoutMs: this.sessionTimeoutMs,
      heartbeatIntervalMs: this.heartbeatIntervalMs,
      ha,
    };
  }

  /** Step 4: starts an instance of `slot`. */
  start(slot: number, ha: HaKeys): Instance {
    const instance = this.env.fleet.start(this.spec(slot, ha));
    this.instances.push(instance);
    return instance;
  }

  /** Readies spares of `slots` (worker processes with their modules loaded) and waits until they are. */
  async prepareSpares(slots: number[], ha: (slot: number) => HaKeys): Promise<void> {
    const spares = slots.map((slot) => this.env.fleet.prepare(this.spec(slot, ha(slot))));
    await this.until(() => spares.every((s) => s.ready()), `spare workers ${slots.join(',')} loaded`);
  }

  /** Waits for `condition`, failing early when an instance failed. */
  async until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = this.patienceMs): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await condition()) return;
      const failed = this.instances.map((i) => i.failure()).find((f) => f !== undefined);
      if (failed) throw new Error(`${this.name}: ${what}: ${failed}`);
      if (Date.now() > deadline) throw new Error(`${this.name}: timed out after ${timeoutMs} ms waiting for ${what}`);
      await sleep(20);
    }
  }

  /** Every input committed by the application. */
  async allCommitted(): Promise<boolean> {
    const [ends, committed] = await Promise.all([this.#admin.endOffsets(this.input), this.#admin.committedOffsets(this.applicationId, this.input)]);
    return ends.every((end, p) => (committed[p] ?? -1) >= end);
  }

  /** Step 4's wait: every input so far committed and its output seen. */
  async caughtUp(): Promise<void> {
    const expected = this.options.keys + this.trickle.total;
    await this.until(async () => this.tail.records >= expected && (await this.allCommitted()), `${expected} outputs committed and seen`);
  }

  /** Step 5: trickle on, tail recording, then `ms` of steady state. */
  async steady(ms: number): Promise<void> {
    this.tail.recording = true;
    await this.trickle.start(this.options.trickleEveryMs ?? 50);
    await sleep(ms);
  }

  /** Step 7 (the exact check), then cleanup. */
  async finish(): Promise<Exactness> {
    await this.trickle.stop();
    await this.caughtUp();
    await sleep(500); // a late duplicate would show up here
    const inputs = this.options.keys + this.trickle.total;
    const mismatches = countMismatches(this.tail, this.options.keys, this.trickle);
    return { inputs, outputs: this.tail.records, lost: mismatches.count, breaks: this.tail.breaks.length, sample: [...this.tail.breaks.slice(0, 5), ...mismatches.sample.slice(0, 5)] };
  }

  /** Stops everything this run started (also after a failure); removes its state directories and topics. */
  async cleanup(): Promise<void> {
    await this.trickle.stop().catch(() => undefined);
    await this.env.fleet.stopAll().catch(() => undefined);
    await this.tail.stop().catch(() => undefined);
    const topics = await this.#admin.listTopics().catch(() => [this.input, this.output]);
    for (const topic of topics.filter((t) => t.startsWith(this.applicationId))) await this.#admin.deleteTopic(topic).catch(() => undefined);
    await this.#admin.close().catch(() => undefined);
    rmSync(join(this.env.stateRoot, this.applicationId), { recursive: true, force: true });
  }
}

export { sleep };
