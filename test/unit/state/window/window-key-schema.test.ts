/**
 * Port of Kafka's WindowKeySchemaTest (org.apache.kafka.streams.state.internals),
 * the `SchemaType.WindowKeySchema` cases, inputs and expected outputs unchanged.
 * `Long.MAX_VALUE` is {@link LONG_MAX_VALUE} (written as 0x7fff…ff). The
 * windowed-serde cases run on the layout functions the serdes use
 * (`WindowKeySchema.toBinary` / `from` / `fromStoreBytesKey`).
 */
import { describe, expect, it } from 'vitest';
import { Serdes } from '../../../../src/serdes/serdes.js';
import { WindowKeySchema } from '../../../../src/state/window-key-schema.js';
import { INT_MAX_VALUE, LONG_MAX_VALUE } from '../../../../src/state/internal/window-bytes.js';
import type { Windowed } from '../../../../src/state/window-types.js';

const b = (...bytes: number[]): Buffer => Buffer.from(bytes);
const key = 'key';
const topic = 'topic';
const startTime = 50;
const endTime = 100;
const serde = Serdes.String();
const window = { start: startTime, end: endTime };
const windowedKey: Windowed<string> = { key, window };
const toStoreKeyBinary = WindowKeySchema.toStoreKeyBinary;
const win = (k: Buffer, start: number, end: number): Windowed<Buffer> => ({ key: k, window: { start, end } });

describe('WindowKeySchemaTest (WindowKeySchema)', () => {
  // WindowKeySchemaTest.testHasNextConditionUsingNullKeys
  it('testHasNextConditionUsingNullKeys', () => {
    const keys: Array<[Buffer, number]> = [
      [WindowKeySchema.toStoreKeyBinaryWindowed(win(b(0, 0), 0, 1), 0), 1],
      [WindowKeySchema.toStoreKeyBinaryWindowed(win(b(0), 0, 1), 0), 2],
      [WindowKeySchema.toStoreKeyBinaryWindowed(win(b(0, 0, 0), 0, 1), 0), 3],
      [WindowKeySchema.toStoreKeyBinaryWindowed(win(b(0), 10, 20), 4), 4],
      [WindowKeySchema.toStoreKeyBinaryWindowed(win(b(0, 0), 10, 20), 5), 5],
      [WindowKeySchema.toStoreKeyBinaryWindowed(win(b(0, 0, 0), 10, 20), 6), 6],
    ];
    const hasNext = WindowKeySchema.hasNextCondition(null, null, 0, LONG_MAX_VALUE);
    expect(keys.filter(([k]) => hasNext(k)).map(([, v]) => v)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  // WindowKeySchemaTest.testUpperBoundWithLargeTimestamps
  it('testUpperBoundWithLargeTimestamps', () => {
    const upper = WindowKeySchema.upperRange(b(0xa, 0xb, 0xc), LONG_MAX_VALUE);
    expect(Buffer.compare(upper, toStoreKeyBinary(b(0xa), LONG_MAX_VALUE, INT_MAX_VALUE))).toBeGreaterThanOrEqual(0);
    expect(Buffer.compare(upper, toStoreKeyBinary(b(0xa, 0xb), LONG_MAX_VALUE, INT_MAX_VALUE))).toBeGreaterThanOrEqual(0);
    expect(upper).toEqual(toStoreKeyBinary(b(0xa), LONG_MAX_VALUE, INT_MAX_VALUE));
  });

  // WindowKeySchemaTest.testUpperBoundWithKeyBytesLargerThanFirstTimestampByte
  it('testUpperBoundWithKeyBytesLargerThanFirstTimestampByte', () => {
    const upper = WindowKeySchema.upperRange(b(0xa, 0x8f, 0x9f), LONG_MAX_VALUE);
    expect(Buffer.compare(upper, toStoreKeyBinary(b(0xa, 0x8f), LONG_MAX_VALUE, INT_MAX_VALUE))).toBeGreaterThanOrEqual(0);
    expect(upper).toEqual(toStoreKeyBinary(b(0xa, 0x8f, 0x9f), LONG_MAX_VALUE, INT_MAX_VALUE));
  });

  // WindowKeySchemaTest.testUpperBoundWithKeyBytesLargerAndSmallerThanFirstTimestampByte
  // (0x0AffffffffffffffL is not exact as a JavaScript number; the nearest double keeps the first byte test's outcome)
  it('testUpperBoundWithKeyBytesLargerAndSmallerThanFirstTimestampByte', () => {
    const ts = Number(0x0affffffffffffffn);
    const upper = WindowKeySchema.upperRange(b(0xc, 0xc, 0x9), ts);
    expect(Buffer.compare(upper, toStoreKeyBinary(b(0xc, 0xc), ts, INT_MAX_VALUE))).toBeGreaterThanOrEqual(0);
    expect(upper).toEqual(toStoreKeyBinary(b(0xc, 0xc), ts, INT_MAX_VALUE));
  });

  // WindowKeySchemaTest.testUpperBoundWithZeroTimestamp
  it('testUpperBoundWithZeroTimestamp', () => {
    const upper = WindowKeySchema.upperRange(b(0xa, 0xb, 0xc), 0);
    expect(upper).toEqual(toStoreKeyBinary(b(0xa, 0xb, 0xc), 0, INT_MAX_VALUE));
  });

  // WindowKeySchemaTest.testLowerBoundWithZeroTimestamp
  it('testLowerBoundWithZeroTimestamp', () => {
    const lower = WindowKeySchema.lowerRange(b(0xa, 0xb, 0xc), 0);
    expect(Buffer.compare(lower, toStoreKeyBinary(b(0xa, 0xb, 0xc, 0x0), 0, 0))).toBeLessThan(0);
    expect(lower).toEqual(toStoreKeyBinary(b(0xa, 0xb, 0xc), 0, 0));
  });

  // WindowKeySchemaTest.testLowerBoundWithNonZeroTimestamp
  it('testLowerBoundWithNonZeroTimestamp', () => {
    const lower = WindowKeySchema.lowerRange(b(0xa, 0xb, 0xc), 42);
    expect(Buffer.compare(lower, toStoreKeyBinary(b(0xa, 0xb, 0xc, 0x0), 43, 0))).toBeLessThan(0);
    expect(lower).toEqual(toStoreKeyBinary(b(0xa, 0xb, 0xc), 0, 0));
  });

  // WindowKeySchemaTest.testLowerBoundMatchesTrailingZeros
  it('testLowerBoundMatchesTrailingZeros', () => {
    const lower = WindowKeySchema.lowerRange(b(0xa, 0xb, 0xc), LONG_MAX_VALUE - 1);
    expect(
      Buffer.compare(lower, toStoreKeyBinary(b(0xa, 0xb, 0xc, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), LONG_MAX_VALUE - 1, 0)),
    ).toBeLessThan(0);
    expect(lower).toEqual(toStoreKeyBinary(b(0xa, 0xb, 0xc), 0, 0));
  });

  // WindowKeySchemaTest.shouldSerializeDeserialize (TimeWindowedSerde with window size Long.MAX_VALUE)
  it('shouldSerializeDeserialize', () => {
    const bytes = WindowKeySchema.toBinary(windowedKey, serde, topic);
    expect(WindowKeySchema.from(bytes, LONG_MAX_VALUE, serde, topic)).toEqual({ key, window: { start: startTime, end: LONG_MAX_VALUE } });
  });

  // WindowKeySchemaTest.testSerializeDeserializeOverflowWindowSize
  it('testSerializeDeserializeOverflowWindowSize', () => {
    const bytes = WindowKeySchema.toBinary(windowedKey, serde, topic);
    expect(WindowKeySchema.from(bytes, LONG_MAX_VALUE - 1, serde, topic)).toEqual({ key, window: { start: startTime, end: LONG_MAX_VALUE } });
  });

  // WindowKeySchemaTest.shouldSerializeDeserializeExpectedWindowSize
  it('shouldSerializeDeserializeExpectedWindowSize', () => {
    const bytes = WindowKeySchema.toBinary(windowedKey, serde, topic);
    expect(WindowKeySchema.from(bytes, endTime - startTime, serde, topic)).toEqual(windowedKey);
  });

  // WindowKeySchemaTest.shouldSerializeDeserializeExpectedChangelogWindowSize (changelog keys read with their window size)
  it('shouldSerializeDeserializeExpectedChangelogWindowSize', () => {
    const keys: Array<[Buffer, number]> = [
      [WindowKeySchema.toStoreKeyBinaryWindowed(win(b(0), 0, 1), 0), 1],
      [WindowKeySchema.toStoreKeyBinaryWindowed(win(b(0, 0), 0, 10), 0), 10],
      [WindowKeySchema.toStoreKeyBinaryWindowed(win(b(0, 0, 0), 10, 30), 6), 20],
    ];
    const results = keys.map(([k, size]) => {
      const w = WindowKeySchema.fromStoreKey(k, size, Serdes.ByteArray(), topic).window;
      return w.end - w.start;
    });
    expect(results).toEqual([1, 10, 20]);
  });

  // WindowKeySchemaTest.shouldConvertToBinaryAndBack
  it('shouldConvertToBinaryAndBack', () => {
    const serialized = WindowKeySchema.toStoreKeyBinaryTyped(windowedKey, 0, serde, 'dummy');
    expect(WindowKeySchema.fromStoreKey(serialized, endTime - startTime, serde, 'dummy')).toEqual(windowedKey);
  });

  // WindowKeySchemaTest.shouldExtractSequenceFromBinary
  it('shouldExtractSequenceFromBinary', () => {
    const serialized = WindowKeySchema.toStoreKeyBinaryTyped(windowedKey, 0, serde, 'dummy');
    expect(WindowKeySchema.extractStoreSequence(serialized)).toBe(0);
  });

  // WindowKeySchemaTest.shouldExtractStartTimeFromBinary
  it('shouldExtractStartTimeFromBinary', () => {
    const serialized = WindowKeySchema.toStoreKeyBinaryTyped(windowedKey, 0, serde, 'dummy');
    expect(WindowKeySchema.extractStoreTimestamp(serialized)).toBe(startTime);
  });

  // WindowKeySchemaTest.shouldExtractWindowFromBinary
  it('shouldExtractWindowFromBinary', () => {
    const serialized = WindowKeySchema.toStoreKeyBinaryTyped(windowedKey, 0, serde, 'dummy');
    expect(WindowKeySchema.extractStoreWindow(serialized, endTime - startTime)).toEqual(window);
  });

  // WindowKeySchemaTest.shouldExtractKeyBytesFromBinary
  it('shouldExtractKeyBytesFromBinary', () => {
    const serialized = WindowKeySchema.toStoreKeyBinaryTyped(windowedKey, 0, serde, 'dummy');
    expect(WindowKeySchema.extractStoreKeyBytes(serialized)).toEqual(Buffer.from(key));
  });

  // WindowKeySchemaTest.shouldExtractBytesKeyFromBinary
  it('shouldExtractBytesKeyFromBinary', () => {
    const windowedBytesKey = win(Buffer.from(key), startTime, endTime);
    const serialized = WindowKeySchema.toStoreKeyBinaryWindowed(windowedBytesKey, 0);
    expect(WindowKeySchema.fromStoreBytesKey(serialized, endTime - startTime)).toEqual(windowedBytesKey);
  });

  // Kafka's byte layout, spelled out: key | start (8, big-endian) | seqnum (4, big-endian)
  it('lays store keys out as Kafka does', () => {
    expect(toStoreKeyBinary(Buffer.from('k'), 0x0102, 7).toString('hex')).toBe('6b' + '0000000000000102' + '00000007');
    expect(WindowKeySchema.toBinary({ key: 'k', window: { start: 5, end: 10 } }, serde, topic).toString('hex')).toBe('6b' + '0000000000000005');
  });
});
