import { describe, expect, it } from 'vitest';
import { forgetMember, generationOf, registerJoinGenerationCapture, registerSyncAssignmentCapture, takeSyncAssignment } from '../../../src/cluster/kafkajs/internal/join-generation.js';
import { assignmentUserData, kafkaJsAssigner } from '../../../src/cluster/kafkajs/internal/custom-assigner.js';
import type { GroupAssignor } from '../../../src/cluster/port.js';
import { sluiceKafkaJs } from '../../../src/cluster/kafkajs/internal/patches.js';

/** sluice's private kafkajs: the only copy the capture wraps. */
const { internals } = sluiceKafkaJs();
const require = (path: string): unknown => internals.load(path.replace(/^kafkajs\/src\//, ''));
type Built = { request: { apiVersion: number }; response: { parse(data: unknown): Promise<unknown> } };
const joinGroup = require('kafkajs/src/protocol/requests/joinGroup/index.js') as {
  protocol: (o: { version: number }) => (args: Record<string, unknown>) => Built;
};

describe('JoinGroup generation capture', () => {
  it('records the generation id of a successful JoinGroup answer by member id, once wrapped', async () => {
    registerJoinGenerationCapture(internals);
    registerJoinGenerationCapture(internals); // idempotent: one wrapper
    const built = joinGroup.protocol({ version: 5 })({ groupId: 'g', sessionTimeout: 6000, rebalanceTimeout: 6000, memberId: '', groupProtocols: [] });
    expect(built.request.apiVersion).toBe(5);
    const answer = { errorCode: 0, generationId: 7, memberId: 'member-x', leaderId: 'member-x', groupProtocol: 'RoundRobinAssigner', members: [] };
    await expect(built.response.parse(answer)).resolves.toBe(answer);
    expect(generationOf('member-x')).toBe(7);
    forgetMember('member-x');
    expect(generationOf('member-x')).toBeUndefined();
  });

  it('passes errors through untouched', async () => {
    registerJoinGenerationCapture(internals);
    const built = joinGroup.protocol({ version: 5 })({ groupId: 'g', sessionTimeout: 6000, rebalanceTimeout: 6000, memberId: '', groupProtocols: [] });
    await expect(built.response.parse({ errorCode: 27, generationId: -1, memberId: '' })).rejects.toMatchObject({ type: 'REBALANCE_IN_PROGRESS' });
  });
});

describe('SyncGroup assignment user-data capture and the kafkajs assigner adapter', () => {
  const syncGroup = require('kafkajs/src/protocol/requests/syncGroup/index.js') as {
    protocol: (o: { version: number }) => (args: Record<string, unknown>) => Built;
  };
  const { AssignerProtocol } = sluiceKafkaJs().kafkajs;

  it("records the raw MemberAssignment of a SyncGroup answer by the request's member id; the user data survive the adapter's encoding", async () => {
    registerSyncAssignmentCapture(internals);
    registerSyncAssignmentCapture(internals); // idempotent
    const assignor: GroupAssignor = {
      name: 'test-assignor',
      subscriptionUserData: () => Buffer.from('sub'),
      assign: async ({ members, partitionCount }) =>
        new Map(members.map((m, i) => [m.memberId, { partitions: [{ topic: 't', partition: i % (partitionCount('t') ?? 1) }], userData: Buffer.from(`for ${m.memberId} (${m.userData.toString()})`) }])),
    };
    const adapter = kafkaJsAssigner(assignor, AssignerProtocol)({ cluster: { findTopicPartitionMetadata: () => [{}, {}] } as never, groupId: 'g', logger: {} as never });
    const metadata = adapter.protocol({ topics: ['t'] }).metadata;
    expect(AssignerProtocol.MemberMetadata.decode(metadata)).toMatchObject({ topics: ['t'], userData: Buffer.from('sub') });
    const [first, second] = await adapter.assign({ members: [{ memberId: 'm1', memberMetadata: metadata }, { memberId: 'm2', memberMetadata: metadata }], topics: ['t'] });
    expect(AssignerProtocol.MemberAssignment.decode(second!.memberAssignment)).toMatchObject({ assignment: { t: [1] } });

    const built = syncGroup.protocol({ version: 3 })({ groupId: 'g', generationId: 1, memberId: 'm1', groupAssignment: [] });
    await built.response.parse({ errorCode: 0, memberAssignment: first!.memberAssignment });
    const raw = takeSyncAssignment('m1');
    expect(assignmentUserData(raw, AssignerProtocol)?.toString()).toBe('for m1 (sub)');
    expect(takeSyncAssignment('m1')).toBeUndefined();
    expect(assignmentUserData(Buffer.alloc(0), AssignerProtocol)).toBeUndefined();
    // an assignment made by another assignor (kafkajs' round-robin in a mixed group) carries none
    expect(assignmentUserData(AssignerProtocol.MemberAssignment.encode({ version: 0, assignment: { t: [0] }, userData: Buffer.alloc(0) }), AssignerProtocol)).toBeUndefined();
  });
});
