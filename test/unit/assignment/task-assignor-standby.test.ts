/**
 * Standby replicas, warm-up replicas and probing rebalances of the task
 * assignor (src/assignment/task-assignor.ts, standby-assignor.ts,
 * warmup-assignor.ts). Cases ported from Kafka's
 * HighAvailabilityTaskAssignorTest and StandbyTaskAssignmentUtilsTest keep
 * their inputs and expected outputs (rack awareness off: strategy NONE);
 * every member has capacity 1, so a case whose clients have capacity 5 is
 * ported only where its expectations do not depend on capacity (noted).
 */
import { describe, expect, it } from 'vitest';
import { caughtUpClient, client, expectBalanced, expectBalancedStateful, expectValid, lagsOf, MAX, run, skewedSubtopologies, tasksOf } from './assignor-helpers.js';

const withStandbys = { numStandbyReplicas: 1 }; // Kafka's getConfigWithStandbys: lag 100, 2 warm-ups, 1 standby

describe('task assignor: HighAvailabilityTaskAssignorTest standby, warm-up and probing ports', () => {
  // HighAvailabilityTaskAssignorTest.shouldBeStickyForActiveAndStandbyTasksWhileWarmingUp
  it('stays sticky for active and standby tasks while warming up', () => {
    const all = tasksOf(3, 3, 3);
    const c1 = client('p1', all, lagsOf(all, 0));
    const c2 = client('p2', [], lagsOf(all, 10)); // previous standby of every task
    const c3 = client('p3', [], lagsOf(all, MAX));
    const { assigned, probing } = run([c1, c2, c3], all, all, { acceptableRecoveryLag: 11, maxWarmupReplicas: 2, numStandbyReplicas: 1 });
    expect(assigned('p1')).toBe(all.length);
    expect(assigned('p2')).toBe(all.length);
    expect(assigned('p3')).toBe(2);
    expect(probing).toBe(true);
  });

  // HighAvailabilityTaskAssignorTest.shouldSkipWarmupsWhenAcceptableLagIsMax
  it('skips warm-ups when the acceptable lag is unbounded', () => {
    const all = tasksOf(3, 3, 3);
    const clients = [client('p1', all, lagsOf(all, 0)), client('p2', [], lagsOf(all, MAX)), client('p3', [], lagsOf(all, MAX))];
    const { assigned, probing, warmup } = run(clients, all, all, { acceptableRecoveryLag: MAX, maxWarmupReplicas: 1, numStandbyReplicas: 1 });
    expect(assigned('p1')).toBe(6);
    expect(assigned('p2')).toBe(6);
    expect(assigned('p3')).toBe(6);
    expect(probing).toBe(false);
    for (const id of ['p1', 'p2', 'p3']) expect(warmup(id)).toEqual([]);
  });

  // HighAvailabilityTaskAssignorTest.shouldAssignWarmUpTasksIfStatefulActiveTasksBalancedOverStreamThreadsButNotOverClients (capacity 5 becomes 1: the expectations hold regardless)
  it('assigns warm-ups when only one member is caught up', () => {
    const all = ['0_0', '0_1', '1_0', '1_1'];
    const clients = [client('p1', all, lagsOf(all, 0)), client('p2', [], lagsOf(all, MAX)), client('p3', [], lagsOf(all, MAX))];
    const maxWarmupReplicas = Math.floor(all.length / 3) + 1;
    const { result, standby, probing } = run(clients, all, all, { acceptableRecoveryLag: 0, maxWarmupReplicas, numStandbyReplicas: 0 });
    expect(probing).toBe(true);
    expect(standby('p2').length).toBeGreaterThanOrEqual(Math.floor(all.length / 3));
    expect(standby('p3').length).toBeGreaterThanOrEqual(Math.floor(all.length / 3));
    expectValid(result, all, [], 0, maxWarmupReplicas);
  });

  // HighAvailabilityTaskAssignorTest.shouldEvenlyAssignActiveStatefulTasksIfClientsAreWarmedUpToBalanceTaskOverClients (capacity 5 becomes 1; warm-ups 0_1 and 1_0 as without rack awareness)
  it('balances the active tasks once the warm-ups are caught up', () => {
    const all = ['0_0', '0_1', '1_0', '1_1'];
    const c1 = client('p1', all, lagsOf(all, 0));
    const c2 = client('p2', [], { ...lagsOf(all, MAX), '0_1': 0 });
    const c3 = client('p3', [], { ...lagsOf(all, MAX), '1_0': 0 });
    const { result, counts, probing } = run([c1, c2, c3], all, all, { acceptableRecoveryLag: 0, maxWarmupReplicas: Math.floor(all.length / 3) + 1, numStandbyReplicas: 0 });
    expect(probing).toBe(false);
    expectValid(result, all);
    expectBalanced(counts);
    expectBalancedStateful(result, all);
    expect(skewedSubtopologies(result, 1)).toEqual([]);
  });

  // HighAvailabilityTaskAssignorTest.shouldComputeNewAssignmentIfThereAreUnassignedStandbyTasks
  it('assigns a standby nobody had', () => {
    const all = ['0_0'];
    const { result, standby, probing, counts } = run([client('p1', ['0_0'], { '0_0': 0 }), client('p2', [], { '0_0': 0 })], all, all, withStandbys);
    expect(standby('p2')).not.toEqual([]);
    expect(probing).toBe(false);
    expectValid(result, all, [], 1);
    expectBalanced(counts);
    expectBalancedStateful(result, all);
    expect(skewedSubtopologies(result, 1)).toEqual([]);
  });

  // HighAvailabilityTaskAssignorTest.shouldAssignStandbysForStatefulTasks
  it('assigns standbys for stateful tasks', () => {
    const stateful = ['0_0', '0_1'];
    const { active, standby, probing } = run([caughtUpClient('p1', ['0_0'], stateful), caughtUpClient('p2', ['0_1'], stateful)], stateful, stateful, withStandbys);
    expect(active('p1')).toEqual(['0_0']);
    expect(active('p2')).toEqual(['0_1']);
    expect(standby('p1')).toEqual(['0_1']);
    expect(standby('p2')).toEqual(['0_0']);
    expect(probing).toBe(false);
  });

  // HighAvailabilityTaskAssignorTest.shouldNotAssignStandbysForStatelessTasks
  it('assigns no standbys for stateless tasks', () => {
    const all = ['0_0', '0_1'];
    const { active, standby, probing } = run([caughtUpClient('p1', [], []), caughtUpClient('p2', [], [])], all, [], withStandbys);
    expect(active('p1')).toHaveLength(1);
    expect(active('p2')).toHaveLength(1);
    expect(standby('p1')).toEqual([]);
    expect(standby('p2')).toEqual([]);
    expect(probing).toBe(false);
  });

  // HighAvailabilityTaskAssignorTest.shouldAssignWarmupReplicasEvenIfNoStandbyReplicasConfigured
  it('assigns warm-ups without standby replicas', () => {
    const stateful = ['0_0', '0_1'];
    const { active, standby, warmup, probing } = run([caughtUpClient('p1', stateful, stateful), caughtUpClient('p2', [], stateful)], stateful);
    expect(active('p1')).toEqual(['0_0', '0_1']);
    expect(standby('p2')).toHaveLength(1);
    expect(warmup('p2')).toEqual(standby('p2'));
    expect(standby('p1')).toEqual([]);
    expect(active('p2')).toEqual([]);
    expect(probing).toBe(true);
  });

  // HighAvailabilityTaskAssignorTest.shouldNotAssignMoreThanMaxWarmupReplicas
  it('assigns no more than maxWarmupReplicas warm-ups', () => {
    const stateful = tasksOf(4);
    const { active, standby, probing } = run([caughtUpClient('p1', stateful, stateful), caughtUpClient('p2', [], stateful)], stateful, stateful, { maxWarmupReplicas: 1, numStandbyReplicas: 0 });
    expect(active('p1')).toEqual(stateful);
    expect(standby('p2')).toHaveLength(1);
    expect(standby('p1')).toEqual([]);
    expect(active('p2')).toEqual([]);
    expect(probing).toBe(true);
  });

  // HighAvailabilityTaskAssignorTest.shouldNotAssignWarmupAndStandbyToTheSameClient
  it('never puts a warm-up and a standby of one task on the same member', () => {
    const stateful = tasksOf(4);
    const { active, standby, probing } = run([caughtUpClient('p1', stateful, stateful), caughtUpClient('p2', [], stateful)], stateful, stateful, { maxWarmupReplicas: 1, numStandbyReplicas: 1 });
    expect(active('p1')).toEqual(stateful);
    expect(standby('p2')).toEqual(stateful);
    expect(standby('p1')).toEqual([]);
    expect(active('p2')).toEqual([]);
    expect(probing).toBe(true);
  });

  // HighAvailabilityTaskAssignorTest.shouldNotAssignAnyStandbysWithInsufficientCapacity
  it('assigns no standbys when there is no other member', () => {
    const stateful = ['0_0', '0_1'];
    const { active, standby, probing, unassignedStandbys } = run([caughtUpClient('p1', stateful, stateful)], stateful, stateful, withStandbys);
    expect(active('p1')).toEqual(stateful);
    expect(standby('p1')).toEqual([]);
    expect(probing).toBe(false);
    expect(Object.fromEntries(unassignedStandbys)).toEqual({ '0_0': 1, '0_1': 1 });
  });

  // HighAvailabilityTaskAssignorTest.shouldNotAssignMoreThanMaxWarmupReplicasWithStandbys
  it('assigns no more than maxWarmupReplicas warm-ups with standbys', () => {
    const stateful = tasksOf(4);
    const clients = [caughtUpClient('p1', stateful, stateful), caughtUpClient('p2', [], stateful), caughtUpClient('p3', [], stateful)];
    const { result, probing } = run(clients, stateful, stateful, withStandbys);
    expectValid(result, stateful, [], 1, 2);
    expect(probing).toBe(true);
  });

  // HighAvailabilityTaskAssignorTest.shouldDistributeStatelessTasksToBalanceTotalTaskLoad
  it('distributes stateless tasks to balance the total load', () => {
    const stateful = tasksOf(4);
    const statelessTasks = ['1_0', '1_1', '1_2'];
    const all = [...stateful, ...statelessTasks];
    const { result, counts, probing } = run([caughtUpClient('p1', stateful, stateful), caughtUpClient('p2', [], stateful)], all, stateful, withStandbys);
    expectValid(result, stateful, statelessTasks, 1, 2);
    expectBalanced(counts);
    expectBalancedStateful(result, stateful);
    // since only client1 is caught up on the stateful tasks, we expect it to get _all_ the active tasks,
    // which means that client2 should have gotten all of the stateless tasks, so the tasks should be skewed
    expect(skewedSubtopologies(result, 1)).not.toEqual([]);
    expect(probing).toBe(true);
  });

  // HighAvailabilityTaskAssignorTest.shouldReturnFalseIfPreviousAssignmentIsReused (caught-up tasks as without rack awareness)
  it('needs no probing rebalance when the previous assignment is reused', () => {
    const stateful = tasksOf(4);
    const c1 = caughtUpClient('p1', ['0_0', '0_2'], stateful);
    const c2 = caughtUpClient('p2', ['0_1', '0_3'], stateful);
    const { active, probing } = run([c1, c2], stateful);
    expect(probing).toBe(false);
    expect(active('p1')).toEqual(['0_0', '0_2']);
    expect(active('p2')).toEqual(['0_1', '0_3']);
  });

  // HighAvailabilityTaskAssignorTest.shouldReturnFalseIfNoWarmupTasksAreAssigned
  it('needs no probing rebalance without warm-ups', () => {
    const all = tasksOf(4);
    const { standby, probing } = run([caughtUpClient('p1', [], []), caughtUpClient('p2', [], [])], all, []);
    expect(probing).toBe(false);
    expect(standby('p1')).toEqual([]);
    expect(standby('p2')).toEqual([]);
  });

  // HighAvailabilityTaskAssignorTest.shouldReturnTrueIfWarmupTasksAreAssigned
  it('needs a probing rebalance with warm-ups', () => {
    const stateful = ['0_0', '0_1'];
    const { standby, probing } = run([caughtUpClient('p1', stateful, stateful), caughtUpClient('p2', [], stateful)], stateful);
    expect(probing).toBe(true);
    expect(standby('p2')).toHaveLength(1);
  });
});

describe('task assignor: StandbyTaskAssignmentUtilsTest ports', () => {
  // Three members, each running one of 0_0, 0_1, 0_2 (StandbyTaskAssignmentUtilsTest.setup).
  const tasks = ['0_0', '0_1', '0_2'];
  const members = () => tasks.map((t, i) => client(`p${i + 1}`, [t], { [t]: 0 }));
  const standbysPerTask = (standby: (id: string) => string[]) => tasks.map((t) => ['p1', 'p2', 'p3'].filter((id) => standby(id).includes(t)).length);

  // StandbyTaskAssignmentUtilsTest.shouldReturnNumberOfStandbyTasksThatWereNotAssigned
  it('counts the standbys that found no member', () => {
    const { standby, unassignedStandbys } = run(members(), tasks, tasks, { numStandbyReplicas: 3, acceptableRecoveryLag: MAX });
    expect(tasks.every((t) => unassignedStandbys.get(t) === 1)).toBe(true);
    expect(standbysPerTask(standby)).toEqual([2, 2, 2]);
  });

  // StandbyTaskAssignmentUtilsTest.shouldReturnZeroWhenAllStandbyTasksWereSuccessfullyAssigned
  it('counts nothing when every standby found a member', () => {
    const { standby, unassignedStandbys } = run(members(), tasks, tasks, { numStandbyReplicas: 1, acceptableRecoveryLag: MAX });
    expect(unassignedStandbys.size).toBe(0);
    expect(standbysPerTask(standby)).toEqual([1, 1, 1]);
  });
});

describe('task assignor: sluice standby and warm-up cases', () => {
  it('prefers a member that holds caught-up state for a standby (standby movement)', () => {
    // p1 runs 0_0; p3 has 0_0 on disk caught up; p2 has nothing: the standby goes to p3, whatever the id order
    const { standby, warmup, probing } = run([client('p1', ['0_0'], { '0_0': 0 }), client('p2'), client('p3', [], { '0_0': 20 })], ['0_0'], ['0_0'], withStandbys);
    expect(standby('p3')).toEqual(['0_0']);
    // p2 got the standby first (least loaded, lowest id) and keeps it as a warm-up while the budget lasts
    expect(warmup('p2')).toEqual(['0_0']);
    expect(probing).toBe(true);
  });

  it('marks a swapped standby as a standby, not a warm-up', () => {
    const stateful = tasksOf(4);
    const { warmup, standby } = run([caughtUpClient('p1', stateful, stateful), caughtUpClient('p2', [], stateful)], stateful, stateful, { maxWarmupReplicas: 1, numStandbyReplicas: 1 });
    expect(standby('p2')).toEqual(stateful);
    expect(warmup('p2')).toEqual([]);
  });

  it('rejects a negative replica count with an error naming the key', () => {
    expect(() => run([client('p1')], ['0_0'], ['0_0'], { numStandbyReplicas: -1 })).toThrow(/numStandbyReplicas/);
    expect(() => run([client('p1')], ['0_0'], ['0_0'], { maxWarmupReplicas: 1.5 })).toThrow(/maxWarmupReplicas/);
  });
});
