/**
 * The group coordinator: membership, generations, assignment and committed
 * offsets.
 *
 * A rebalance runs whenever membership changes (join, leave, expiry, session
 * timeout); rebalances of a group are serialized. To never let two members
 * read the same partition, a rebalance that moves partitions runs in two
 * generations, as Kafka's cooperative protocol does: first every member is
 * told its assignment minus what it loses (and waits for in-flight work of
 * those partitions), then everyone gets the full target assignment.
 *
 * When every member offers a custom {@link GroupAssignor} of the same name
 * (sluice's task assignor), the first member's (the leader's) computes the
 * target from the members' subscription user data, read at the rebalance, and
 * each member gets the user data made for it with both generations; otherwise
 * the leader's built-in assignor (`range`, `roundrobin`) does, without user data.
 *
 * A rebalance a member asked for (`requestRejoin`) hands every member its
 * final generation with `force` (its `onAssignment` runs even when nothing
 * changed for it, as on kafkajs); otherwise a member whose assignment did not
 * change is told nothing.
 *
 * Static members (`groupInstanceId`, KIP-345; `group-static-members.ts`), as
 * Kafka's `GroupMetadataManager` for classic groups: a join with a known
 * instance id replaces the old member id (fenced from then on) and keeps its
 * place, generation and assignment; while the group is stable that join
 * triggers no rebalance (the stored assignment is handed back), during a
 * rebalance it joins the next one. A static member that closes does not
 * leave; its session timing out removes it and rebalances.
 */
import { randomUUID } from 'node:crypto';
import { KafkaErrorCode } from '../../../errors.js';
import { brokerError } from './broker-error.js';
import type { GroupAssignor, TopicPartition, TopicPartitionOffset } from '../../port.js';
import type { AssignorName } from './assignors.js';
import { targetAssignment } from './group-target-assignment.js';
import { topicPartitionKey } from '../../../records/topic-partition.js';
import { StaticMembers } from './group-static-members.js';

/** The coordinator's view of a member's client. */
export interface MemberHandle {
  clientId: string;
  topics: string[];
  assignor: AssignorName;
  /** A custom assignor (see the module comment). */
  groupAssignor?: GroupAssignor;
  sessionTimeoutMs: number;
  /** Static membership id (see the module comment); undefined: a dynamic member. */
  groupInstanceId?: string;
  /** Rebalance timeout: how long `deliver` may take before the member is removed. */
  rebalanceTimeoutMs: number;
  /**
   * Hands the member its assignment of a new generation (and a custom assignor's user data for it); resolves
   * once applied (revocations done). `force`: the last generation of a requested rebalance (the member's
   * `onAssignment` runs even if nothing changed for it).
   */
  deliver(assignment: TopicPartition[], generationId: number, userData: Buffer | undefined, force: boolean): Promise<void>;
  /** Fault injection: the client process dies (stops fetching and heartbeating, does not leave). */
  crash?(): void;
}

interface Member {
  memberId: string;
  handle: MemberHandle;
  generationId: number;
  owned: TopicPartition[];
  /** The custom assignor's user data of the member's last assignment. */
  userData?: Buffer | undefined;
  lastHeartbeat: number;
}

interface Group {
  groupId: string;
  generationId: number;
  members: Map<string, Member>;
  statics: StaticMembers;
  /** Rebalances queued or running (0: the group is stable). */
  pending: number;
  /** A member asked for a rebalance: the next one to run is delivered with `force`. */
  forced: boolean;
  chain: Promise<void>;
}

/** What the coordinator needs from the broker. */
export interface GroupCoordinatorDeps {
  now(): number;
  partitionsOf(topic: string): number;
}

const key = topicPartitionKey;
const err = brokerError;

/** Every group of the cluster. */
export class GroupCoordinator {
  private readonly groups = new Map<string, Group>();
  private readonly offsets = new Map<string, Map<string, number>>();

  constructor(private readonly deps: GroupCoordinatorDeps) {}

  private group(groupId: string): Group {
    let g = this.groups.get(groupId);
    if (!g) this.groups.set(groupId, (g = { groupId, generationId: 0, members: new Map(), statics: new StaticMembers(), pending: 0, forced: false, chain: Promise.resolve() }));
    return g;
  }

  /** Current generation and members' assignments (tests). */
  describeGroup(groupId: string): { generationId: number; members: { memberId: string; generationId: number; assignment: TopicPartition[] }[] } {
    const g = this.group(groupId);
    return { generationId: g.generationId, members: [...g.members.values()].map((m) => ({ memberId: m.memberId, generationId: m.generationId, assignment: m.owned })) };
  }

  /**
   * Adds a member (always with a new member id); `done` resolves once it has its assignment. Steps:
   * 1. a static member whose instance id is held by a member of the group replaces it in place
   *    (same position, so the same leader; same generation and assignment); the old id is fenced;
   * 2. the group stable: the replaced member's assignment is handed to the new one, no rebalance;
   * 3. otherwise (a new member, or a rebalance under way): rebalance.
   */
  join(groupId: string, handle: MemberHandle): { memberId: string; done: Promise<void> } {
    const g = this.group(groupId);
    const memberId = `${handle.clientId}-${randomUUID()}`;
    const now = this.deps.now();
    // 1.
    const replaced = handle.groupInstanceId === undefined ? undefined : g.statics.replace(handle.groupInstanceId, memberId);
    const old = replaced === undefined ? undefined : g.members.get(replaced);
    if (old) {
      const member: Member = { ...old, memberId, handle, lastHeartbeat: now };
      g.members = new Map([...g.members].map(([id, m]) => (id === old.memberId ? [memberId, member] : [id, m])));
      // 2.
      if (g.pending === 0) return { memberId, done: this.handBack(g, member) };
      // 3.
      return { memberId, done: this.rebalance(g) };
    }
    g.members.set(memberId, { memberId, handle, generationId: -1, owned: [], lastHeartbeat: now });
    return { memberId, done: this.rebalance(g) };
  }

  /** A static member that replaced another while the group was stable gets the stored assignment of the current generation. */
  private handBack(g: Group, m: Member): Promise<void> {
    g.chain = g.chain.then(() => m.handle.deliver(m.owned, m.generationId, m.userData, true)).catch(() => undefined);
    return g.chain;
  }

  /** Removes a member from its group (and frees its instance id); false when it was not there. */
  private remove(g: Group, memberId: string): boolean {
    const m = g.members.get(memberId);
    if (!m) return false;
    g.members.delete(memberId);
    if (m.handle.groupInstanceId !== undefined) g.statics.forget(m.handle.groupInstanceId, memberId);
    return true;
  }

  /** Removes a member (LeaveGroup) and rebalances the others. */
  leave(groupId: string, memberId: string): Promise<void> {
    const g = this.group(groupId);
    if (!this.remove(g, memberId)) return g.chain;
    return this.rebalance(g);
  }

  /**
   * A member asks for a rebalance (`GroupConsumerPort.requestRejoin`): the whole group gets a new
   * generation. Ignored for a member that is not in the group (it is rejoining anyway).
   */
  requestRejoin(groupId: string, memberId: string): Promise<void> {
    const g = this.group(groupId);
    if (!g.members.has(memberId)) return g.chain;
    g.forced = true;
    return this.rebalance(g);
  }

  /** The member id holding a static member's instance id (tests). */
  staticMemberId(groupId: string, groupInstanceId: string): string | undefined {
    return this.group(groupId).statics.memberOf(groupInstanceId);
  }

  /** Removes a member as if its session expired (fault injection); it learns on its next heartbeat or commit. */
  expireMember(groupId: string, memberId?: string): string[] {
    const g = this.group(groupId);
    const ids = memberId ? [memberId] : [...g.members.keys()];
    const removed = ids.filter((id) => this.remove(g, id));
    if (removed.length) void this.rebalance(g);
    return removed;
  }

  /**
   * Crashes members' clients (all if `memberId` is omitted): they stop without
   * leaving; the coordinator notices only when their session times out.
   */
  crashMember(groupId: string, memberId?: string): string[] {
    const g = this.group(groupId);
    const victims = [...g.members.values()].filter((m) => memberId === undefined || m.memberId === memberId);
    for (const m of victims) m.handle.crash?.();
    return victims.map((m) => m.memberId);
  }

  /** Removes members whose session timed out. */
  checkSessions(): void {
    const now = this.deps.now();
    for (const g of this.groups.values()) {
      let changed = false;
      for (const m of [...g.members.values()]) {
        if (now - m.lastHeartbeat > m.handle.sessionTimeoutMs) {
          this.remove(g, m.memberId);
          changed = true;
        }
      }
      if (changed) void this.rebalance(g);
    }
  }

  /** The member of a request, validated as Kafka does (`group-static-members.ts` for static members), then its generation. */
  private member(groupId: string, memberId: string, generationId: number, groupInstanceId: string | undefined, operation: string): Member {
    this.checkSessions();
    const g = this.group(groupId);
    const m = g.members.get(memberId);
    g.statics.validate(groupId, memberId, groupInstanceId, m !== undefined, operation);
    if (!m) throw err(KafkaErrorCode.UNKNOWN_MEMBER_ID, `The member ${memberId} is not part of group ${groupId}: rejoin the group`);
    if (m.generationId !== generationId)
      throw err(KafkaErrorCode.ILLEGAL_GENERATION, `Generation ${generationId} of member ${memberId} is not the current generation ${m.generationId} of group ${groupId}`);
    return m;
  }

  /**
   * Heartbeat: UNKNOWN_MEMBER_ID if removed, FENCED_INSTANCE_ID if another member took its
   * `groupInstanceId`, ILLEGAL_GENERATION if the member's generation is stale.
   */
  heartbeat(groupId: string, memberId: string, generationId: number, groupInstanceId?: string): void {
    this.member(groupId, memberId, generationId, groupInstanceId, 'Heartbeat').lastHeartbeat = this.deps.now();
  }

  /** OffsetCommit from a member (validated as a heartbeat). */
  commitMember(groupId: string, memberId: string, generationId: number, offsets: TopicPartitionOffset[], groupInstanceId?: string): void {
    this.member(groupId, memberId, generationId, groupInstanceId, 'OffsetCommit').lastHeartbeat = this.deps.now();
    this.commit(groupId, offsets);
  }

  /** Writes committed offsets (transactional commits and simple clients). */
  commit(groupId: string, offsets: TopicPartitionOffset[]): void {
    let m = this.offsets.get(groupId);
    if (!m) this.offsets.set(groupId, (m = new Map()));
    for (const o of offsets) m.set(key(o), o.offset);
  }

  /** OffsetFetch: -1 where nothing is committed. */
  fetchOffsets(groupId: string, partitions: TopicPartition[]): TopicPartitionOffset[] {
    const m = this.offsets.get(groupId);
    return partitions.map((tp) => ({ topic: tp.topic, partition: tp.partition, offset: m?.get(key(tp)) ?? -1 }));
  }

  /** Forgets offsets of a deleted topic. */
  deleteTopic(topic: string): void {
    for (const m of this.offsets.values()) for (const k of [...m.keys()]) if (k.slice(0, k.lastIndexOf('-')) === topic) m.delete(k); // keys are `<topic>-<partition>`
  }

  private rebalance(g: Group): Promise<void> {
    g.pending += 1;
    g.chain = g.chain
      .then(() => this.runRebalance(g))
      .catch(() => undefined)
      .finally(() => {
        g.pending -= 1;
      });
    return g.chain;
  }

  /**
   * One rebalance. Steps:
   * 1. compute the target assignment of the current members;
   * 2. if partitions move between members: a generation in which each member keeps only
   *    what it owns of its target (plus partitions nobody owns), awaiting every member;
   * 3. a generation with the full target assignment, awaiting every member.
   */
  private async runRebalance(g: Group): Promise<void> {
    const members = [...g.members.values()];
    const [leader] = members;
    if (leader === undefined) {
      g.generationId += 1;
      return;
    }
    // 1.
    const { target, userData } = await targetAssignment(members.map((m) => ({ memberId: m.memberId, handle: m.handle })), leader.handle, this.deps.partitionsOf);
    const ownedBy = new Map<string, string>();
    for (const m of members) for (const tp of m.owned) ownedBy.set(key(tp), m.memberId);
    // 2.
    const interim = new Map<string, TopicPartition[]>();
    let moves = false;
    for (const m of members) {
      const t = target.get(m.memberId) ?? [];
      const keep = t.filter((tp) => ownedBy.get(key(tp)) === m.memberId || !ownedBy.has(key(tp)));
      if (m.owned.some((tp) => !t.some((x) => key(x) === key(tp)))) moves = true;
      interim.set(m.memberId, keep);
    }
    if (moves) await this.deliverAll(g, interim, userData, false);
    // 3.
    const forced = g.forced;
    g.forced = false;
    await this.deliverAll(g, target, userData, forced);
  }

  private async deliverAll(g: Group, assignment: Map<string, TopicPartition[]>, userData: Map<string, Buffer>, force: boolean): Promise<void> {
    g.generationId += 1;
    const generationId = g.generationId;
    const calls = [...g.members.values()].map(async (m) => {
      const tps = assignment.get(m.memberId);
      if (!tps) return; // joined meanwhile: the next rebalance covers it
      m.generationId = generationId;
      m.owned = tps;
      m.userData = userData.get(m.memberId);
      m.lastHeartbeat = this.deps.now();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((r) => {
        timer = setTimeout(() => r('timeout'), m.handle.rebalanceTimeoutMs);
        timer.unref?.();
      });
      const outcome = await Promise.race([m.handle.deliver(tps, generationId, userData.get(m.memberId), force).then(() => 'ok' as const, () => 'ok' as const), timeout]);
      clearTimeout(timer);
      if (outcome === 'timeout' && this.remove(g, m.memberId)) void this.rebalance(g);
      else m.lastHeartbeat = this.deps.now();
    });
    await Promise.all(calls);
  }
}
