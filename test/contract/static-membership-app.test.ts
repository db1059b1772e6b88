/**
 * `groupInstanceId` of a KafkaStreams app reaches its group consumer, on the
 * embedded cluster and on real Kafka: a closed static instance stays a member
 * of the group (no LeaveGroup), its restart within the session timeout leaves
 * the other instance's member id and assignment untouched, and every input is
 * processed exactly once across the restart.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GroupDescription } from '../../src/cluster/port.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { backends, type BackendContext } from './backends.js';

const PARTITIONS = 4;

function upper(input: string, output: string) {
  const builder = new StreamsBuilder();
  builder
    .stream<string, string>(input, { keySerde: Serdes.String(), valueSerde: Serdes.String() })
    .mapValues((v) => v.toUpperCase())
    .to(output, { keySerde: Serdes.String(), valueSerde: Serdes.String() });
  return builder.build();
}

for (const backend of await backends()) {
  const title = `static membership of an app: ${backend.name}`;
  (backend.skipReason ? describe.skip : describe)(backend.skipReason ? `${title} [skipped: ${backend.skipReason}]` : title, () => {
    let ctx: BackendContext;
    const apps: KafkaStreams[] = [];
    beforeEach(async () => {
      ctx = await backend.create();
    });
    afterEach(async () => {
      await Promise.all(apps.splice(0).map((a) => a.close()));
      await ctx.close();
    }, 60_000);

    const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx.patienceMs, intervalMs: 50, message });

    async function produce(topic: string, from: number, count: number): Promise<void> {
      const producer = ctx.cluster.producer({});
      await producer.connect();
      try {
        for (let p = 0; p < PARTITIONS; p++) {
          const records = Array.from({ length: count }, (_, i) => from + i)
            .filter((i) => i % PARTITIONS === p)
            .map((i) => ({ key: Buffer.from(`k${i}`), value: Buffer.from(`v${i}`), headers: {}, timestamp: Date.now() }));
          if (records.length > 0) await producer.produce({ topic, partition: p, records });
        }
      } finally {
        await producer.close();
      }
    }

    it('a restarted static instance rejoins as the same member: the other keeps its member id and partitions, nothing lost or doubled', async () => {
      const input = uniqueTopic(`static-app-${backend.name}`);
      const output = uniqueTopic(`static-app-out-${backend.name}`);
      await ctx.admin.createTopic(input, { partitions: PARTITIONS });
      await ctx.admin.createTopic(output, { partitions: PARTITIONS });
      const applicationId = uniqueGroup(`static-app-${backend.name}`);
      const start = async (groupInstanceId: string) => {
        const app = new KafkaStreams(upper(input, output), {
          cluster: ctx.cluster, ...ctx.consumerTiming, sessionTimeoutMs: 6_000, applicationId, commitIntervalMs: 100, groupInstanceId,
        });
        apps.push(app);
        await app.start();
        return app;
      };
      const describeGroup = (): Promise<GroupDescription> => ctx.admin.describeGroup!(applicationId);
      const stable = () => eventually(async () => {
        const g = await describeGroup();
        return g.members.length === 2 && g.members.every((m) => m.assignment.length > 0) && g.members.flatMap((m) => m.assignment).length === PARTITIONS && g;
      }, 'two members sharing the partitions');

      const first = await start('instance-1');
      await start('instance-2');
      await produce(input, 0, 40);
      const before = await stable();
      const sorted = (g: GroupDescription) => g.members.map((m) => ({ ...m, assignment: [...m.assignment].sort((a, b) => a.partition - b.partition) })).sort((a, b) => a.memberId.localeCompare(b.memberId));
      await eventually(async () => (await ctx.read(output)).length === 40, 'the first 40 outputs');

      await first.close();
      // no LeaveGroup: the closed static instance is still a member
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect((await describeGroup()).members).toHaveLength(2);
      await produce(input, 40, 40);
      await start('instance-1');
      const after = await stable();
      // the other instance is the same member with the same partitions; only the restarted one has a new member id
      const kept = sorted(before).filter((m) => after.members.some((n) => n.memberId === m.memberId));
      expect(kept).toHaveLength(1);
      expect(sorted(after).find((m) => m.memberId === kept[0]!.memberId)).toEqual(kept[0]);
      const values = await eventually(async () => {
        const out = (await ctx.read(output)).map((r) => r.value?.toString() ?? '');
        return out.length >= 80 && out;
      }, 'all 80 outputs');
      expect([...values].sort()).toEqual(Array.from({ length: 80 }, (_, i) => `V${i}`).sort());
    }, 90_000);
  });
}
