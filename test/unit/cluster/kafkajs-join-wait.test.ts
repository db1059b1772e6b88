// Issue 29 item 9: a worker restarted after a crash waits (silently, ~30 s) in JoinGroup until the dead
// previous member's session expires. The join watch says so once, with the time that may be left.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sluiceKafkaJs } from '../../../src/cluster/kafkajs/internal/patches.js';
import { tagAssigner, type MemberTag } from '../../../src/cluster/kafkajs/internal/static-membership.js';
import { joinHeldMessage, joinHeldThresholdMs, watchJoin, type JoinHeld } from '../../../src/cluster/kafkajs/internal/join-wait.js';

afterEach(() => vi.useRealTimers());

describe('watchJoin', () => {
  it('reports a join held past the threshold once, with the remaining session time', () => {
    vi.useFakeTimers();
    const onHeld = vi.fn();
    const done = watchJoin({ groupId: 'orders-app', sessionTimeoutMs: 30_000, onHeld });
    vi.advanceTimersByTime(4_999);
    expect(onHeld).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onHeld).toHaveBeenCalledTimes(1);
    expect(onHeld).toHaveBeenCalledWith({ groupId: 'orders-app', waitedMs: 5_000, remainingMs: 25_000, sessionTimeoutMs: 30_000 });
    vi.advanceTimersByTime(60_000);
    expect(onHeld).toHaveBeenCalledTimes(1);
    done();
  });

  it('says nothing when the join settles in time (a normal join, the broker initial rebalance delay of 3 s)', () => {
    vi.useFakeTimers();
    const onHeld = vi.fn();
    const done = watchJoin({ groupId: 'g', sessionTimeoutMs: 30_000, onHeld });
    vi.advanceTimersByTime(3_500);
    done();
    vi.advanceTimersByTime(60_000);
    expect(onHeld).not.toHaveBeenCalled();
  });

  it('the threshold is 5 s, or half a shorter session timeout', () => {
    expect(joinHeldThresholdMs(30_000)).toBe(5_000);
    expect(joinHeldThresholdMs(45_000)).toBe(5_000);
    expect(joinHeldThresholdMs(6_000)).toBe(3_000);
  });

  it('the message names the group, the cause and the time left', () => {
    const held: JoinHeld = { groupId: 'orders-app', waitedMs: 5_000, remainingMs: 25_000, sessionTimeoutMs: 30_000 };
    expect(joinHeldMessage(held)).toBe(
      "joining group 'orders-app' is held by the group coordinator (5 s so far): it waits for a previous member " +
        '(e.g. this worker before a crash or kill) whose session has not expired yet, or for the other members to rejoin; ' +
        "at most ~25 s more for a previous member's session (sessionTimeoutMs 30000)",
    );
  });
});

describe("kafkajs ConsumerGroup.joinAndSync runs under the member tag's join watch", () => {
  const { internals } = sluiceKafkaJs();
  const ConsumerGroup = internals.load<{ prototype: Record<string | symbol, unknown> }>('consumer/consumerGroup.js');
  const proto = ConsumerGroup.prototype as unknown as { joinAndSync(this: unknown): Promise<void> };
  const privateSymbol = (description: string) => Object.getOwnPropertySymbols(ConsumerGroup.prototype).find((s) => s.description === description)!;

  function heldGroup(tag: MemberTag, join: () => Promise<void>) {
    const Ctor = ConsumerGroup as unknown as new (o: Record<string, unknown>) => Record<string | symbol, unknown>;
    const logger = { info: () => undefined, debug: () => undefined, warn: () => undefined, error: () => undefined };
    const assigner = tagAssigner(() => ({ name: 'x' }), tag)();
    const g = new Ctor({ retry: { retries: 0 }, cluster: {}, groupId: 'g', topics: ['t'], logger: { namespace: () => logger }, instrumentationEmitter: { emit: () => undefined }, assigners: [assigner] });
    return Object.assign(g, {
      memberId: 'm',
      generationId: 1,
      [privateSymbol('private:ConsumerGroup:join')]: join,
      [privateSymbol('private:ConsumerGroup:sync')]: async () => undefined,
      retrier: (fn: (bail: (e: unknown) => never) => Promise<void>) => fn((e) => { throw e; }),
      assigned: () => [],
      instrumentationEmitter: { emit: () => undefined },
      logger: { info: () => undefined },
    });
  }

  it('a join held by the coordinator is reported once; a quick rejoin is not', async () => {
    vi.useFakeTimers();
    const held: JoinHeld[] = [];
    const tag: MemberTag = {
      groupInstanceId: undefined,
      onJoinStart: () => watchJoin({ groupId: 'g', sessionTimeoutMs: 30_000, onHeld: (h) => void held.push(h) }),
    };
    let release: () => void = () => undefined;
    const g = heldGroup(tag, () => new Promise<void>((resolve) => (release = resolve)));
    const joined = proto.joinAndSync.call(g);
    await vi.advanceTimersByTimeAsync(28_000);
    expect(held).toEqual([{ groupId: 'g', waitedMs: 5_000, remainingMs: 25_000, sessionTimeoutMs: 30_000 }]);
    release();
    await joined;
    const quick = heldGroup(tag, async () => undefined);
    await proto.joinAndSync.call(quick);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(held).toHaveLength(1);
  });
});
