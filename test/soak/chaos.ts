/**
 * The chaos of a soak run: SIGKILLs of running workers at random moments and
 * the supervisor that restarts every dead worker.
 *
 * Kill moments (one per kill, counted in {@link KillCounts}):
 * - `running`: at a random time, a worker doing work (start() resolved and it
 *   committed since), 0.5 to 2.5 s after one was found;
 * - `afterCommit`: a running worker, within milliseconds of its next `committed`
 *   line (its other tasks may be mid-commit);
 * - `restoring`: after a kill (always the first, then with probability
 *   `pRestoreArm`) the first worker to report a restoration within
 *   `restoreWindowMs` dies at once (the survivor restoring the moved tasks, or
 *   the restarted worker); a window with no restoration is a `restoreMiss`;
 * - `initializing`: a restarted worker is armed (`pInitArm`) to die at its first
 *   `task initialized` line, mid-rebalance.
 */
import type { WorkerSlot } from './worker-slot.js';

/** Kills done so far, per moment. */
export interface KillCounts {
  total: number;
  running: number;
  afterCommit: number;
  restoring: number;
  initializing: number;
  /** Armed restore kills whose window passed with no restoration reported. */
  restoreMisses: number;
}

/** Tunables of {@link Chaos}. */
export interface ChaosOptions {
  minGapMs: number;
  maxGapMs: number;
  /** Share of scheduled kills that wait for a commit line. */
  pAfterCommit: number;
  pRestoreArm: number;
  pInitArm: number;
  /** How long an armed restore kill waits for a restoration line. */
  restoreWindowMs: number;
  /** Delay before a killed worker is started again (random up to this). */
  maxRestartDelayMs: number;
  random: () => number;
  log: (line: string) => void;
}

type Moment = Exclude<keyof KillCounts, 'total' | 'restoreMisses'>;

/** A mulberry32 generator: a reproducible `random()` from a seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Kills and restarts the workers of `slots`; see the module comment. */
export class Chaos {
  readonly kills: KillCounts = { total: 0, running: 0, afterCommit: 0, restoring: 0, initializing: 0, restoreMisses: 0 };
  /** Unexpected worker exits restarted by the supervisor. */
  restartsAfterExit = 0;
  #stopped = false;
  #paused = false;
  #supervisor: NodeJS.Timeout | undefined;
  readonly #restartAt = new Map<number, number>();
  readonly #disarm = new Map<number, () => void>();
  readonly #killing = new Set<number>();
  #restoreArmed = false;

  constructor(private readonly slots: WorkerSlot[], private readonly options: ChaosOptions) {}

  /** Starts every worker (unarmed), then the supervisor: a dead worker is started again (after its restart delay). */
  startAll(): void {
    for (const slot of this.slots) slot.start();
    this.#supervise();
  }

  #supervise(): void {
    this.#supervisor = setInterval(() => {
      if (this.#paused) return;
      for (const slot of this.slots) {
        if (slot.alive) continue;
        const at = this.#restartAt.get(slot.slot);
        if (at === undefined) {
          this.restartsAfterExit += 1; // died on its own: restart after 1 s
          this.#restartAt.set(slot.slot, Date.now() + 1000);
        } else if (Date.now() >= at) {
          this.#restartAt.delete(slot.slot);
          this.#startArmed(slot);
        }
      }
    }, 50);
  }

  /** Stops killing; disarms armed workers. The supervisor keeps restarting dead workers until {@link close}. */
  stopKilling(): void {
    this.#stopped = true;
    for (const disarm of this.#disarm.values()) disarm();
    this.#disarm.clear();
  }

  /** While paused (e.g. during a broker restart) nothing is killed or restarted. */
  pause(paused: boolean): void {
    this.#paused = paused;
  }

  /** Stops the supervisor. */
  close(): void {
    this.stopKilling();
    clearInterval(this.#supervisor);
  }

  /** One scheduled kill: waits (up to `waitMs`) for a worker doing work, then a random gap, then kills one. */
  async killOne(waitMs: number): Promise<void> {
    const { minGapMs, maxGapMs, random } = this.options;
    // a victim is a worker doing work: RUNNING and committed since it started (not one still rebalancing)
    const working = () => this.slots.filter((s) => s.running && s.commitsSinceStart > 0);
    const deadline = Date.now() + waitMs;
    while (working().length === 0 || this.#paused) {
      if (this.#stopped) return;
      if (Date.now() > deadline) throw new Error(`soak: no worker was RUNNING and committing within ${Math.round(waitMs / 1000)} s to kill; last worker output:\n${this.slots.flatMap((s) => s.stderrTail.slice(-8)).join('\n')}`);
      await sleep(100);
    }
    await sleep(minGapMs + random() * (maxGapMs - minGapMs));
    const victims = working();
    if (victims.length === 0) return; // killed meanwhile (an armed kill): the next round picks again
    const victim = victims[Math.floor(random() * victims.length)]!;
    // every third kill waits for a commit, whatever the dice say: even a short run kills right after one
    const afterCommit = random() < this.options.pAfterCommit || this.kills.total % 3 === 1;
    if (afterCommit) {
      const commit = await victim.next((e) => e.e === 'committed', 5000);
      if (this.#stopped) return;
      await this.#kill(victim, commit && victim.alive ? 'afterCommit' : 'running');
    } else {
      await this.#kill(victim, 'running');
    }
  }

  async #kill(slot: WorkerSlot, moment: Moment): Promise<void> {
    if (!slot.alive || this.#stopped || this.#killing.has(slot.slot)) return;
    this.#killing.add(slot.slot);
    this.#restartAt.set(slot.slot, Number.POSITIVE_INFINITY); // not "died on its own"
    this.#disarm.get(slot.slot)?.();
    await slot.kill();
    this.#killing.delete(slot.slot);
    this.kills.total += 1;
    this.kills[moment] += 1;
    this.options.log(`kill #${this.kills.total} slot ${slot.slot} (${moment})`);
    this.#restartAt.set(slot.slot, Date.now() + this.options.random() * this.options.maxRestartDelayMs);
    this.#armRestore();
  }

  /** Starts `slot`, armed (maybe) to die at its first task-initialized line. */
  #startArmed(slot: WorkerSlot): void {
    slot.start();
    if (this.#stopped || this.options.random() >= this.options.pInitArm) return;
    const off = slot.on((event) => {
      if (event.e === 'task-initialized') {
        disarm();
        void this.#kill(slot, 'initializing');
      } else if (event.e === 'running') {
        disarm();
      }
    });
    const disarm = () => {
      off();
      this.#disarm.delete(slot.slot);
    };
    this.#disarm.set(slot.slot, disarm);
  }

  /**
   * After a kill: arm (always after the first kill, then with `pRestoreArm`) a
   * kill of whichever worker first reports a restoration within `restoreWindowMs`
   * (the survivor restoring the moved tasks, or the restarted worker).
   */
  #armRestore(): void {
    if (this.#stopped || this.#restoreArmed || (this.kills.total > 1 && this.options.random() >= this.options.pRestoreArm)) return;
    this.#restoreArmed = true;
    const offs = this.slots.map((slot) =>
      slot.on((event) => {
        if (event.e !== 'restoring' || event.phase === 'end') return;
        end();
        void this.#kill(slot, 'restoring');
      }),
    );
    const timer = setTimeout(() => {
      end();
      this.kills.restoreMisses += 1;
    }, this.options.restoreWindowMs);
    const end = () => {
      clearTimeout(timer);
      offs.forEach((off) => off());
      this.#restoreArmed = false;
      this.#disarm.delete(-1);
    };
    this.#disarm.set(-1, end);
  }
}
