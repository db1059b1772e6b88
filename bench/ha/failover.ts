/**
 * Scenario 1, failover (issue 19 "Failover time"):
 * 1. three instances (`numStandbyReplicas` as given) over 6 input partitions,
 *    `keys` records of state loaded and caught up;
 * 2. a steady trickle on every partition;
 * 3. kill the instance with the most tasks (SIGKILL; in-process: a crash
 *    without final commit); its tasks are the ones that move;
 * 4. per moved task: kill → the survivor's assignment that gained it
 *    ("rebalance"; bounded below by the session timeout) → the first
 *    committed output of the task seen by the read_committed tail after
 *    that assignment ("first output"); failover = kill → first output;
 * 5. records restored on the survivors after the kill (restore listener);
 * 6. the exact check (no loss, no duplicate).
 */
import { eventsOf, firstAssignmentsAfter, gainedAt, restoredAfter, spread, type Spread } from './measure.js';
import { ScenarioRun, sleep, type Exactness, type ScenarioEnv, type ScenarioOptions } from './scenario-kit.js';

/** One moved task. */
export interface MovedTask {
  task: string;
  newOwner: number;
  killToRebalanceMs: number;
  rebalanceToOutputMs: number;
  failoverMs: number;
}

/** The failover row. */
export interface FailoverRow {
  scenario: 'failover';
  numStandbyReplicas: number;
  keys: number;
  sessionTimeoutMs: number;
  commitIntervalMs: number;
  movedTasks: MovedTask[];
  failoverMs: Spread;
  killToRebalanceMs: Spread;
  rebalanceToOutputMs: Spread;
  /** kill → first assignment of each survivor (the group noticed). */
  killToFirstAssignmentMs: Spread;
  recordsRestored: number;
  /** Records restored after the kill per task (`0_<partition>` of the restored changelog partition). */
  restoredByTask: Record<string, number>;
  /** The survivors' assignment changes after the kill (ms after the kill): which tasks moved where, and when. */
  timeline: { slot: number; atMs: number; generation: number; gained: string[]; lost: string[] }[];
  exactness: Exactness;
}

/** Runs the failover scenario once with `numStandbyReplicas`. */
export async function runFailover(env: ScenarioEnv, options: ScenarioOptions, numStandbyReplicas: number): Promise<FailoverRow> {
  const run = new ScenarioRun(env, `failover-s${numStandbyReplicas}`, options);
  try {
    // 1. three instances, caught up
    await run.prepare();
    const ha = { numStandbyReplicas };
    const all = [0, 1, 2].map((slot) => run.start(slot, ha));
    await run.until(() => all.every((i) => i.isRunning() && i.owned().length > 0), 'three running instances owning tasks');
    await run.caughtUp();
    run.log(`  ${run.name}: caught up; tasks ${all.map((i) => `w${i.spec.slot}=[${i.owned().join(',')}]`).join(' ')}`);
    // 2. steady trickle
    await run.steady(2000);
    // 3. kill the instance with the most tasks
    const victim = all.reduce((a, b) => (b.owned().length > a.owned().length ? b : a));
    const moved = victim.owned();
    const survivors = all.filter((i) => i !== victim);
    const killAt = Date.now();
    await victim.kill();
    run.log(`  ${run.name}: killed w${victim.spec.slot} (tasks ${moved.join(',')})`);
    // 4. every moved task gained by a survivor and its first committed output seen
    const firstOutput = (task: string): number | undefined => {
      const gained = gainedAt(survivors, task, killAt);
      return gained && run.tail.firstAfter(task, gained.ts);
    };
    await run.until(() => moved.every((t) => firstOutput(t) !== undefined), `first committed output of moved tasks ${moved.join(',')}`);
    const movedTasks = moved.map((task): MovedTask => {
      const gained = gainedAt(survivors, task, killAt)!;
      const output = firstOutput(task)!;
      return { task, newOwner: gained.instance.spec.slot, killToRebalanceMs: gained.ts - killAt, rebalanceToOutputMs: output - gained.ts, failoverMs: output - killAt };
    });
    await sleep(1000);
    // 5. records restored
    const recordsRestored = restoredAfter(survivors, killAt);
    const restoredByTask: Record<string, number> = {};
    for (const i of survivors) for (const e of eventsOf(i, 'restore')) if (e.ts > killAt) restoredByTask[`0_${e.partition}`] = (restoredByTask[`0_${e.partition}`] ?? 0) + e.totalRestored;
    const timeline = survivors
      .flatMap((i) => eventsOf(i, 'assignment').filter((e) => e.ts > killAt).map((e) => ({ slot: i.spec.slot, atMs: e.ts - killAt, generation: e.generation, gained: e.gained, lost: e.lost })))
      .sort((a, b) => a.atMs - b.atMs);
    // 6. exact check
    const exactness = await run.finish();
    return {
      scenario: 'failover',
      numStandbyReplicas,
      keys: options.keys,
      sessionTimeoutMs: run.sessionTimeoutMs,
      commitIntervalMs: run.commitIntervalMs,
      movedTasks,
      failoverMs: spread(movedTasks.map((m) => m.failoverMs)),
      killToRebalanceMs: spread(movedTasks.map((m) => m.killToRebalanceMs)),
      rebalanceToOutputMs: spread(movedTasks.map((m) => m.rebalanceToOutputMs)),
      killToFirstAssignmentMs: spread(firstAssignmentsAfter(survivors, killAt).map((ts) => ts - killAt)),
      recordsRestored,
      restoredByTask,
      timeline,
      exactness,
    };
  } finally {
    await run.cleanup();
  }
}

/** Both rows of one run: `numStandbyReplicas` 0 and 1. */
export async function runFailoverPair(env: ScenarioEnv, options: ScenarioOptions): Promise<FailoverRow[]> {
  const rows: FailoverRow[] = [];
  for (const standbys of [0, 1]) rows.push(await runFailover(env, options, standbys));
  return rows;
}
