/**
 * Scenario 2, rolling restart (issue 19 "Rolling restart"):
 * 1. three instances, with static membership (`groupInstanceId`
 *    `<applicationId>-w<slot>`) or, the control row, without; caught up;
 * 2. a steady trickle;
 * 3. each slot in turn: SIGTERM (clean close, final commit), restart with the
 *    same state directory (and instance id), wait until it runs and commits
 *    again, then a short steady period (the restarted worker is a spare
 *    process readied before the trickle, modules loaded: the restart is the
 *    app's, not tsx's several seconds of loading on a busy machine);
 * 4. rebalances = distinct group generations seen after the steady start
 *    (a static member rejoining within the session timeout keeps the
 *    generation); pause per instance = the longest gap between consecutive
 *    commits of its tasks while it was up (each run of the slot, the longest
 *    kept); downtime per slot = SIGTERM → first commit of the restarted run;
 * 5. the exact check (no loss, no duplicate).
 */
import type { Instance } from './fleet.js';
import { commitPause, eventsOf, generationBefore, generationsIn } from './measure.js';
import { ScenarioRun, sleep, type Exactness, type ScenarioEnv, type ScenarioOptions } from './scenario-kit.js';

/** The rolling-restart row. */
export interface RollingRow {
  scenario: 'rolling';
  staticMembership: boolean;
  keys: number;
  sessionTimeoutMs: number;
  commitIntervalMs: number;
  /** Generation changes during the restarts. */
  rebalances: number;
  generations: number[];
  /** Per slot: the longest commit gap while up (ms). */
  pauseMsPerInstance: number[];
  /** Per slot: SIGTERM → first commit of the restarted instance (ms). */
  downtimeMsPerInstance: number[];
  /** Per slot, where the downtime went: clean close, process start → JoinGroup, → assignment, → first commit (ms). */
  restartSteps: { closeMs: number; startToJoinMs: number; joinToAssignmentMs: number; assignmentToCommitMs: number }[];
  exactness: Exactness;
}

/** Runs the rolling restart once, with or without static membership. */
export async function runRolling(env: ScenarioEnv, options: ScenarioOptions, staticMembership: boolean): Promise<RollingRow> {
  const run = new ScenarioRun(env, `rolling-${staticMembership ? 'static' : 'dynamic'}`, options);
  try {
    // 1. three instances, caught up
    await run.prepare();
    const ha = (slot: number) => (staticMembership ? { groupInstanceId: `${run.applicationId}-w${slot}` } : {});
    const slots: Instance[][] = [0, 1, 2].map((slot) => [run.start(slot, ha(slot))]);
    const current = () => slots.map((runs) => runs.at(-1)!);
    await run.until(() => current().every((i) => i.isRunning() && i.owned().length > 0), 'three running instances owning tasks');
    await run.caughtUp();
    await run.prepareSpares([0, 1, 2], ha);
    // 2. steady trickle
    await run.steady(2000);
    const from = Date.now();
    const startGeneration = generationBefore(run.instances, from);
    // 3. each slot in turn
    const downtime: number[] = [];
    const restartSteps: RollingRow['restartSteps'] = [];
    for (const [slot, runs] of slots.entries()) {
      const stopAt = Date.now();
      await runs.at(-1)!.terminate();
      const closedAt = Date.now();
      const next = run.start(slot, ha(slot));
      runs.push(next);
      await run.until(() => next.isRunning() && next.owned().length > 0 && eventsOf(next, 'commit').length > 0, `restarted w${slot} running and committing`);
      const commitAt = eventsOf(next, 'commit')[0]!.ts;
      const joinAt = eventsOf(next, 'join')[0]?.ts ?? closedAt;
      const assignedAt = eventsOf(next, 'assignment')[0]?.ts ?? joinAt;
      downtime.push(commitAt - stopAt);
      restartSteps.push({ closeMs: closedAt - stopAt, startToJoinMs: joinAt - closedAt, joinToAssignmentMs: assignedAt - joinAt, assignmentToCommitMs: commitAt - assignedAt });
      run.log(`  ${run.name}: w${slot} restarted, tasks [${next.owned().join(',')}]`);
      await sleep(1500);
    }
    const to = Date.now();
    // 4. rebalances and pauses
    const generations = generationsIn(run.instances, from, to).filter((g) => g > startGeneration);
    const pauseMsPerInstance = slots.map((runs) => Math.max(...runs.map((i) => commitPause(i, from, to))));
    // 5. exact check
    const exactness = await run.finish();
    return {
      scenario: 'rolling',
      staticMembership,
      keys: options.keys,
      sessionTimeoutMs: run.sessionTimeoutMs,
      commitIntervalMs: run.commitIntervalMs,
      rebalances: generations.length,
      generations,
      pauseMsPerInstance,
      downtimeMsPerInstance: downtime,
      restartSteps,
      exactness,
    };
  } finally {
    await run.cleanup();
  }
}

/** Both rows: static membership, then the dynamic control row. */
export async function runRollingPair(env: ScenarioEnv, options: ScenarioOptions): Promise<RollingRow[]> {
  return [await runRolling(env, options, true), await runRolling(env, options, false)];
}
