/**
 * Static membership (KIP-345, `groupInstanceId`) and `requestRejoin` through
 * the group consumer port, on the embedded cluster and on real Kafka (kafkajs
 * with sluice's static-membership patch): a static member restarted within the
 * session timeout takes its partitions back without a rebalance; the same with
 * dynamic members rebalances (control); a duplicated id fences one member with
 * a clear error; a requested rejoin gives every member a new generation; a
 * static member away longer than the session timeout is removed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GroupConsumerPort, TopicPartition } from '../../src/cluster/port.js';
import { KafkaErrorCode, KafkaProtocolError } from '../../src/errors.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { backends, type BackendContext } from './backends.js';

const SESSION_TIMEOUT_MS = 6_000;
const PARTITIONS = 6;
const sorted = (tps: Iterable<number>) => [...tps].sort((a, b) => a - b);

interface Member {
  name: string;
  consumer: GroupConsumerPort;
  owned: Set<number>;
  events: { assigned: number[]; revoked: number[]; generationId: number }[];
  errors: Error[];
  generation(): number;
}

for (const backend of await backends()) {
  const title = `static membership: ${backend.name}`;
  (backend.skipReason ? describe.skip : describe)(backend.skipReason ? `${title} [skipped: ${backend.skipReason}]` : title, () => {
    let ctx: BackendContext;
    let topic: string;
    let groupId: string;
    const open: GroupConsumerPort[] = [];
    /** How long to watch for a rebalance that must not happen: several heartbeats. */
    const quietMs = () => (backend.name === 'kafka' ? 4_000 : 500);

    beforeEach(async () => {
      ctx = await backend.create();
      topic = uniqueTopic(`static-${backend.name}`);
      groupId = uniqueGroup('static');
      await ctx.admin.createTopic(topic, { partitions: PARTITIONS });
    }, 60_000);
    afterEach(async () => {
      await Promise.all(open.splice(0).map((c) => c.close()));
      await ctx.close();
    }, 60_000);

    const eventually = <T>(f: () => T | Promise<T>, message: string, timeoutMs = ctx.patienceMs) => waitFor(f, { timeoutMs, intervalMs: 20, message });

    async function start(name: string, groupInstanceId?: string): Promise<Member> {
      const consumer = ctx.cluster.consumer({
        groupId,
        sessionTimeoutMs: SESSION_TIMEOUT_MS,
        heartbeatIntervalMs: ctx.consumerTiming.heartbeatIntervalMs,
        clientId: `static-${name}`,
        ...(groupInstanceId !== undefined ? { groupInstanceId } : {}),
      });
      open.push(consumer);
      const m: Member = {
        name, consumer, owned: new Set(), events: [], errors: [],
        generation: () => m.events.at(-1)?.generationId ?? -1,
      };
      await consumer.subscribe([topic]);
      await consumer.run({
        onAssignment: async ({ assigned, revoked, generationId }) => {
          const p = (tps: TopicPartition[]) => sorted(tps.map((tp) => tp.partition));
          m.events.push({ assigned: p(assigned), revoked: p(revoked), generationId });
          for (const tp of revoked) m.owned.delete(tp.partition);
          for (const tp of assigned) m.owned.add(tp.partition);
        },
        eachBatch: async () => undefined,
        onError: (e) => void m.errors.push(e),
      });
      return m;
    }

    async function close(m: Member): Promise<void> {
      await m.consumer.close();
      open.splice(open.indexOf(m.consumer), 1);
    }

    /**
     * Every partition owned by exactly one of `members`, each owning some, and no assignment event for a
     * while (a member whose partitions did not change may keep an older generation on the embedded cluster).
     */
    async function stable(members: Member[], what: string): Promise<void> {
      const settleMs = backend.name === 'kafka' ? 2_500 : 200;
      let seen = -1;
      let since = Date.now();
      await eventually(() => {
        const all = members.flatMap((m) => [...m.owned]);
        const events = members.reduce((n, m) => n + m.events.length, 0);
        if (events !== seen) [seen, since] = [events, Date.now()];
        return all.length === PARTITIONS && new Set(all).size === PARTITIONS && members.every((m) => m.owned.size > 0) && Date.now() - since >= settleMs;
      }, what);
    }

    async function threeStatic(): Promise<[Member, Member, Member]> {
      const members = [await start('a', 'instance-a'), await start('b', 'instance-b'), await start('c', 'instance-c')] as [Member, Member, Member];
      await stable(members, 'three static members share the partitions');
      return members;
    }

    it('(a) a static member restarted within the session timeout gets its partitions back, the others see no rebalance', async () => {
      const [a, b, c] = await threeStatic();
      const before = { b: b.events.length, c: c.events.length, gb: b.generation(), gc: c.generation(), a: sorted(a.owned), group: Math.max(a.generation(), b.generation(), c.generation()) };
      await close(a);
      const restarted = await start('a2', 'instance-a');
      await eventually(() => restarted.events.length > 0, 'the restarted member gets an assignment');
      expect(sorted(restarted.owned)).toEqual(before.a);
      await new Promise((resolve) => setTimeout(resolve, quietMs()));
      expect(b.events.length).toBe(before.b);
      expect(c.events.length).toBe(before.c);
      expect([b.generation(), c.generation()]).toEqual([before.gb, before.gc]);
      expect(restarted.generation()).toBe(before.group);
      expect([...a.errors, ...b.errors, ...c.errors, ...restarted.errors]).toEqual([]);
    }, 90_000);

    it('(b) control: the same restart with dynamic members rebalances the others', async () => {
      const members = [await start('a'), await start('b'), await start('c')] as [Member, Member, Member];
      await stable(members, 'three dynamic members share the partitions');
      const [a, b, c] = members;
      const before = { gb: b.generation(), gc: c.generation() };
      await close(a);
      await eventually(() => b.generation() > before.gb && c.generation() > before.gc, 'the others rebalance after the dynamic member left');
      const restarted = await start('a2');
      await stable([restarted, b, c], 'the restarted dynamic member joins through a rebalance');
      expect(restarted.generation()).toBeGreaterThan(before.gb + 1);
    }, 90_000);

    it('(c) a second live member with the same groupInstanceId fences the first with a clear FENCED_INSTANCE_ID error; nothing else breaks', async () => {
      const [a, b, c] = await threeStatic();
      const aOwned = sorted(a.owned);
      const duplicate = await start('a-duplicate', 'instance-a');
      const error = await eventually(() => a.errors[0], 'the first member is fenced', ctx.patienceMs + SESSION_TIMEOUT_MS);
      expect(error).toBeInstanceOf(KafkaProtocolError);
      expect((error as KafkaProtocolError).kafkaCode).toBe(KafkaErrorCode.FENCED_INSTANCE_ID);
      expect(error.message).toContain("two instances use groupInstanceId 'instance-a'");
      expect(sorted(duplicate.owned)).toEqual(aOwned);
      expect([...b.errors, ...c.errors, ...duplicate.errors]).toEqual([]);
      // the group goes on: a requested rejoin still reaches the three live members
      const gen = b.generation();
      b.consumer.requestRejoin('after fencing');
      await eventually(() => [duplicate, b, c].every((m) => m.generation() > gen), 'the live members reach a new generation');
      await stable([duplicate, b, c], 'the live members share the partitions');
      expect([...b.errors, ...c.errors, ...duplicate.errors]).toEqual([]);
    }, 90_000);

    it('(d) requestRejoin gives every member a new generation (an onAssignment even with nothing changed)', async () => {
      const [a, b, c] = await threeStatic();
      const before = { a: a.events.length, b: b.events.length, c: c.events.length, gen: a.generation() };
      const owned = [sorted(a.owned), sorted(b.owned), sorted(c.owned)];
      b.consumer.requestRejoin('probing rebalance');
      await eventually(() => [a, b, c].every((m) => m.generation() > before.gen), 'every member reaches a new generation');
      await stable([a, b, c], 'the group is stable again');
      expect(a.events.length).toBeGreaterThan(before.a);
      expect(b.events.length).toBeGreaterThan(before.b);
      expect(c.events.length).toBeGreaterThan(before.c);
      // the same members with the same subscriptions: the (deterministic) assignment stays
      expect([sorted(a.owned), sorted(b.owned), sorted(c.owned)]).toEqual(owned);
      expect([...a.errors, ...b.errors, ...c.errors]).toEqual([]);
    }, 90_000);

    it('(e) a static member away longer than the session timeout is removed and its partitions move to the others', async () => {
      const [a, b, c] = await threeStatic();
      const before = { gen: b.generation(), a: sorted(a.owned) };
      const closedAt = Date.now();
      await close(a);
      await eventually(() => b.owned.size + c.owned.size === PARTITIONS, 'the others take over the away member\'s partitions', ctx.patienceMs + 2 * SESSION_TIMEOUT_MS);
      const elapsed = Date.now() - closedAt;
      expect(elapsed).toBeGreaterThan(SESSION_TIMEOUT_MS * 0.8);
      expect(sorted([...b.owned, ...c.owned])).toEqual(sorted([...Array(PARTITIONS).keys()]));
      expect(before.a.every((p) => b.owned.has(p) || c.owned.has(p))).toBe(true);
      expect(b.generation()).toBeGreaterThan(before.gen);
    }, 90_000);
  });
}
