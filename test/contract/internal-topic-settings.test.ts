/**
 * Internal topic settings and the purge of committed repartition records (issue 27 item 5), on the
 * embedded cluster and on real Kafka:
 * 1. the port's deleteRecords / startOffsets: the log start offset moves (never back), reads below it
 *    answer OFFSET_OUT_OF_RANGE, an offset beyond the high watermark is refused;
 * 2. a word count through a repartition topic purges it after commits (its log start offset reaches the
 *    committed offsets) and every count is still exactly once, also for records produced after a purge
 *    (the app runs with producer, consumer and admin overrides);
 * 3. `replicationFactor` and `topicConfig` arrive on the repartition and changelog topics (described on
 *    the broker), and an impossible factor (3 on the one-broker test cluster) fails start() with a
 *    ConfigError naming `replicationFactor` (the embedded cluster records the factor instead).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, KafkaErrorCode } from '../../src/errors.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import type { KafkaStreamsConfig } from '../../src/runtime/config.js';
import { Serdes } from '../../src/serdes/serdes.js';
import { StreamsBuilder } from '../../src/topology/streams-builder.js';
import { uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { backends, type BackendContext } from './backends.js';

const S = Serdes.String();
const WORDS = ['apple', 'banana', 'cherry', 'date', 'elder'];

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

for (const backend of await backends()) {
  const title = `internal topic settings and repartition purge: ${backend.name}`;
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

    async function produceLines(topic: string, from: number, to: number, occurrences: Map<string, number>): Promise<void> {
      const producer = ctx.cluster.producer({});
      await producer.connect();
      try {
        for (let p = 0; p < 2; p++) {
          const records = [];
          for (let i = from + p; i < to; i += 2) {
            const words = [WORDS[i % 5]!, WORDS[(i * 3 + 1) % 5]!];
            for (const w of words) occurrences.set(w, (occurrences.get(w) ?? 0) + 1);
            records.push({ key: Buffer.from(`line${i}`), value: Buffer.from(words.join(' ')), headers: {}, timestamp: 1_000_000 + i });
          }
          await producer.produce({ topic, partition: p, records });
        }
      } finally {
        await producer.close();
      }
    }

    function start(topology: ReturnType<typeof wordCount>, extra: Partial<KafkaStreamsConfig>): { app: KafkaStreams; applicationId: string } {
      const applicationId = uniqueGroup(`its-${backend.name}`);
      const app = new KafkaStreams(topology, { cluster: ctx.cluster, ...ctx.consumerTiming, applicationId, commitIntervalMs: 100, statestoreCacheMaxBytes: 0, ...extra });
      apps.push(app);
      return { app, applicationId };
    }

    it('deleteRecords moves the log start offset (never back); reads below it are OFFSET_OUT_OF_RANGE; beyond the high watermark is refused', async () => {
      const topic = uniqueTopic(`purge-port-${backend.name}`);
      await ctx.admin.createTopic(topic, { partitions: 2 });
      const producer = ctx.cluster.producer({});
      await producer.connect();
      await producer.produce({ topic, partition: 0, records: Array.from({ length: 10 }, (_, i) => ({ key: Buffer.from(`k${i}`), value: Buffer.from(`v${i}`), headers: {}, timestamp: 1_000 + i })) });
      await producer.close();
      const admin = ctx.admin;
      expect(await admin.startOffsets!(topic)).toEqual([0, 0]);
      await admin.deleteRecords!(topic, new Map([[0, 4]]));
      expect(await admin.startOffsets!(topic)).toEqual([4, 0]);
      await admin.deleteRecords!(topic, new Map([[0, 3]]));
      expect(await admin.startOffsets!(topic)).toEqual([4, 0]);
      await expect(admin.deleteRecords!(topic, new Map([[0, 11]]))).rejects.toMatchObject({ kafkaCode: KafkaErrorCode.OFFSET_OUT_OF_RANGE });
      expect((await ctx.read(topic)).map((r) => r.offset)).toEqual([4, 5, 6, 7, 8, 9]);
      const reader = ctx.cluster.reader!({});
      try {
        await expect(reader.fetch({ topic, partition: 0 }, 2)).rejects.toMatchObject({ kafkaCode: KafkaErrorCode.OFFSET_OUT_OF_RANGE });
        const read = await reader.fetch({ topic, partition: 0 }, 4);
        expect(read.records[0]?.offset).toBe(4);
      } finally {
        await reader.close();
      }
    });

    it('a repartition topic is purged up to the committed offsets after commits; every count stays exactly once', async () => {
      const [input, output] = [uniqueTopic(`purge-in-${backend.name}`), uniqueTopic(`purge-out-${backend.name}`)];
      await ctx.admin.createTopic(input, { partitions: 2 });
      await ctx.admin.createTopic(output, { partitions: 2 });
      const occurrences = new Map<string, number>();
      await produceLines(input, 0, 40, occurrences);
      // with client overrides, so the real broker sees kafkajs run with them
      const { app, applicationId } = start(wordCount(input, output), {
        repartitionPurgeIntervalMs: 200,
        consumerConfig: { 'fetch.max.wait.ms': 100, 'max.poll.interval.ms': 60_000, 'fetch.min.bytes': 1, 'max.partition.fetch.bytes': 262_144, 'request.timeout.ms': 30_000 },
        producerConfig: { 'linger.ms': 2, 'batch.size': 65_536, 'request.timeout.ms': 30_000, 'retry.backoff.ms': 100 },
        adminConfig: { 'request.timeout.ms': 30_000, retries: 5 },
      });
      await app.start();
      const repartition = `${applicationId}-words-repartition`;
      expect((await ctx.admin.describeTopic(repartition)).config['retention.ms']).toBe('-1');
      await eventually(async () => (await ctx.read(output)).length === 80, 'all 80 count updates committed');
      const end = await ctx.admin.endOffsets(repartition);
      await eventually(async () => {
        const start = await ctx.admin.startOffsets!(repartition);
        return start.every((s, p) => s === end[p]) && end.some((e) => e > 0);
      }, 'the repartition topic purged up to its end (everything was consumed and committed)');
      // more records after the purge: still read, still counted once
      await produceLines(input, 40, 60, occurrences);
      await eventually(async () => (await ctx.read(output)).length === 120, 'all 120 count updates committed');
      await eventually(async () => (await ctx.admin.startOffsets!(repartition)).some((s, p) => s > (end[p] ?? 0)), 'purged again');
      await app.close();
      const byWord = new Map<string, number[]>();
      for (const r of await ctx.read(output)) {
        const word = r.key!.toString();
        byWord.set(word, [...(byWord.get(word) ?? []), Number(r.value!.toString())]);
      }
      expect([...byWord.keys()].sort()).toEqual([...occurrences.keys()].sort());
      for (const [word, n] of occurrences) expect(byWord.get(word), word).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    });

    it('replicationFactor and topicConfig arrive on the repartition and changelog topics', async () => {
      const [input, output] = [uniqueTopic(`rf-in-${backend.name}`), uniqueTopic(`rf-out-${backend.name}`)];
      await ctx.admin.createTopic(input, { partitions: 2 });
      await ctx.admin.createTopic(output, { partitions: 2 });
      const { app, applicationId } = start(wordCount(input, output), { replicationFactor: 1, topicConfig: { 'min.insync.replicas': '1', 'max.message.bytes': 2_000_000 } });
      await app.start();
      const changelog = (await ctx.admin.listTopics()).find((t) => t.startsWith(applicationId) && t.endsWith('-changelog'));
      expect(changelog).toBeDefined();
      for (const topic of [`${applicationId}-words-repartition`, changelog!]) {
        const described = await ctx.admin.describeTopic(topic);
        expect(described.replicationFactor, topic).toBe(1);
        expect(described.config, topic).toMatchObject({ 'min.insync.replicas': '1', 'max.message.bytes': '2000000', 'message.timestamp.type': 'CreateTime' });
      }
      expect((await ctx.admin.describeTopic(changelog!)).config['cleanup.policy']).toBe('compact');
    });

    it(`replicationFactor 3 on a one-broker cluster: ${backend.name === 'kafka' ? 'start() fails with a ConfigError naming replicationFactor' : 'the embedded cluster records it'}`, async () => {
      const [input, output] = [uniqueTopic(`rf3-in-${backend.name}`), uniqueTopic(`rf3-out-${backend.name}`)];
      await ctx.admin.createTopic(input, { partitions: 1 });
      await ctx.admin.createTopic(output, { partitions: 1 });
      const { app, applicationId } = start(wordCount(input, output), { replicationFactor: 3 });
      if (backend.name === 'embedded') {
        await app.start();
        expect((await ctx.admin.describeTopic(`${applicationId}-words-repartition`)).replicationFactor).toBe(3);
        return;
      }
      const began = Date.now();
      const failure = await app.start().then(() => undefined, (error: unknown) => error);
      expect(failure).toBeInstanceOf(ConfigError);
      expect((failure as Error).message).toMatch(/Config 'replicationFactor' \(3\): the cluster refused to create internal topic '.*-words-repartition'.*at most the number of brokers/);
      expect(Date.now() - began).toBeLessThan(20_000);
      expect(app.state).toBe('ERROR');
    });
  });
}
