/**
 * Compressed topics against Kafka's own Java clients (issue 27 item 4), real
 * broker, one JVM per direction (scripts/java/CompressionProbe.java on the
 * broker's kafka-clients 4.4.0, snappy-java, lz4-java, zstd-jni):
 *
 * (a) Java's producer writes N records to one topic per codec
 *     (`compression.type` gzip, snappy, lz4, zstd); the batches on the broker
 *     carry that codec; one exactly_once sluice app reads the four topics and
 *     every record comes out once.
 * (b) four sluice apps, `compressionType` set to each codec, copy N records
 *     to one topic per codec; the batches on the broker carry that codec; Java's
 *     consumer reads every record once (count, distinct keys and a SHA-256 of
 *     the sorted `key\tvalue` lines).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, expect, it } from 'vitest';
import { kafkaVersion } from '../../scripts/kafka/broker.mjs';
import { libsDir } from '../../scripts/kafka/paths.mjs';
import { createKafkaCluster } from '../../src/cluster/kafkajs/index.js';
import type { AdminPort } from '../../src/cluster/port.js';
import { Serdes, StreamsBuilder } from '../../src/index.js';
import type { CompressionType } from '../../src/records/compression.js';
import { KafkaStreams } from '../../src/runtime/kafka-streams.js';
import { createTopic, describeKafka, quietKafka, readAll, uniqueGroup, uniqueTopic, waitFor } from '../helpers/index.js';
import { batchCodecs } from '../helpers/raw-fetch.js';

const run = promisify(execFile);
const CODECS = ['gzip', 'snappy', 'lz4', 'zstd'] as const;
const ID: Record<CompressionType, number> = { none: 0, gzip: 1, snappy: 2, lz4: 3, zstd: 4 };
const N = 2_000;
const PARTITIONS = 2;
const PROBE = fileURLToPath(new URL('../../scripts/java/CompressionProbe.java', import.meta.url));
const FOX = 'the quick brown fox jumps over the lazy dog '.repeat(3);
/** The value CompressionProbe's producer writes for record i of `codec` (its `value(codec, i)`). */
const javaValue = (codec: string, i: number) => `${codec}-value-${i}-${FOX}`;

let classes: string | undefined;
/** Runs the probe: compiled once with javac into a temporary folder (else through the source launcher). */
async function probe(...args: string[]): Promise<string[]> {
  const libs = `${libsDir(kafkaVersion())}/*`;
  if (classes === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-probe-'));
    classes = await run('javac', ['-cp', libs, '-d', dir, PROBE], { timeout: 90_000 }).then(() => dir, () => '');
  }
  const command = classes ? ['-cp', `${classes}${delimiter}${libs}`, 'CompressionProbe'] : ['-cp', libs, PROBE];
  const { stdout } = await run('java', [...command, ...args], { timeout: 90_000, maxBuffer: 16 * 1024 * 1024 });
  return stdout.split('\n').filter(Boolean);
}

const apps: KafkaStreams[] = [];
const admins: AdminPort[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
  await Promise.all(admins.splice(0).map((a) => a.close()));
});
afterAll(() => {
  if (classes) rmSync(classes, { recursive: true, force: true });
});

const jarsThere = existsSync(libsDir(kafkaVersion()));

describeKafka('compressed topics against Kafka’s Java producer and consumer (real Kafka)', (brokers) => {
  const committedAll = (admin: AdminPort, applicationId: string, topics: string[]) => async () => {
    const offsets = await Promise.all(topics.map((t) => admin.committedOffsets(applicationId, t)));
    return offsets.every((o) => o.reduce((s, c) => s + Math.max(c, 0), 0) === N);
  };

  it.runIf(jarsThere)('(a) Java writes gzip, snappy, lz4 and zstd; an exactly_once sluice app reads every record once', { timeout: 120_000 }, async () => {
    const inputs = Object.fromEntries(await Promise.all(CODECS.map(async (c) => [c, await createTopic(brokers, uniqueTopic(`java-${c}`), { partitions: PARTITIONS })] as const)));
    const output = await createTopic(brokers, uniqueTopic('java-read-out'), { partitions: PARTITIONS });
    // 1. Java's producer, one topic per codec
    const produced = await probe('produce', brokers[0]!, String(N), CODECS.map((c) => `${inputs[c]}=${c}`).join(','));
    expect(produced).toEqual(CODECS.map((c) => `PRODUCED ${inputs[c]} ${c} ${N}`));
    // 2. the batches on the broker carry the codec
    for (const c of CODECS) {
      const parts = await Promise.all(Array.from({ length: PARTITIONS }, (_, p) => batchCodecs(brokers[0]!, inputs[c]!, p)));
      expect(parts.reduce((s, x) => s + x.records, 0), c).toBe(N);
      expect(new Set(parts.flatMap((x) => x.codecs)), c).toEqual(new Set([ID[c]]));
    }
    // 3. one app reads the four topics and tags each record with its topic's codec
    const builder = new StreamsBuilder();
    for (const c of CODECS) {
      builder.stream<string, string>(inputs[c]!, { keySerde: Serdes.String(), valueSerde: Serdes.String() })
        .mapValues((v) => `${c}|${v}`)
        .to(output, { keySerde: Serdes.String(), valueSerde: Serdes.String() });
    }
    const applicationId = uniqueGroup('java-read');
    const app = new KafkaStreams(builder.build(), { applicationId, bootstrapServers: brokers, commitIntervalMs: 100, sessionTimeoutMs: 10_000, heartbeatIntervalMs: 500 });
    apps.push(app);
    const admin = createKafkaCluster({ bootstrapServers: brokers }).admin();
    admins.push(admin);
    await app.start();
    await waitFor(committedAll(admin, applicationId, CODECS.map((c) => inputs[c]!)), { timeoutMs: 60_000, intervalMs: 250, message: `all ${4 * N} Java records committed` });
    expect(app.state).toBe('RUNNING');
    // 4. every record once, value intact
    const outputs = await readAll(brokers, output, { isolation: 'read_committed' });
    expect(outputs.length).toBe(4 * N);
    const seen = new Set(outputs.map((r) => `${r.key?.toString()}\t${r.value?.toString()}`));
    expect(seen.size).toBe(4 * N);
    for (const c of CODECS) for (let i = 0; i < N; i++) expect(seen.has(`k-${i}\t${c}|${javaValue(c, i)}`)).toBe(true);
  });

  it.runIf(jarsThere)('(b) sluice writes with compressionType gzip, snappy, lz4 and zstd; Java’s consumer reads every record once', { timeout: 120_000 }, async () => {
    const source = await createTopic(brokers, uniqueTopic('sluice-src'), { partitions: PARTITIONS });
    const outputs = Object.fromEntries(await Promise.all(CODECS.map(async (c) => [c, await createTopic(brokers, uniqueTopic(`sluice-${c}`), { partitions: PARTITIONS })] as const)));
    // 1. N uncompressed inputs, k-<i> -> <i>
    const producer = quietKafka(brokers).producer({ idempotent: true });
    await producer.connect();
    await producer.send({ topic: source, acks: -1, messages: Array.from({ length: N }, (_, i) => ({ key: `k-${i}`, value: String(i), partition: i % PARTITIONS })) });
    await producer.disconnect();
    // 2. one app per codec writes Java's value for that codec
    const admin = createKafkaCluster({ bootstrapServers: brokers }).admin();
    admins.push(admin);
    const ids = await Promise.all(CODECS.map(async (c) => {
      const builder = new StreamsBuilder();
      builder.stream<string, string>(source, { keySerde: Serdes.String(), valueSerde: Serdes.String() })
        .mapValues((v) => javaValue(c, Number(v)))
        .to(outputs[c]!, { keySerde: Serdes.String(), valueSerde: Serdes.String() });
      const applicationId = uniqueGroup(`sluice-${c}`);
      const app = new KafkaStreams(builder.build(), { applicationId, bootstrapServers: brokers, compressionType: c, commitIntervalMs: 100, sessionTimeoutMs: 10_000, heartbeatIntervalMs: 500 });
      apps.push(app);
      await app.start();
      return applicationId;
    }));
    for (const id of ids) await waitFor(committedAll(admin, id, [source]), { timeoutMs: 60_000, intervalMs: 250, message: `${id} committed all ${N} inputs` });
    await Promise.all(apps.splice(0).map((a) => a.close()));
    // 3. the batches on the broker carry the codec
    for (const c of CODECS) {
      const parts = await Promise.all(Array.from({ length: PARTITIONS }, (_, p) => batchCodecs(brokers[0]!, outputs[c]!, p)));
      expect(parts.reduce((s, x) => s + x.records, 0), c).toBeGreaterThanOrEqual(N); // (read_uncommitted: an aborted retry would count too)
      expect(new Set(parts.flatMap((x) => x.codecs)), c).toEqual(new Set([ID[c]]));
    }
    // 4. Java's consumer reads every record once
    const consumed = await probe('consume', brokers[0]!, String(N), '30000', CODECS.map((c) => outputs[c]).join(','));
    const expected = CODECS.map((c) => {
      const lines = Array.from({ length: N }, (_, i) => `k-${i}\t${javaValue(c, i)}`).sort();
      const sha = createHash('sha256').update(lines.map((l) => `${l}\n`).join('')).digest('hex');
      return `CONSUMED ${outputs[c]} ${N} ${N} ${sha}`;
    });
    expect(consumed).toEqual(expected);
  });
});
