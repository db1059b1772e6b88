/**
 * An app with each `compressionType` round-trips (issue 27 item 4), on the
 * embedded cluster and on real Kafka: the input is written by the public
 * TransactionalProducer with the same `compressionType`; an exactly_once
 * count (in-memory store, so its state lives in the changelog) reads it,
 * writes compressed counts and a compressed changelog; a second run with a
 * fresh state directory restores the store from the compressed changelog
 * (the partition reader) and keeps counting. Every data batch of the input,
 * the output and the changelog carries the codec.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { ClusterPort, ConsumedRecord } from '../../src/cluster/port.js';
import { EmbeddedKafkaCluster } from '../../src/cluster/embedded/embedded-cluster.js';
import { brokerOf } from '../../src/cluster/embedded/internal/broker-access.js';
import { Serdes, StreamsBuilder, TransactionalProducer } from '../../src/index.js';
import type { CompressionType } from '../../src/records/compression.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import type { Materialized } from '../../src/topology/options.js';
import { inMemoryKeyValueStore } from '../integration/fixtures/state-api.js';
import { kafkaBrokers, uniqueGroup, uniqueName, uniqueTopic, waitFor } from '../helpers/index.js';
import { batchCodecs } from '../helpers/raw-fetch.js';
import type { BackendContext } from './backends.js';
import { describeOnEachBackend } from './support/handler-suite.js';

const TYPES: readonly CompressionType[] = ['none', 'gzip', 'snappy', 'lz4', 'zstd'];
const ID: Record<CompressionType, number> = { none: 0, gzip: 1, snappy: 2, lz4: 3, zstd: 4 };
const KEYS = Array.from({ length: 10 }, (_, i) => `key-${i}`);
const PARTITIONS = 2;

/** Every record of `topic` through the cluster's own partition reader (it decodes every codec; the test helpers' shared kafkajs does not). */
async function readThroughReader(cluster: ClusterPort, topic: string): Promise<ConsumedRecord[]> {
  const reader = cluster.reader!({ isolationLevel: 'read_committed' });
  try {
    const ends = await reader.endOffsets(topic);
    const out: ConsumedRecord[] = [];
    for (const [partition, end] of ends.entries()) {
      for (let offset = 0; offset < end; ) {
        const read = await reader.fetch({ topic, partition }, offset, { maxWaitMs: 100 });
        out.push(...read.records);
        offset = read.nextOffset;
      }
    }
    return out;
  } finally {
    await reader.close();
  }
}

/** Codec ids of every data batch of `topic`. */
async function codecsOf(ctx: BackendContext, topic: string): Promise<Set<number>> {
  const codecs = new Set<number>();
  if (ctx.cluster instanceof EmbeddedKafkaCluster) {
    const broker = brokerOf(ctx.cluster);
    for (let p = 0; p < PARTITIONS; p++) for (const e of broker.log(topic, p).entries) if ((e.batch.attributes & 0x20) === 0) codecs.add(e.bytes.readInt16BE(21) & 7);
  } else {
    for (let p = 0; p < PARTITIONS; p++) for (const c of (await batchCodecs(kafkaBrokers()![0]!, topic, p)).codecs) codecs.add(c);
  }
  return codecs;
}

await describeOnEachBackend('compressionType round-trips through an exactly_once app', (backend, fx) => {
  const timeout = backend.name === 'kafka' ? 90_000 : 30_000;

  it.each(TYPES)('%s: compressed input, output and changelog; the store restores from the compressed changelog', { timeout }, async (compressionType) => {
    const ctx = fx.ctx;
    const [input, output] = [uniqueTopic(`compress-in-${compressionType}`), uniqueTopic(`compress-out-${compressionType}`)];
    await ctx.admin.createTopic(input, { partitions: PARTITIONS });
    await ctx.admin.createTopic(output, { partitions: PARTITIONS });
    const applicationId = uniqueGroup(`compress-${compressionType}`);
    const dirs: string[] = [];

    // 1. input: every key 10 times, in one transaction of the public producer with the codec
    const produce = async () => {
      const producer = new TransactionalProducer({ transactionalId: uniqueName('compress-txp'), cluster: ctx.cluster, compressionType });
      await producer.initTransactions();
      producer.beginTransaction();
      await Promise.all(KEYS.flatMap((key) => Array.from({ length: 10 }, () => producer.send({ topic: input, key, value: 'x' }))));
      await producer.commitTransaction();
      await producer.close();
    };
    // 2. the app: count per key, changelogged in-memory store
    // (the input's end offsets follow each transaction's commit marker: every record is consumed once the committed offset passes the last one)
    const inputEnds = async () => {
      const reader = ctx.cluster.reader!({ isolationLevel: 'read_committed' });
      try {
        return await reader.endOffsets(input);
      } finally {
        await reader.close();
      }
    };
    const runApp = async () => {
      const ends = await inputEnds();
      const builder = new StreamsBuilder();
      builder.stream<string, string>(input, { keySerde: Serdes.String(), valueSerde: Serdes.String() })
        .groupByKey()
        .count({ storeName: 'counts', storeSupplier: inMemoryKeyValueStore('counts') } as Materialized<string, number>)
        .toStream()
        .to(output, { keySerde: Serdes.String(), valueSerde: Serdes.Long() });
      const stateDir = mkdtempSync(join(tmpdir(), 'sluice-compress-'));
      dirs.push(stateDir);
      const app = new KafkaStreams(builder.build(), { applicationId, cluster: ctx.cluster, ...ctx.consumerTiming, commitIntervalMs: 100, stateDir, compressionType });
      try {
        await app.start();
        await waitFor(async () => (await ctx.admin.committedOffsets(applicationId, input)).every((c, p) => c >= (ends[p] ?? 0) - 1), {
          timeoutMs: ctx.patienceMs, intervalMs: 100, message: `every input committed (end offsets ${ends.join(', ')})`,
        });
        expect(app.state).toBe('RUNNING');
      } finally {
        await app.close();
      }
    };
    try {
      await produce();
      await runApp();
      await produce();
      await runApp(); // fresh state directory: the in-memory store restores from the changelog first
      // 3. the last count of each key is 20: the second run restored 10 from the compressed changelog
      const latest = new Map<string, bigint>();
      for (const r of await readThroughReader(ctx.cluster, output)) latest.set(r.key!.toString(), r.value!.readBigInt64BE(0));
      expect(Object.fromEntries(latest)).toEqual(Object.fromEntries(KEYS.map((k) => [k, 20n])));
      // 4. every data batch carries the codec
      for (const topic of [input, output, `${applicationId}-counts-changelog`]) expect(await codecsOf(ctx, topic), topic).toEqual(new Set([ID[compressionType]]));
    } finally {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});
