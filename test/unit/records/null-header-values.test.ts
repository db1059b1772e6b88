/**
 * Issue 29 item 5: a header with a null value is carried as Kafka carries it
 * (the record format writes the header value length as -1; a consumer reads
 * it back as null). Each step a record takes: the producer's checks and wire
 * form, the shared batch encoder, the embedded cluster's decoder and log, the
 * kafkajs record decoder, the suppression buffer's changelog format, and the
 * cache's size estimate.
 */
import { describe, expect, it } from 'vitest';
import { decodeBatch } from '../../../src/cluster/embedded/internal/record-batch.js';
import { EmbeddedKafkaCluster } from '../../../src/cluster/embedded/embedded-cluster.js';
import { sluiceKafkaJs } from '../../../src/cluster/kafkajs/internal/patches.js';
import { checkProducerRecord } from '../../../src/eos/internal/record-checks.js';
import { singleRecordBatchSize, toWireRecord } from '../../../src/eos/internal/record-size.js';
import { decodeBufferValue, encodeBufferValue, bufferValue, recordSize } from '../../../src/processors/dsl/suppress-buffer-value.js';
import { encodeRecordBatch, RECORD_BATCH_HEADER_SIZE } from '../../../src/records/record-batch-encoder.js';
import { headersError } from '../../../src/records/record-checks.js';

const now = 1_700_000_000_000;
const { internals } = sluiceKafkaJs();
type KafkaJsDecoder = new (buffer: Buffer) => unknown;
const Decoder = internals.load<KafkaJsDecoder>('protocol/decoder.js');
const decodeKafkaJsRecord = internals.load<(decoder: unknown, batchContext?: unknown) => { headers: Record<string, unknown> }>('protocol/recordBatch/record/v0/decoder.js');

describe('null header values (Kafka allows them)', () => {
  it('are accepted by the producer checks and the driver checks; other non-bytes values are still refused', () => {
    expect(checkProducerRecord({ topic: 't', value: 'v', headers: { bar: null } })).toBeNull();
    expect(headersError({ bar: null, foo: 'x' }, 't')).toBeNull();
    expect(headersError({ n: 5 }, 't')?.message).toMatch(/Header 'n' of a record for topic 't' is number 5; header values must be a string, a Buffer or null/);
  });

  it('stay null in the wire form (not an empty Buffer), and the size estimate is exact: 1 byte for the -1 length', () => {
    const wire = toWireRecord({ topic: 't', key: 'k', value: 'v', headers: { bar: null }, timestamp: now }, now);
    expect(wire.headers).toEqual({ bar: null });
    const encoded = encodeRecordBatch([wire], { baseTimestamp: now });
    expect(singleRecordBatchSize(wire)).toBe(encoded.length);
    // body: attr tsDelta offDelta kLen k vLen v headerCount hkLen 'bar'(3) hvLen(-1) = 13, plus its length varint
    expect(encoded.length).toBe(RECORD_BATCH_HEADER_SIZE + 1 + 13);
  });

  it('are written with length -1 and decoded as null by the embedded decoder and by kafkajs', () => {
    const bytes = encodeRecordBatch([{ key: null, value: Buffer.from('v'), headers: { foo: Buffer.from('value'), bar: null }, timestamp: now }], { baseTimestamp: now });
    // The last bytes of the only record: header 'bar', then its value length -1 (zig-zag varint 0x01), nothing after.
    expect(bytes.subarray(bytes.length - 5)).toEqual(Buffer.from([0x06, 0x62, 0x61, 0x72, 0x01]));
    const batch = decodeBatch(bytes);
    expect(batch.records[0]?.headers).toEqual([
      { key: 'foo', value: Buffer.from('value') },
      { key: 'bar', value: null },
    ]);
    // kafkajs' own record decoder (after the record's 1-byte length varint)
    const record = decodeKafkaJsRecord(new Decoder(bytes.subarray(RECORD_BATCH_HEADER_SIZE + 1)), { firstOffset: '0', firstTimestamp: String(now), magicByte: 2 });
    expect(record.headers).toEqual({ foo: Buffer.from('value'), bar: null });
  });

  it('are read back as null from the embedded cluster (no longer an empty Buffer)', async () => {
    const cluster = new EmbeddedKafkaCluster({ tickIntervalMs: 0 });
    try {
      await cluster.admin().createTopic('t', { partitions: 1, config: {} });
      await cluster.produce('t', [{ key: 'k', value: 'v', headers: { foo: 'x', bar: null } }]);
      const [read] = await cluster.readCommitted('t');
      expect(read?.headers).toEqual({ foo: Buffer.from('x'), bar: null });
    } finally {
      await cluster.close();
    }
  });

  it('survive the suppression buffer changelog format and count 0 bytes in its size estimate', () => {
    const context = { timestamp: 5, offset: 7, topic: 'in', partition: 0, headers: { foo: 'x', bar: null, baz: Buffer.from([1, 2]) } };
    const value = bufferValue(null, null, Buffer.from('v'), context);
    const decoded = decodeBufferValue(encodeBufferValue(9, value), 'store');
    expect(decoded.value.context.headers).toEqual({ foo: 'x', bar: null, baz: Buffer.from([1, 2]) });
    const withoutNull = bufferValue(null, null, Buffer.from('v'), { ...context, headers: { foo: 'x', baz: Buffer.from([1, 2]) } });
    // Kafka's ProcessorRecordContext.residentMemorySizeEstimate: the key's chars, and the value's bytes only when not null
    expect(recordSize(Buffer.from('k'), value) - recordSize(Buffer.from('k'), withoutNull)).toBe('bar'.length);
  });
});
