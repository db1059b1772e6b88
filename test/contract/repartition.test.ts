/**
 * Repartitioning contract: a word count with groupBy over 3 input partitions,
 * on the embedded cluster and on real Kafka (kafkajs adapter). The app
 * creates `<applicationId>-<name>-repartition` with the input's partition
 * count; counts are exactly once (each word's committed updates are 1..n).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { backends, type BackendContext } from './backends.js';

const S = Serdes.String();
const WORDS = ['apple', 'banana', 'cherry', 'date', 'elder', 'fig', 'grape'];

function wordCount(input: string, output: string) {
  const b = new StreamsBuilder();
  b.stream<string, string>(input, { keySerde: S, valueSerde: S })
    .flatMapValues((line) => line.split(' '))
    .groupBy((_k, word) => word, { name: 'words', keySerde: S, valueSerde: S })
    .count()
    .toStream()
    .mapValues((n) => String(n))
    .to(output, { keySerde: S, valueSerde: S });
  return b.build();
}

// Also on kafka-secure (SASL_SSL, the app as a least-privilege principal).
for (const backend of await backends({ kafkaSecure: true })) {
  const title = `repartition contract: ${backend.name}`;
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

    it('word count with groupBy over 3 partitions: repartition topic created with 3 partitions, counts exactly once', async () => {
      const [input, output] = [uniqueTopic(`lines-${backend.name}`), uniqueTopic(`counts-${backend.name}`)];
      await ctx.admin.createTopic(input, { partitions: 3 });
      await ctx.admin.createTopic(output, { partitions: 3 });
      const occurrences = new Map<string, number>();
      const producer = ctx.cluster.producer({});
      await producer.connect();
      try {
        for (let p = 0; p < 3; p++) {
          const records = [];
          for (let i = p; i < 60; i += 3) {
            const words = [WORDS[i % 7]!, WORDS[(i * 3 + 1) % 7]!, WORDS[(i * 5 + 2) % 7]!];
            for (const w of words) occurrences.set(w, (occurrences.get(w) ?? 0) + 1);
            records.push({ key: Buffer.from(`line${i}`), value: Buffer.from(words.join(' ')), headers: {}, timestamp: 1_000_000 + i });
          }
          await producer.produce({ topic: input, partition: p, records });
        }
      } finally {
        await producer.close();
      }
      const applicationId = uniqueGroup(`wc-${backend.name}`);
      const cluster = await ctx.appCluster({ applicationId, inputTopics: [input], outputTopics: [output] });
      const app = new KafkaStreams(wordCount(input, output), { cluster, ...ctx.consumerTiming, applicationId, commitIntervalMs: 100, statestoreCacheMaxBytes: 0 });
      apps.push(app);
      await app.start();
      const repartition = `${applicationId}-words-repartition`;
      expect((await ctx.admin.describeTopic(repartition)).partitions).toBe(3);
      await eventually(async () => (await ctx.read(output)).length === 180, 'all 180 count updates committed');
      await app.close();
      const byWord = new Map<string, number[]>();
      for (const r of await ctx.read(output)) {
        const word = r.key!.toString();
        byWord.set(word, [...(byWord.get(word) ?? []), Number(r.value!.toString())]);
      }
      expect([...byWord.keys()].sort()).toEqual([...occurrences.keys()].sort());
      for (const [word, n] of occurrences) expect(byWord.get(word), word).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      const repartitioned = await ctx.read(repartition);
      expect(repartitioned).toHaveLength(180);
      expect(Math.min(...repartitioned.map((r) => r.timestamp))).toBe(1_000_000);
    });

    it('an existing repartition topic with another partition count: start() fails naming it, the app ends in ERROR', async () => {
      const input = uniqueTopic(`lines-${backend.name}`);
      await ctx.admin.createTopic(input, { partitions: 3 });
      const applicationId = uniqueGroup(`wc-${backend.name}`);
      const repartition = `${applicationId}-words-repartition`;
      await ctx.admin.createTopic(repartition, { partitions: 2 });
      const unused = uniqueTopic('unused');
      const cluster = await ctx.appCluster({ applicationId, inputTopics: [input], outputTopics: [unused] });
      const app = new KafkaStreams(wordCount(input, unused), { cluster, ...ctx.consumerTiming, applicationId });
      apps.push(app);
      const failure = await app.start().then(() => undefined, (error: unknown) => error);
      expect(failure).toMatchObject({ code: 'INTERNAL_TOPIC_PARTITIONS_MISMATCH' });
      expect((failure as Error).message).toContain(`'${repartition}' exists with 2 partitions, but the topology needs 3`);
      expect(app.state).toBe('ERROR');
      expect((await ctx.admin.describeTopic(repartition)).partitions).toBe(2);
    });
  });
}
