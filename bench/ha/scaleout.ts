/**
 * Scenario 3, scale-out (issue 19 "Scale-out"):
 * 1. one instance owning all 6 tasks, caught up;
 * 2. a steady trickle;
 * 3. two more instances start (spare processes readied before the trickle,
 *    modules loaded, so both join at once); wait until both run and commit and no
 *    assignment changed for 3 s (stable);
 * 4. kept tasks = the first instance's tasks before and after; per kept task
 *    the longest gap between consecutive committed outputs seen by the tail
 *    from 1 s before the scale-out to the end (and, for scale, the longest
 *    gap of any task in the steady state before it); the round trip = the
 *    longest JoinGroup → SyncGroup round of any member after the scale-out
 *    (kafkajs' "joined the group" duration; on the embedded cluster: the
 *    first new member's `run()` → the last assignment handed out); the
 *    bound = one commit interval + that round trip. The instances get
 *    `probingRebalanceIntervalMs` 5000, so that once warm-up replicas exist
 *    the tasks move within the run;
 * 5. the exact check (no loss, no duplicate).
 */
import { eventsOf, maxGap } from './measure.js';
import { ScenarioRun, sleep, type Exactness, type ScenarioEnv, type ScenarioOptions } from './scenario-kit.js';

/** The scale-out row. */
export interface ScaleOutRow {
  scenario: 'scaleout';
  keys: number;
  commitIntervalMs: number;
  tasksMoved: string[];
  tasksKept: string[];
  /** Per kept task: the longest pause of its committed outputs (ms). */
  pauseMsPerKeptTask: Record<string, number>;
  pauseMaxMs: number;
  /** The longest output gap of any task in the steady state before the scale-out (the commit rhythm alone). */
  steadyPauseMs: number;
  roundTripMs: number;
  roundTripSource: string;
  boundMs: number;
  met: boolean;
  exactness: Exactness;
}

/** Runs the scale-out from one to three instances. */
export async function runScaleOut(env: ScenarioEnv, options: ScenarioOptions): Promise<ScaleOutRow> {
  const run = new ScenarioRun(env, 'scaleout', options);
  try {
    // 1. one instance, caught up
    await run.prepare();
    const ha = { probingRebalanceIntervalMs: 5000 };
    const first = run.start(0, ha);
    await run.until(() => first.isRunning() && first.owned().length === run.partitions, 'one instance owning every task');
    await run.caughtUp();
    await run.prepareSpares([1, 2], () => ha);
    // 2. steady trickle
    const steadyFrom = Date.now();
    await run.steady(2000);
    // 3. two more
    const before = first.owned();
    const startAt = Date.now();
    const steadyPauseMs = Math.max(0, ...[...run.tail.seen.values()].map((times) => maxGap(times, steadyFrom + 500, startAt)));
    const added = [run.start(1, ha), run.start(2, ha)];
    await run.until(() => added.every((i) => i.isRunning() && i.owned().length > 0 && eventsOf(i, 'commit').length > 0), 'the new instances running and committing');
    const lastAssignment = () => Math.max(...run.instances.map((i) => eventsOf(i, 'assignment').at(-1)?.ts ?? 0));
    await run.until(() => Date.now() - lastAssignment() > 3000, 'a stable assignment (3 s without change)');
    const end = Date.now();
    // 4. kept tasks' pauses against the bound
    const after = new Set(first.owned());
    const tasksKept = before.filter((t) => after.has(t));
    const tasksMoved = before.filter((t) => !after.has(t));
    const pauseMsPerKeptTask = Object.fromEntries(tasksKept.map((t) => [t, maxGap(run.tail.seen.get(t) ?? [], startAt - 1000, end)]));
    const pauseMaxMs = Math.max(0, ...Object.values(pauseMsPerKeptTask));
    // the round trip: kafkajs' JoinGroup → SyncGroup duration, the longest of any member in the window
    // (the first member to join waits for the others); without it (embedded), the first new
    // member's run() → the last assignment handed out
    const joinRounds = run.instances.flatMap((i) => eventsOf(i, 'joined').filter((e) => e.ts >= startAt).map((e) => e.durationMs));
    const firstJoin = Math.min(...added.map((i) => eventsOf(i, 'join')[0]?.ts ?? Number.POSITIVE_INFINITY));
    const roundTripMs = joinRounds.length > 0 ? Math.max(...joinRounds) : lastAssignment() - firstJoin;
    const roundTripSource = joinRounds.length > 0 ? 'JoinGroup→SyncGroup (kafkajs)' : 'first join → last assignment';
    const boundMs = run.commitIntervalMs + roundTripMs;
    await sleep(500);
    // 5. exact check
    const exactness = await run.finish();
    return {
      scenario: 'scaleout',
      keys: options.keys,
      commitIntervalMs: run.commitIntervalMs,
      tasksMoved,
      tasksKept,
      pauseMsPerKeptTask,
      pauseMaxMs,
      steadyPauseMs,
      roundTripMs,
      roundTripSource,
      boundMs,
      met: pauseMaxMs <= boundMs,
      exactness,
    };
  } finally {
    await run.cleanup();
  }
}
