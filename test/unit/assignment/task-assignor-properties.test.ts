/**
 * Properties of the task assignor over random groups (fast-check): every
 * task is active exactly once; a member holds at most one copy of a task, so
 * a standby is never on the member running the task; stateless tasks get no
 * standby; warm-ups are standbys and never more than `maxWarmupReplicas`;
 * at most `numStandbyReplicas` standbys per task besides warm-ups; the same
 * input in another order gives the same result.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignTasks, type ClientState, type TaskAssignmentInput } from '../../../src/assignment/task-assignor.js';

const groupArb = fc
  .record({
    sizes: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 3 }),
    members: fc.integer({ min: 1, max: 6 }),
    statefulMask: fc.array(fc.boolean(), { minLength: 18, maxLength: 18 }),
    numStandbyReplicas: fc.integer({ min: 0, max: 3 }),
    maxWarmupReplicas: fc.integer({ min: 1, max: 4 }),
    acceptableRecoveryLag: fc.constantFrom(0, 100, Number.MAX_SAFE_INTEGER),
    seeds: fc.array(fc.tuple(fc.nat(), fc.boolean(), fc.constantFrom(undefined, 0, 50, 500, Number.MAX_SAFE_INTEGER)), { minLength: 108, maxLength: 108 }),
  })
  .map((g): TaskAssignmentInput => {
    const tasks = g.sizes.flatMap((n, s) => Array.from({ length: n }, (_, p) => `${s}_${p}`));
    const stateful = tasks.filter((_, i) => g.statefulMask[i] ?? false);
    const clients: ClientState[] = Array.from({ length: g.members }, (_, m) => {
      const previousActive = new Set<string>();
      const lags = new Map<string, number>();
      tasks.forEach((t, i) => {
        const [owner = 0, ran = false, lag] = g.seeds[(m * tasks.length + i) % g.seeds.length] ?? [];
        if (ran && owner % g.members === m) previousActive.add(t);
        if (stateful.includes(t) && lag !== undefined) lags.set(t, previousActive.has(t) ? 0 : lag);
      });
      return { id: `m${m}`, previousActive, lags };
    });
    return { clients, tasks, statefulTasks: new Set(stateful), numStandbyReplicas: g.numStandbyReplicas, maxWarmupReplicas: g.maxWarmupReplicas, acceptableRecoveryLag: g.acceptableRecoveryLag };
  });

describe('task assignor properties', () => {
  it('assigns every task active exactly once, one copy per member, warm-ups within the maximum', () => {
    fc.assert(
      fc.property(groupArb, (input) => {
        const { clients } = assignTasks(input);
        const actives = new Map<string, number>();
        const standbys = new Map<string, number>();
        let warmups = 0;
        for (const a of clients.values()) {
          // at most one copy of a task per member: a standby is never on the member running the task
          expect(new Set([...a.active, ...a.standby]).size).toBe(a.active.length + a.standby.length);
          for (const t of a.warmup) expect(a.standby).toContain(t);
          warmups += a.warmup.length;
          for (const t of a.active) actives.set(t, (actives.get(t) ?? 0) + 1);
          for (const t of a.standby) {
            expect(input.statefulTasks.has(t)).toBe(true);
            if (!a.warmup.includes(t)) standbys.set(t, (standbys.get(t) ?? 0) + 1);
          }
        }
        for (const t of input.tasks) expect(actives.get(t)).toBe(1);
        expect(actives.size).toBe(new Set(input.tasks).size);
        expect(warmups).toBeLessThanOrEqual(input.maxWarmupReplicas ?? 2);
        for (const n of standbys.values()) expect(n).toBeLessThanOrEqual(input.numStandbyReplicas ?? 0);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same result whatever the order of members and tasks', () => {
    fc.assert(
      fc.property(groupArb, (input) => {
        const one = assignTasks(input);
        const two = assignTasks({ ...input, clients: [...input.clients].reverse(), tasks: [...input.tasks].reverse() });
        expect(two.probingRebalanceNeeded).toBe(one.probingRebalanceNeeded);
        expect(two.clients).toEqual(one.clients);
      }),
      { numRuns: 200 },
    );
  });
});
