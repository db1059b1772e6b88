/**
 * Static members of one group (KIP-345), as Kafka's `ClassicGroup` keeps
 * them: each `groupInstanceId` maps to the member id that currently holds it.
 * A member joining with a known instance id takes over the mapping; the old
 * member id is fenced from then on (FENCED_INSTANCE_ID on its next heartbeat
 * or commit), whatever it does.
 */
import { KafkaErrorCode } from '../../../errors.js';
import { brokerError } from './broker-error.js';

/** groupInstanceId → member id of one group. */
export class StaticMembers {
  private readonly byInstance = new Map<string, string>();

  /** The member id holding `groupInstanceId` (Kafka's `ClassicGroup.staticMemberId`). */
  memberOf(groupInstanceId: string): string | undefined {
    return this.byInstance.get(groupInstanceId);
  }

  /** `memberId` now holds `groupInstanceId`; returns the member id it replaces, if any (`ClassicGroup.replaceStaticMember`). */
  replace(groupInstanceId: string, memberId: string): string | undefined {
    const old = this.byInstance.get(groupInstanceId);
    this.byInstance.set(groupInstanceId, memberId);
    return old;
  }

  /** A removed member (left, expired, timed out) frees its instance id, unless another member already took it. */
  forget(groupInstanceId: string, memberId: string): void {
    if (this.byInstance.get(groupInstanceId) === memberId) this.byInstance.delete(groupInstanceId);
  }

  /**
   * Kafka's `ClassicGroup.validateMember` for a request of `memberId` carrying `groupInstanceId`:
   * 1. with an instance id: UNKNOWN_MEMBER_ID when nobody holds it, FENCED_INSTANCE_ID when another member id does;
   * 2. without: UNKNOWN_MEMBER_ID when the member is not in the group.
   */
  validate(groupId: string, memberId: string, groupInstanceId: string | undefined, isMember: boolean, operation: string): void {
    // 1.
    if (groupInstanceId !== undefined) {
      const holder = this.byInstance.get(groupInstanceId);
      if (holder === undefined) throw unknownMember(groupId, memberId, operation);
      if (holder !== memberId) {
        throw brokerError(
          KafkaErrorCode.FENCED_INSTANCE_ID,
          `${operation}: member ${memberId} of group ${groupId} was fenced: another member (${holder}) joined with groupInstanceId '${groupInstanceId}'`,
        );
      }
      return;
    }
    // 2.
    if (!isMember) throw unknownMember(groupId, memberId, operation);
  }
}

function unknownMember(groupId: string, memberId: string, operation: string): Error {
  return brokerError(KafkaErrorCode.UNKNOWN_MEMBER_ID, `${operation}: the member ${memberId} is not part of group ${groupId}: rejoin the group`);
}
