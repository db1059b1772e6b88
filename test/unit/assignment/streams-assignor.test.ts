/** sluice's group assignor over the task assignor (src/assignment/streams-assignor.ts). */
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { streamsAssignor, STREAMS_ASSIGNOR_NAME } from '../../../src/assignment/streams-assignor.js';
import { decodeAssignment, decodeSubscription, encodeSubscription } from '../../../src/assignment/user-data.js';

const logger = pino({ level: 'silent' });

interface Overrides {
  endOffsets?: (topic: string) => Promise<number[]>;
  subscription?: () => Parameters<typeof encodeSubscription>[0];
  numStandbyReplicas?: number;
  maxWarmupReplicas?: number;
}

function assignor(overrides: Overrides = {}) {
  return streamsAssignor({
    // sub-topology 0 joins 'left' and 'right' (co-partitioned) into a store; 1 is stateless
    subtopologies: [{ id: 0, sourceTopics: ['left', 'right'] }, { id: 1, sourceTopics: ['other'] }],
    stateTopics: new Map([[0, ['app-store-changelog']]]),
    endOffsets: overrides.endOffsets ?? (async () => [1000, 1000, 1000]),
    subscription: overrides.subscription ?? (() => ({ processId: 'me', previousActive: [], taskOffsetSums: {} })),
    acceptableRecoveryLag: 100,
    ...(overrides.numStandbyReplicas !== undefined ? { numStandbyReplicas: overrides.numStandbyReplicas } : {}),
    ...(overrides.maxWarmupReplicas !== undefined ? { maxWarmupReplicas: overrides.maxWarmupReplicas } : {}),
    probingRebalanceIntervalMs: 60_000,
    now: () => 1_000_000,
    logger,
  });
}

const counts: Record<string, number> = { left: 3, right: 3, other: 2 };
const member = (memberId: string, info: Parameters<typeof encodeSubscription>[0], topics = ['left', 'right', 'other']) => ({ memberId, topics, userData: encodeSubscription(info) });

describe('streams assignor', () => {
  it('offers its subscription user data under its protocol name', () => {
    const a = assignor({ subscription: () => ({ processId: 'p', applicationServer: 'h:1', previousActive: ['0_1'], taskOffsetSums: { '0_2': 5 } }) });
    expect(a.name).toBe(STREAMS_ASSIGNOR_NAME);
    expect(decodeSubscription(a.subscriptionUserData())).toMatchObject({ processId: 'p', applicationServer: 'h:1', previousActive: ['0_1'], taskOffsetSums: { '0_2': 5 } });
  });

  it('assigns co-partitioned partitions together and tells every member the hosts', async () => {
    const result = await assignor().assign({
      members: [member('m-a', { processId: 'a', applicationServer: 'a:1', previousActive: [], taskOffsetSums: {} }), member('m-b', { processId: 'b', applicationServer: 'b:1', previousActive: [], taskOffsetSums: {} })],
      partitionCount: (t) => counts[t],
    });
    const all = [...result.values()].flatMap((r) => r.partitions.map((tp) => `${tp.topic}-${tp.partition}`)).sort();
    expect(all).toEqual(['left-0', 'left-1', 'left-2', 'other-0', 'other-1', 'right-0', 'right-1', 'right-2']);
    for (const r of result.values()) {
      const info = decodeAssignment(r.userData);
      for (const task of info.activeTasks.filter((t) => t.startsWith('0_'))) {
        const p = Number(task.split('_')[1]);
        expect(r.partitions).toEqual(expect.arrayContaining([{ topic: 'left', partition: p }, { topic: 'right', partition: p }]));
      }
      expect(info.standbyTasks).toEqual([]);
      expect(info.partitionsByHost.map((h) => h.host).sort()).toEqual(['a:1', 'b:1']);
    }
    const hosts = decodeAssignment([...result.values()][0]?.userData ?? Buffer.alloc(0)).partitionsByHost;
    expect(hosts.flatMap((h) => h.partitions).length).toBe(8);
  });

  it('gives a stateful task to the member whose state on disk is caught up', async () => {
    // m-b has 0_2 on disk at offset 950 of 1000 (lag 50 <= 100); m-a has it at 10 (lag 990)
    const result = await assignor().assign({
      members: [member('m-a', { processId: 'a', previousActive: [], taskOffsetSums: { '0_2': 10 } }), member('m-b', { processId: 'b', previousActive: [], taskOffsetSums: { '0_2': 950 } })],
      partitionCount: (t) => counts[t],
    });
    expect(decodeAssignment(result.get('m-b')?.userData ?? Buffer.alloc(0)).activeTasks).toContain('0_2');
  });

  it('counts a member without state as caught up on a short changelog (no warm-up), as Kafka', async () => {
    // end offsets 50 <= acceptableRecoveryLag 100: a new member restores everything quickly and takes its share at once
    const result = await assignor({ endOffsets: async () => [50, 50, 50] }).assign({
      members: [member('m-a', { processId: 'a', previousActive: ['0_0', '0_1', '0_2'], taskOffsetSums: {} }), member('m-b', { processId: 'b', previousActive: [], taskOffsetSums: {} })],
      partitionCount: (t) => counts[t],
    });
    const b = decodeAssignment(result.get('m-b')?.userData ?? Buffer.alloc(0));
    expect(b.activeTasks.filter((t) => t.startsWith('0_')).length).toBeGreaterThan(0);
    expect(b.standbyTasks).toEqual([]);
    for (const r of result.values()) expect(decodeAssignment(r.userData).nextRebalanceMs).toBeUndefined();
  });

  it('assigns a member whose user data cannot be read as one without state', async () => {
    const result = await assignor().assign({
      members: [{ memberId: 'm-x', topics: ['left', 'right', 'other'], userData: Buffer.from('garbage') }, member('m-b', { processId: 'b', previousActive: [], taskOffsetSums: {} })],
      partitionCount: (t) => counts[t],
    });
    expect(result.get('m-x')?.partitions.length).toBeGreaterThan(0);
    expect(decodeAssignment(result.get('m-x')?.userData ?? Buffer.alloc(0)).partitionsByHost).toEqual([]);
  });

  it('still assigns when the end offsets cannot be read', async () => {
    const result = await assignor({ endOffsets: () => Promise.reject(new Error('broker down')) }).assign({
      members: [member('m-a', { processId: 'a', previousActive: [], taskOffsetSums: {} })],
      partitionCount: (t) => counts[t],
    });
    expect(result.get('m-a')?.partitions).toHaveLength(8);
  });

  it('only hands a member partitions of topics it subscribed to', async () => {
    const result = await assignor().assign({
      members: [member('m-a', { processId: 'a', previousActive: [], taskOffsetSums: {} }, ['left', 'right'])],
      partitionCount: (t) => counts[t],
    });
    expect(result.get('m-a')?.partitions.some((tp) => tp.topic === 'other')).toBe(false);
  });

  it('gives every member its standby tasks and every member the standby partitions by host', async () => {
    // both members run their 0_x tasks now: with one standby, each stateful task gets a standby on the other member
    const result = await assignor({ numStandbyReplicas: 1 }).assign({
      members: [
        member('m-a', { processId: 'a', applicationServer: 'a:1', previousActive: ['0_0', '0_1'], taskOffsetSums: { '0_2': 1000 } }),
        member('m-b', { processId: 'b', applicationServer: 'b:1', previousActive: ['0_2'], taskOffsetSums: { '0_0': 1000, '0_1': 1000 } }),
      ],
      partitionCount: (t) => counts[t],
    });
    const a = decodeAssignment(result.get('m-a')?.userData ?? Buffer.alloc(0));
    const b = decodeAssignment(result.get('m-b')?.userData ?? Buffer.alloc(0));
    expect(a.activeTasks.filter((t) => t.startsWith('0_'))).toEqual(['0_0', '0_1']);
    expect(a.standbyTasks).toEqual(['0_2']);
    expect(b.standbyTasks).toEqual(['0_0', '0_1']);
    for (const info of [a, b]) {
      const byHost = Object.fromEntries(info.standbyPartitionsByHost.map((h) => [h.host, h.partitions.map((tp) => `${tp.topic}-${tp.partition}`).sort()]));
      expect(byHost).toEqual({ 'a:1': ['left-2', 'right-2'], 'b:1': ['left-0', 'left-1', 'right-0', 'right-1'] });
      expect(info.nextRebalanceMs).toBeUndefined();
    }
    // standby partitions are not consumed
    expect(result.get('m-b')?.partitions.some((tp) => tp.topic === 'left' && tp.partition === 0)).toBe(false);
  });

  it("passes each member's processId on: stream threads of one instance never get standbys of each other's tasks", async () => {
    // m-a1 and m-a2 are two threads of instance 'a'; m-b is instance 'b'; m-x sent unreadable user data (a process of its own)
    const result = await assignor({ numStandbyReplicas: 1 }).assign({
      members: [
        member('m-a1', { processId: 'a', previousActive: ['0_0', '0_1', '0_2'], taskOffsetSums: {} }),
        member('m-a2', { processId: 'a', previousActive: [], taskOffsetSums: { '0_0': 1000, '0_1': 1000, '0_2': 1000 } }),
        member('m-b', { processId: 'b', previousActive: [], taskOffsetSums: {} }),
      ],
      partitionCount: (t) => counts[t],
    });
    const infos = new Map([...result].map(([id, r]) => [id, decodeAssignment(r.userData)]));
    const processOf: Record<string, string> = { 'm-a1': 'a', 'm-a2': 'a', 'm-b': 'b' };
    for (const task of ['0_0', '0_1', '0_2']) {
      const owner = [...infos].find(([, i]) => i.activeTasks.includes(task))?.[0] ?? '';
      const standbys = [...infos].filter(([, i]) => i.standbyTasks.includes(task)).map(([id]) => id);
      expect(standbys, `standbys of ${task}`).toHaveLength(1);
      expect(processOf[standbys[0] ?? owner], `standby of ${task}, active on ${owner}`).not.toBe(processOf[owner]);
    }
    // one instance with two threads: nothing can take a standby
    const alone = await assignor({ numStandbyReplicas: 1 }).assign({
      members: [member('m-a1', { processId: 'a', previousActive: [], taskOffsetSums: {} }), member('m-a2', { processId: 'a', previousActive: [], taskOffsetSums: {} })],
      partitionCount: (t) => counts[t],
    });
    for (const r of alone.values()) expect(decodeAssignment(r.userData).standbyTasks).toEqual([]);
    // an unreadable subscription counts as another process: it takes the standbys
    const withUnreadable = await assignor({ numStandbyReplicas: 1 }).assign({
      members: [member('m-a1', { processId: 'a', previousActive: [], taskOffsetSums: {} }), member('m-a2', { processId: 'a', previousActive: [], taskOffsetSums: {} }), { memberId: 'm-x', topics: ['left', 'right', 'other'], userData: Buffer.from('garbage') }],
      partitionCount: (t) => counts[t],
    });
    const standbysOnX = decodeAssignment(withUnreadable.get('m-x')?.userData ?? Buffer.alloc(0)).standbyTasks;
    const activeOnX = decodeAssignment(withUnreadable.get('m-x')?.userData ?? Buffer.alloc(0)).activeTasks.filter((t) => t.startsWith('0_'));
    expect([...standbysOnX, ...activeOnX].sort()).toEqual(['0_0', '0_1', '0_2']);
  });

  it('schedules a probing rebalance on exactly one member (the smallest member id) when warm-ups exist', async () => {
    // m-b ran every stateful task; m-a and m-c are new: the balanced targets warm up instead of taking over
    const result = await assignor().assign({
      members: [
        member('m-c', { processId: 'c', previousActive: [], taskOffsetSums: {} }),
        member('m-b', { processId: 'b', previousActive: ['0_0', '0_1', '0_2'], taskOffsetSums: {} }),
        member('m-a', { processId: 'a', previousActive: [], taskOffsetSums: {} }),
      ],
      partitionCount: (t) => counts[t],
    });
    const infos = new Map([...result].map(([id, r]) => [id, decodeAssignment(r.userData)]));
    expect(infos.get('m-b')?.activeTasks.filter((t) => t.startsWith('0_'))).toEqual(['0_0', '0_1', '0_2']);
    const warmups = [...infos.values()].flatMap((i) => i.standbyTasks);
    expect(warmups.length).toBe(2); // maxWarmupReplicas 2
    expect(infos.get('m-a')?.nextRebalanceMs).toBe(1_000_000 + 60_000);
    expect(infos.get('m-b')?.nextRebalanceMs).toBeUndefined();
    expect(infos.get('m-c')?.nextRebalanceMs).toBeUndefined();
  });

  it('schedules no probing rebalance when every member is caught up', async () => {
    const result = await assignor().assign({
      members: [member('m-a', { processId: 'a', previousActive: ['0_0', '0_1'], taskOffsetSums: {} }), member('m-b', { processId: 'b', previousActive: ['0_2'], taskOffsetSums: {} })],
      partitionCount: (t) => counts[t],
    });
    for (const r of result.values()) expect(decodeAssignment(r.userData).nextRebalanceMs).toBeUndefined();
  });
});
