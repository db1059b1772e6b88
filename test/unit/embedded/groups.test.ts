/** Group coordinator and group consumer of the embedded cluster. */
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedKafkaCluster } from '../../../src/cluster/embedded/embedded-cluster.js';
import { brokerOf } from '../../../src/cluster/embedded/internal/broker-access.js';
import { rangeAssign, roundRobinAssign } from '../../../src/cluster/embedded/internal/assignors.js';
import { KafkaErrorCode } from '../../../src/errors.js';
import type { FetchedBatch, GroupConsumerHandlers, GroupConsumerPort, TopicPartition } from '../../../src/cluster/port.js';

async function waitFor(cond: () => boolean, what = 'condition', ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`waitFor timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}
const parts = (tps: TopicPartition[]) => tps.map((t) => t.partition).sort((a, b) => a - b);

let cluster: EmbeddedKafkaCluster;
const consumers: GroupConsumerPort[] = [];
afterEach(async () => {
  await Promise.all(consumers.splice(0).map((c) => c.close()));
  await cluster?.close();
});

/** A consumer that records its assignment events and batches. */
function member(groupId: string, opts: Record<string, unknown> = {}, onBatch?: (b: FetchedBatch) => Promise<void>) {
  const c = cluster.consumer({ groupId, heartbeatIntervalMs: 5, ...opts });
  consumers.push(c);
  const state = { owned: new Set<number>(), events: [] as { assigned: number[]; revoked: number[]; generationId: number }[], values: [] as string[], errors: [] as Error[] };
  const handlers: GroupConsumerHandlers = {
    onAssignment: async ({ assigned, revoked, generationId }) => {
      state.events.push({ assigned: parts(assigned), revoked: parts(revoked), generationId });
      for (const tp of revoked) state.owned.delete(tp.partition);
      for (const tp of assigned) state.owned.add(tp.partition);
    },
    eachBatch: async (b) => {
      for (const r of b.records) state.values.push(r.value?.toString() ?? 'null');
      await onBatch?.(b);
    },
    onError: (e) => state.errors.push(e),
  };
  return { c, state, handlers, start: async (topics = ['in']) => { await c.subscribe(topics); await c.run(handlers); } };
}

describe('assignors', () => {
  const members = [{ memberId: 'b', topics: ['t'] }, { memberId: 'a', topics: ['t'] }];
  it('range gives consecutive ranges, the first members one more', () => {
    const a = rangeAssign(members, () => 5);
    expect(parts(a.get('a')!)).toEqual([0, 1, 2]);
    expect(parts(a.get('b')!)).toEqual([3, 4]);
  });
  it('round-robin deals partitions in member order', () => {
    const a = roundRobinAssign(members, () => 5);
    expect(parts(a.get('a')!)).toEqual([0, 2, 4]);
    expect(parts(a.get('b')!)).toEqual([1, 3]);
  });
  it('the group uses the assignor of its members (roundrobin option)', async () => {
    cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('in', { partitions: 4 });
    const m1 = member('g', { assignor: 'roundrobin' });
    const m2 = member('g', { assignor: 'roundrobin' });
    await m1.start();
    await m2.start();
    await waitFor(() => m1.state.owned.size === 2 && m2.state.owned.size === 2);
    const sets = [[...m1.state.owned].sort(), [...m2.state.owned].sort()].sort();
    expect(sets).toEqual([[0, 2], [1, 3]]);
  });
});

describe('membership and generations', () => {
  it('generations advance on join and leave; onAssignment carries assigned/revoked diffs', async () => {
    cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('in', { partitions: 2 });
    const m1 = member('g');
    await m1.start();
    const g1 = cluster.describeGroup('g').generationId;
    expect(m1.state.events).toEqual([{ assigned: [0, 1], revoked: [], generationId: g1 }]);
    const m2 = member('g');
    await m2.start();
    await waitFor(() => m2.state.owned.size === 1);
    const g2 = cluster.describeGroup('g').generationId;
    expect(g2).toBeGreaterThan(g1);
    const moved = [...m2.state.owned]; // which one depends on the (random) member id order, as in Kafka
    expect(m1.state.events[1]).toMatchObject({ assigned: [], revoked: moved });
    await m2.c.close();
    await waitFor(() => m1.state.owned.size === 2);
    expect(cluster.describeGroup('g').generationId).toBeGreaterThan(g2);
    expect(m1.state.events.at(-1)).toMatchObject({ assigned: moved, revoked: [] });
  });

  it('a revoked partition is handed over only after its in-flight eachBatch finished', async () => {
    cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('in', { partitions: 2 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const inFlight = new Set<number>();
    const m1 = member('g', {}, async (b) => {
      inFlight.add(b.partition);
      await gate;
      inFlight.delete(b.partition);
    });
    try {
      await m1.start();
      await cluster.produce('in', [{ key: null, value: 'x', partition: 0 }, { key: null, value: 'y', partition: 1 }]);
      await waitFor(() => inFlight.size === 2, 'eachBatch of both partitions in flight');
      const m2 = member('g');
      const joined = m2.start();
      await new Promise((r) => setTimeout(r, 30));
      expect(m2.state.owned.size).toBe(0); // the partition it will get is still being processed by m1
      expect(m1.state.events.length).toBe(1); // m1's onAssignment waits for its in-flight batch
      release();
      await joined;
      await waitFor(() => m2.state.owned.size === 1 && m1.state.owned.size === 1, 'split 1/1');
      expect(new Set([...m1.state.owned, ...m2.state.owned])).toEqual(new Set([0, 1]));
      expect(m1.state.events[1]!.revoked).toEqual([...m2.state.owned]);
    } finally {
      release();
    }
  });

  it('an expired member sees UNKNOWN_MEMBER_ID, revokes everything and rejoins', async () => {
    cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('in', { partitions: 2 });
    const m1 = member('g', { heartbeatIntervalMs: 60_000 });
    await m1.start();
    const [old] = cluster.expireGroupMember('g');
    expect(old).toBeDefined();
    const e = await m1.c.commitOffsets([{ topic: 'in', partition: 0, offset: 1 }]).catch((x: unknown) => x);
    expect(e).toMatchObject({ kafkaCode: KafkaErrorCode.UNKNOWN_MEMBER_ID });
    await waitFor(() => cluster.describeGroup('g').members.length === 1 && m1.state.owned.size === 2, 'rejoined');
    expect(cluster.describeGroup('g').members[0]!.memberId).not.toBe(old);
    expect(m1.state.events.map((x) => x.revoked)).toContainEqual([0, 1]);
  });

  it('a member whose session timed out is removed and its partitions reassigned', async () => {
    let now = 1_000_000;
    cluster = new EmbeddedKafkaCluster({ clock: () => now, tickIntervalMs: 0 });
    await cluster.createTopic('in', { partitions: 2 });
    const silent = member('g', { heartbeatIntervalMs: 60_000, sessionTimeoutMs: 1000 });
    await silent.start();
    const live = member('g', { heartbeatIntervalMs: 60_000, sessionTimeoutMs: 10_000 });
    await live.start();
    await waitFor(() => live.state.owned.size === 1);
    now += 1001;
    cluster.tick();
    await waitFor(() => live.state.owned.size === 2, 'live member takes over');
    expect(cluster.describeGroup('g').members.length).toBe(1);
  });
});

describe('seek before assignment', () => {
  it('a seek of a partition not yet assigned applies when it is assigned', async () => {
    cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('in');
    await cluster.produce('in', ['0', '1', '2'].map((v) => ({ key: null, value: v, partition: 0 })));
    const m = member('g');
    m.c.seek({ topic: 'in', partition: 0, offset: 2 });
    await m.start();
    await waitFor(() => m.state.values.length === 1);
    await new Promise((r) => setTimeout(r, 20));
    expect(m.state.values).toEqual(['2']);
  });
});

describe('crash fault', () => {
  it('a crashed member stops receiving; after its session times out the survivor takes its partitions', async () => {
    let now = 1_000_000;
    cluster = new EmbeddedKafkaCluster({ clock: () => now, tickIntervalMs: 0 });
    await cluster.createTopic('in', { partitions: 2 });
    const a = member('g', { sessionTimeoutMs: 5000 });
    const b = member('g', { sessionTimeoutMs: 5000 });
    await a.start();
    await b.start();
    await waitFor(() => a.state.owned.size === 1 && b.state.owned.size === 1);
    const bId = cluster.describeGroup('g').members.find((m) => m.assignment.some((tp) => b.state.owned.has(tp.partition)))!.memberId;
    const eventsBefore = b.state.events.length;
    expect(cluster.crashGroupMember('g', bId)).toEqual([bId]);
    const bPartition = [...b.state.owned][0]!;
    await cluster.produce('in', [{ key: null, value: 'during-crash', partition: bPartition }]);
    await new Promise((r) => setTimeout(r, 20));
    expect(b.state.values).toEqual([]); // dead: nothing delivered
    expect(cluster.describeGroup('g').members.length).toBe(2); // not yet noticed
    now += 3000;
    await new Promise((r) => setTimeout(r, 30)); // the survivor heartbeats (every 5 ms), the crashed one does not
    now += 3000;
    cluster.tick();
    expect(cluster.describeGroup('g').members.map((m) => m.memberId)).not.toContain(bId);
    await waitFor(() => a.state.owned.size === 2, 'survivor owns both');
    await waitFor(() => a.state.values.includes('during-crash'), 'survivor reads the crashed member\'s partition');
    expect(b.state.events.length).toBe(eventsBefore); // a dead consumer gets no callback
  });
});

describe('delivery', () => {
  it('read_committed by default: aborted and open transactional data is not delivered; read_uncommitted sees it', async () => {
    cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('in');
    const p = cluster.producer({ transactionalId: 'tx' });
    await p.connect();
    for (const [v, commit] of [['a', false], ['b', true]] as const) {
      await p.beginTransaction();
      await p.produce({ topic: 'in', partition: 0, records: [{ key: null, value: Buffer.from(v), headers: {}, timestamp: Date.now() }] });
      await (commit ? p.commitTransaction() : p.abortTransaction());
    }
    await p.beginTransaction();
    await p.produce({ topic: 'in', partition: 0, records: [{ key: null, value: Buffer.from('open'), headers: {}, timestamp: Date.now() }] });
    const rc = member('g1');
    const ru = member('g2', { isolationLevel: 'read_uncommitted' });
    await rc.start();
    await ru.start();
    await waitFor(() => ru.state.values.length === 3 && rc.state.values.length === 1);
    expect(rc.state.values).toEqual(['b']);
    expect(ru.state.values).toEqual(['a', 'b', 'open']);
    await p.commitTransaction();
    await waitFor(() => rc.state.values.length === 2);
    expect(rc.state.values).toEqual(['b', 'open']);
  });

  it('starts at the committed offset, else earliest/latest; committed() is fresh; seek redirects', async () => {
    cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('in', { partitions: 2 });
    await cluster.produce('in', ['0', '1', '2'].map((v) => ({ key: null, value: v, partition: 0 })));
    await cluster.produce('in', [{ key: null, value: 'p1-0', partition: 1 }]);
    const setup = cluster.consumer({ groupId: 'g' });
    await expect(setup.commitOffsets([{ topic: 'in', partition: 0, offset: 2 }])).rejects.toThrow(/must be running/);
    brokerOf(cluster).groups.commit('g', [{ topic: 'in', partition: 0, offset: 2 }]);
    const m = member('g', { autoOffsetReset: 'latest' });
    await m.start();
    await waitFor(() => m.state.values.includes('2'));
    expect(m.state.values).toEqual(['2']); // partition 1 starts at latest
    expect(await m.c.committed([{ topic: 'in', partition: 0 }])).toEqual([{ topic: 'in', partition: 0, offset: 2 }]);
    await m.c.commitOffsets([{ topic: 'in', partition: 0, offset: 3 }]);
    expect(await cluster.committedOffsets('g', 'in')).toEqual([3, -1]);
    m.c.seek({ topic: 'in', partition: 0, offset: 0 });
    await waitFor(() => m.state.values.length === 4);
    expect(m.state.values).toEqual(['2', '0', '1', '2']);
    expect(() => m.c.seek({ topic: 'other', partition: 0, offset: 0 })).not.toThrow(); // kept until assigned, like the kafkajs adapter
  });

  it('eachBatch is serialized per partition (backpressure) and concurrent across partitions; pause/resume', async () => {
    cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('in', { partitions: 2 });
    const running = new Map<number, number>();
    let maxSame = 0;
    let overlapAcross = false;
    const m = member('g', {}, async (b) => {
      running.set(b.partition, (running.get(b.partition) ?? 0) + 1);
      maxSame = Math.max(maxSame, running.get(b.partition)!);
      if ([...running.values()].filter((n) => n > 0).length > 1) overlapAcross = true;
      await new Promise((r) => setTimeout(r, 10));
      running.set(b.partition, running.get(b.partition)! - 1);
    });
    await m.start();
    for (let i = 0; i < 3; i++) await cluster.produce('in', [{ key: null, value: `a${i}`, partition: 0 }, { key: null, value: `b${i}`, partition: 1 }]);
    await waitFor(() => m.state.values.length === 6);
    expect(maxSame).toBe(1);
    expect(overlapAcross).toBe(true);
    m.c.pause([{ topic: 'in', partition: 0 }]);
    await cluster.produce('in', [{ key: null, value: 'paused', partition: 0 }, { key: null, value: 'flowing', partition: 1 }]);
    await waitFor(() => m.state.values.includes('flowing'));
    await new Promise((r) => setTimeout(r, 20));
    expect(m.state.values).not.toContain('paused');
    m.c.resume([{ topic: 'in', partition: 0 }]);
    await waitFor(() => m.state.values.includes('paused'));
  });

  it('fetch latency and a seek during a fetch: the stale batch is not delivered', async () => {
    cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('in');
    await cluster.produce('in', [{ key: null, value: 'first', partition: 0 }, { key: null, value: 'second', partition: 0 }]);
    cluster.setLatency({ fetchMs: 30 });
    const m = member('g');
    await m.start();
    m.c.seek({ topic: 'in', partition: 0, offset: 1 });
    await waitFor(() => m.state.values.length > 0);
    await new Promise((r) => setTimeout(r, 40));
    expect(m.state.values).toEqual(['second']);
  });

  it('close is idempotent and an eachBatch error stops the consumer via onError', async () => {
    cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('in');
    const m = member('g', {}, async () => {
      throw new Error('boom');
    });
    await m.start();
    await cluster.produce('in', [{ key: null, value: 'x', partition: 0 }]);
    await waitFor(() => m.state.errors.length === 1);
    expect(m.state.errors[0]!.message).toBe('boom');
    await m.c.close();
    await m.c.close();
    await waitFor(() => cluster.describeGroup('g').members.length === 0);
  });
});
