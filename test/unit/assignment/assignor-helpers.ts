/**
 * Helpers of the task-assignor tests: Kafka's AssignmentTestUtils and the
 * mock clients of HighAvailabilityTaskAssignorTest, for capacity-1 members.
 */
import { expect } from 'vitest';
import { assignTasks, type ClientAssignment, type ClientState } from '../../../src/assignment/task-assignor.js';

/** Kafka's Long.MAX_VALUE lag (no state). */
export const MAX = Number.MAX_SAFE_INTEGER;

export function client(id: string, previousActive: string[] = [], lags: Record<string, number> = {}): ClientState {
  return { id, previousActive: new Set(previousActive), lags: new Map(Object.entries(lags)) };
}

/** All tasks `<s>_<p>` of the given sub-topology sizes. */
export function tasksOf(...sizes: number[]): string[] {
  return sizes.flatMap((n, s) => Array.from({ length: n }, (_, p) => `${s}_${p}`));
}

export function lagsOf(tasks: string[], lag: number): Record<string, number> {
  return Object.fromEntries(tasks.map((t) => [t, lag]));
}

/** Kafka's getMockClientWithPreviousCaughtUpTasks: lag 0 on its previous active tasks, Long.MAX_VALUE on the other stateful ones. */
export function caughtUpClient(id: string, active: string[], stateful: string[]): ClientState {
  return client(id, active, Object.fromEntries(stateful.map((t) => [t, active.includes(t) ? 0 : MAX])));
}

/** Kafka's AssignmentConfigs fields the assignor reads. */
export interface Configs {
  acceptableRecoveryLag?: number;
  numStandbyReplicas?: number;
  maxWarmupReplicas?: number;
}

/** Runs the assignor (Kafka's getConfigWithoutStandbys by default: lag 100, 2 warm-ups, no standbys). */
export function run(clients: ClientState[], tasks: string[], stateful: string[] = tasks, configs: Configs | number = {}) {
  const c = typeof configs === 'number' ? { acceptableRecoveryLag: configs } : configs;
  const out = assignTasks({
    clients,
    tasks,
    statefulTasks: new Set(stateful),
    acceptableRecoveryLag: c.acceptableRecoveryLag ?? 100,
    ...(c.numStandbyReplicas !== undefined ? { numStandbyReplicas: c.numStandbyReplicas } : {}),
    ...(c.maxWarmupReplicas !== undefined ? { maxWarmupReplicas: c.maxWarmupReplicas } : {}),
  });
  const result = out.clients;
  const of = (id: string): ClientAssignment => result.get(id) ?? { active: [], standby: [], warmup: [] };
  return {
    result,
    probing: out.probingRebalanceNeeded,
    unassignedStandbys: out.unassignedStandbys,
    active: (id: string) => of(id).active,
    standby: (id: string) => of(id).standby,
    warmup: (id: string) => of(id).warmup,
    /** Kafka's assignedTaskCount. */
    assigned: (id: string) => of(id).active.length + of(id).standby.length,
    counts: clients.map((x) => of(x.id).active.length),
  };
}

/**
 * Kafka's assertValidAssignment(numStandbyReplicas, maxWarmupReplicas, statefulTasks, statelessTasks, ...):
 * every task active exactly once, at most one copy per member, no standby of a stateless task, and
 * min(members, 1 + standbys) copies of every task, one more for at most `maxWarmupReplicas` tasks.
 * sluice adds: the warm-ups are standbys.
 */
export function expectValid(result: Map<string, ClientAssignment>, statefulTasks: string[], statelessTasks: string[] = [], numStandbyReplicas = 0, maxWarmupReplicas = 0): void {
  const copies = new Map<string, string[]>([...statefulTasks, ...statelessTasks].map((t) => [t, []]));
  const actives = new Map<string, number>();
  for (const [id, a] of result) {
    expect(new Set([...a.active, ...a.standby]).size, `member ${id} has a task twice`).toBe(a.active.length + a.standby.length);
    for (const t of a.warmup) expect(a.standby, `warm-up ${t} of ${id} is a standby`).toContain(t);
    for (const t of a.active) actives.set(t, (actives.get(t) ?? 0) + 1);
    for (const t of a.standby) expect(statelessTasks, `standby of stateless task ${t}`).not.toContain(t);
    for (const t of [...a.active, ...a.standby]) {
      expect(copies.has(t), `unknown task ${t}`).toBe(true);
      copies.get(t)?.push(id);
    }
  }
  let remainingWarmups = maxWarmupReplicas;
  const misassigned: string[] = [];
  for (const [task, holders] of copies) {
    expect(actives.get(task), `actives of ${task}`).toBe(1);
    const expected = Math.min(result.size, 1 + (statelessTasks.includes(task) ? 0 : numStandbyReplicas));
    if (holders.length === expected) continue;
    if (holders.length === expected + 1 && remainingWarmups > 0) remainingWarmups--;
    else misassigned.push(`${task}: ${holders.join(',')}`);
  }
  expect(misassigned).toEqual([]);
}

/** Kafka's assertBalancedActiveAssignment: active counts differ by at most one. */
export function expectBalanced(counts: number[]): void {
  expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
}

/** Kafka's assertBalancedStatefulAssignment: stateful tasks (active and standby) per member differ by at most one. */
export function expectBalancedStateful(result: Map<string, ClientAssignment>, stateful: string[]): void {
  const counts = [...result.values()].map((a) => [...a.active, ...a.standby].filter((t) => stateful.includes(t)).length);
  expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
}

/** The sub-topologies whose active tasks per member differ by more than `maxSkew` (Kafka's analyzeTaskAssignmentBalance). */
export function skewedSubtopologies(result: Map<string, ClientAssignment>, maxSkew: number): string[] {
  const subs = new Set([...result.values()].flatMap((a) => a.active.map((t) => t.split('_')[0] ?? '')));
  return [...subs].filter((s) => {
    const counts = [...result.values()].map((a) => a.active.filter((t) => t.split('_')[0] === s).length);
    return Math.max(...counts) - Math.min(...counts) > maxSkew;
  });
}
