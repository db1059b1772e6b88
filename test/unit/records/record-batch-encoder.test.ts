import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBatch, encodeBatch } from '../../../src/cluster/embedded/internal/record-batch.js';
import { sluiceKafkaJs } from '../../../src/cluster/kafkajs/internal/patches.js';
import { encodeProduceBody, type KafkaJsProduceArgs } from '../../../src/cluster/kafkajs/internal/produce-request.js';
import { crc32c, crc32cIsNative, crc32cPortable } from '../../../src/records/crc32c.js';
import { encodeRecordBatch } from '../../../src/records/record-batch-encoder.js';

const { internals } = sluiceKafkaJs();
const requestV7 = internals.load<(args: Record<string, unknown>) => { encode(): Promise<{ buffer: Buffer }> }>('protocol/requests/produce/v7/request.js');
const Long = internals.load<{ fromValue(v: string | number): { toString(): string } }>('utils/long.js');

const bytesArb = fc.option(fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)), { nil: null });
const recordArb = fc.record({
  key: bytesArb,
  value: bytesArb,
  headers: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.uint8Array({ maxLength: 20 }).map((a) => Buffer.from(a)), { maxKeys: 3 }),
  timestamp: fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }),
});

describe('CRC32C', () => {
  it('gives the check value of "123456789" (0xE3069283), natively and portably', () => {
    expect(crc32cIsNative).toBe(true); // @node-rs/crc32 ships a prebuilt binary for this platform
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
    expect(crc32cPortable(Buffer.from('123456789'))).toBe(0xe3069283);
  });

  it('native and portable agree on any bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 2000 }), (a) => crc32c(a) === crc32cPortable(a)));
  });
});

describe('encodeRecordBatch (the one v2 record-batch encoder)', () => {
  it('decodes back with the embedded cluster decoder: records, timestamps, producer fields, a valid CRC', () => {
    fc.assert(
      fc.property(fc.array(recordArb, { minLength: 1, maxLength: 20 }), fc.integer({ min: 0, max: 2 ** 40 }), (records, pid) => {
        const bytes = encodeRecordBatch(records, { producerId: BigInt(pid), producerEpoch: 3, baseSequence: 7, attributes: 0x10 });
        const batch = decodeBatch(bytes);
        expect(batch.producerId).toBe(pid);
        expect(batch.producerEpoch).toBe(3);
        expect(batch.baseSequence).toBe(7);
        expect(batch.attributes).toBe(0x10);
        expect(batch.recordCount).toBe(records.length);
        expect(batch.maxTimestamp).toBe(Math.max(...records.map((r) => r.timestamp)));
        batch.records.forEach((r, i) => {
          const src = records[i]!;
          expect(r.key).toEqual(src.key);
          expect(r.value).toEqual(src.value);
          expect(batch.baseTimestamp + r.timestampDelta).toBe(src.timestamp);
          expect(r.offsetDelta).toBe(i);
          expect(Object.fromEntries(r.headers.map((h) => [h.key, h.value]))).toEqual(src.headers);
        });
      }),
    );
  });

  it('writes the same bytes as the embedded cluster encoder it replaced', () => {
    fc.assert(
      fc.property(fc.array(recordArb, { minLength: 1, maxLength: 10 }), (records) => {
        const legacy = encodeBatch({ records: records.map((r) => ({ ...r, headers: Object.entries(r.headers).map(([key, value]) => ({ key, value })) })) });
        expect(encodeRecordBatch(records)).toEqual(legacy);
      }),
    );
  });
});

describe('Produce request body (sluice encoder) against kafkajs v7 encoder', () => {
  const args = (records: Array<{ key: Buffer | null; value: Buffer | null; headers: Record<string, Buffer>; timestamp: number }>, transactional: boolean): KafkaJsProduceArgs => ({
    acks: -1,
    timeout: 30_000,
    transactionalId: transactional ? 'app-0_1' : null,
    producerId: Long.fromValue('123456789012'),
    producerEpoch: 4,
    topicData: [
      { topic: 'out', partitions: [{ partition: 3, firstSequence: 42, messages: records.map((r) => ({ ...r, timestamp: String(r.timestamp) })) }] },
      { topic: 'other-topic', partitions: [{ partition: 0, firstSequence: 0, messages: records.slice(0, 1).map((r) => ({ ...r, timestamp: String(r.timestamp) })) }] },
    ],
  });

  it('is byte-identical for any records, transactional or not', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(recordArb, { minLength: 1, maxLength: 15 }), fc.boolean(), async (records, transactional) => {
        const a = args(records, transactional);
        const theirs = (await requestV7(a as unknown as Record<string, unknown>).encode()).buffer;
        expect(encodeProduceBody(a)).toEqual(theirs);
      }),
      { numRuns: 60 },
    );
  });
});

describe('Produce request body: timestamps', () => {
  it('keeps a timestamp of 0 (number or string) and stamps only a missing one with the request time', () => {
    const body = (timestamp: number | string | undefined): KafkaJsProduceArgs => ({
      acks: -1,
      timeout: 1000,
      topicData: [{ topic: 't', partitions: [{ partition: 0, messages: [{ key: null, value: Buffer.from('v'), timestamp }] }] }],
    });
    const batchOf = (args: KafkaJsProduceArgs) => {
      const bytes = encodeProduceBody(args, 12_345);
      // transactional id (-1), acks, timeout, 1 topic ('t'), 1 partition, partition 0, record-set size, then the batch
      return decodeBatch(bytes.subarray(2 + 2 + 4 + 4 + 2 + 1 + 4 + 4 + 4));
    };
    expect(batchOf(body(0)).baseTimestamp).toBe(0);
    expect(batchOf(body('0')).baseTimestamp).toBe(0);
    expect(batchOf(body(200)).baseTimestamp).toBe(200);
    expect(batchOf(body(undefined)).baseTimestamp).toBe(12_345);
  });
});
