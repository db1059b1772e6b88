/** sluice's group assignor over the task assignor (src/assignment/streams-assignor.ts). */
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { streamsAssignor, STREAMS_ASSIGNOR_NAME } from '../../../src/assignment/streams-assignor.js';
import { decodeAssignment, decodeSubscription, encodeSubscription } from '../../../src/assignment/user-data.js';

const logger = pino({ level: 'silent' });

function assignor(overrides: { endOffsets?: (topic: string) => Promise<number[]>; subscription?: () => Parameters<typeof encodeSubscription>[0] } = {}) {
  return streamsAssignor({
    // sub-topology 0 joins 'left' and 'right' (co-partitioned) into a store; 1 is stateless
    subtopologies: [{ id: 0, sourceTopics: ['left', 'right'] }, { id: 1, sourceTopics: ['other'] }],
    stateTopics: new Map([[0, ['app-store-changelog']]]),
    endOffsets: overrides.endOffsets ?? (async () => [1000, 1000, 1000]),
    subscription: overrides.subscription ?? (() => ({ processId: 'me', previousActive: [], taskOffsetSums: {} })),
    acceptableRecoveryLag: 100,
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
});
