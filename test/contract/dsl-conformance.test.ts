/**
 * Issue 14 on both backends (embedded cluster and real Kafka): a regex source
 * (`builder.stream(/<prefix>-(eu|us)/)`) is resolved against the cluster's
 * topics at start and reads every matching topic; a pattern matching none
 * fails start() naming it; `repartition(Repartitioned.as(..)
 * .withNumberOfPartitions(n))` creates `<applicationId>-<name>-repartition`
 * with n partitions and every record crosses it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { Repartitioned } from '../../src/topology/repartitioned.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueName, uniqueTopic, waitFor } from '../helpers/index.js';
import { backends, type BackendContext } from './backends.js';

const S = Serdes.String();
const STR = { keySerde: S, valueSerde: S };

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

for (const backend of await backends()) {
  const title = `DSL conformance (regex sources, repartition): ${backend.name}`;
  (backend.skipReason ? describe.skip : describe)(backend.skipReason ? `${title} [skipped: ${backend.skipReason}]` : title, () => {
    let ctx: BackendContext;
    const apps: KafkaStreams[] = [];
    beforeEach(async () => {
      ctx = await backend.create();
    });
    afterEach(async () => {
      await Promise.all(apps.splice(0).map((a) => a.close()));
      await ctx.close();
    });

    const eventually = <T>(f: () => T | Promise<T>, message: string) => waitFor(f, { timeoutMs: ctx.patienceMs, intervalMs: 100, message });

    async function produce(topic: string, partition: number, values: string[]): Promise<void> {
      const producer = ctx.cluster.producer({});
      await producer.connect();
      try {
        await producer.produce({ topic, partition, records: values.map((v, i) => ({ key: Buffer.from(`k${i}`), value: Buffer.from(v), headers: {}, timestamp: 1_000 + i })) });
      } finally {
        await producer.close();
      }
    }

    function app(topology: ReturnType<StreamsBuilder['build']>, applicationId = uniqueGroup(`dsl-${backend.name}`)): KafkaStreams {
      const a = new KafkaStreams(topology, { cluster: ctx.cluster, ...ctx.consumerTiming, applicationId, commitIntervalMs: 100 });
      apps.push(a);
      return a;
    }

    it('a regex source reads every topic matching it at start (whole-name match), and no other', async () => {
      const prefix = uniqueName(`orders-${backend.name}`);
      const [eu, us, euArchive, output] = [`${prefix}-eu`, `${prefix}-us`, `${prefix}-eu-archive`, uniqueTopic('pattern-out')];
      for (const t of [eu, us, euArchive, output]) await ctx.admin.createTopic(t, { partitions: 2 });
      await produce(eu, 0, ['eu-a', 'eu-b']);
      await produce(us, 1, ['us-a']);
      await produce(euArchive, 0, ['archived']);
      const b = new StreamsBuilder();
      b.stream(new RegExp(`${escape(prefix)}-(eu|us)`), STR).mapValues((v) => v.toUpperCase()).to(output, STR);
      const topology = b.build();
      expect(topology.describe().toString()).toContain(`(topics: ${escape(prefix)}-(eu|us))`);
      await app(topology).start();
      await eventually(async () => (await ctx.read(output)).length >= 3, 'the three matching records written');
      await produce(us, 0, ['us-b']);
      await eventually(async () => (await ctx.read(output)).length >= 4, 'a record written after start is read too');
      const values = (await ctx.read(output)).map((r) => r.value?.toString()).sort();
      expect(values).toEqual(['EU-A', 'EU-B', 'US-A', 'US-B']);
    });

    it('a regex source matching no topic: start() fails naming the pattern, the app ends in ERROR', async () => {
      const prefix = uniqueName(`nothing-${backend.name}`);
      const b = new StreamsBuilder();
      b.stream(new RegExp(`${escape(prefix)}-.*`), STR).to(uniqueTopic('unused'), STR);
      const a = app(b.build());
      const failure = await a.start().then(() => undefined, (error: unknown) => error);
      expect((failure as Error).message).toContain(`Source 'KSTREAM-SOURCE-0000000000' (pattern ${escape(prefix)}-.*) matches no topic`);
      expect(a.state).toBe('ERROR');
    });

    it('regex-matched topics with different partition counts: the co-partitioning check names them', async () => {
      const prefix = uniqueName(`copart-${backend.name}`);
      await ctx.admin.createTopic(`${prefix}-a`, { partitions: 2 });
      await ctx.admin.createTopic(`${prefix}-b`, { partitions: 3 });
      const b = new StreamsBuilder();
      b.stream(new RegExp(`${escape(prefix)}-[ab]`), STR).to(uniqueTopic('unused'), STR);
      const a = app(b.build());
      const failure = await a.start().then(() => undefined, (error: unknown) => error);
      expect((failure as Error).message).toContain(`not co-partitioned: ${prefix}-a (2 partitions), ${prefix}-b (3 partitions)`);
    });

    it('repartition(Repartitioned.as(name).withNumberOfPartitions(3)): <applicationId>-<name>-repartition with 3 partitions, every record crosses it', async () => {
      const [input, output] = [uniqueTopic(`rp-in-${backend.name}`), uniqueTopic(`rp-out-${backend.name}`)];
      await ctx.admin.createTopic(input, { partitions: 2 });
      await ctx.admin.createTopic(output, { partitions: 2 });
      await produce(input, 0, ['a', 'b', 'c']);
      await produce(input, 1, ['d', 'e']);
      const b = new StreamsBuilder();
      b.stream(input, STR)
        .selectKey((_k, v) => v)
        .repartition(Repartitioned.as<string, string>('by-value').withKeySerde(S).withNumberOfPartitions(3))
        .mapValues((v) => `${v}!`)
        .to(output, STR);
      const applicationId = uniqueGroup(`rp-${backend.name}`);
      await app(b.build(), applicationId).start();
      const repartition = `${applicationId}-by-value-repartition`;
      expect((await ctx.admin.describeTopic(repartition)).partitions).toBe(3);
      await eventually(async () => (await ctx.read(output)).length >= 5, 'all five records written');
      expect((await ctx.read(output)).map((r) => `${r.key?.toString()}=${r.value?.toString()}`).sort()).toEqual(['a=a!', 'b=b!', 'c=c!', 'd=d!', 'e=e!']);
      expect(await ctx.read(repartition)).toHaveLength(5);
    });
  });
}
