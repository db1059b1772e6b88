/**
 * Port of Kafka's SessionKeySchemaTest (org.apache.kafka.streams.state.internals),
 * the `SchemaType.SessionKeySchema` cases, inputs and expected outputs unchanged.
 * `Long.MAX_VALUE` is {@link LONG_MAX_VALUE}; `SessionWindowedSerde` round trips
 * run on the layout functions it uses (`SessionKeySchema.toBinary` / `from`).
 */
import { describe, expect, it } from 'vitest';
import { Serdes } from '../../../../src/serdes/serdes.js';
import { SessionKeySchema } from '../../../../src/state/session-key-schema.js';
import { LONG_MAX_VALUE } from '../../../../src/state/internal/window-bytes.js';
import type { Windowed } from '../../../../src/state/window-types.js';

const b = (...bytes: number[]): Buffer => Buffer.from(bytes);
const key = 'key';
const topic = 'topic';
const startTime = 50;
const endTime = 100;
const serde = Serdes.String();
const window = { start: startTime, end: endTime };
const windowedKey: Windowed<string> = { key, window };
const toBinary = SessionKeySchema.toBinaryWindowed;
const win = (k: Buffer, start: number, end: number): Windowed<Buffer> => ({ key: k, window: { start, end } });

const keys: Array<[Buffer, number]> = [
  [toBinary(win(b(0, 0), 0, 0)), 1],
  [toBinary(win(b(0), 0, 0)), 2],
  [toBinary(win(b(0, 0, 0), 0, 0)), 3],
  [toBinary(win(b(0), 10, 20)), 4],
  [toBinary(win(b(0, 0), 10, 20)), 5],
  [toBinary(win(b(0, 0, 0), 10, 20)), 6],
];
const values = (condition: (k: Buffer) => boolean): number[] => keys.filter(([k]) => condition(k)).map(([, v]) => v);

describe('SessionKeySchemaTest (SessionKeySchema)', () => {
  // SessionKeySchemaTest.shouldFetchExactKeysSkippingLongerKeys
  it('shouldFetchExactKeysSkippingLongerKeys', () => {
    const k = b(0);
    expect(values(SessionKeySchema.hasNextCondition(k, k, 0, LONG_MAX_VALUE))).toEqual([2, 4]);
  });

  // SessionKeySchemaTest.shouldFetchExactKeySkippingShorterKeys
  it('shouldFetchExactKeySkippingShorterKeys', () => {
    const k = b(0, 0);
    expect(values(SessionKeySchema.hasNextCondition(k, k, 0, LONG_MAX_VALUE))).toEqual([1, 5]);
  });

  // SessionKeySchemaTest.shouldFetchAllKeysUsingNullKeys
  it('shouldFetchAllKeysUsingNullKeys', () => {
    expect(values(SessionKeySchema.hasNextCondition(null, null, 0, LONG_MAX_VALUE))).toEqual([1, 2, 3, 4, 5, 6]);
  });

  // SessionKeySchemaTest.testUpperBoundWithLargeTimestamps
  it('testUpperBoundWithLargeTimestamps', () => {
    const upper = SessionKeySchema.upperRange(b(0xa, 0xb, 0xc), LONG_MAX_VALUE);
    expect(Buffer.compare(upper, toBinary(win(b(0xa), LONG_MAX_VALUE, LONG_MAX_VALUE)))).toBeGreaterThanOrEqual(0);
    expect(Buffer.compare(upper, toBinary(win(b(0xa, 0xb), LONG_MAX_VALUE, LONG_MAX_VALUE)))).toBeGreaterThanOrEqual(0);
    expect(upper).toEqual(toBinary(win(b(0xa), LONG_MAX_VALUE, LONG_MAX_VALUE)));
  });

  // SessionKeySchemaTest.testUpperBoundWithKeyBytesLargerThanFirstTimestampByte
  it('testUpperBoundWithKeyBytesLargerThanFirstTimestampByte', () => {
    const upper = SessionKeySchema.upperRange(b(0xa, 0x8f, 0x9f), LONG_MAX_VALUE);
    expect(Buffer.compare(upper, toBinary(win(b(0xa, 0x8f), LONG_MAX_VALUE, LONG_MAX_VALUE)))).toBeGreaterThanOrEqual(0);
    expect(upper).toEqual(toBinary(win(b(0xa, 0x8f, 0x9f), LONG_MAX_VALUE, LONG_MAX_VALUE)));
  });

  // SessionKeySchemaTest.testUpperBoundWithZeroTimestamp
  it('testUpperBoundWithZeroTimestamp', () => {
    const upper = SessionKeySchema.upperRange(b(0xa, 0xb, 0xc), 0);
    expect(upper).toEqual(toBinary(win(b(0xa), 0, LONG_MAX_VALUE)));
  });

  // SessionKeySchemaTest.testLowerBoundWithZeroTimestamp
  it('testLowerBoundWithZeroTimestamp', () => {
    const lower = SessionKeySchema.lowerRange(b(0xa, 0xb, 0xc), 0);
    expect(lower).toEqual(toBinary(win(b(0xa, 0xb, 0xc), 0, 0)));
  });

  // SessionKeySchemaTest.testLowerBoundMatchesTrailingZeros
  it('testLowerBoundMatchesTrailingZeros', () => {
    const lower = SessionKeySchema.lowerRange(b(0xa, 0xb, 0xc), LONG_MAX_VALUE);
    expect(
      Buffer.compare(lower, toBinary(win(b(0xa, 0xb, 0xc, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), LONG_MAX_VALUE, LONG_MAX_VALUE))),
    ).toBeLessThan(0);
    expect(lower).toEqual(toBinary(win(b(0xa, 0xb, 0xc), 0, 0)));
  });

  // SessionKeySchemaTest.shouldSerializeDeserialize
  it('shouldSerializeDeserialize', () => {
    const bytes = SessionKeySchema.toBinary(windowedKey, serde, topic);
    expect(SessionKeySchema.from(bytes, serde, topic)).toEqual(windowedKey);
  });

  // SessionKeySchemaTest.shouldConvertToBinaryAndBack
  it('shouldConvertToBinaryAndBack', () => {
    const serialized = SessionKeySchema.toBinary(windowedKey, serde, 'dummy');
    expect(SessionKeySchema.from(serialized, Serdes.String(), 'dummy')).toEqual(windowedKey);
  });

  // SessionKeySchemaTest.shouldExtractEndTimeFromBinary
  it('shouldExtractEndTimeFromBinary', () => {
    expect(SessionKeySchema.extractEndTimestamp(SessionKeySchema.toBinary(windowedKey, serde, 'dummy'))).toBe(endTime);
  });

  // SessionKeySchemaTest.shouldExtractStartTimeFromBinary
  it('shouldExtractStartTimeFromBinary', () => {
    expect(SessionKeySchema.extractStartTimestamp(SessionKeySchema.toBinary(windowedKey, serde, 'dummy'))).toBe(startTime);
  });

  // SessionKeySchemaTest.shouldExtractWindowFromBindary
  it('shouldExtractWindowFromBindary', () => {
    expect(SessionKeySchema.extractWindow(SessionKeySchema.toBinary(windowedKey, serde, 'dummy'))).toEqual(window);
  });

  // SessionKeySchemaTest.shouldExtractKeyBytesFromBinary
  it('shouldExtractKeyBytesFromBinary', () => {
    expect(SessionKeySchema.extractKeyBytes(SessionKeySchema.toBinary(windowedKey, serde, 'dummy'))).toEqual(Buffer.from(key));
  });

  // SessionKeySchemaTest.shouldExtractKeyFromBinary
  it('shouldExtractKeyFromBinary', () => {
    expect(SessionKeySchema.from(SessionKeySchema.toBinary(windowedKey, serde, 'dummy'), serde, 'dummy')).toEqual(windowedKey);
  });

  // SessionKeySchemaTest.shouldExtractBytesKeyFromBinary
  it('shouldExtractBytesKeyFromBinary', () => {
    const windowedBytesKey = win(Buffer.from(key), startTime, endTime);
    expect(SessionKeySchema.fromBytes(toBinary(windowedBytesKey))).toEqual(windowedBytesKey);
  });

  // Kafka's byte layout, spelled out: key | end (8) | start (8)
  it('lays session keys out as Kafka does', () => {
    expect(SessionKeySchema.toBinaryBytes(Buffer.from('k'), 1, 2).toString('hex')).toBe('6b' + '0000000000000002' + '0000000000000001');
  });
});
