/**
 * A port {@link GroupAssignor} as a kafkajs `partitionAssigner` (kafkajs'
 * custom assigner protocol, `consumer/assigners/`):
 * - `protocol({ topics })` runs at every JoinGroup: the member metadata is
 *   `MemberMetadata { version 0, topics, userData: subscriptionUserData() }`;
 * - `assign({ members, topics })` runs on the leader between JoinGroup and
 *   SyncGroup: each member's metadata is decoded, the assignor runs with the
 *   partition counts of kafkajs' (just refreshed) metadata, and each member's
 *   answer is `MemberAssignment { version 0, assignment, userData }`; every
 *   member is listed, with an empty assignment when it gets nothing.
 * The member's received user data are recovered from the SyncGroup answer
 * (`join-generation.ts`: kafkajs drops them) with {@link assignmentUserData}.
 */
import type { AssignerProtocol as AssignerProtocolType, PartitionAssigner } from 'kafkajs';
import type { GroupAssignor, GroupMemberSubscription } from '../../port.js';

/** kafkajs' `AssignerProtocol` (from sluice's private copy). */
export type KafkaJsAssignerProtocol = typeof AssignerProtocolType;

/** The kafkajs assigner running `assignor`. */
export function kafkaJsAssigner(assignor: GroupAssignor, protocol: KafkaJsAssignerProtocol): PartitionAssigner {
  return ({ cluster }) => ({
    name: assignor.name,
    version: 0,
    protocol: ({ topics }) => ({
      name: assignor.name,
      metadata: protocol.MemberMetadata.encode({ version: 0, topics, userData: assignor.subscriptionUserData() }),
    }),
    assign: async ({ members }) => {
      const subscriptions: GroupMemberSubscription[] = members.map((m) => {
        const decoded = protocol.MemberMetadata.decode(m.memberMetadata);
        return { memberId: m.memberId, topics: decoded?.topics ?? [], userData: decoded?.userData ?? Buffer.alloc(0) };
      });
      const result = await assignor.assign({
        members: subscriptions,
        partitionCount: (topic) => {
          const partitions = cluster.findTopicPartitionMetadata(topic);
          return partitions.length > 0 ? partitions.length : undefined;
        },
      });
      return members.map((m) => {
        const mine = result.get(m.memberId);
        const assignment: Record<string, number[]> = {};
        for (const tp of mine?.partitions ?? []) (assignment[tp.topic] ??= []).push(tp.partition);
        return { memberId: m.memberId, memberAssignment: protocol.MemberAssignment.encode({ version: 0, assignment, userData: mine?.userData ?? Buffer.alloc(0) }) };
      });
    },
  });
}

/** The user data of a raw `MemberAssignment` (from SyncGroup), or undefined when it has none (another assignor chose) or cannot be read. */
export function assignmentUserData(raw: Buffer | undefined, protocol: KafkaJsAssignerProtocol): Buffer | undefined {
  if (raw === undefined || raw.length === 0) return undefined;
  try {
    const userData = protocol.MemberAssignment.decode(raw)?.userData;
    return userData && userData.length > 0 ? userData : undefined;
  } catch {
    return undefined;
  }
}
