// The fetch leader failover patch (src/cluster/kafkajs/internal/fetch-leader-failover.ts): a fetch refused
// by a dead leader's broker refreshes the metadata and lets the fetch loop go on, instead of throwing into
// the runner's retrier (which, unpatched, crashes the consumer after ~10-17 s against the dead broker).
import { describe, expect, it } from 'vitest';
import { sluiceKafkaJs } from '../../../src/cluster/kafkajs/internal/patches.js';
import { CONNECTION_RETRY_BACKOFF_MS, installFetchLeaderFailover, isRefusedConnection, refusalBackOffMs } from '../../../src/cluster/kafkajs/internal/fetch-leader-failover.js';

type Errors = Record<string, new (e: unknown, meta?: object) => Error>;
type Recover = (this: unknown, error: unknown) => Promise<void>;
type Heartbeat = (this: unknown, options: { interval: number }) => Promise<void>;

describe('kafkajs fetch leader failover patch', () => {
  const { internals } = sluiceKafkaJs();
  const errors = internals.load<Errors>('errors.js');
  const proto = internals.load<{ prototype: { recoverFromFetch: Recover; heartbeat: Heartbeat } }>('consumer/consumerGroup.js').prototype;
  const recover = proto.recoverFromFetch;
  // as kafkajs' retrier wraps it: new KafkaJSNonRetriableError(e, { cause: e.cause || e })
  const refused = () => {
    const e = new errors.KafkaJSConnectionError!('Connection error: connect ECONNREFUSED 127.0.0.1:19511', { broker: '127.0.0.1:19511', code: 'ECONNREFUSED' });
    return new errors.KafkaJSNonRetriableError!(e, { cause: e });
  };

  it('recognises a refused connection, also wrapped as kafkajs connectBroker bails with it', () => {
    expect(isRefusedConnection(refused())).toBe(true);
    expect(isRefusedConnection(new errors.KafkaJSConnectionError!('x'))).toBe(true);
    expect(isRefusedConnection(new errors.KafkaJSProtocolError!('NOT_LEADER_OR_FOLLOWER'))).toBe(false);
    expect(isRefusedConnection(undefined)).toBe(false);
  });

  it('a refused connection: waits the back-off, refreshes the metadata and resolves (the fetch loop goes on)', async () => {
    let refreshes = 0;
    const group = { cluster: { refreshMetadata: async () => void (refreshes += 1) } };
    const began = Date.now();
    await expect(recover.call(group, refused())).resolves.toBeUndefined();
    expect(refreshes).toBe(1);
    expect(Date.now() - began).toBeGreaterThanOrEqual(CONNECTION_RETRY_BACKOFF_MS - 5);
  });

  it('refusals in a row double the wait up to 1 s; a refusal 2 s after the last starts over', () => {
    const group = {};
    expect([0, 100, 300, 700, 1500, 2000].map((t) => refusalBackOffMs(group, 10_000 + t))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(refusalBackOffMs(group, 20_000)).toBe(100);
  });

  it('a refresh that fails too (every broker down) still resolves: the next fetch fails and comes back', async () => {
    const group = { cluster: { refreshMetadata: async () => Promise.reject(new Error('no broker')) } };
    await expect(recover.call(group, refused())).resolves.toBeUndefined();
  });

  it("any other error keeps kafkajs' handling (rethrown here)", async () => {
    const other = new Error('boom');
    await expect(recover.call({ cluster: { refreshMetadata: async () => undefined } }, other)).rejects.toBe(other);
  });

  it('a heartbeat refused by a dead coordinator: looks the coordinator up again and resolves; the next heartbeat goes there', async () => {
    // a stand-in for kafkajs' ConsumerGroup: heartbeat() goes to this.coordinator, as kafkajs' does
    class FakeGroup {
      groupId = 'g';
      coordinator: { heartbeat(): Promise<void> };
      constructor(coordinator: { heartbeat(): Promise<void> }, readonly cluster: object) {
        this.coordinator = coordinator;
      }
      async heartbeat(): Promise<void> {
        await this.coordinator.heartbeat();
      }
      async recoverFromFetch(): Promise<void> {}
    }
    installFetchLeaderFailover({ load: <T>() => FakeGroup as unknown as T });
    const calls: string[] = [];
    const dead = { heartbeat: async () => Promise.reject(refused()) };
    const alive = { heartbeat: async () => void calls.push('heartbeat to the new coordinator') };
    const cluster = {
      refreshMetadata: async () => void calls.push('refresh'),
      findGroupCoordinator: async ({ groupId }: { groupId: string }) => (calls.push(`find ${groupId}`), alive),
    };
    const group = new FakeGroup(dead, cluster);
    await expect(group.heartbeat()).resolves.toBeUndefined();
    expect(calls).toEqual(['refresh', 'find g']);
    expect(group.coordinator).toBe(alive);
    await group.heartbeat();
    expect(calls.at(-1)).toBe('heartbeat to the new coordinator');
    // two heartbeats failing together share one lookup
    group.coordinator = dead;
    calls.length = 0;
    await Promise.all([group.heartbeat(), group.heartbeat()]);
    expect(calls).toEqual(['refresh', 'find g']);
    // any other error is kafkajs' business
    group.coordinator = { heartbeat: async () => Promise.reject(new errors.KafkaJSProtocolError!({ type: 'REBALANCE_IN_PROGRESS', message: 'rebalancing' })) };
    await expect(group.heartbeat()).rejects.toThrow('rebalancing');
  });

  it("is installed on sluice's kafkajs copy (heartbeat and recoverFromFetch wrapped)", () => {
    expect(proto.heartbeat.name).toBe('');
    expect(String(proto.recoverFromFetch)).toContain('isRefusedConnection');
  });
});
