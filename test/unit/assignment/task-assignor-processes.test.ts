/**
 * Stream threads and processes in the task assignor (numStreamThreads): a
 * member is one stream thread, the threads of one instance share its
 * `processId`, and replicas keep to processes as in Kafka (whose clients are
 * processes): a standby or warm-up never goes to the process running the task
 * as active, two replicas of one task never share a process, and members
 * without a processId count as distinct processes. Two cases of Kafka's
 * HighAvailabilityTaskAssignorTest are ported with a client split into
 * threads (their inputs and expected outputs per process unchanged).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignTasks, type ClientAssignment, type ClientState, type TaskAssignmentInput } from '../../../src/assignment/task-assignor.js';
import { lagsOf, MAX, run, tasksOf } from './assignor-helpers.js';

/** A stream thread `id` of process `processId` (undefined: no processId, an unreadable subscription). */
function thread(id: string, processId: string | undefined, previousActive: string[] = [], lags: Record<string, number> = {}): ClientState {
  return { id, previousActive: new Set(previousActive), lags: new Map(Object.entries(lags)), ...(processId !== undefined ? { processId } : {}) };
}

/** Every copy of every task: per task, the members holding it, active first. */
function copiesOf(result: Map<string, ClientAssignment>): Map<string, { active: string; replicas: string[] }> {
  const copies = new Map<string, { active: string; replicas: string[] }>();
  for (const [id, a] of result) for (const t of a.active) copies.set(t, { active: id, replicas: [] });
  for (const [id, a] of result) for (const t of a.standby) copies.get(t)?.replicas.push(id);
  return copies;
}

/** Fails when a replica shares the process of the active or of another replica of its task. */
function expectOneCopyPerProcess(result: Map<string, ClientAssignment>, clients: readonly ClientState[]): void {
  const processOf = new Map(clients.map((c) => [c.id, c.processId ?? `own:${c.id}`]));
  for (const [task, { active, replicas }] of copiesOf(result)) {
    const processes = [active, ...replicas].map((m) => processOf.get(m));
    expect(new Set(processes).size, `copies of ${task}: ${[active, ...replicas].join(',')}`).toBe(processes.length);
  }
}

describe('task assignor: stream threads of one instance share a process', () => {
  it('2 processes x 2 threads, numStandbyReplicas 1: every standby is on the other process', () => {
    const all = tasksOf(4, 4);
    const clients = [thread('a1', 'A'), thread('a2', 'A'), thread('b1', 'B'), thread('b2', 'B')];
    const { result, active, standby, unassignedStandbys, probing } = run(clients, all, all, { numStandbyReplicas: 1 });
    expect(unassignedStandbys.size).toBe(0);
    expect(probing).toBe(false);
    const processOf = (m: string): string => m.slice(0, 1);
    for (const [task, { active: owner, replicas }] of copiesOf(result)) {
      expect(replicas, `standbys of ${task}`).toHaveLength(1);
      expect(processOf(replicas[0] ?? owner), `standby of ${task} (active on ${owner})`).not.toBe(processOf(owner));
    }
    // still balanced: 2 actives and 2 standbys per thread
    for (const m of ['a1', 'a2', 'b1', 'b2']) expect([active(m).length, standby(m).length], m).toEqual([2, 2]);
    expectOneCopyPerProcess(result, clients);
  });

  it('1 process x 2 threads, numStandbyReplicas 1: no standby is assigned (each is counted as unassigned)', () => {
    const all = tasksOf(3);
    const clients = [thread('t1', 'P', all, lagsOf(all, 0)), thread('t2', 'P')];
    const { active, standby, unassignedStandbys } = run(clients, all, all, { numStandbyReplicas: 1 });
    expect(standby('t1')).toEqual([]);
    expect(standby('t2')).toEqual([]);
    expect([...active('t1'), ...active('t2')].sort()).toEqual(all);
    expect(Object.fromEntries(unassignedStandbys)).toEqual({ '0_0': 1, '0_1': 1, '0_2': 1 });
  });

  it('members without a processId count as distinct processes (they get standbys of each other)', () => {
    const all = tasksOf(3);
    const clients = [thread('t1', undefined, all, lagsOf(all, 0)), thread('t2', undefined)];
    const { result, unassignedStandbys } = run(clients, all, all, { numStandbyReplicas: 1 });
    expect(unassignedStandbys.size).toBe(0);
    for (const { replicas } of copiesOf(result).values()) expect(replicas).toHaveLength(1);
  });

  it('two standbys of one task go to two processes, never two threads of one', () => {
    const all = tasksOf(2);
    // processes A (1 thread), B (2 threads), C (1 thread): with 2 standbys per task, each task has one copy in each process
    const clients = [thread('a1', 'A', all, lagsOf(all, 0)), thread('b1', 'B'), thread('b2', 'B'), thread('c1', 'C')];
    const { result, unassignedStandbys } = run(clients, all, all, { numStandbyReplicas: 2, acceptableRecoveryLag: MAX });
    expect(unassignedStandbys.size).toBe(0);
    for (const [task, { active, replicas }] of copiesOf(result)) {
      expect([active, ...replicas].map((m) => m.slice(0, 1)).sort(), `copies of ${task}`).toEqual(['a', 'b', 'c']);
    }
    // 3 standbys wanted per task but only 2 other processes: one missing per task
    const three = run(clients, all, all, { numStandbyReplicas: 3, acceptableRecoveryLag: MAX });
    expect(Object.fromEntries(three.unassignedStandbys)).toEqual({ '0_0': 1, '0_1': 1 });
    expectOneCopyPerProcess(three.result, clients);
  });

  it("a warm-up never goes to the active's process, and a task does not move between the threads of one instance for their lags", () => {
    const all = tasksOf(4);
    // a1 ran every task (caught up); a2 (its sibling thread), b1 and b2 are new: each is the balanced target of one task
    const clients = [thread('a1', 'A', all, lagsOf(all, 0)), thread('a2', 'A'), thread('b1', 'B'), thread('b2', 'B')];
    const { result, active, standby, warmup, probing } = run(clients, all, all, { numStandbyReplicas: 0, maxWarmupReplicas: 4 });
    expect(probing).toBe(true);
    // b1 and b2 warm up the task they are the target of while a1 keeps running it
    expect(warmup('b1')).toHaveLength(1);
    expect(warmup('b2')).toHaveLength(1);
    for (const m of ['b1', 'b2']) expect(active('a1')).toContain(warmup(m)[0]);
    // a2 gets no warm-up (a1 runs the tasks in its process): it runs its target task itself
    expect(warmup('a2')).toEqual([]);
    expect(standby('a2')).toEqual([]);
    expect(active('a2')).toHaveLength(1);
    expect(active('a1')).toHaveLength(3);
    expectOneCopyPerProcess(result, clients);
  });

  it('the same groups without processIds (one process per member) keep their warm-ups, as before', () => {
    const all = tasksOf(4);
    const clients = [thread('a1', undefined, all, lagsOf(all, 0)), thread('a2', undefined), thread('b1', undefined), thread('b2', undefined)];
    const { active, warmup } = run(clients, all, all, { numStandbyReplicas: 0, maxWarmupReplicas: 4 });
    expect(active('a1')).toEqual(all);
    for (const m of ['a2', 'b1', 'b2']) expect(warmup(m)).toHaveLength(1);
  });
});

describe('task assignor: HighAvailabilityTaskAssignorTest cases with a client split into stream threads', () => {
  // Kafka's clients are processes; here each is one or more members (threads) sharing a processId.
  // Inputs and expected outputs are Kafka's, read per process (the union of its threads' tasks).
  const ofProcess = (out: ReturnType<typeof run>, members: string[]) => ({
    active: members.flatMap((m) => out.active(m)).sort(),
    standby: members.flatMap((m) => out.standby(m)).sort(),
  });

  // HighAvailabilityTaskAssignorTest.shouldNotAssignWarmupAndStandbyToTheSameClient (client2 as two threads)
  it('shouldNotAssignWarmupAndStandbyToTheSameClient', () => {
    const all = tasksOf(4);
    const clients = [thread('c1', 'PID_1', all, lagsOf(all, 0)), thread('c2a', 'PID_2', [], lagsOf(all, MAX)), thread('c2b', 'PID_2', [], lagsOf(all, MAX))];
    const out = run(clients, all, all, { acceptableRecoveryLag: 100, maxWarmupReplicas: 1, numStandbyReplicas: 1 });
    expect(ofProcess(out, ['c1'])).toEqual({ active: all, standby: [] });
    expect(ofProcess(out, ['c2a', 'c2b'])).toEqual({ active: [], standby: all });
    expect(out.probing).toBe(true);
  });

  // HighAvailabilityTaskAssignorTest.shouldNotAssignAnyStandbysWithInsufficientCapacity (client1 as two threads; getConfigWithStandbys)
  it('shouldNotAssignAnyStandbysWithInsufficientCapacity', () => {
    const all = tasksOf(2);
    const clients = [thread('c1a', 'PID_1', ['0_0'], lagsOf(all, 0)), thread('c1b', 'PID_1', ['0_1'], lagsOf(all, 0))];
    const out = run(clients, all, all, { acceptableRecoveryLag: 100, maxWarmupReplicas: 2, numStandbyReplicas: 1 });
    expect(ofProcess(out, ['c1a', 'c1b'])).toEqual({ active: all, standby: [] });
    expect(out.probing).toBe(false);
  });
});

const processGroupArb = fc
  .record({
    sizes: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 3 }),
    members: fc.integer({ min: 1, max: 7 }),
    processes: fc.integer({ min: 1, max: 4 }),
    statefulMask: fc.array(fc.boolean(), { minLength: 15, maxLength: 15 }),
    numStandbyReplicas: fc.integer({ min: 0, max: 3 }),
    maxWarmupReplicas: fc.integer({ min: 0, max: 4 }),
    acceptableRecoveryLag: fc.constantFrom(0, 100, Number.MAX_SAFE_INTEGER),
    seeds: fc.array(fc.tuple(fc.nat(), fc.boolean(), fc.constantFrom(undefined, 0, 50, 500, Number.MAX_SAFE_INTEGER)), { minLength: 105, maxLength: 105 }),
    withoutProcess: fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
  })
  .map((g): TaskAssignmentInput => {
    const tasks = g.sizes.flatMap((n, s) => Array.from({ length: n }, (_, p) => `${s}_${p}`));
    const stateful = tasks.filter((_, i) => g.statefulMask[i] ?? false);
    const clients: ClientState[] = Array.from({ length: g.members }, (_, m) => {
      const previousActive: string[] = [];
      const lags: Record<string, number> = {};
      tasks.forEach((t, i) => {
        const [owner = 0, ran = false, lag] = g.seeds[(m * tasks.length + i) % g.seeds.length] ?? [];
        if (ran && owner % g.members === m) previousActive.push(t);
        if (stateful.includes(t) && lag !== undefined) lags[t] = previousActive.includes(t) ? 0 : lag;
      });
      return thread(`m${m}`, g.withoutProcess[m] ? undefined : `p${m % g.processes}`, previousActive, lags);
    });
    return { clients, tasks, statefulTasks: new Set(stateful), numStandbyReplicas: g.numStandbyReplicas, maxWarmupReplicas: g.maxWarmupReplicas, acceptableRecoveryLag: g.acceptableRecoveryLag };
  });

describe('task assignor properties with processes', () => {
  it('every task active once, at most one copy per process, standbys and warm-ups within their maxima, deterministic', () => {
    fc.assert(
      fc.property(processGroupArb, (input) => {
        const { clients, unassignedStandbys } = assignTasks(input);
        expectOneCopyPerProcess(clients, input.clients);
        const copies = copiesOf(clients);
        for (const t of input.tasks) expect(copies.has(t), `active of ${t}`).toBe(true);
        const warmups = [...clients.values()].reduce((n, a) => n + a.warmup.length, 0);
        expect(warmups).toBeLessThanOrEqual(input.maxWarmupReplicas ?? 2);
        for (const [task, { replicas }] of copies) {
          const standbys = replicas.filter((m) => !clients.get(m)?.warmup.includes(task)).length;
          expect(standbys).toBeLessThanOrEqual(input.numStandbyReplicas ?? 0);
          expect(standbys + (unassignedStandbys.get(task) ?? 0)).toBe(input.statefulTasks.has(task) ? (input.numStandbyReplicas ?? 0) : 0);
        }
        const reversed = assignTasks({ ...input, clients: [...input.clients].reverse(), tasks: [...input.tasks].reverse() });
        expect(reversed.clients).toEqual(clients);
      }),
      { numRuns: 300 },
    );
  });
});
