/**
 * Steps 3 and 4 of the task assignor: task movements and warm-up replicas
 * (KIP-441, Kafka's `TaskMovement.assignActiveTaskMovements` and
 * `assignStandbyTaskMovements`). The balanced target of a stateful task that
 * is not caught up on it does not get it yet: the task stays (or goes) to a
 * caught-up member and the target warms up a copy (a standby task marked as
 * a warm-up) until a probing rebalance finds it caught up. At most
 * `maxWarmupReplicas` warm-ups exist in the whole assignment (one budget for
 * both steps); past it the target simply loses the task for now.
 *
 * A movement is scheduled for a copy of a task on member D when D is not
 * caught up on it and some member has a strictly lower lag. Movements run in
 * order of fewest caught-up members, then task id; the candidates below are
 * "least loaded" by active plus standby tasks, ties by member id, and "by
 * lag" means the members in order of lag then id, stopping at D.
 *
 * Step 3, active movements, for each active task on D:
 * a. a caught-up member with a standby of the task: it swaps with D (it runs
 *    the task, D keeps a standby: no warm-up used);
 * b. else the least loaded caught-up member runs the task; D gets a warm-up
 *    while the budget lasts;
 * c. else the first member by lag: a swap if it has a standby, else as b.
 * Step 4, standby movements, for each standby on D that is not a warm-up:
 * the least loaded caught-up member without a copy, else the first member by
 * lag without a copy, gets the standby; D keeps its copy as a warm-up while
 * the budget lasts, else loses it. No such member: nothing moves.
 * Processes (`processId`: the stream threads of one instance share one, as
 * Kafka's client is the process): the candidates above are only members of
 * another process than D's whose process has no copy of the task yet, so a
 * warm-up never shares the process of the active or of another replica, and
 * a task never moves between the threads of one instance for their lags
 * (as in Kafka, where lags are per process). No candidate: the copy stays on
 * D, and that is no movement.
 * A probing rebalance is needed when any movement of step 3 or 4 happened.
 */
import { assignedCount, cmp, compareNumbers, dropStandby, give, pickOrNone, processHasCopy, sameProcess, standbysOf, tasksOf, warmupsOf, type Work } from './assignor-work.js';
import { compareTaskIdText } from './task-ids.js';

/** The warm-up budget shared by steps 3 and 4 (Kafka's `remainingWarmupReplicas`). */
export interface WarmupBudget {
  remaining: number;
}

interface Movement {
  readonly task: string;
  readonly destination: string;
  readonly caughtUpMembers: number;
}

/** Step 3; returns the number of movements (Kafka's `neededActiveTaskMovements`). */
export function assignActiveTaskMovements(work: Work, statefulTasks: ReadonlySet<string>, budget: WarmupBudget): number {
  const movements = scheduleMovements(work, (client) => [...tasksOf(work, client)].filter((t) => statefulTasks.has(t)));
  let moved = 0;
  for (const { task, destination } of movements) {
    const caughtUp = (pred: (c: string) => boolean): string | undefined => leastLoaded(work, work.ids.filter((c) => work.caughtUp(c, task) && pred(c)));
    // candidates: members of another process than D's, with a standby alone in its process (swap) or with no copy in it
    const other = (c: string): boolean => !sameProcess(work, c, destination);
    const swappable = (c: string): boolean => other(c) && standbysOf(work, c).has(task) && !processHasCopy(work, c, task, c);
    const free = (c: string): boolean => other(c) && !processHasCopy(work, c, task);
    // a. a caught-up member with a standby swaps with the destination
    const standbyHolder = caughtUp(swappable);
    if (standbyHolder !== undefined) {
      swapStandbyAndActive(work, task, standbyHolder, destination);
      moved++;
      continue;
    }
    // b. the least loaded caught-up member runs it, the destination warms up
    const anyCaughtUp = caughtUp(free);
    if (anyCaughtUp !== undefined) {
      moveActiveAndTryToWarmUp(work, budget, task, anyCaughtUp, destination);
      moved++;
      continue;
    }
    // c. the most caught-up member (none eligible: the task stays)
    const mostCaughtUp = mostCaughtUpBefore(work, task, destination, (c) => swappable(c) || free(c));
    if (mostCaughtUp === undefined) continue;
    if (standbysOf(work, mostCaughtUp).has(task)) swapStandbyAndActive(work, task, mostCaughtUp, destination);
    else moveActiveAndTryToWarmUp(work, budget, task, mostCaughtUp, destination);
    moved++;
  }
  return moved;
}

/** Step 4; returns the number of standbys moved (Kafka's `neededStandbyTaskMovements`). */
export function assignStandbyTaskMovements(work: Work, budget: WarmupBudget): number {
  const movements = scheduleMovements(work, (client) => [...standbysOf(work, client)].filter((t) => !warmupsOf(work, client).has(t)));
  let moved = 0;
  for (const { task, destination } of movements) {
    const eligible = (c: string): boolean => !sameProcess(work, c, destination) && !processHasCopy(work, c, task);
    const source = leastLoaded(work, work.ids.filter((c) => work.caughtUp(c, task) && eligible(c))) ?? mostCaughtUpBefore(work, task, destination, eligible);
    if (source === undefined) continue; // every more caught-up member's process already has a copy
    standbysOf(work, source).add(task);
    if (budget.remaining-- > 0) warmupsOf(work, destination).add(task);
    else dropStandby(work, task, destination);
    moved++;
  }
  return moved;
}

/** The movements for the copies `copiesOf` lists per member, in Kafka's order. */
function scheduleMovements(work: Work, copiesOf: (client: string) => string[]): Movement[] {
  const movements: Movement[] = [];
  for (const client of work.ids) {
    for (const task of copiesOf(client).sort(compareTaskIdText)) {
      if (!needsMovement(work, task, client)) continue;
      movements.push({ task, destination: client, caughtUpMembers: work.ids.filter((c) => work.caughtUp(c, task)).length });
    }
  }
  return movements.sort((a, b) => a.caughtUpMembers - b.caughtUpMembers || compareTaskIdText(a.task, b.task) || cmp(a.destination, b.destination));
}

/** Kafka's `taskIsNotCaughtUpOnClientAndOtherMoreCaughtUpClientsExist`. */
function needsMovement(work: Work, task: string, client: string): boolean {
  if (work.caughtUp(client, task)) return false;
  const best = Math.min(...work.ids.map((c) => work.lag(c, task)));
  return best < work.lag(client, task);
}

function leastLoaded(work: Work, candidates: readonly string[]): string | undefined {
  return pickOrNone(candidates, (c) => [assignedCount(work, c)], cmp);
}

/** Kafka's `mostCaughtUpEligibleClient`: the first eligible member by lag, looking only at those ranked before `destination`. */
function mostCaughtUpBefore(work: Work, task: string, destination: string, eligible: (c: string) => boolean): string | undefined {
  const byLag = [...work.ids].sort((a, b) => compareNumbers(work.lag(a, task), work.lag(b, task)) || cmp(a, b));
  for (const client of byLag) {
    if (client === destination) return undefined;
    if (eligible(client)) return client;
  }
  return undefined;
}

function swapStandbyAndActive(work: Work, task: string, source: string, destination: string): void {
  dropStandby(work, task, source);
  give(work, task, source);
  standbysOf(work, destination).add(task);
}

function moveActiveAndTryToWarmUp(work: Work, budget: WarmupBudget, task: string, source: string, destination: string): void {
  give(work, task, source);
  if (budget.remaining-- > 0) {
    standbysOf(work, destination).add(task);
    warmupsOf(work, destination).add(task);
  }
}
