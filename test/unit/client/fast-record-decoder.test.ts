import fc from 'fast-check';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { fastRecordDecoder, RECORD_DECODER, readSmallVarLong, type KafkaJsBatchContext, type KafkaJsRecordDecoder, type KafkaJsRecordDecoderInput } from '../../../src/cluster/kafkajs/internal/fast-record-decoder.js';
import { sluiceKafkaJs } from '../../../src/cluster/kafkajs/internal/patches.js';

// The pristine kafkajs modules (Node's shared copy, not sluice's patched one).
const req = createRequire(import.meta.url);
const original = req('kafkajs/src/protocol/recordBatch/record/v0/decoder.js') as KafkaJsRecordDecoder;
const encodeRecord = req('kafkajs/src/protocol/recordBatch/record/v0/index.js') as (r: object) => { buffer: Buffer };
const Decoder = req('kafkajs/src/protocol/decoder.js') as new (buffer: Buffer) => KafkaJsRecordDecoderInput;
const Long = req('kafkajs/src/utils/long.js') as Parameters<typeof fastRecordDecoder>[0];
const decodeHeader = req('kafkajs/src/protocol/recordBatch/header/v0/decoder.js') as Parameters<typeof fastRecordDecoder>[1];
const fast = fastRecordDecoder(Long, decodeHeader);

/** The record's bytes without its length prefix, as the batch decoder hands them to the record decoder. */
function recordBytes(record: object): Buffer {
  const bytes = new Decoder(encodeRecord(record).buffer).readVarIntBytes();
  if (bytes === null) throw new Error('the encoder wrote no record');
  return bytes;
}

/** Both decoders on the same bytes: the same record, and both end at the same position. */
function decodeBoth(bytes: Buffer, context: KafkaJsBatchContext): [unknown, unknown] {
  const a = new Decoder(bytes);
  const b = new Decoder(bytes);
  const expected = original(a, context);
  const actual = fast(b, { ...context });
  expect(b.offset).toBe(a.offset);
  return [actual, expected];
}

const bytesOrNull = fc.option(fc.uint8Array({ maxLength: 20 }).map((u) => Buffer.from(u)), { nil: null });
const headerName = fc.oneof(fc.constantFrom('a', 'b', '__proto__', 'toString', 'constructor'), fc.string({ maxLength: 4 }));

describe('fast record decoder (issue 32)', () => {
  it('decodes every record exactly as kafkajs does (offsets, timestamps, key, value, repeated and odd header names)', () => {
    fc.assert(
      fc.property(
        fc.record({
          offsetDelta: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
          timestampDelta: fc.oneof(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), fc.constantFrom(2 ** 52, -(2 ** 52), 2 ** 48, -(2 ** 48) - 1)),
          key: bytesOrNull,
          value: bytesOrNull,
          headers: fc.array(fc.tuple(headerName, fc.uint8Array({ maxLength: 4 })), { maxLength: 4 }),
        }),
        fc.record({
          firstOffset: fc.oneof(fc.nat({ max: 2 ** 40 }).map(String), fc.constantFrom('9007199254740990', '9223372036854775000')),
          firstTimestamp: fc.oneof(fc.integer({ min: -1, max: 2 ** 42 }).map(String), fc.constantFrom('9007199254740991', '-9007199254740000')),
          maxTimestamp: fc.integer({ min: 0, max: 2 ** 42 }).map(String),
          timestampType: fc.constantFrom(0, 1),
          isControlBatch: fc.boolean(),
          magicByte: fc.constant(2),
        }),
        (r, context) => {
          // kafkajs' encoder takes headers as an object (a repeated key: an array of values)
          const headers: Record<string, Buffer[]> = {};
          for (const [k, v] of r.headers) Object.defineProperty(headers, k, { value: [...(Object.hasOwn(headers, k) ? (headers[k] as Buffer[]) : []), Buffer.from(v)], enumerable: true, configurable: true, writable: true });
          const bytes = recordBytes({ offsetDelta: r.offsetDelta, timestampDelta: Long.fromValue(r.timestampDelta), key: r.key, value: r.value, headers });
          const [actual, expected] = decodeBoth(bytes, context);
          expect(actual).toEqual(expected);
          expect(Object.keys(actual as object)).toEqual(Object.keys(expected as object));
          const actualHeaders = (actual as { headers: object }).headers;
          const expectedHeaders = (expected as { headers: object }).headers;
          expect(Object.getOwnPropertyNames(actualHeaders)).toEqual(Object.getOwnPropertyNames(expectedHeaders));
          expect(Object.getPrototypeOf(actualHeaders)).toBe(Object.getPrototypeOf(expectedHeaders));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives the offsets and timestamps as strings, beyond 2^53 through Long as kafkajs', () => {
    const bytes = recordBytes({ offsetDelta: 7, timestampDelta: Long.fromValue(3), key: Buffer.from('k'), value: Buffer.from('v') });
    const [actual] = decodeBoth(bytes, { firstOffset: '9223372036854775800', firstTimestamp: '1700000000000', timestampType: 0 });
    expect(actual).toMatchObject({ offset: '9223372036854775807', timestamp: '1700000000003' });
  });

  it('reads small zigzag varlongs into numbers and leaves large ones to kafkajs', () => {
    const small = new Decoder(Buffer.from([0x03, 0xff]));
    expect(readSmallVarLong(small)).toBe(-2);
    expect(small.offset).toBe(1);
    const nineBytes = new Decoder(Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]));
    expect(readSmallVarLong(nineBytes)).toBeUndefined();
    expect(nineBytes.offset).toBe(0);
  });

  it("is the record decoder of sluice's private kafkajs copy", () => {
    const { internals } = sluiceKafkaJs();
    const installed = internals.load<KafkaJsRecordDecoder>(RECORD_DECODER);
    expect(installed).not.toBe(original);
    const bytes = recordBytes({ offsetDelta: 1, timestampDelta: Long.fromValue(2), key: Buffer.from('k'), value: null, headers: { h: Buffer.from('x') } });
    expect(installed(new Decoder(bytes), { firstOffset: '10', firstTimestamp: '100', timestampType: 0 })).toEqual(original(new Decoder(bytes), { firstOffset: '10', firstTimestamp: '100', timestampType: 0 }));
  });
});
