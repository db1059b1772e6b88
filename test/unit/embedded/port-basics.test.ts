import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedKafkaCluster } from '../../../src/cluster/embedded/embedded-cluster.js';
import { KafkaErrorCode, KafkaProtocolError } from '../../../src/errors.js';
import type { GroupAssignor, FetchedBatch, TopicPartition } from '../../../src/cluster/port.js';
import * as testing from '../../../src/testing.js';

const rec = (key: string | null, value: string, timestamp = Date.now()) => ({
  key: key === null ? null : Buffer.from(key), value: Buffer.from(value), headers: {}, timestamp,
});

async function waitFor(cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('waitFor timed out');
    await new Promise((r) => setTimeout(r, 2));
  }
}

let cluster: EmbeddedKafkaCluster;
afterEach(async () => cluster?.close());

describe('EmbeddedKafkaCluster API', () => {
  it('is exported from sluice/testing and is a ClusterPort of kind embedded', () => {
    expect(testing.EmbeddedKafkaCluster).toBe(EmbeddedKafkaCluster);
    cluster = new testing.EmbeddedKafkaCluster();
    expect(cluster.kind).toBe('embedded');
  });

  it('plain produce is validated like any produce request (keyless record on a compacted topic)', async () => {
    cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('c', { config: { 'cleanup.policy': 'compact', 'max.message.bytes': '2048' } });
    const e = await cluster.produce('c', [{ key: 'a', value: '1' }, { key: null, value: '2' }]).catch((x: unknown) => x);
    expect(e).toMatchObject({ kafkaCode: KafkaErrorCode.INVALID_RECORD, recordErrors: [{ batchIndex: 1 }] });
    await expect(cluster.produce('c', [{ key: 'a', value: 'x'.repeat(3000) }])).rejects.toMatchObject({ kafkaCode: KafkaErrorCode.MESSAGE_TOO_LARGE });
    expect(await cluster.endOffsets('c')).toEqual([0]);
    await expect(cluster.createTopic('bad', { config: { 'cleanup.policy': 'nope' } })).rejects.toMatchObject({ kafkaCode: KafkaErrorCode.INVALID_CONFIG });
  });

  it('creates topics with Kafka 4 default configs and rejects unknown topics with a helpful message', async () => {
    cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('t', { partitions: 2, config: { 'cleanup.policy': 'compact' } });
    const d = await cluster.admin().describeTopic('t');
    expect(d.partitions).toBe(2);
    expect(d.config).toMatchObject({
      'cleanup.policy': 'compact', 'max.message.bytes': '1048588', 'message.timestamp.type': 'CreateTime',
      'message.timestamp.before.max.ms': '9223372036854775807', 'message.timestamp.after.max.ms': '3600000',
    });
    const e = await cluster.endOffsets('nope').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(KafkaProtocolError);
    expect((e as KafkaProtocolError).kafkaCode).toBe(KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    expect((e as Error).message).toMatch(/nope.*createTopic/);
    await expect(cluster.createTopic('t')).rejects.toMatchObject({ kafkaCode: KafkaErrorCode.TOPIC_ALREADY_EXISTS });
    await cluster.alterTopicConfig('t', { 'max.message.bytes': '2048' });
    expect((await cluster.describeTopic('t')).config['max.message.bytes']).toBe('2048');
    await cluster.deleteTopic('t');
    expect(await cluster.listTopics()).toEqual([]);
  });

  it('plain produce round-trips keys, values, headers and timestamps; endOffsets and committedOffsets', async () => {
    cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('in', { partitions: 2 });
    const meta = await cluster.produce('in', [
      { key: 'k1', value: 'v1', partition: 0, headers: { h: 'x' }, timestamp: 1000 + Date.now() },
      { key: null, value: Buffer.from([1, 2]), partition: 1 },
      { key: 'k3', value: null, partition: 0 },
    ]);
    expect(meta.map((m) => [m.partition, m.offset])).toEqual([[0, 0], [1, 0], [0, 1]]);
    expect(await cluster.endOffsets('in')).toEqual([2, 1]);
    const all = await cluster.readCommitted('in');
    expect(all.map((r) => [r.partition, r.offset, r.key?.toString() ?? null])).toEqual([[0, 0, 'k1'], [0, 1, 'k3'], [1, 0, null]]);
    expect(all[0]!.headers.h!.toString()).toBe('x');
    expect(all[1]!.value).toBeNull();
    expect(all[2]!.value).toEqual(Buffer.from([1, 2]));
    expect(await cluster.committedOffsets('g', 'in')).toEqual([-1, -1]);
  });

  it('keyed plain records are partitioned with murmur2 like Java (key "a" -> 3 partitions)', async () => {
    cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('k', { partitions: 3 });
    // Java: Utils.toPositive(Utils.murmur2("a".getBytes())) % 3 == 1 (murmur2("a") = -1406104479... toPositive % 3)
    const [m] = await cluster.produce('k', [{ key: 'a', value: 'v' }]);
    const [m2] = await cluster.produce('k', [{ key: 'a', value: 'v2' }]);
    expect(m!.partition).toBe(m2!.partition);
  });
});

describe('raw producer transactions and read isolation', () => {
  it('commit is visible to read_committed, abort only to read_uncommitted; open txn holds the LSO', async () => {
    cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('out');
    const p = cluster.producer({ transactionalId: 'tx' });
    await p.connect();
    await p.beginTransaction();
    await p.produce({ topic: 'out', partition: 0, records: [rec('a', '1')] });
    expect(await cluster.readCommitted('out')).toEqual([]);
    expect((await cluster.readUncommitted('out')).length).toBe(1);
    await p.commitTransaction();
    await p.beginTransaction();
    await p.produce({ topic: 'out', partition: 0, records: [rec('b', '2'), rec('c', '3')] });
    await p.abortTransaction();
    await p.beginTransaction();
    await p.produce({ topic: 'out', partition: 0, records: [rec('d', '4')] });
    await p.commitTransaction();
    expect((await cluster.readCommitted('out')).map((r) => r.value!.toString())).toEqual(['1', '4']);
    expect((await cluster.readUncommitted('out')).map((r) => r.value!.toString())).toEqual(['1', '2', '3', '4']);
    // 1 + marker + 2 + marker + 1 + marker
    expect(await cluster.endOffsets('out')).toEqual([7]);
  });

  it('offsets sent in a transaction are committed only on commit', async () => {
    cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('in', { partitions: 2 });
    const p = cluster.producer({ transactionalId: 'tx' });
    await p.connect();
    await p.beginTransaction();
    await p.sendOffsets('g', [{ topic: 'in', partition: 1, offset: 5 }]);
    expect(await cluster.committedOffsets('g', 'in')).toEqual([-1, -1]);
    await p.abortTransaction();
    expect(await cluster.committedOffsets('g', 'in')).toEqual([-1, -1]);
    await p.beginTransaction();
    await p.sendOffsets('g', [{ topic: 'in', partition: 1, offset: 7 }]);
    await p.commitTransaction();
    expect(await cluster.committedOffsets('g', 'in')).toEqual([-1, 7]);
  });
});

describe('group consumer', () => {
  it('two members split partitions; when one leaves the other gets all', async () => {
    cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('in', { partitions: 4 });
    const owned = new Map<string, Set<string>>();
    const seen: string[] = [];
    const mk = (name: string) => {
      const c = cluster.consumer({ groupId: 'g', heartbeatIntervalMs: 5 });
      owned.set(name, new Set());
      return {
        c,
        handlers: {
          onAssignment: async ({ assigned, revoked }: { assigned: TopicPartition[]; revoked: TopicPartition[] }) => {
            for (const tp of revoked) owned.get(name)!.delete(`${tp.partition}`);
            for (const tp of assigned) owned.get(name)!.add(`${tp.partition}`);
          },
          eachBatch: async (b: FetchedBatch) => {
            for (const r of b.records) seen.push(`${name}:${r.partition}:${r.value!.toString()}`);
          },
        },
      };
    };
    const a = mk('a');
    const b = mk('b');
    await a.c.subscribe(['in']);
    await b.c.subscribe(['in']);
    await a.c.run(a.handlers);
    expect([...owned.get('a')!].sort()).toEqual(['0', '1', '2', '3']);
    await b.c.run(b.handlers);
    await waitFor(() => owned.get('a')!.size === 2 && owned.get('b')!.size === 2);
    await cluster.produce('in', [0, 1, 2, 3].map((p) => ({ key: null, value: `v${p}`, partition: p })));
    await waitFor(() => seen.length === 4);
    for (const s of seen) {
      const [who, part] = s.split(':');
      expect(owned.get(who!)!.has(part!)).toBe(true);
    }
    await b.c.close();
    await waitFor(() => owned.get('a')!.size === 4);
    await cluster.produce('in', [{ key: null, value: 'late', partition: 3 }]);
    await waitFor(() => seen.includes('a:3:late'));
    await a.c.close();
  });
});

describe('group consumer with a custom assignor', () => {
  it("runs the leader's assignor with every member's user data and hands each member its partitions and user data; without it on every member, range", async () => {
    cluster = new EmbeddedKafkaCluster();
    await cluster.createTopic('in', { partitions: 4 });
    const calls: string[][] = [];
    // gives every partition to the member whose subscription user data is 'greedy'
    const assignor = (me: string): GroupAssignor => ({
      name: 'test-assignor',
      subscriptionUserData: () => Buffer.from(me),
      assign: async ({ members, partitionCount }) => {
        calls.push(members.map((m) => m.userData.toString()).sort());
        const greedy = members.find((m) => m.userData.toString() === 'greedy') ?? members[0]!;
        const all = Array.from({ length: partitionCount('in') ?? 0 }, (_, p) => ({ topic: 'in', partition: p }));
        return new Map(members.map((m) => [m.memberId, { partitions: m === greedy ? all : [], userData: Buffer.from(`to ${m.userData.toString()}`) }]));
      },
    });
    const owned = new Map<string, Set<number>>();
    const userData = new Map<string, string>();
    const start = async (name: string, withAssignor: boolean) => {
      const c = cluster.consumer({ groupId: 'ga', heartbeatIntervalMs: 5, ...(withAssignor ? { groupAssignor: assignor(name) } : {}) });
      owned.set(name, new Set());
      await c.subscribe(['in']);
      await c.run({
        onAssignment: async ({ assigned, revoked }) => {
          for (const tp of revoked) owned.get(name)!.delete(tp.partition);
          for (const tp of assigned) owned.get(name)!.add(tp.partition);
        },
        onAssignmentUserData: (data) => void userData.set(name, data.toString()),
        eachBatch: async () => undefined,
      });
      return c;
    };
    const a = await start('modest', true);
    const b = await start('greedy', true);
    await waitFor(() => owned.get('greedy')!.size === 4 && owned.get('modest')!.size === 0);
    expect(calls.at(-1)).toEqual(['greedy', 'modest']);
    expect(userData.get('greedy')).toBe('to greedy');
    expect(userData.get('modest')).toBe('to modest');
    // a member without the assignor: the built-in range assignor decides, no user data
    const before = calls.length;
    const c = await start('plain', false);
    await waitFor(() => owned.get('plain')!.size > 0 && owned.get('greedy')!.size < 4);
    expect(calls.length).toBe(before);
    expect(userData.has('plain')).toBe(false);
    await Promise.all([a.close(), b.close(), c.close()]);
  });
});
