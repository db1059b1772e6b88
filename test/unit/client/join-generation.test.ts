import { describe, expect, it } from 'vitest';
import { forgetMember, generationOf, registerJoinGenerationCapture } from '../../../src/cluster/kafkajs/internal/join-generation.js';
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
