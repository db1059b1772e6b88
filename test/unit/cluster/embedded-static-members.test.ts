/**
 * Static membership (KIP-345) and rejoin requests of the embedded group
 * coordinator, driven directly through its member handles. Cases ported from
 * Kafka's group-coordinator tests name the Java class and method above them;
 * Kafka's inputs (instance ids, member counts, rejoin counts) and expected
 * outcomes are kept, expressed in the embedded coordinator's API (a join always
 * carries an unknown member id; the JoinGroup/SyncGroup answer is the `deliver` call).
 */
import { describe, expect, it } from 'vitest';
import { GroupCoordinator, type MemberHandle } from '../../../src/cluster/embedded/internal/group-coordinator.js';
import { KafkaErrorCode, KafkaProtocolError } from '../../../src/errors.js';
import type { TopicPartition } from '../../../src/cluster/port.js';

interface Delivery {
  partitions: number[];
  generationId: number;
  force: boolean;
}

let clock = 0;
function coordinator(): GroupCoordinator {
  clock = 0;
  return new GroupCoordinator({ now: () => clock, partitionsOf: () => 4 });
}

/** A member handle recording what it is handed. */
function handle(groupInstanceId: string | undefined, sessionTimeoutMs = 5000): MemberHandle & { deliveries: Delivery[] } {
  const deliveries: Delivery[] = [];
  return {
    deliveries,
    clientId: groupInstanceId ?? 'dynamic',
    topics: ['t'],
    assignor: 'range',
    sessionTimeoutMs,
    rebalanceTimeoutMs: 10_000,
    ...(groupInstanceId !== undefined ? { groupInstanceId } : {}),
    deliver: async (tps: TopicPartition[], generationId: number, _userData: Buffer | undefined, force: boolean) => {
      deliveries.push({ partitions: tps.map((tp) => tp.partition).sort(), generationId, force });
    },
  };
}

function codeOf(fn: () => void): number | undefined {
  try {
    fn();
  } catch (e) {
    if (e instanceof KafkaProtocolError) return e.kafkaCode;
    throw e;
  }
  return undefined;
}

/** Kafka's `staticMembersJoinAndRebalance("group-id", "leader-instance-id", "follower-instance-id")`. */
async function staticMembersJoinAndRebalance(c: GroupCoordinator) {
  const leader = handle('leader-instance-id');
  const follower = handle('follower-instance-id');
  const l = c.join('group-id', leader);
  const f = c.join('group-id', follower);
  await Promise.all([l.done, f.done]);
  const { generationId } = c.describeGroup('group-id');
  return { leader, follower, leaderId: l.memberId, followerId: f.memberId, generationId };
}

describe('embedded group coordinator: static members', () => {
  // GroupMetadataManagerTest.testReplaceStaticMemberInStableStateNoError
  it('a lone static member rejoining while stable is replaced in place: one member, same generation, no rebalance', async () => {
    const c = coordinator();
    const first = c.join('group-id', handle('group-instance-id'));
    await first.done;
    expect(c.describeGroup('group-id').generationId).toBe(1);
    const again = handle('group-instance-id');
    const second = c.join('group-id', again);
    await second.done;
    const group = c.describeGroup('group-id');
    expect(group.members.map((m) => m.memberId)).toEqual([second.memberId]);
    expect(c.staticMemberId('group-id', 'group-instance-id')).toBe(second.memberId);
    expect(second.memberId).not.toBe(first.memberId);
    expect(group.generationId).toBe(1);
    expect(again.deliveries).toEqual([{ partitions: [0, 1, 2, 3], generationId: 1, force: true }]);
  });

  // GroupMetadataManagerTest.testStaticMemberRejoinAsFollowerWithUnknownMemberId
  it('a static follower rejoining with an unknown member id gets its old assignment, the generation does not change', async () => {
    const c = coordinator();
    const r = await staticMembersJoinAndRebalance(c);
    const leaderDeliveries = r.leader.deliveries.length;
    const followerAssignment = r.follower.deliveries.at(-1)!.partitions;
    const rejoined = handle('follower-instance-id');
    const join = c.join('group-id', rejoined);
    await join.done;
    expect(c.staticMemberId('group-id', 'leader-instance-id')).toBe(r.leaderId);
    expect(join.memberId).not.toBe(r.followerId);
    expect(c.describeGroup('group-id').generationId).toBe(r.generationId);
    expect(rejoined.deliveries).toEqual([{ partitions: followerAssignment, generationId: r.generationId, force: true }]);
    expect(r.leader.deliveries.length).toBe(leaderDeliveries);
  });

  // GroupMetadataManagerTest.testGetDifferentStaticMemberIdAfterEachRejoin
  it('each rejoin of a static member gets a different member id, the one the instance id maps to', async () => {
    const c = coordinator();
    const r = await staticMembersJoinAndRebalance(c);
    let lastMemberId = r.leaderId;
    for (let i = 0; i < 5; i++) {
      const join = c.join('group-id', handle('leader-instance-id'));
      await join.done;
      expect(c.staticMemberId('group-id', 'leader-instance-id')).toBe(join.memberId);
      expect(join.memberId).not.toBe(lastMemberId);
      lastMemberId = join.memberId;
    }
  });

  // ClassicGroupTest.testReplaceGroupInstance
  it('replacing the leader makes the new member id the leader and fences the old one', async () => {
    const c = coordinator();
    const first = c.join('group-id', handle('group-instance-id'));
    await first.done;
    expect(c.describeGroup('group-id').members[0]?.memberId).toBe(first.memberId);
    const second = c.join('group-id', handle('group-instance-id'));
    await second.done;
    expect(c.describeGroup('group-id').members[0]?.memberId).toBe(second.memberId);
    expect(c.staticMemberId('group-id', 'group-instance-id')).toBe(second.memberId);
    expect(codeOf(() => c.heartbeat('group-id', first.memberId, 1, 'group-instance-id'))).toBe(KafkaErrorCode.FENCED_INSTANCE_ID);
  });

  // GroupMetadataManagerTest.testStaticMemberHeartbeatLeaderWithInvalidMemberId
  it('a heartbeat naming the instance id with another member id is fenced', async () => {
    const c = coordinator();
    const r = await staticMembersJoinAndRebalance(c);
    expect(codeOf(() => c.heartbeat('group-id', r.leaderId, r.generationId))).toBeUndefined();
    expect(codeOf(() => c.heartbeat('group-id', 'invalid-member-id', r.generationId, 'leader-instance-id'))).toBe(KafkaErrorCode.FENCED_INSTANCE_ID);
  });

  // GroupMetadataManagerTest.testStaticMemberJoinWithUnknownInstanceIdAndKnownMemberId (a heartbeat here: the embedded join takes no member id)
  it('a known member id with an unknown instance id is an unknown member', async () => {
    const c = coordinator();
    const r = await staticMembersJoinAndRebalance(c);
    expect(codeOf(() => c.heartbeat('group-id', r.leaderId, r.generationId, 'unknown-instance-id'))).toBe(KafkaErrorCode.UNKNOWN_MEMBER_ID);
  });

  // GroupMetadataManagerTest.testStaticMemberFenceDuplicateRejoinedFollower
  it('a duplicate static follower joining while a third member triggers a rebalance fences the old follower at once', async () => {
    const c = coordinator();
    const r = await staticMembersJoinAndRebalance(c);
    const third = c.join('group-id', handle(undefined));
    const duplicate = c.join('group-id', handle('follower-instance-id'));
    expect(codeOf(() => c.heartbeat('group-id', r.followerId, r.generationId, 'follower-instance-id'))).toBe(KafkaErrorCode.FENCED_INSTANCE_ID);
    await Promise.all([third.done, duplicate.done]);
    expect(c.describeGroup('group-id').members.map((m) => m.memberId).sort()).toEqual([r.leaderId, duplicate.memberId, third.memberId].sort());
    expect(c.describeGroup('group-id').generationId).toBeGreaterThan(r.generationId);
  });

  it('a static member whose session times out is removed (its instance id freed) and the group rebalances', async () => {
    const c = coordinator();
    const r = await staticMembersJoinAndRebalance(c);
    clock = 3000;
    c.heartbeat('group-id', r.leaderId, r.generationId, 'leader-instance-id');
    clock = 5001;
    const deliveries = r.leader.deliveries.length;
    expect(codeOf(() => c.heartbeat('group-id', r.leaderId, r.generationId, 'leader-instance-id'))).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(c.staticMemberId('group-id', 'follower-instance-id')).toBeUndefined();
    expect(c.describeGroup('group-id').members.map((m) => m.memberId)).toEqual([r.leaderId]);
    expect(r.leader.deliveries.length).toBeGreaterThan(deliveries);
    expect(r.leader.deliveries.at(-1)!.partitions).toEqual([0, 1, 2, 3]);
    expect(r.leader.deliveries.at(-1)!.force).toBe(false);
  });

  it('requestRejoin: a new generation handed to every member with force (onAssignment even with nothing changed)', async () => {
    const c = coordinator();
    const r = await staticMembersJoinAndRebalance(c);
    const before = { leader: r.leader.deliveries.at(-1)!, follower: r.follower.deliveries.at(-1)! };
    await c.requestRejoin('group-id', r.followerId);
    const after = { leader: r.leader.deliveries.at(-1)!, follower: r.follower.deliveries.at(-1)! };
    expect(c.describeGroup('group-id').generationId).toBe(r.generationId + 1);
    expect(after.leader).toEqual({ partitions: before.leader.partitions, generationId: r.generationId + 1, force: true });
    expect(after.follower).toEqual({ partitions: before.follower.partitions, generationId: r.generationId + 1, force: true });
  });
});
