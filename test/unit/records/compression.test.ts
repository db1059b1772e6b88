/**
 * Compressed record batches (issue 27 item 4): every codec round-trips through
 * sluice's encoder and both decoders (the embedded cluster's and sluice's
 * private kafkajs copy), and batches written by Kafka's own Java client
 * (kafka-clients 4.4.0, captured once with scripts/java/CompressionProbe.java
 * into test/fixtures/java-compressed-batches.json) decode on both backends.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { sluiceKafkaJs } from '../../../src/cluster/kafkajs/internal/patches.js';
import { encodeProduceBody } from '../../../src/cluster/kafkajs/internal/produce-request.js';
import { decodeBatch, encodeBatch } from '../../../src/cluster/embedded/internal/record-batch.js';
import { brokerOf } from '../../../src/cluster/embedded/internal/broker-access.js';
import { EmbeddedKafkaCluster } from '../../../src/cluster/embedded/embedded-cluster.js';
import { encodeRecordBatch, type EncodableRecord } from '../../../src/records/record-batch-encoder.js';
import { compressRecords, decompressRecords, loadCompression, type CompressionType } from '../../../src/records/compression.js';
import { frameSnappy, isXerialFramed, unframeSnappy, XERIAL_BLOCK_SIZE } from '../../../src/records/snappy-framing.js';
import { crc32c } from '../../../src/records/crc32c.js';
import { ConfigError } from '../../../src/errors.js';
import { TransactionalProducer } from '../../../src/runtime/transactional-producer.js';
import { KafkaStreams, upperTopology } from '../runtime/fixtures.js';

const require = createRequire(import.meta.url);
const CODECS = ['gzip', 'snappy', 'lz4', 'zstd'] as const;
const ID: Record<CompressionType, number> = { none: 0, gzip: 1, snappy: 2, lz4: 3, zstd: 4 };

interface KafkaJsBatch {
  firstOffset: string;
  records: Array<{ key: Buffer | null; value: Buffer | null; headers: Record<string, Buffer>; timestamp: string; offset: string }>;
}
type DecoderCtor = new (raw: Buffer) => unknown;

/** Decodes one v2 batch with sluice's private kafkajs (the decoder Fetch responses go through). */
async function decodeWithKafkaJs(bytes: Buffer): Promise<KafkaJsBatch> {
  const { internals } = sluiceKafkaJs();
  const Decoder = internals.load<DecoderCtor>('protocol/decoder.js');
  const decode = internals.load<(d: unknown) => Promise<KafkaJsBatch>>('protocol/recordBatch/v0/decoder.js');
  return decode(new Decoder(bytes));
}

/** The records of the Java fixtures (see their `records` field). */
const javaRecord = (i: number) => ({
  key: i % 7 === 0 ? null : `key-${i}`,
  value: `value-${i}-${'abcdefghij'.repeat(8)}`,
  headers: i % 5 === 0 ? { h: String(i) } : {},
  timestamp: 1_700_000_000_000 + i,
});

const records = (n: number): EncodableRecord[] =>
  Array.from({ length: n }, (_, i) => ({ key: i % 3 === 0 ? null : `k${i}`, value: `value ${i} ${'payload '.repeat(10)}`, headers: i % 4 === 0 ? { h: `x${i}` } : undefined, timestamp: 1_000 + i }));

beforeAll(() => loadCompression('zstd'));

describe('the record-batch encoder with a codec', () => {
  it.each(CODECS)('%s: codec bits set, records compressed, CRC over the compressed form, decoded by both backends', async (codec) => {
    const input = records(3_000);
    const plain = encodeRecordBatch(input, { producerId: 7, producerEpoch: 1, baseSequence: 0, attributes: 0x10 });
    const bytes = encodeRecordBatch(input, { producerId: 7, producerEpoch: 1, baseSequence: 0, attributes: 0x10, compression: codec });
    expect(bytes.readInt16BE(21)).toBe(0x10 | ID[codec]);
    expect(bytes.length).toBeLessThan(plain.length / 3);
    expect(bytes.readInt32BE(8)).toBe(bytes.length - 12);
    expect(bytes.readUInt32BE(17)).toBe(crc32c(bytes.subarray(21)));
    // the records section decompresses to the uncompressed batch's records section
    expect(decompressRecords(ID[codec], bytes.subarray(61)).equals(plain.subarray(61))).toBe(true);
    // embedded decoder
    const embedded = decodeBatch(bytes);
    expect(embedded.records.length).toBe(3_000);
    expect(embedded.records[2_999]?.value?.toString()).toBe(String(input[2_999]?.value));
    // kafkajs decoder
    const kafkajs = await decodeWithKafkaJs(bytes);
    expect(kafkajs.records.map((r) => r.key?.toString() ?? null)).toEqual(input.map((r) => r.key ?? null));
    expect(kafkajs.records[4]?.headers).toEqual({ h: Buffer.from('x4') });
  });

  it("'none' writes the uncompressed batch (no codec bits, same bytes as without the option)", () => {
    const input = records(10);
    expect(encodeRecordBatch(input, { compression: 'none' }).equals(encodeRecordBatch(input))).toBe(true);
  });

  it('the Produce body sluice sends through kafkajs carries the compressed batch', async () => {
    const body = encodeProduceBody({ acks: -1, timeout: 1000, compression: ID.zstd, topicData: [{ topic: 't', partitions: [{ partition: 0, messages: [{ key: 'a', value: 'b', timestamp: 5 }] }] }] });
    // transactional id (null), acks, timeout, 1 topic, 't', 1 partition, partition 0, record-set size, then the batch
    const start = 2 + 2 + 4 + 4 + (2 + 1) + 4 + 4 + 4;
    expect(body.readInt32BE(start - 4)).toBe(body.length - start);
    expect(body.readInt16BE(start + 21) & 7).toBe(ID.zstd);
    const decoded = await decodeWithKafkaJs(body.subarray(start));
    expect(decoded.records.map((r) => [r.key?.toString(), r.value?.toString()])).toEqual([['a', 'b']]);
  });
});

describe('batches written by Java (kafka-clients 4.4.0 fixtures)', () => {
  const fixtures = JSON.parse(readFileSync(new URL('../../fixtures/java-compressed-batches.json', import.meta.url), 'utf8')) as { count: number; batches: Record<string, string> };
  const expected = Array.from({ length: fixtures.count }, (_, i) => javaRecord(i));

  it('are framed as Kafka writes them: xerial snappy, LZ4 frame with independent blocks, zstd frame without content size', () => {
    const section = (codec: string) => Buffer.from(fixtures.batches[codec] ?? '', 'base64').subarray(61);
    expect(isXerialFramed(section('snappy'))).toBe(true);
    expect(section('lz4').readUInt32LE(0)).toBe(0x184d2204);
    expect(section('lz4')[4]! & 0x20).toBe(0x20); // block independence
    expect(section('zstd').readUInt32LE(0)).toBe(0xfd2fb528);
    expect(section('zstd')[4]! & 0xc0).toBe(0); // frame content size flag: none
    expect(section('gzip').subarray(0, 2).toString('hex')).toBe('1f8b');
  });

  it.each(CODECS)('%s: the embedded cluster decodes, accepts and serves every record, storing the batch as Java compressed it', async (codec) => {
    const bytes = Buffer.from(fixtures.batches[codec] ?? '', 'base64');
    const batch = decodeBatch(bytes);
    expect(batch.attributes & 7).toBe(ID[codec]);
    const cluster = new EmbeddedKafkaCluster({ tickIntervalMs: 0 });
    try {
      await cluster.createTopic('java-in', { config: { 'message.timestamp.after.max.ms': '9223372036854775807' } });
      const broker = brokerOf(cluster);
      expect(await broker.produce('java-in', 0, bytes)).toBe(0);
      const stored = broker.log('java-in', 0).entries[0]!;
      expect(stored.bytes.subarray(12).equals(bytes.subarray(12))).toBe(true); // the producer's compressed batch, offset assigned
      const read = await cluster.readCommitted('java-in');
      expect(read.map((r) => ({ key: r.key?.toString() ?? null, value: r.value?.toString(), headers: Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)])), timestamp: r.timestamp }))).toEqual(expected);
    } finally {
      await cluster.close();
    }
  });

  it.each(CODECS)('%s: sluice’s private kafkajs decodes every record', async (codec) => {
    const decoded = await decodeWithKafkaJs(Buffer.from(fixtures.batches[codec] ?? '', 'base64'));
    expect(decoded.records.map((r) => ({ key: r.key?.toString() ?? null, value: r.value?.toString(), headers: Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, v.toString()])), timestamp: Number(r.timestamp) }))).toEqual(expected);
  });

  it('the process-wide kafkajs is left without the codecs (only sluice’s private copy has them)', async () => {
    const shared = require('kafkajs/src/protocol/message/compression/index.js') as { lookupCodec(type: number): unknown };
    expect(() => shared.lookupCodec(ID.zstd)).toThrow(/ZSTD compression not implemented/);
  });
});

describe('snappy framing', () => {
  const snappy = require('snappy') as { compressSync(b: Buffer): Buffer; uncompressSync(b: Buffer, o: { asBuffer: true }): Buffer };
  const input = Buffer.from('abcdefgh'.repeat(10_000)); // 80,000 bytes: three 32 KiB blocks

  it('writes the xerial header and one length-prefixed block per 32 KiB, and reads it back', () => {
    const framed = frameSnappy(input, (b) => snappy.compressSync(b));
    expect(framed.subarray(0, 16).toString('hex')).toBe('82534e415050590000000001' + '00000001');
    let blocks = 0;
    for (let at = 16; at < framed.length; at += 4 + framed.readInt32BE(at)) blocks++;
    expect(blocks).toBe(Math.ceil(input.length / XERIAL_BLOCK_SIZE));
    expect(unframeSnappy(framed, (b) => snappy.uncompressSync(b, { asBuffer: true })).equals(input)).toBe(true);
  });

  it('reads raw snappy (librdkafka, sarama) as one block', () => {
    expect(decompressRecords(ID.snappy, snappy.compressSync(input)).equals(input)).toBe(true);
  });

  it('rejects a truncated block', () => {
    const framed = compressRecords('snappy', input);
    expect(() => decompressRecords(ID.snappy, framed.subarray(0, framed.length - 3))).toThrow(/exceeds/);
  });
});

describe('the embedded cluster as a broker', () => {
  it("rebuilds a batch in the topic's compression.type when the producer used another codec (LogValidator)", async () => {
    const cluster = new EmbeddedKafkaCluster({ tickIntervalMs: 0 });
    try {
      await cluster.createTopic('zstd-topic', { config: { 'compression.type': 'zstd' } });
      await cluster.produce('zstd-topic', [{ key: 'a', value: 'x', partition: 0 }, { key: 'b', value: 'y', partition: 0 }], { compressionType: 'gzip' });
      const entry = brokerOf(cluster).log('zstd-topic', 0).entries[0]!;
      expect(entry.bytes.readInt16BE(21) & 7).toBe(ID.zstd);
      expect(decodeBatch(entry.bytes).records.map((r) => r.value?.toString())).toEqual(['x', 'y']);
      expect((await cluster.readCommitted('zstd-topic')).map((r) => r.key?.toString())).toEqual(['a', 'b']);
    } finally {
      await cluster.close();
    }
  });

  it('refuses an unknown codec id and a topic compression.type Kafka does not know', async () => {
    const bytes = encodeBatch({ records: [{ key: null, value: Buffer.from('v'), timestamp: Date.now() }] });
    bytes.writeInt16BE(5, 21);
    bytes.writeUInt32BE(crc32c(bytes.subarray(21)), 17);
    const cluster = new EmbeddedKafkaCluster({ tickIntervalMs: 0 });
    try {
      await cluster.createTopic('t');
      expect(() => brokerOf(cluster).produceNow('t', 0, bytes)).toThrow(/Unknown compression type id: 5/);
      await expect(cluster.createTopic('bad', { config: { 'compression.type': 'brotli' } })).rejects.toThrow(/compression.type/);
    } finally {
      await cluster.close();
    }
  });

  it('a corrupt compressed section is CORRUPT_MESSAGE', async () => {
    const bytes = encodeBatch({ compression: 'gzip', records: [{ key: null, value: Buffer.from('v'), timestamp: Date.now() }] });
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 12) ^ 0xff, bytes.length - 12);
    bytes.writeUInt32BE(crc32c(bytes.subarray(21)), 17);
    const cluster = new EmbeddedKafkaCluster({ tickIntervalMs: 0 });
    try {
      await cluster.createTopic('t');
      expect(() => brokerOf(cluster).produceNow('t', 0, bytes)).toThrow(expect.objectContaining({ kafkaCode: 2 }) as Error);
    } finally {
      await cluster.close();
    }
  });

  it('gzip from node:zlib and multi-member gzip streams are read', () => {
    const a = Buffer.from('first ');
    const b = Buffer.from('second');
    expect(decompressRecords(ID.gzip, Buffer.concat([gzipSync(a), gzipSync(b)])).toString()).toBe('first second');
  });
});

describe('config', () => {
  it("KafkaStreams refuses an unknown compressionType, naming the key and Kafka's values", () => {
    const cluster = new EmbeddedKafkaCluster({ tickIntervalMs: 0 });
    try {
      expect(() => new KafkaStreams(upperTopology('in', 'out'), { applicationId: 'a', cluster, compressionType: 'brotli' as never })).toThrow(ConfigError);
      expect(() => new KafkaStreams(upperTopology('in', 'out'), { applicationId: 'a', cluster, compressionType: 'brotli' as never })).toThrow(
        /Config 'compressionType' must be one of 'none', 'gzip', 'snappy', 'lz4', 'zstd', got "brotli"/,
      );
    } finally {
      void cluster.close();
    }
  });

  it('TransactionalProducer refuses an unknown compressionType', () => {
    const cluster = new EmbeddedKafkaCluster({ tickIntervalMs: 0 });
    try {
      expect(() => new TransactionalProducer({ transactionalId: 't', cluster, compressionType: 'LZ4' as never })).toThrow(/option 'compressionType' must be one of/);
    } finally {
      void cluster.close();
    }
  });
});

/** XXH32 (seed 0), for the LZ4 frame header checksum Kafka checks. */
function xxhash32(input: Buffer): number {
  const P1 = 2654435761, P2 = 2246822519, P3 = 3266489917, P4 = 668265263, P5 = 374761393;
  const rotl = (x: number, r: number) => ((x << r) | (x >>> (32 - r))) >>> 0;
  const round = (acc: number, lane: number) => Math.imul(rotl((acc + Math.imul(lane, P2)) >>> 0, 13), P1) >>> 0;
  let at = 0;
  let h: number;
  if (input.length >= 16) {
    let v1 = (P1 + P2) >>> 0, v2 = P2, v3 = 0, v4 = (0 - P1) >>> 0;
    for (; at + 16 <= input.length; at += 16) {
      v1 = round(v1, input.readUInt32LE(at));
      v2 = round(v2, input.readUInt32LE(at + 4));
      v3 = round(v3, input.readUInt32LE(at + 8));
      v4 = round(v4, input.readUInt32LE(at + 12));
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) >>> 0;
  } else h = P5;
  h = (h + input.length) >>> 0;
  for (; at + 4 <= input.length; at += 4) h = Math.imul(rotl((h + Math.imul(input.readUInt32LE(at), P3)) >>> 0, 17), P4) >>> 0;
  for (; at < input.length; at++) h = Math.imul(rotl((h + Math.imul(input[at]!, P5)) >>> 0, 11), P1) >>> 0;
  h = Math.imul(h ^ (h >>> 15), P2) >>> 0;
  h = Math.imul(h ^ (h >>> 13), P3) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

// Ported from Kafka's clients/src/test/java/org/apache/kafka/common/compress/{Gzip,Snappy,Lz4,Zstd}CompressionTest.java
// (testCompressionDecompression: "data" x 256 round-trips; levels and magic v0/v1 do not apply) and
// Lz4CompressionTest.testCompression / testBadFrameChecksum / testHeaderPrematureEnd (the frame layout Kafka's
// Lz4BlockInputStream reads), inputs and expectations unchanged.
describe("Kafka's compression tests", () => {
  const data = Buffer.from('data'.repeat(256), 'utf8');

  it.each(CODECS)('%s: testCompressionDecompression', (codec) => {
    const result = decompressRecords(ID[codec], compressRecords(codec, data));
    expect(result.length).toBe(data.length);
    expect(result.equals(data)).toBe(true);
  });

  it('lz4: testCompression (magic, FLG version 01 and reserved 0, BD 4..7 with reserved bits 0, HC = xxhash32(FLG..BD) >> 8, EndMark)', () => {
    const compressed = compressRecords('lz4', data);
    expect([...compressed.subarray(0, 4)]).toEqual([0x04, 0x22, 0x4d, 0x18]);
    let offset = 4;
    const flg = compressed[offset++]!;
    expect((flg >>> 6) & 3).toBe(1);
    expect(flg & 3).toBe(0);
    expect((flg >>> 5) & 1).toBe(1); // block independence, which Lz4BlockInputStream requires (FLG.validate)
    const bd = compressed[offset++]!;
    const blockMaxSize = (bd >>> 4) & 7;
    expect(blockMaxSize).toBeGreaterThanOrEqual(4);
    expect(blockMaxSize).toBeLessThanOrEqual(7);
    expect(bd & 15).toBe(0);
    expect((bd >>> 7) & 1).toBe(0);
    if (((flg >>> 3) & 1) !== 0) offset += 8;
    const hash = xxhash32(compressed.subarray(4, offset));
    expect(compressed[offset++]).toBe((hash >>> 8) & 0xff);
    expect(compressed.readInt32LE(compressed.length - 4 - ((flg >>> 2) & 1) * 4)).toBe(0);
  });

  it('lz4: testBadFrameChecksum and testHeaderPrematureEnd', () => {
    const compressed = compressRecords('lz4', data);
    const bad = Buffer.from(compressed);
    bad.writeUInt8(bad.readUInt8(6) ^ 0xff, 6);
    expect(() => decompressRecords(ID.lz4, bad)).toThrow();
    expect(() => decompressRecords(ID.lz4, compressed.subarray(0, 5))).toThrow();
  });
});
