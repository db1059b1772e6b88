/**
 * The task assignor (src/assignment/task-assignor.ts). Cases ported from
 * Kafka's HighAvailabilityTaskAssignorTest and LegacyStickyTaskAssignorTest
 * keep their inputs and expected outputs; every member has capacity 1 (one
 * sluice instance = one stream thread), so only cases whose clients all have
 * capacity 1, or whose expectations do not depend on capacity, are ported.
 * The standby, warm-up and probing cases of HighAvailabilityTaskAssignorTest
 * are in task-assignor-standby.test.ts, the convergence test in
 * task-assignor-convergence.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { assignTasks, type ClientState } from '../../../src/assignment/task-assignor.js';
import { caughtUpClient, client, expectBalanced, expectValid, lagsOf, MAX, run, tasksOf } from './assignor-helpers.js';

describe('task assignor: HighAvailabilityTaskAssignorTest ports', () => {
  // HighAvailabilityTaskAssignorTest.shouldAssignActiveStatefulTasksEvenlyOverClientsWhereNumberOfClientsIntegralDivisorOfNumberOfTasks
  it('assigns stateful tasks evenly when the client count divides the task count', () => {
    const tasks = tasksOf(3, 3, 3);
    const clients = ['p1', 'p2', 'p3'].map((id) => client(id, [], lagsOf(tasks, 10)));
    const { result, counts, active } = run(clients, tasks, tasks, 0);
    expectValid(result, tasks);
    expectBalanced(counts);
    expect(counts).toEqual([3, 3, 3]);
    // assertBalancedTasks: each client gets one task of each sub-topology
    for (const id of ['p1', 'p2', 'p3']) expect(new Set(active(id).map((t) => t.split('_')[0])).size).toBe(3);
  });

  // HighAvailabilityTaskAssignorTest.shouldAssignActiveStatefulTasksEvenlyOverClientsWhereNumberOfClientsNotIntegralDivisorOfNumberOfTasks
  it('assigns stateful tasks evenly when the client count does not divide the task count', () => {
    const tasks = tasksOf(3, 3, 3);
    const clients = ['p1', 'p2'].map((id) => client(id, [], lagsOf(tasks, 10)));
    const { result, counts } = run(clients, tasks, tasks, 0);
    expectValid(result, tasks);
    expectBalanced(counts);
  });

  // HighAvailabilityTaskAssignorTest.shouldAssignActiveStatefulTasksEvenlyOverClientsWithMoreClientsThanTasks
  it('assigns stateful tasks evenly with more clients than tasks', () => {
    const tasks = ['0_0', '0_1'];
    const clients = ['p1', 'p2', 'p3'].map((id) => client(id, [], lagsOf(tasks, 10)));
    const { result, counts } = run(clients, tasks, tasks, 0);
    expectValid(result, tasks);
    expectBalanced(counts);
  });

  // HighAvailabilityTaskAssignorTest.shouldComputeNewAssignmentIfThereAreUnassignedActiveTasks
  it('assigns a task nobody ran', () => {
    const tasks = ['0_0', '0_1'];
    const { result, active, standby, probing } = run([client('p1', ['0_0'], { '0_0': 0 })], tasks, ['0_0']);
    expect(probing).toBe(false);
    expect(active('p1')).toHaveLength(2);
    expect(standby('p1')).toHaveLength(0);
    expectValid(result, tasks);
  });

  // HighAvailabilityTaskAssignorTest.shouldComputeNewAssignmentIfActiveTasksWasNotOnCaughtUpClient
  it('moves a stateful task from a member that is not caught up to one that is', () => {
    const tasks = ['0_0', '0_1'];
    const c1 = client('p1', ['0_0'], { '0_0': 500 });
    const c2 = client('p2', ['0_1'], { '0_0': 0 });
    const { result, active, counts, probing } = run([c1, c2], tasks, ['0_0']);
    expect(active('p1')).toEqual(['0_1']);
    expect(active('p2')).toEqual(['0_0']);
    // we'll warm up task 0_0 on client1 because it's first in sorted order, although this isn't an optimal convergence
    expect(probing).toBe(true);
    expectValid(result, tasks, [], 0, 1);
    expectBalanced(counts);
  });

  // HighAvailabilityTaskAssignorTest.shouldAssignToMostCaughtUpIfActiveTasksWasNotOnCaughtUpClient (getConfigWithStandbys: one standby)
  it('assigns to the most caught-up member when none is caught up', () => {
    const tasks = ['0_0'];
    const clients = [client('p1', [], { '0_0': MAX }), client('p2', [], { '0_0': 1000 }), client('p3', [], { '0_0': 500 })];
    const { active, standby, warmup, probing, result, counts } = run(clients, tasks, tasks, { numStandbyReplicas: 1 });
    expect(active('p1')).toEqual([]);
    expect(active('p2')).toEqual([]);
    expect(active('p3')).toEqual(['0_0']);
    expect(standby('p1')).toEqual(['0_0']); // warm up
    expect(warmup('p1')).toEqual(['0_0']);
    expect(standby('p2')).toEqual(['0_0']); // standby
    expect(warmup('p2')).toEqual([]);
    expect(standby('p3')).toEqual([]);
    expect(probing).toBe(true);
    expectValid(result, tasks, [], 1, 1);
    expectBalanced(counts);
  });

  // HighAvailabilityTaskAssignorTest.shouldAssignActiveTasksToNotCaughtUpClientIfNoneExist (getConfigWithStandbys)
  it('assigns active tasks to a member that is not caught up when no other exists', () => {
    const tasks = ['0_0', '0_1'];
    const { active, standby, probing } = run([caughtUpClient('p1', [], tasks)], tasks, tasks, { numStandbyReplicas: 1 });
    expect(active('p1')).toEqual(['0_0', '0_1']);
    expect(standby('p1')).toEqual([]);
    expect(probing).toBe(false);
  });

  // HighAvailabilityTaskAssignorTest.shouldDistributeStatefulActiveTasksToAllClients (capacities 100/50/1 become 1/1/1: the expectation holds regardless)
  it('gives every member stateful tasks', () => {
    const tasks = [...tasksOf(4, 4), '2_0'];
    const clients = ['p1', 'p2', 'p3'].map((id) => client(id, [], lagsOf(tasks, 0)));
    const { active, probing } = run(clients, tasks);
    for (const id of ['p1', 'p2', 'p3']) expect(active(id).length).toBeGreaterThan(0);
    expect(probing).toBe(false);
  });

  // HighAvailabilityTaskAssignorTest.shouldDistributeStatelessTasksEvenlyOverClientsWithEqualStreamThreadsPerClientAsTasksAndNoStatefulTasks
  it('distributes stateless tasks evenly', () => {
    const tasks = tasksOf(4, 3);
    const clients = ['p1', 'p2', 'p3'].map((id) => client(id));
    const { result, counts } = run(clients, tasks, []);
    expectValid(result, tasks);
    expectBalanced(counts);
  });

  // HighAvailabilityTaskAssignorTest.shouldDistributeStatelessTasksEvenlyWithPreviousAssignmentAndNoStatefulTasks
  it('distributes stateless tasks evenly when one member ran them all', () => {
    const tasks = tasksOf(4, 3);
    const clients = [client('p1', tasks), client('p2'), client('p3')];
    const { result, counts, active } = run(clients, tasks, []);
    expectValid(result, tasks);
    expectBalanced(counts);
    // sticky: what p1 keeps it ran before
    expect(active('p1').length).toBe(3);
  });
});

describe('task assignor: LegacyStickyTaskAssignorTest ports (capacity 1)', () => {
  const stateless = (clients: ClientState[], tasks: string[]) => run(clients, tasks, []);
  // The legacy assignor has no warm-ups: with an unbounded acceptable lag every member counts as caught up,
  // so the state-on-disk cases below keep step 1's placement (state still breaks ties there).
  const legacy = { acceptableRecoveryLag: MAX };

  // LegacyStickyTaskAssignorTest.shouldAssignOneActiveTaskToEachProcessWhenTaskCountSameAsProcessCount
  it('assigns one task to each member when there are as many tasks as members', () => {
    const { counts } = stateless([client('p1'), client('p2'), client('p3')], ['0_0', '0_1', '0_2']);
    expect(counts).toEqual([1, 1, 1]);
  });

  // LegacyStickyTaskAssignorTest.shouldAssignTopicGroupIdEvenlyAcrossClientsWithNoStandByTasks
  it('spreads each sub-topology over the members', () => {
    const { active } = stateless([client('p1'), client('p2'), client('p3')], ['1_0', '1_1', '2_2', '2_0', '2_1', '1_2']);
    for (const id of ['p1', 'p2', 'p3']) expect(active(id).map((t) => t.split('_')[0]).sort()).toEqual(['1', '2']);
  });

  // LegacyStickyTaskAssignorTest.shouldNotMigrateActiveTaskToOtherProcess
  it('keeps active tasks where they ran', () => {
    let r = stateless([client('p1', ['0_0']), client('p2', ['0_1'])], ['0_0', '0_1', '0_2']);
    expect(r.active('p1')).toContain('0_0');
    expect(r.active('p2')).toContain('0_1');
    expect([...r.active('p1'), ...r.active('p2')].sort()).toEqual(['0_0', '0_1', '0_2']);
    // flip the previous active tasks assignment around
    r = stateless([client('p1', ['0_1']), client('p2', ['0_2'])], ['0_0', '0_1', '0_2']);
    expect(r.active('p1')).toContain('0_1');
    expect(r.active('p2')).toContain('0_2');
    expect([...r.active('p1'), ...r.active('p2')].sort()).toEqual(['0_0', '0_1', '0_2']);
  });

  // LegacyStickyTaskAssignorTest.shouldMigrateActiveTasksToNewProcessWithoutChangingAllAssignments
  it('moves one task to a new member without changing the others', () => {
    const { active } = stateless([client('p1', ['0_0', '0_2']), client('p2', ['0_1']), client('p3')], ['0_0', '0_1', '0_2']);
    expect(active('p2')).toEqual(['0_1']);
    expect(active('p1')).toHaveLength(1);
    expect(active('p3')).toHaveLength(1);
  });

  // LegacyStickyTaskAssignorTest.shouldAssignTasksEvenlyWithUnequalTopicGroupSizes
  it('balances tasks of unequal sub-topologies', () => {
    const tasks = ['1_0', '0_0', '0_1', '0_2', '0_3', '0_4', '0_5'];
    const { active } = stateless([client('p1', ['0_0', '0_1', '0_2', '0_3', '0_4', '0_5', '1_0']), client('p2')], tasks);
    const sizes = [active('p1').length, active('p2').length].sort();
    expect(sizes).toEqual([3, 4]);
    expect(active('p2').sort()).toEqual(tasks.filter((t) => !active('p1').includes(t)).sort());
  });

  // LegacyStickyTaskAssignorTest.shouldKeepActiveTaskStickinessWhenMoreClientThanActiveTasks
  it('stays sticky with more members than tasks', () => {
    let r = stateless([client('p1', ['0_0']), client('p2', ['0_2']), client('p3', ['0_1']), client('p4'), client('p5')], ['0_0', '0_1', '0_2']);
    expect(r.active('p1')).toEqual(['0_0']);
    expect(r.active('p2')).toEqual(['0_2']);
    expect(r.active('p3')).toEqual(['0_1']);
    // change up the assignment and make sure it is still sticky
    r = stateless([client('p1'), client('p2', ['0_0']), client('p3'), client('p4', ['0_2']), client('p5', ['0_1'])], ['0_0', '0_1', '0_2']);
    expect(r.active('p2')).toEqual(['0_0']);
    expect(r.active('p4')).toEqual(['0_2']);
    expect(r.active('p5')).toEqual(['0_1']);
  });

  // LegacyStickyTaskAssignorTest.shouldAssignEachActiveTaskToOneClientWhenMoreClientsThanTasks
  it('assigns each task once with more members than tasks', () => {
    const { result } = stateless(['p1', 'p2', 'p3', 'p4', 'p5', 'p6'].map((id) => client(id)), ['0_0', '0_1', '0_2']);
    expectValid(result, ['0_0', '0_1', '0_2']);
  });

  // LegacyStickyTaskAssignorTest.shouldReBalanceTasksAcrossAllClientsWhenCapacityAndTaskCountTheSame
  it('rebalances across all members when there are as many tasks as members', () => {
    const { active } = stateless([client('p3', ['0_0', '0_1', '0_2', '0_3']), client('p1'), client('p2'), client('p4')], ['0_0', '0_2', '0_1', '0_3']);
    for (const id of ['p1', 'p2', 'p3', 'p4']) expect(active(id)).toHaveLength(1);
  });

  // LegacyStickyTaskAssignorTest.shouldReBalanceTasksAcrossClientsWhenCapacityLessThanTaskCount
  it('rebalances across members when there are more tasks than members', () => {
    const { active } = stateless([client('p3', ['0_0', '0_1', '0_2', '0_3']), client('p1'), client('p2')], ['0_0', '0_2', '0_1', '0_3']);
    expect(active('p3')).toHaveLength(2);
    expect(active('p1')).toHaveLength(1);
    expect(active('p2')).toHaveLength(1);
  });

  // LegacyStickyTaskAssignorTest.shouldMoveMinimalNumberOfTasksWhenPreviouslyAboveCapacityAndNewClientAdded
  it('moves the fewest tasks when a member joins', () => {
    const p1Prev = ['0_0', '0_2'];
    const p2Prev = ['0_1', '0_3'];
    const { active } = stateless([client('p1', p1Prev), client('p2', p2Prev), client('p3')], ['0_0', '0_2', '0_1', '0_3']);
    const p3 = active('p3');
    expect(p3).toHaveLength(1);
    if (p1Prev.some((t) => p3.includes(t))) expect(active('p2')).toEqual(p2Prev);
    else expect(active('p1')).toEqual(p1Prev);
  });

  // LegacyStickyTaskAssignorTest.shouldNotMoveAnyTasksWhenNewTasksAdded
  it('moves no task when tasks are added', () => {
    const { active } = stateless([client('p1', ['0_0', '0_1']), client('p2', ['0_2', '0_3'])], ['0_3', '0_1', '0_4', '0_2', '0_0', '0_5']);
    expect(active('p1')).toEqual(expect.arrayContaining(['0_0', '0_1']));
    expect(active('p2')).toEqual(expect.arrayContaining(['0_2', '0_3']));
  });

  // LegacyStickyTaskAssignorTest.shouldAssignNewTasksToNewClientWhenPreviousTasksAssignedToOldClients
  it('gives new tasks to a new member', () => {
    const { active } = stateless([client('p1', ['0_2', '0_1']), client('p2', ['0_0', '0_3']), client('p3')], ['0_3', '0_1', '0_4', '0_2', '0_0', '0_5']);
    expect(active('p1')).toEqual(expect.arrayContaining(['0_2', '0_1']));
    expect(active('p2')).toEqual(expect.arrayContaining(['0_0', '0_3']));
    expect(active('p3')).toEqual(expect.arrayContaining(['0_4', '0_5']));
  });

  // LegacyStickyTaskAssignorTest.shouldAssignTasksNotPreviouslyActiveToNewClient (strategy NONE; previous standbys = state on disk, lag 0)
  it('gives the tasks nobody ran to the new member', () => {
    const all = ['0_0', '1_0', '0_1', '0_2', '1_1', '2_0', '0_3', '1_2', '2_1', '1_3', '2_2', '2_3'];
    const withState = (id: string, active: string[], standby: string[]) => client(id, active, lagsOf([...active, ...standby], 0));
    const c1 = withState('p1', ['0_1', '1_2', '1_3'], ['0_0', '1_1', '2_0', '2_1', '2_3']);
    const c2 = withState('p2', ['0_0', '1_1', '2_2'], ['0_1', '1_0', '0_2', '2_0', '0_3', '1_2', '2_1', '1_3', '2_3']);
    const c3 = withState('p3', ['2_0', '2_1', '2_3'], ['0_2', '1_2']);
    const c4 = withState('p4', [], ['0_0', '1_0', '0_1', '0_2', '1_1', '2_0', '0_3', '1_2', '2_1', '1_3', '2_2', '2_3']);
    const { active } = run([c1, c2, c3, c4], all, all, legacy);
    expect(active('p1')).toEqual(['0_1', '1_2', '1_3']);
    expect(active('p2')).toEqual(['0_0', '1_1', '2_2']);
    expect(active('p3')).toEqual(['2_0', '2_1', '2_3']);
    expect(active('p4')).toEqual(['0_2', '0_3', '1_0']);
  });

  // LegacyStickyTaskAssignorTest.shouldAssignTasksToNewClient
  it('gives a new member a task', () => {
    const { active } = stateless([client('p1', ['0_1', '0_2']), client('p2')], ['0_1', '0_2']);
    expect(active('p1')).toHaveLength(1);
  });

  // LegacyStickyTaskAssignorTest.shouldAssignTasksToNewClientWithoutFlippingAssignmentBetweenExistingClients
  it('gives a new member tasks without flipping tasks between the others', () => {
    const { active } = stateless([client('p1', ['0_0', '0_1', '0_2']), client('p2', ['0_3', '0_4', '0_5']), client('p3')], tasksOf(6));
    for (const t of ['0_3', '0_4', '0_5']) expect(active('p1')).not.toContain(t);
    for (const t of ['0_0', '0_1', '0_2']) expect(active('p2')).not.toContain(t);
    expect(active('p1')).toHaveLength(2);
    expect(active('p2')).toHaveLength(2);
    expect(active('p3')).toHaveLength(2);
  });

  // LegacyStickyTaskAssignorTest.shouldAssignTasksToNewClientWithoutFlippingAssignmentBetweenExistingAndBouncedClients (previous standbys = state on disk)
  it('gives a new member tasks without flipping tasks between a member and a bounced one', () => {
    const tasks = tasksOf(7);
    const c1 = client('p1', ['0_0', '0_1', '0_2', '0_6'], lagsOf(['0_0', '0_1', '0_2', '0_6'], 0));
    const c2 = client('p2', [], lagsOf(['0_3', '0_4', '0_5'], 0));
    const { active } = run([c1, c2, client('p3')], tasks, tasks, legacy);
    for (const t of ['0_3', '0_4', '0_5']) expect(active('p1')).not.toContain(t);
    expect(active('p1').length).toBeGreaterThanOrEqual(2);
    for (const t of ['0_0', '0_1', '0_2']) expect(active('p2')).not.toContain(t);
    expect(active('p2').length).toBeGreaterThanOrEqual(2);
    expect(active('p3')).toHaveLength(2);
  });
});

describe('task assignor: sluice cases', () => {
  it('gives a restarted member with state on disk its tasks back', () => {
    // p2 ran every task while p1 was away; p1 comes back with state of 0_0 and 0_1 a few records behind.
    const tasks = tasksOf(4);
    const p1 = client('p1', [], { '0_0': 30, '0_1': 30 });
    const p2 = client('p2', tasks, lagsOf(tasks, 0));
    const { active } = run([p1, p2], tasks);
    expect(active('p1')).toEqual(['0_0', '0_1']);
    expect(active('p2')).toEqual(['0_2', '0_3']);
  });

  it('prefers the member with state over one without when placing a task nobody runs', () => {
    const { active } = run([client('a'), client('b', [], { '0_0': 5 })], ['0_0']);
    expect(active('b')).toEqual(['0_0']);
  });

  it('gives a task two members claim (a zombie) to the one with the lower lag', () => {
    const { active } = run([client('a', ['0_0'], { '0_0': 50 }), client('b', ['0_0'], { '0_0': 0 })], ['0_0', '0_1']);
    expect(active('b')).toEqual(['0_0']);
    expect(active('a')).toEqual(['0_1']);
  });

  it('is deterministic whatever the order of members and tasks', () => {
    const tasks = tasksOf(5, 3);
    const clients = [client('c', ['0_1']), client('a', ['1_0', '0_4']), client('b', [], { '0_2': 3 })];
    const one = run(clients, tasks, ['0_0', '0_1', '0_2', '0_3', '0_4']).result;
    const two = run([...clients].reverse(), [...tasks].reverse(), ['0_4', '0_3', '0_2', '0_1', '0_0']).result;
    expect([...two.entries()].sort()).toEqual([...one.entries()].sort());
  });

  it('assigns nothing to nobody', () => {
    expect(assignTasks({ clients: [], tasks: ['0_0'], statefulTasks: new Set(), acceptableRecoveryLag: 0 }).clients.size).toBe(0);
  });
});

