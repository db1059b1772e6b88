/**
 * The kafkajs static-membership patch (`src/cluster/kafkajs/internal/static-membership.ts`):
 * the request builders of sluice's private kafkajs copy, the wrapped
 * `ConsumerGroup` methods, and the shape checks guarding them.
 */
import { describe, expect, it, vi } from 'vitest';
import { patchKafkaJs, sluiceKafkaJs } from '../../../src/cluster/kafkajs/internal/patches.js';
import { privatePackage } from '../../../src/cluster/kafkajs/internal/private-module.js';
import { currentContext, REJOIN_PROTOCOL, tagAssigner, withMemberContext, type MemberTag } from '../../../src/cluster/kafkajs/internal/static-membership.js';

type Built = { request: { apiVersion: number; encode(): Promise<{ buffer: Buffer }> } };
type Definitions = { protocol: (o: { version: number }) => (args: Record<string, unknown>) => Built };

const { internals } = sluiceKafkaJs();
const build = (api: string, version: number, args: Record<string, unknown>): Built =>
  internals.load<Definitions>(`protocol/requests/${api}/index.js`).protocol({ version })(args);
const bytes = async (b: Built) => (await b.request.encode()).buffer;

const joinArgs = { groupId: 'g', sessionTimeout: 6000, rebalanceTimeout: 6000, memberId: '', protocolType: 'consumer', groupProtocols: [{ name: 'sluice-streams', metadata: Buffer.alloc(0) }] };
const staticTag: MemberTag = { groupInstanceId: 'worker-1' };
const dynamicTag: MemberTag = { groupInstanceId: undefined };

/** kafkajs' `ConsumerGroup` class of the patched copy. */
const ConsumerGroup = internals.load<{ prototype: Record<string | symbol, unknown> }>('consumer/consumerGroup.js');
/** A ConsumerGroup-like object (`this` of the wrapped methods) whose assigners carry `tag`. */
function group(tag: MemberTag | undefined, extra: Record<string | symbol, unknown> = {}) {
  const assigner = tag ? tagAssigner(() => ({ name: 'x' }), tag)() : { name: 'x' };
  return Object.assign(Object.create(ConsumerGroup.prototype) as Record<string | symbol, unknown>, { assigners: [assigner], ...extra });
}
const privateSymbol = (description: string) => Object.getOwnPropertySymbols(ConsumerGroup.prototype).find((s) => s.description === description)!;
/** A real kafkajs ConsumerGroup (tagged with `tag`) whose coordinator records the context of each heartbeat. */
function realGroup(tag: MemberTag | undefined, seen: unknown[]) {
  const Ctor = ConsumerGroup as unknown as new (o: Record<string, unknown>) => Record<string | symbol, unknown>;
  const logger = { info: () => undefined, debug: () => undefined, warn: () => undefined, error: () => undefined };
  const assigner = tag ? tagAssigner(() => ({ name: 'x' }), tag)() : { name: 'x' };
  const g = new Ctor({ retry: { retries: 0 }, cluster: {}, groupId: 'g', topics: ['t'], logger: { namespace: () => logger }, instrumentationEmitter: { emit: () => undefined }, assigners: [assigner] });
  return Object.assign(g, { memberId: 'm', generationId: 1, lastRequest: 0, coordinator: { heartbeat: async () => void seen.push(currentContext()) } });
}

describe('kafkajs static membership: request builders', () => {
  it('JoinGroup v5, SyncGroup v3 and Heartbeat v3 of a static member carry its groupInstanceId', async () => {
    const join = await withMemberContext(staticTag, false, () => bytes(build('joinGroup', 5, joinArgs)));
    const sync = await withMemberContext(staticTag, false, () => bytes(build('syncGroup', 3, { groupId: 'g', generationId: 1, memberId: 'm', groupAssignment: [] })));
    const beat = await withMemberContext(staticTag, false, () => bytes(build('heartbeat', 3, { groupId: 'g', groupGenerationId: 1, memberId: 'm' })));
    for (const encoded of [join, sync, beat]) expect(encoded.includes(Buffer.from('worker-1'))).toBe(true);
  });

  it('outside a static context (another client of the copy, a dynamic member) nothing is added', async () => {
    const plain = await bytes(build('joinGroup', 5, joinArgs));
    const dynamic = await withMemberContext(dynamicTag, false, () => bytes(build('joinGroup', 5, joinArgs)));
    expect(dynamic).toEqual(plain);
    expect(plain.includes(Buffer.from('worker-1'))).toBe(false);
  });

  it('a requested rejoin offers one more protocol, last, so the broker sees changed protocols', async () => {
    const rejoin = await withMemberContext(staticTag, true, () => bytes(build('joinGroup', 5, joinArgs)));
    const normal = await withMemberContext(staticTag, false, () => bytes(build('joinGroup', 5, joinArgs)));
    expect(rejoin.includes(Buffer.from(REJOIN_PROTOCOL))).toBe(true);
    expect(normal.includes(Buffer.from(REJOIN_PROTOCOL))).toBe(false);
    expect(rejoin.indexOf(Buffer.from('sluice-streams'))).toBeLessThan(rejoin.indexOf(Buffer.from(REJOIN_PROTOCOL)));
  });

  it('a broker speaking a version without group_instance_id gets a clear error, not a silently dynamic member', () => {
    expect(() => withMemberContext(staticTag, false, () => build('joinGroup', 4, joinArgs))).toThrow(/groupInstanceId 'worker-1' needs JoinGroup v5 .*broker speaks v4/);
    expect(() => withMemberContext(staticTag, false, () => build('heartbeat', 2, { groupId: 'g', groupGenerationId: 1, memberId: 'm' }))).toThrow(/Heartbeat v3/);
  });
});

describe('kafkajs static membership: ConsumerGroup methods', () => {
  const proto = ConsumerGroup.prototype as unknown as {
    leave(this: unknown): Promise<void>;
    heartbeat(this: unknown, o: { interval: number }): Promise<void>;
    joinAndSync(this: unknown): Promise<void>;
  };

  it('leave() of a static member sends no LeaveGroup; a dynamic member still leaves', async () => {
    const leaveGroup = vi.fn(async () => undefined);
    const staticGroup = group(staticTag, { groupId: 'g', memberId: 'm1', coordinator: { leaveGroup } });
    await proto.leave.call(staticGroup);
    expect(leaveGroup).not.toHaveBeenCalled();
    expect(staticGroup.memberId).toBeNull();
    const dynamicGroup = group(dynamicTag, { groupId: 'g', memberId: 'm2', coordinator: { leaveGroup } });
    await proto.leave.call(dynamicGroup);
    expect(leaveGroup).toHaveBeenCalledWith({ groupId: 'g', memberId: 'm2' });
  });

  it('a pending rejoin makes heartbeats fail with REBALANCE_IN_PROGRESS until joinAndSync, which runs with the rejoin context', async () => {
    const tag: MemberTag = { groupInstanceId: 'worker-1', rejoinReason: 'probing rebalance', onRejoin: vi.fn() };
    const heartbeats: unknown[] = [];
    const joins: unknown[] = [];
    const g = Object.assign(realGroup(tag, heartbeats), {
      [privateSymbol('private:ConsumerGroup:join')]: async () => void joins.push(currentContext()),
      [privateSymbol('private:ConsumerGroup:sync')]: async () => undefined,
      retrier: (fn: (bail: (e: unknown) => never) => Promise<void>) => fn((e) => { throw e; }),
      assigned: () => [],
      instrumentationEmitter: { emit: () => undefined },
      logger: { info: () => undefined },
    });
    await expect(proto.heartbeat.call(g, { interval: 0 })).rejects.toMatchObject({ type: 'REBALANCE_IN_PROGRESS', code: 27 });
    await expect(proto.heartbeat.call(g, { interval: 0 })).rejects.toMatchObject({ type: 'REBALANCE_IN_PROGRESS' });
    expect(heartbeats).toEqual([]);
    await proto.joinAndSync.call(g);
    expect(tag.onRejoin).toHaveBeenCalledWith('probing rebalance');
    expect(joins).toEqual([{ tag, rejoin: true }]);
    expect(tag.rejoinReason).toBeUndefined();
    await proto.heartbeat.call(g, { interval: 0 });
    expect(heartbeats).toEqual([{ tag, rejoin: false }]);
    await proto.joinAndSync.call(g);
    expect(joins.at(-1)).toEqual({ tag, rejoin: false });
  });

  it('a ConsumerGroup of a consumer sluice did not tag runs unchanged (no context)', async () => {
    const seen: unknown[] = [];
    const g = realGroup(undefined, seen);
    await proto.heartbeat.call(g, { interval: 0 });
    expect(seen).toEqual([undefined]);
  });
});

describe('kafkajs static membership: shape checks', () => {
  it('refuses a ConsumerGroup whose patched methods changed shape, naming each, and patches nothing', () => {
    const copy = privatePackage('kafkajs', import.meta.url);
    const Copied = copy.load<{ prototype: Record<string, unknown> }>('src/consumer/consumerGroup.js');
    Copied.prototype.leave = (reason: unknown) => reason;
    delete Copied.prototype.joinAndSync;
    expect(() => patchKafkaJs(copy)).toThrow(
      /other internals: .*consumer\/consumerGroup\.js\.prototype\.joinAndSync is not a function; consumer\/consumerGroup\.js\.prototype\.leave takes 1 arguments, expected 0/,
    );
    expect(Object.getOwnPropertySymbols(Copied)).toEqual([]);
  });
});
