/**
 * Ports of Kafka's windowed-serde tests (streams/src/test/java/org/apache/kafka/streams/kstream/):
 * WindowedSerdesTest, TimeWindowedSerializerTest, TimeWindowedDeserializerTest,
 * SessionWindowedSerializerTest, SessionWindowedDeserializerTest; then the
 * byte layout: against test/fixtures/kafka-windowed-serdes.json, written by
 * Kafka Streams 4.4.0's own serializers (scripts/java/windowed-serde-fixtures.jsh),
 * and against bytes computed by hand from Kafka's layout
 * (`TimeWindowedSerializer`: key | start; `SessionWindowedSerializer`:
 * key | end | start; longs big-endian).
 *
 * Not ported, as they test what TypeScript has no counterpart of: the
 * no-arg constructors and their NPE on use (a sluice windowed serde is only
 * made by a factory that refuses a missing inner serde: tested instead),
 * `close()` (a sluice serde has none), and every `configure(props)` case
 * (`windowed.inner.class.serde`, `window.size.ms`: a serde is configured by
 * its factory's arguments, never by class names in properties):
 * TimeWindowedSerializerTest.shouldSetWindowedInnerClassSerialiserThroughConfig,
 * .shouldThrowErrorIfWindowedInnerClassSerialiserIsNotSet,
 * .shouldThrowErrorIfWindowedInnerClassSerialisersConflictInConstructorAndConfig,
 * .shouldThrowConfigExceptionWhenInvalidWindowedInnerClassSerialiserSupplied;
 * TimeWindowedDeserializerTest.shouldSetWindowSizeAndWindowedInnerDeserialiserThroughConfigs,
 * .shouldThrowErrorIfWindowSizeSetInConfigsAndConstructor, .shouldThrowErrorIfWindowSizeIsNotSet,
 * .shouldThrowErrorIfWindowedInnerClassDeserialiserIsNotSet,
 * .shouldThrowErrorIfWindowedInnerClassDeserialisersConflictInConstructorAndConfig,
 * .shouldThrowConfigExceptionWhenInvalidWindowedInnerClassDeserialiserSupplied;
 * the four like them of SessionWindowedSerializerTest and SessionWindowedDeserializerTest;
 * WindowedSerdesTest's four ...ShouldNotThrowOnCloseIfNotInitializedProperly.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IllegalArgumentError, Serdes, SessionWindow, TimeWindow, Windowed, WindowedSerdes } from '../../../../src/index.js';

const topic = 'sample';
const LONG_MAX = 2 ** 63; // Java's Long.MAX_VALUE as sluice reads it

describe('WindowedSerdes (WindowedSerdesTest)', () => {
  // WindowedSerdesTest.shouldWrapForTimeWindowedSerde
  it('wraps the inner serde for time windows', () => {
    const serde = WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), LONG_MAX);
    expect(serde.name).toBe('TimeWindowed(String)');
    // the inner String serializer writes the key, the window start follows
    expect(serde.serialize(topic, Windowed.of('a', TimeWindow.of(0, LONG_MAX)))?.toString('hex')).toBe('61' + '0000000000000000');
  });

  // WindowedSerdesTest.shouldWrapForSessionWindowedSerde
  it('wraps the inner serde for session windows', () => {
    const serde = WindowedSerdes.sessionWindowedSerdeFrom(Serdes.String());
    expect(serde.name).toBe('SessionWindowed(String)');
    expect(serde.serialize(topic, Windowed.of('a', SessionWindow.of(0, 0)))?.toString('hex')).toBe('61' + '0000000000000000' + '0000000000000000');
  });

  // WindowedSerdesTest.testTimeWindowSerdeFrom
  it('round-trips a time-windowed key', () => {
    const timeWindowed = Windowed.of(10, TimeWindow.of(0, LONG_MAX));
    const timeWindowedSerde = WindowedSerdes.timeWindowedSerdeFrom(Serdes.Integer(), LONG_MAX);
    const bytes = timeWindowedSerde.serialize(topic, timeWindowed);
    const windowed = timeWindowedSerde.deserialize(topic, bytes as Buffer);
    expect(windowed).toEqual(timeWindowed);
  });

  // WindowedSerdesTest.testSessionWindowedSerdeFrom
  it('round-trips a session-windowed key', () => {
    const sessionWindowed = Windowed.of(10, SessionWindow.of(0, 1));
    const sessionWindowedSerde = WindowedSerdes.sessionWindowedSerdeFrom(Serdes.Integer());
    const bytes = sessionWindowedSerde.serialize(topic, sessionWindowed);
    const windowed = sessionWindowedSerde.deserialize(topic, bytes as Buffer);
    expect(windowed).toEqual(sessionWindowed);
  });

  // WindowedSerdesTest.timeWindowedSerializerShouldThrowNpeIfNotInitializedProperly (and the other five
  // ...ShouldThrowNpe...IfNotInitializedProperly): Kafka's no-arg constructor leaves the inner serde null and
  // fails on use; sluice's factories refuse a missing inner serde at once, naming the fix.
  it('refuses a windowed serde without an inner serde', () => {
    expect(() => WindowedSerdes.timeWindowedSerdeFrom(undefined as never, 1)).toThrow(IllegalArgumentError);
    expect(() => WindowedSerdes.timeWindowedSerdeFrom(null as never, 1)).toThrow(/timeWindowedSerdeFrom: give the serde of the inner key/);
    expect(() => WindowedSerdes.sessionWindowedSerdeFrom(undefined as never)).toThrow(/sessionWindowedSerdeFrom: give the serde of the inner key/);
  });
});

describe('TimeWindowedSerializer / TimeWindowedDeserializer (TimeWindowedSerializerTest, TimeWindowedDeserializerTest)', () => {
  // TimeWindowedSerializerTest.testTimeWindowedSerializerConstructor: the inner serializer is the String one
  it('serializes the key with the inner serializer', () => {
    const serde = WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), 5000000);
    const bytes = serde.serialize(topic, Windowed.of('key', TimeWindow.of(7, 5000007))) as Buffer;
    expect(bytes.subarray(0, 3).toString('utf8')).toBe('key');
  });

  // TimeWindowedDeserializerTest.testTimeWindowedDeserializerConstructor: inner String, window size 5000000
  it('deserializes with the inner deserializer and the window size', () => {
    const windowSize = 5000000;
    const serde = WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), windowSize);
    const windowed = serde.deserialize(topic, Buffer.from('6b6579' + '0000000000000064', 'hex'));
    expect(windowed).toEqual({ key: 'key', window: { start: 100, end: 100 + windowSize } });
  });

  it('caps the end at Long.MAX_VALUE (Kafka timeWindowForSize)', () => {
    const serde = WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), LONG_MAX);
    expect(serde.deserialize(topic, Buffer.from('6b' + '00000000000003e8', 'hex')).window).toEqual({ start: 1000, end: LONG_MAX });
  });

  it('null in, null out (Kafka returns null for null)', () => {
    const serde = WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), 10);
    expect(serde.serialize(topic, null as never)).toBeNull();
    expect(serde.deserialize(topic, null as never)).toBeNull();
  });

  it('refuses a window size that is not a positive whole number of ms', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), bad)).toThrow(/windowSizeMs must be a positive integer/);
    }
  });
});

describe('SessionWindowedSerializer / SessionWindowedDeserializer (SessionWindowedSerializerTest, SessionWindowedDeserializerTest)', () => {
  // SessionWindowedSerializerTest.testSessionWindowedSerializerConstructor
  it('serializes the key with the inner serializer', () => {
    const serde = WindowedSerdes.sessionWindowedSerdeFrom(Serdes.String());
    const bytes = serde.serialize(topic, Windowed.of('key', SessionWindow.of(1, 2))) as Buffer;
    expect(bytes.subarray(0, 3).toString('utf8')).toBe('key');
  });

  // SessionWindowedDeserializerTest.testSessionWindowedDeserializerConstructor
  it('deserializes with the inner deserializer', () => {
    const serde = WindowedSerdes.sessionWindowedSerdeFrom(Serdes.String());
    const windowed = serde.deserialize(topic, Buffer.from('6b6579' + '00000000000007d0' + '00000000000003e8', 'hex'));
    expect(windowed).toEqual({ key: 'key', window: { start: 1000, end: 2000 } });
  });

  it('null in, null out', () => {
    const serde = WindowedSerdes.sessionWindowedSerdeFrom(Serdes.String());
    expect(serde.serialize(topic, null as never)).toBeNull();
    expect(serde.deserialize(topic, null as never)).toBeNull();
  });
});

describe("Kafka's byte layout, computed by hand", () => {
  // TimeWindowedSerializer.serialize → WindowKeySchema.toBinary: key bytes | start as 8-byte big-endian long
  it('time windows: key | start', () => {
    const serde = WindowedSerdes.timeWindowedSerdeFrom(Serdes.String(), 60_000);
    const start = 1_764_547_200_000; // 2025-12-01T00:00:00Z = 0x0000019ad7358400
    const expected = Buffer.concat([Buffer.from('user-1', 'utf8'), Buffer.from('0000019ad7358400', 'hex')]);
    expect(Buffer.from('0000019ad7358400', 'hex').readBigInt64BE()).toBe(BigInt(start));
    expect(serde.serialize(topic, Windowed.of('user-1', TimeWindow.of(start, start + 60_000)))?.toString('hex')).toBe(expected.toString('hex'));
    // the end is not written: reading gives start + window size
    expect(serde.deserialize(topic, expected)).toEqual({ key: 'user-1', window: { start, end: start + 60_000 } });
    // Long key (Serdes.Long: 8 bytes big-endian) -1 at start 256
    const longs = WindowedSerdes.timeWindowedSerdeFrom(Serdes.Long(), 1);
    expect(longs.serialize(topic, Windowed.of(-1, TimeWindow.of(256, 257)))?.toString('hex')).toBe('ffffffffffffffff' + '0000000000000100');
  });

  // SessionWindowedSerializer.serialize → SessionKeySchema.toBinary: key bytes | end | start
  it('session windows: key | end | start', () => {
    const serde = WindowedSerdes.sessionWindowedSerdeFrom(Serdes.String());
    expect(serde.serialize(topic, Windowed.of('k', SessionWindow.of(1000, 2000)))?.toString('hex')).toBe('6b' + '00000000000007d0' + '00000000000003e8');
    expect(serde.serialize(topic, Windowed.of('k', SessionWindow.of(5, 5)))?.toString('hex')).toBe('6b' + '0000000000000005' + '0000000000000005');
    // an empty key keeps only the two longs
    expect(serde.serialize(topic, Windowed.of('', SessionWindow.of(0, LONG_MAX)))?.toString('hex')).toBe('7fffffffffffffff' + '0000000000000000');
    expect(serde.deserialize(topic, Buffer.from('7fffffffffffffff' + '0000000000000000', 'hex'))).toEqual({ key: '', window: { start: 0, end: LONG_MAX } });
  });
});

interface FixtureCase {
  kind: 'time' | 'session';
  inner: 'String' | 'Long';
  windowSizeMs?: number;
  key: string | number;
  start: number;
  end: number;
  hex: string;
}

describe('the bytes Kafka Streams writes (test/fixtures/kafka-windowed-serdes.json)', () => {
  const fixture = JSON.parse(readFileSync(new URL('../../../fixtures/kafka-windowed-serdes.json', import.meta.url), 'utf8')) as { cases: FixtureCase[] };

  it('has cases of both kinds', () => {
    expect(fixture.cases.filter((c) => c.kind === 'time').length).toBeGreaterThanOrEqual(4);
    expect(fixture.cases.filter((c) => c.kind === 'session').length).toBeGreaterThanOrEqual(4);
  });

  for (const c of fixture.cases) {
    it(`${c.kind} ${c.inner} ${JSON.stringify(c.key)} [${c.start}, ${c.end}]: sluice writes Java's bytes and reads them back`, () => {
      const inner = (c.inner === 'String' ? Serdes.String() : Serdes.Long()) as ReturnType<typeof Serdes.String>;
      const serde =
        c.kind === 'time' ? WindowedSerdes.timeWindowedSerdeFrom(inner, c.windowSizeMs ?? 1) : WindowedSerdes.sessionWindowedSerdeFrom(inner);
      const window = c.kind === 'time' ? TimeWindow.of(c.start, c.end) : SessionWindow.of(c.start, c.end);
      const windowed = Windowed.of(c.key as string, window);
      expect(serde.serialize(topic, windowed)?.toString('hex')).toBe(c.hex);
      expect(serde.deserialize(topic, Buffer.from(c.hex, 'hex'))).toEqual(windowed);
    });
  }
});
