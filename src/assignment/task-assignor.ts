/**
 * The task assignor (pure): which member of the group runs which task, after
 * Kafka Streams' `HighAvailabilityTaskAssignor` (state-aware, sticky,
 * balanced) without warm-up and standby replicas yet (their lists are part of
 * the result and empty).
 *
 * A member is one sluice instance (Kafka's "client" with one stream thread):
 * every member has the same capacity. Inputs are per member its previous
 * active tasks and its lag per stateful task (changelog end offsets minus the
 * offsets of the state it has: 0 for a task it runs now, absent when it has
 * no state for the task). A member is *caught up* on a task when its lag is at
 * most `acceptableRecoveryLag`.
 *
 * Steps (the code mirrors them):
 * 1. stateful tasks, balanced and sticky: each previous owner keeps its
 *    tasks up to the quota `ceil(tasks / members)` (when it must give some up,
 *    it keeps those the others are least caught up on); every other task goes
 *    to the least loaded member (ties: lowest lag, fewest tasks of the same
 *    sub-topology, member id); then tasks move from the most to the least
 *    loaded member until the counts differ by at most one;
 * 2. caught-up movement: a stateful task whose member is not caught up moves
 *    to a caught-up member when that keeps the balance (the caught-up member
 *    has fewer stateful tasks), or swaps with a task of that member the first
 *    member is at least as caught up on. Without warm-up replicas, balance
 *    wins over the lag (Kafka keeps the task on the caught-up member and warms
 *    the other one up: a later session adds that);
 * 3. stateless tasks: to their previous owner while its total stays within
 *    `ceil(all tasks / members)`, else to the least loaded member; then
 *    stateless tasks move from the most to the least loaded member until the
 *    totals differ by at most one.
 * The result is deterministic: the same input gives the same assignment on
 * every member (the group leader computes it once).
 */
import { defined } from '../internal/defined.js';
import { compareTaskIdText, subtopologyOf } from './task-ids.js';

/** A member as the assignor sees it (Kafka's `ClientState`). */
export interface ClientState {
  /** Member id (the ordering of ties). */
  readonly id: string;
  /** Tasks it ran as active before this rebalance. */
  readonly previousActive: ReadonlySet<string>;
  /** Lag per stateful task it has state for (0 = caught up completely); absent: no state. */
  readonly lags: ReadonlyMap<string, number>;
}

/** Input of {@link assignTasks}. */
export interface TaskAssignmentInput {
  readonly clients: readonly ClientState[];
  /** Every task (`<subtopology>_<partition>`). */
  readonly tasks: readonly string[];
  /** The tasks with state (a changelogged or persistent store). */
  readonly statefulTasks: ReadonlySet<string>;
  /** Kafka's `acceptable.recovery.lag` (default 10,000). */
  readonly acceptableRecoveryLag: number;
}

/** One member's tasks (Kafka's `ClientState` after `assign`). */
export interface ClientAssignment {
  active: string[];
  /** Standby tasks: always empty until standby replicas exist. */
  standby: string[];
}

/** Kafka's default `acceptable.recovery.lag`. */
export const DEFAULT_ACCEPTABLE_RECOVERY_LAG = 10_000;

interface Work {
  readonly clients: readonly ClientState[];
  readonly owner: Map<string, string>;
  readonly tasksOf: Map<string, Set<string>>;
  lag(client: string, task: string): number;
}

/** Assigns every task to exactly one member; see the module comment for the steps. */
export function assignTasks(input: TaskAssignmentInput): Map<string, ClientAssignment> {
  const clients = [...input.clients].sort((a, b) => cmp(a.id, b.id));
  const result = new Map<string, ClientAssignment>(clients.map((c) => [c.id, { active: [], standby: [] }]));
  if (clients.length === 0) return result;
  const tasks = [...new Set(input.tasks)].sort(compareTaskIdText);
  const byId = new Map(clients.map((c) => [c.id, c]));
  const work: Work = {
    clients,
    owner: new Map(),
    tasksOf: new Map(clients.map((c) => [c.id, new Set()])),
    lag: (client, task) => (input.statefulTasks.has(task) ? (byId.get(client)?.lags.get(task) ?? Number.POSITIVE_INFINITY) : 0),
  };
  const stateful = tasks.filter((t) => input.statefulTasks.has(t));
  const stateless = tasks.filter((t) => !input.statefulTasks.has(t));
  // 1. stateful tasks, balanced and sticky
  assignSticky(work, stateful, Math.ceil(stateful.length / clients.length));
  balance(work, stateful);
  // 2. caught-up movement
  moveToCaughtUp(work, stateful, input.acceptableRecoveryLag);
  // 3. stateless tasks, balancing the totals
  assignSticky(work, stateless, Math.ceil(tasks.length / clients.length));
  balance(work, stateless);
  for (const [client, owned] of work.tasksOf) defined(result.get(client), `assignment of member ${client}`).active = [...owned].sort(compareTaskIdText);
  return result;
}

/** Steps 1 and 3: previous owners keep tasks while they hold fewer than `quota` tasks, the rest go to the least loaded member. */
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
  const load = (client: string): number => tasksOf(work, (client)).size;
  for (let guard = 0; guard < movable.length * work.clients.length + 1; guard++) {
    const ids = work.clients.map((c) => c.id);
    const most = pick(ids, (c) => [-load(c)], (a, b) => cmp(b, a));
    const least = pick(ids, (c) => [load(c)], cmp);
    if (load(most) - load(least) <= 1) return;
    const candidates = [...tasksOf(work, (most))].filter((t) => canMove.has(t));
    if (candidates.length === 0) return;
    const task = pick(candidates, (t) => [work.lag(least, t), sameSubtopology(work, least, t)], compareTaskIdText);
    give(work, task, least);
  }
}

/** Step 2: tasks on a member that is not caught up move (or swap) to a caught-up member without unbalancing. */
function moveToCaughtUp(work: Work, stateful: readonly string[], acceptable: number): void {
  const statefulSet = new Set(stateful);
  const statefulLoad = (client: string): number => [...tasksOf(work, (client))].filter((t) => statefulSet.has(t)).length;
  for (const task of stateful) {
    const from = defined(work.owner.get(task), `owner of task ${task}`);
    if (work.lag(from, task) <= acceptable) continue;
    const caughtUp = work.clients.map((c) => c.id).filter((c) => c !== from && work.lag(c, task) <= acceptable);
    if (caughtUp.length === 0) continue;
    const to = pick(caughtUp, (c) => [statefulLoad(c), work.lag(c, task)], cmp);
    if (statefulLoad(to) < statefulLoad(from)) {
      give(work, task, to);
      continue;
    }
    const swaps = [...tasksOf(work, (to))].filter((u) => statefulSet.has(u) && (work.lag(from, u) <= acceptable || work.lag(from, u) <= work.lag(to, u)));
    if (swaps.length === 0) continue;
    const other = pick(swaps, (u) => [work.lag(from, u)], compareTaskIdText);
    give(work, task, to);
    give(work, other, from);
  }
}

function tasksOf(work: Work, client: string): Set<string> {
  return defined(work.tasksOf.get(client), `tasks of member ${client}`);
}

function give(work: Work, task: string, client: string): void {
  const previous = work.owner.get(task);
  if (previous !== undefined) work.tasksOf.get(previous)?.delete(task);
  work.owner.set(task, client);
  tasksOf(work, (client)).add(task);
}

function sameSubtopology(work: Work, client: string, task: string): number {
  const sub = subtopologyOf(task);
  return [...tasksOf(work, (client))].filter((t) => subtopologyOf(t) === sub).length;
}

/** The element with the smallest key (numbers compared in order), ties broken by `tie`. */
function pick<T>(items: readonly T[], key: (item: T) => number[], tie: (a: T, b: T) => number): T {
  let best: T | undefined;
  let bestKey: number[] = [];
  for (const item of items) {
    const k = key(item);
    const better = best === undefined || compareKeys(k, bestKey) < 0 || (compareKeys(k, bestKey) === 0 && tie(item, best) < 0);
    if (better) {
      best = item;
      bestKey = k;
    }
  }
  return defined(best, 'a candidate (the list is never empty)');
}

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareNumbers(a: number, b: number): number {
  return a === b ? 0 : a < b ? -1 : 1;
}
