/**
 * The working state the task assignor's steps share (Kafka's `ClientState`
 * while `HighAvailabilityTaskAssignor.assign` runs): per member its active,
 * standby and warm-up tasks, the lag of every member on every task, and the
 * small ordering helpers every step uses so that ties break the same way on
 * every group leader (member id, then task id).
 *
 * A member is one stream thread; the members of one instance share a
 * `processId` (Kafka's client is the process). Replicas keep to processes:
 * {@link processHasCopy} is what the standby and warm-up steps check.
 */
import { defined } from '../internal/defined.js';

/** A member as the assignor sees it (Kafka's `ClientState`). */
export interface ClientState {
  /** Member id (the ordering of ties). */
  readonly id: string;
  /** Tasks it ran as active before this rebalance. */
  readonly previousActive: ReadonlySet<string>;
  /** Lag per stateful task it has state for (0 = caught up completely); absent: no state. */
  readonly lags: ReadonlyMap<string, number>;
  /**
   * The instance (process) it belongs to, shared by the stream threads of one instance (Kafka's
   * `processId`); absent (an unreadable subscription): a process of its own.
   */
  readonly processId?: string;
}

/** The mutable state of one assignment (internal to the assignor). */
export interface Work {
  /** The members, ordered by id. */
  readonly clients: readonly ClientState[];
  /** Their ids, in the same order. */
  readonly ids: readonly string[];
  /** The member running each task as active. */
  readonly owner: Map<string, string>;
  /** Active tasks per member. */
  readonly tasksOf: Map<string, Set<string>>;
  /** Standby tasks per member (warm-ups included, as Kafka). */
  readonly standbyOf: Map<string, Set<string>>;
  /** The standby tasks per member that are warm-ups (a subset of `standbyOf`). */
  readonly warmupOf: Map<string, Set<string>>;
  /** Lag of a member on a task: 0 for a stateless task, +Infinity without state. */
  lag(client: string, task: string): number;
  /** Whether a member is caught up on a task (lag within `acceptableRecoveryLag`). */
  caughtUp(client: string, task: string): boolean;
  /** The members of a member's process (itself included), ordered by id. */
  mates(client: string): readonly string[];
}

/** Builds the working state over `clients` (any order). */
export function newWork(clients: readonly ClientState[], statefulTasks: ReadonlySet<string>, acceptableRecoveryLag: number): Work {
  const sorted = [...clients].sort((a, b) => cmp(a.id, b.id));
  const byId = new Map(sorted.map((c) => [c.id, c]));
  const lag = (client: string, task: string): number => (statefulTasks.has(task) ? (byId.get(client)?.lags.get(task) ?? Number.POSITIVE_INFINITY) : 0);
  // Kafka: acceptable.recovery.lag = Long.MAX_VALUE means every member counts as caught up
  const unbounded = acceptableRecoveryLag >= Number.MAX_SAFE_INTEGER;
  const perMember = (): Map<string, Set<string>> => new Map(sorted.map((c) => [c.id, new Set<string>()]));
  const byProcess = new Map<string, string[]>();
  for (const c of sorted) if (c.processId !== undefined) byProcess.set(c.processId, [...(byProcess.get(c.processId) ?? []), c.id]);
  const mates = (client: string): readonly string[] => {
    const processId = byId.get(client)?.processId;
    return processId === undefined ? [client] : (byProcess.get(processId) ?? [client]);
  };
  return {
    clients: sorted,
    ids: sorted.map((c) => c.id),
    owner: new Map(),
    tasksOf: perMember(),
    standbyOf: perMember(),
    warmupOf: perMember(),
    lag,
    caughtUp: (client, task) => unbounded || lag(client, task) <= acceptableRecoveryLag,
    mates,
  };
}

/** Active tasks of a member. */
export function tasksOf(work: Work, client: string): Set<string> {
  return defined(work.tasksOf.get(client), `tasks of member ${client}`);
}

/** Standby tasks of a member (warm-ups included). */
export function standbysOf(work: Work, client: string): Set<string> {
  return defined(work.standbyOf.get(client), `standby tasks of member ${client}`);
}

/** Warm-up tasks of a member. */
export function warmupsOf(work: Work, client: string): Set<string> {
  return defined(work.warmupOf.get(client), `warm-up tasks of member ${client}`);
}

/** Kafka's `assignedTaskCount`: active plus standby tasks. */
export function assignedCount(work: Work, client: string): number {
  return tasksOf(work, client).size + standbysOf(work, client).size;
}

/** Kafka's `hasAssignedTask`: the member has the task as active or standby. */
export function hasCopy(work: Work, client: string, task: string): boolean {
  return tasksOf(work, client).has(task) || standbysOf(work, client).has(task);
}

/**
 * Whether a member of `client`'s process (`client` included) other than `except` has the task as
 * active or standby: a replica of the task may go to `client` only when this is false (replicas of a
 * task, and its active, are on distinct processes, as Kafka's clients).
 */
export function processHasCopy(work: Work, client: string, task: string, except?: string): boolean {
  return work.mates(client).some((m) => m !== except && hasCopy(work, m, task));
}

/** Whether two members belong to one process. */
export function sameProcess(work: Work, a: string, b: string): boolean {
  return work.mates(a).includes(b);
}

/** Makes `client` the active owner of `task` (taking it from its previous owner). */
export function give(work: Work, task: string, client: string): void {
  const previous = work.owner.get(task);
  if (previous !== undefined) work.tasksOf.get(previous)?.delete(task);
  work.owner.set(task, client);
  tasksOf(work, client).add(task);
}

/** Removes a standby (and its warm-up mark). */
export function dropStandby(work: Work, task: string, client: string): void {
  standbysOf(work, client).delete(task);
  warmupsOf(work, client).delete(task);
}

/** The element with the smallest key (numbers compared in order), ties broken by `tie`; undefined for an empty list. */
export function pickOrNone<T>(items: readonly T[], key: (item: T) => number[], tie: (a: T, b: T) => number): T | undefined {
  let best: T | undefined;
  let bestKey: number[] = [];
  for (const item of items) {
    const k = key(item);
    const order = best === undefined ? -1 : compareKeys(k, bestKey);
    if (order < 0 || (order === 0 && best !== undefined && tie(item, best) < 0)) {
      best = item;
      bestKey = k;
    }
  }
  return best;
}

/** {@link pickOrNone} on a list that is never empty. */
export function pick<T>(items: readonly T[], key: (item: T) => number[], tie: (a: T, b: T) => number): T {
  return defined(pickOrNone(items, key, tie), 'a candidate (the list is never empty)');
}

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** String order (member ids). */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Number order (Infinity last). */
export function compareNumbers(a: number, b: number): number {
  return a === b ? 0 : a < b ? -1 : 1;
}
