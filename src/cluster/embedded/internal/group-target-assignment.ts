/**
 * The target assignment of a rebalance of the embedded group coordinator: the
 * leader's custom {@link GroupAssignor} when every member offers one of that
 * name (with the members' subscription user data, read now), else the
 * leader's built-in assignor (`range`, `roundrobin`), without user data.
 */
import type { GroupAssignor, TopicPartition } from '../../port.js';
import { assign, type AssignorName } from './assignors.js';

/** What the target assignment reads of a member's client. */
export interface AssignedMember {
  memberId: string;
  handle: { topics: string[]; assignor: AssignorName; groupAssignor?: GroupAssignor };
}

/** Each member's partitions and user data (a failing custom assignor falls back to the built-in one: the group still makes progress). */
export async function targetAssignment(
  members: AssignedMember[],
  leader: AssignedMember['handle'],
  partitionsOf: (topic: string) => number,
): Promise<{ target: Map<string, TopicPartition[]>; userData: Map<string, Buffer> }> {
  const custom = leader.groupAssignor;
  if (custom !== undefined && members.every((m) => m.handle.groupAssignor?.name === custom.name)) {
    try {
      const result = await custom.assign({
        members: members.map((m) => ({ memberId: m.memberId, topics: [...m.handle.topics], userData: m.handle.groupAssignor?.subscriptionUserData() ?? Buffer.alloc(0) })),
        partitionCount: (t) => partitionCount(partitionsOf, t),
      });
      const target = new Map(members.map((m) => [m.memberId, result.get(m.memberId)?.partitions ?? []]));
      const userData = new Map(members.map((m) => [m.memberId, result.get(m.memberId)?.userData ?? Buffer.alloc(0)]));
      return { target, userData };
    } catch {
      // Fall through to the built-in assignor.
    }
  }
  const target = assign(leader.assignor, members.map((m) => ({ memberId: m.memberId, topics: m.handle.topics })), partitionsOf);
  return { target, userData: new Map() };
}

function partitionCount(partitionsOf: (topic: string) => number, topic: string): number | undefined {
  try {
    return partitionsOf(topic);
  } catch {
    return undefined;
  }
}
