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
 */
import { randomUUID } from 'node:crypto';
import { KafkaErrorCode } from '../../../errors.js';
import { brokerError } from './broker-error.js';
import type { GroupAssignor, TopicPartition, TopicPartitionOffset } from '../../port.js';
import { assign, type AssignorName } from './assignors.js';
import { topicPartitionKey } from '../../../records/topic-partition.js';

/** The coordinator's view of a member's client. */
export interface MemberHandle {
  clientId: string;
  topics: string[];
  assignor: AssignorName;
  /** A custom assignor (see the module comment). */
  groupAssignor?: GroupAssignor;
  sessionTimeoutMs: number;
  /** Rebalance timeout: how long `deliver` may take before the member is removed. */
  rebalanceTimeoutMs: number;
  /** Hands the member its assignment of a new generation (and a custom assignor's user data for it); resolves once applied (revocations done). */
  deliver(assignment: TopicPartition[], generationId: number, userData?: Buffer): Promise<void>;
  /** Fault injection: the client process dies (stops fetching and heartbeating, does not leave). */
  crash?(): void;
}

interface Member {
  memberId: string;
  handle: MemberHandle;
  generationId: number;
  owned: TopicPartition[];
  lastHeartbeat: number;
}

interface Group {
  groupId: string;
  generationId: number;
  members: Map<string, Member>;
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
    if (!g) this.groups.set(groupId, (g = { groupId, generationId: 0, members: new Map(), chain: Promise.resolve() }));
    return g;
  }

  /** Current generation and members' assignments (tests). */
  describeGroup(groupId: string): { generationId: number; members: { memberId: string; generationId: number; assignment: TopicPartition[] }[] } {
    const g = this.group(groupId);
    return { generationId: g.generationId, members: [...g.members.values()].map((m) => ({ memberId: m.memberId, generationId: m.generationId, assignment: m.owned })) };
  }

  /** Adds a member and rebalances; `done` resolves when the rebalance including it has completed. */
  join(groupId: string, handle: MemberHandle): { memberId: string; done: Promise<void> } {
    const g = this.group(groupId);
    const memberId = `${handle.clientId}-${randomUUID()}`;
    g.members.set(memberId, { memberId, handle, generationId: -1, owned: [], lastHeartbeat: this.deps.now() });
    return { memberId, done: this.rebalance(g) };
  }

  /** Removes a member (LeaveGroup) and rebalances the others. */
  leave(groupId: string, memberId: string): Promise<void> {
    const g = this.group(groupId);
    if (!g.members.delete(memberId)) return g.chain;
    return this.rebalance(g);
  }

  /** Removes a member as if its session expired (fault injection); it learns on its next heartbeat or commit. */
  expireMember(groupId: string, memberId?: string): string[] {
    const g = this.group(groupId);
    const ids = memberId ? [memberId] : [...g.members.keys()];
    const removed = ids.filter((id) => g.members.delete(id));
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
          g.members.delete(m.memberId);
          changed = true;
        }
      }
      if (changed) void this.rebalance(g);
    }
  }

  private member(groupId: string, memberId: string, generationId: number): Member {
    this.checkSessions();
    const m = this.groups.get(groupId)?.members.get(memberId);
    if (!m) throw err(KafkaErrorCode.UNKNOWN_MEMBER_ID, `The member ${memberId} is not part of group ${groupId}: rejoin the group`);
    if (m.generationId !== generationId)
      throw err(KafkaErrorCode.ILLEGAL_GENERATION, `Generation ${generationId} of member ${memberId} is not the current generation ${m.generationId} of group ${groupId}`);
    return m;
  }

  /** Heartbeat: UNKNOWN_MEMBER_ID if removed, ILLEGAL_GENERATION if the member's generation is stale. */
  heartbeat(groupId: string, memberId: string, generationId: number): void {
    this.member(groupId, memberId, generationId).lastHeartbeat = this.deps.now();
  }

  /** OffsetCommit from a member (generation-checked). */
  commitMember(groupId: string, memberId: string, generationId: number, offsets: TopicPartitionOffset[]): void {
    this.member(groupId, memberId, generationId).lastHeartbeat = this.deps.now();
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
    for (const m of this.offsets.values()) for (const k of [...m.keys()]) if (k.startsWith(`${topic}:`)) m.delete(k);
  }

  private rebalance(g: Group): Promise<void> {
    g.chain = g.chain.then(() => this.runRebalance(g)).catch(() => undefined);
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
    const { target, userData } = await this.targetAssignment(members, leader);
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
    if (moves) await this.deliverAll(g, interim, userData);
    // 3.
    await this.deliverAll(g, target, userData);
  }

  /**
   * The target assignment: the leader's custom assignor when every member offers one of that name
   * (a failing one falls back to the built-in assignor, without user data), else the built-in one.
   */
  private async targetAssignment(members: Member[], leader: Member): Promise<{ target: Map<string, TopicPartition[]>; userData: Map<string, Buffer> }> {
    const custom = leader.handle.groupAssignor;
    if (custom !== undefined && members.every((m) => m.handle.groupAssignor?.name === custom.name)) {
      try {
        const result = await custom.assign({
          members: members.map((m) => ({ memberId: m.memberId, topics: [...m.handle.topics], userData: m.handle.groupAssignor?.subscriptionUserData() ?? Buffer.alloc(0) })),
          partitionCount: (t) => this.partitionCount(t),
        });
        const target = new Map(members.map((m) => [m.memberId, result.get(m.memberId)?.partitions ?? []]));
        const userData = new Map(members.map((m) => [m.memberId, result.get(m.memberId)?.userData ?? Buffer.alloc(0)]));
        return { target, userData };
      } catch {
        // Fall through to the built-in assignor: the group still makes progress.
      }
    }
    const target = assign(leader.handle.assignor, members.map((m) => ({ memberId: m.memberId, topics: m.handle.topics })), (t) => this.deps.partitionsOf(t));
    return { target, userData: new Map() };
  }

  private partitionCount(topic: string): number | undefined {
    try {
      return this.deps.partitionsOf(topic);
    } catch {
      return undefined;
    }
  }

  private async deliverAll(g: Group, assignment: Map<string, TopicPartition[]>, userData: Map<string, Buffer>): Promise<void> {
    g.generationId += 1;
    const generationId = g.generationId;
    const calls = [...g.members.values()].map(async (m) => {
      const tps = assignment.get(m.memberId);
      if (!tps) return; // joined meanwhile: the next rebalance covers it
      m.generationId = generationId;
      m.owned = tps;
      m.lastHeartbeat = this.deps.now();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((r) => {
        timer = setTimeout(() => r('timeout'), m.handle.rebalanceTimeoutMs);
        timer.unref?.();
      });
      const outcome = await Promise.race([m.handle.deliver(tps, generationId, userData.get(m.memberId)).then(() => 'ok' as const, () => 'ok' as const), timeout]);
      clearTimeout(timer);
      if (outcome === 'timeout' && g.members.delete(m.memberId)) void this.rebalance(g);
      else m.lastHeartbeat = this.deps.now();
    });
    await Promise.all(calls);
  }
}
