/**
 * The task assignor (pure): which member of the group runs which task as
 * active, standby or warm-up, after Kafka Streams' `HighAvailabilityTaskAssignor`
 * (state-aware, sticky, balanced, with standby and warm-up replicas: KIP-441).
 *
 * A member is one stream thread of a sluice instance (its own consumer-group
 * member): every member has the same capacity. The stream threads of one
 * instance (`numStreamThreads`) share the instance's `processId` (Kafka's
 * client is that process); a member without one (an unreadable subscription)
 * is a process of its own. Replicas keep to processes, as in Kafka: a standby
 * or warm-up replica of a task never goes to a member of the process running
 * the task as active, and two replicas of one task never go to members of one
 * process; when that leaves no member, the standby stays unassigned (as with
 * too few members). Inputs are per member its previous
 * active tasks and its lag per stateful task (changelog end offsets minus the
 * offsets of the state it has: 0 for a task it runs now, absent when it has
 * no state for the task). A member is *caught up* on a task when its lag is at
 * most `acceptableRecoveryLag`.
 *
 * Steps (the code mirrors them):
 * 1. stateful active tasks, balanced and sticky: each previous owner keeps its
 *    tasks up to the quota `ceil(tasks / members)` (when it must give some up,
 *    it keeps those the others are least caught up on); every other task goes
 *    to the least loaded member (ties: lowest lag, fewest tasks of the same
 *    sub-topology, member id); then tasks move from the most to the least
 *    loaded member until the counts differ by at most one. This is each
 *    task's *balanced target*;
 * 2. standby tasks (`standby-assignor.ts`, Kafka's `DefaultStandbyTaskAssignor`):
 *    up to `numStandbyReplicas` per stateful task on the least loaded members
 *    whose process has no copy of it, then balanced;
 * 3. active task movements (`warmup-assignor.ts`): a stateful task whose
 *    balanced target is not caught up while another member is more caught up
 *    runs on a caught-up member (or the most caught-up one) of another
 *    process instead, and the target gets a warm-up replica, at most
 *    `maxWarmupReplicas` in all;
 * 4. standby task movements (`warmup-assignor.ts`): a standby on a member that
 *    is not caught up moves to a caught-up member of another process without
 *    a copy; the first member keeps a warm-up while the budget lasts;
 * 5. stateless tasks: to their previous owner while its total stays within
 *    `ceil(all tasks / members)`, else to the least loaded member; then
 *    stateless tasks move from the most to the least loaded member until the
 *    active totals differ by at most one.
 * A probing rebalance is needed when step 3 or 4 moved anything (Kafka's
 * return value of `assign`): the warm-ups catch up and a later assignment
 * gives the tasks to their balanced targets.
 * The result is deterministic: the same input gives the same assignment on
 * every member (the group leader computes it once).
 */
import { ConfigError } from '../errors.js';
import { cmp, compareNumbers, give, newWork, pick, standbysOf, tasksOf, warmupsOf, type ClientState, type Work } from './assignor-work.js';
import { assignStandbys } from './standby-assignor.js';
import { compareTaskIdText, subtopologyOf } from './task-ids.js';
import { assignActiveTaskMovements, assignStandbyTaskMovements } from './warmup-assignor.js';

export type { ClientState } from './assignor-work.js';

/** Input of {@link assignTasks}. */
export interface TaskAssignmentInput {
  readonly clients: readonly ClientState[];
  /** Every task (`<subtopology>_<partition>`). */
  readonly tasks: readonly string[];
  /** The tasks with state (a changelogged or persistent store). */
  readonly statefulTasks: ReadonlySet<string>;
  /** Kafka's `acceptable.recovery.lag` (default 10,000); `Number.MAX_SAFE_INTEGER` or more: every member is caught up. */
  readonly acceptableRecoveryLag: number;
  /** Kafka's `num.standby.replicas`: standby tasks per stateful task (default 0). */
  readonly numStandbyReplicas?: number;
  /** Kafka's `max.warmup.replicas`: warm-up replicas in the whole assignment (default 2). */
  readonly maxWarmupReplicas?: number;
}

/** One member's tasks (Kafka's `ClientState` after `assign`). */
export interface ClientAssignment {
  /** Active tasks, in task order. */
  active: string[];
  /** Standby tasks, warm-ups included (as Kafka lists them), in task order. */
  standby: string[];
  /** The standby tasks that are warm-ups (a subset of `standby`), in task order. */
  warmup: string[];
}

/** What {@link assignTasks} returns. */
export interface TaskAssignmentResult {
  /** Per member id (every input member, also those given nothing). */
  readonly clients: Map<string, ClientAssignment>;
  /** Whether a probing rebalance should follow (warm-ups exist or a movement waits for the budget). */
  readonly probingRebalanceNeeded: boolean;
  /** Per stateful task, the standby replicas no member could take (too few members); only tasks missing some. */
  readonly unassignedStandbys: ReadonlyMap<string, number>;
}

/** Kafka's default `acceptable.recovery.lag`. */
export const DEFAULT_ACCEPTABLE_RECOVERY_LAG = 10_000;
/** Kafka's default `max.warmup.replicas`. */
export const DEFAULT_MAX_WARMUP_REPLICAS = 2;

/** Assigns every task to exactly one member as active, plus standbys and warm-ups; see the module comment for the steps. */
export function assignTasks(input: TaskAssignmentInput): TaskAssignmentResult {
  const numStandbyReplicas = wholeNumber('numStandbyReplicas', input.numStandbyReplicas ?? 0);
  const maxWarmupReplicas = wholeNumber('maxWarmupReplicas', input.maxWarmupReplicas ?? DEFAULT_MAX_WARMUP_REPLICAS);
  const work = newWork(input.clients, input.statefulTasks, input.acceptableRecoveryLag);
  if (work.ids.length === 0) return { clients: new Map(), probingRebalanceNeeded: false, unassignedStandbys: new Map() };
  const tasks = [...new Set(input.tasks)].sort(compareTaskIdText);
  const stateful = tasks.filter((t) => input.statefulTasks.has(t));
  const statefulSet = new Set(stateful);
  const stateless = tasks.filter((t) => !input.statefulTasks.has(t));
  // 1. stateful active tasks, balanced and sticky
  assignSticky(work, stateful, Math.ceil(stateful.length / work.ids.length));
  balance(work, stateful);
  // 2. standby tasks
  const unassignedStandbys = assignStandbys(work, stateful, numStandbyReplicas);
  // 3. active task movements (warm-ups)
  const budget = { remaining: maxWarmupReplicas };
  const activeMovements = assignActiveTaskMovements(work, statefulSet, budget);
  // 4. standby task movements
  const standbyMovements = assignStandbyTaskMovements(work, budget);
  // 5. stateless tasks, balancing the active totals
  assignSticky(work, stateless, Math.ceil(tasks.length / work.ids.length));
  balance(work, stateless);
  const clients = new Map<string, ClientAssignment>();
  const sorted = (set: ReadonlySet<string>): string[] => [...set].sort(compareTaskIdText);
  for (const id of work.ids) clients.set(id, { active: sorted(tasksOf(work, id)), standby: sorted(standbysOf(work, id)), warmup: sorted(warmupsOf(work, id)) });
  return { clients, probingRebalanceNeeded: activeMovements + standbyMovements > 0, unassignedStandbys };
}

function wholeNumber(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new ConfigError(`The task assignor's ${name} must be a whole number of 0 or more, got ${value}: set ${name} in the app config to such a number`);
  return value;
}

/** Steps 1 and 5: previous owners keep tasks while they hold fewer than `quota` tasks, the rest go to the least loaded member. */
function assignSticky(work: Work, tasks: readonly string[], quota: number): void {
  const load = (client: string): number => tasksOf(work, client).size;
  // a. the claim of each task: the previous owner with the lowest lag (two may claim one after a zombie)
  const claimed = new Map<string, string[]>();
  for (const task of tasks) {
    const claimers = work.clients.filter((c) => c.previousActive.has(task)).map((c) => c.id);
    claimers.sort((a, b) => compareNumbers(work.lag(a, task), work.lag(b, task)) || cmp(a, b));
    const first = claimers[0];
    if (first !== undefined) claimed.set(first, [...(claimed.get(first) ?? []), task]);
  }
  // b. each owner keeps up to the quota: first those the others are least caught up on
  for (const client of work.clients) {
    const others = work.clients.filter((c) => c.id !== client.id);
    const bestOther = (task: string): number => Math.min(Number.POSITIVE_INFINITY, ...others.map((c) => work.lag(c.id, task)));
    const ordered = [...(claimed.get(client.id) ?? [])].sort((a, b) => compareNumbers(bestOther(b), bestOther(a)) || compareTaskIdText(a, b));
    for (const task of ordered) if (load(client.id) < quota) give(work, task, client.id);
  }
  // c. the rest to the least loaded member
  for (const task of tasks) {
    if (work.owner.has(task)) continue;
    give(work, task, pick(work.clients.map((c) => c.id), (c) => [load(c), work.lag(c, task), sameSubtopology(work, c, task)], cmp));
  }
}

/** Moves tasks of `movable` from the most to the least loaded member until the loads differ by at most one. */
function balance(work: Work, movable: readonly string[]): void {
  const canMove = new Set(movable);
  const load = (client: string): number => tasksOf(work, client).size;
  for (let guard = 0; guard < movable.length * work.clients.length + 1; guard++) {
    const ids = work.clients.map((c) => c.id);
    const most = pick(ids, (c) => [-load(c)], (a, b) => cmp(b, a));
    const least = pick(ids, (c) => [load(c)], cmp);
    if (load(most) - load(least) <= 1) return;
    const candidates = [...tasksOf(work, most)].filter((t) => canMove.has(t));
    if (candidates.length === 0) return;
    const task = pick(candidates, (t) => [work.lag(least, t), sameSubtopology(work, least, t)], compareTaskIdText);
    give(work, task, least);
  }
}

function sameSubtopology(work: Work, client: string, task: string): number {
  const sub = subtopologyOf(task);
  return [...tasksOf(work, client)].filter((t) => subtopologyOf(t) === sub).length;
}
