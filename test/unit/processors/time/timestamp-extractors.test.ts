/**
 * Ports of Kafka's extractor tests (streams/src/test/java/org/apache/kafka/streams/processor/):
 * TimestampExtractorTest (the shared metadata case), FailOnInvalidTimestampTest,
 * LogAndSkipOnInvalidTimestampTest, UsePartitionTimeOnInvalidTimestampTest,
 * WallclockTimestampExtractorTest; then sluice's resolution of the accepted shapes.
 */
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { ConfigError, StreamsError } from '../../../../src/errors.js';
import {
  FailOnInvalidTimestamp,
  LogAndSkipOnInvalidTimestamp,
  UsePartitionTimeOnInvalidTimestamp,
  WallclockTimestampExtractor,
  resolveTimestampExtractor,
  type ExtractorRecord,
  type TimestampExtractorObject,
} from '../../../../src/processors/timestamp-extractors.js';

/** Java's `new ConsumerRecord<>(topic, partition, offset, key, value)`: timestamp NO_TIMESTAMP (-1). */
function consumerRecord(topic: string, partition: number, offset: number, timestamp = -1): ExtractorRecord {
  return { topic, partition, offset, key: null, value: null, timestamp, headers: {} };
}

// TimestampExtractorTest.testExtractMetadataTimestamp
function testExtractMetadataTimestamp(extractor: TimestampExtractorObject): void {
  const metadataTimestamp = 42;
  const timestamp = extractor.extract(consumerRecord('anyTopic', 0, 0, metadataTimestamp), 0);
  expect(timestamp).toBe(metadataTimestamp);
}

describe('FailOnInvalidTimestamp (FailOnInvalidTimestampTest)', () => {
  // FailOnInvalidTimestampTest.extractMetadataTimestamp
  it('extracts the metadata timestamp', () => testExtractMetadataTimestamp(new FailOnInvalidTimestamp()));

  // FailOnInvalidTimestampTest.failOnInvalidTimestamp
  it('fails on an invalid timestamp', () => {
    const extractor = new FailOnInvalidTimestamp();
    expect(() => extractor.extract(consumerRecord('anyTopic', 0, 0), 42)).toThrow(StreamsError);
  });

  it('names the record and the extractors to use instead', () => {
    let error: unknown;
    try {
      new FailOnInvalidTimestamp().extract(consumerRecord('anyTopic', 3, 7), 42);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StreamsError);
    expect((error as StreamsError).code).toBe('INVALID_EXTRACTED_TIMESTAMP');
    expect((error as Error).message).toContain('anyTopic-3@7');
    expect((error as Error).message).toContain('has invalid (negative) timestamp -1');
    expect((error as Error).message).toContain('Use a different TimestampExtractor');
    expect((error as Error).message).toContain('LogAndSkipOnInvalidTimestamp');
  });
});

describe('LogAndSkipOnInvalidTimestamp (LogAndSkipOnInvalidTimestampTest)', () => {
  // LogAndSkipOnInvalidTimestampTest.extractMetadataTimestamp
  it('extracts the metadata timestamp', () => testExtractMetadataTimestamp(new LogAndSkipOnInvalidTimestamp()));

  // LogAndSkipOnInvalidTimestampTest.logAndSkipOnInvalidTimestamp
  it('returns the invalid timestamp as it is (the record is then skipped)', () => {
    const invalidMetadataTimestamp = -42;
    const extractor = new LogAndSkipOnInvalidTimestamp();
    const timestamp = extractor.extract(consumerRecord('anyTopic', 0, 0, invalidMetadataTimestamp), 0);
    expect(timestamp).toBe(invalidMetadataTimestamp);
  });

  it('logs a WARN naming the record', () => {
    const lines: Array<{ level: number; msg: string }> = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }) });
    new LogAndSkipOnInvalidTimestamp(logger).extract(consumerRecord('anyTopic', 1, 5, -42), 0);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe(40);
    expect(lines[0]?.msg).toContain('anyTopic-1@5');
    expect(lines[0]?.msg).toContain('will be dropped because it has an invalid (negative) timestamp');
  });
});

describe('UsePartitionTimeOnInvalidTimestamp (UsePartitionTimeOnInvalidTimestampTest)', () => {
  // UsePartitionTimeOnInvalidTimestampTest.extractMetadataTimestamp
  it('extracts the metadata timestamp', () => testExtractMetadataTimestamp(new UsePartitionTimeOnInvalidTimestamp()));

  // UsePartitionTimeOnInvalidTimestampTest.usePartitionTimeOnInvalidTimestamp
  it('uses the partition time for an invalid timestamp', () => {
    const partitionTime = 42;
    const extractor = new UsePartitionTimeOnInvalidTimestamp();
    const timestamp = extractor.extract(consumerRecord('anyTopic', 0, 0), partitionTime);
    expect(timestamp).toBe(partitionTime);
  });

  // UsePartitionTimeOnInvalidTimestampTest.shouldThrowStreamsException
  it('throws when the partition time is unknown', () => {
    const extractor = new UsePartitionTimeOnInvalidTimestamp();
    const record = consumerRecord('anyTopic', 0, 0);
    expect(() => extractor.extract(record, -1)).toThrow(StreamsError);
    expect(() => extractor.extract(record, -1)).toThrow(/because partition time is unknown/);
  });
});

describe('WallclockTimestampExtractor (WallclockTimestampExtractorTest)', () => {
  // WallclockTimestampExtractorTest.extractSystemTimestamp
  it('extracts the system time', () => {
    const extractor = new WallclockTimestampExtractor();
    const before = Date.now();
    const timestamp = extractor.extract();
    const after = Date.now();
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(after);
  });
});

describe('resolveTimestampExtractor', () => {
  const record = consumerRecord('t', 0, 9, 5);

  it('takes an object, its class, or a function, and names each', () => {
    expect(resolveTimestampExtractor(new FailOnInvalidTimestamp(), 'x').name).toBe('FailOnInvalidTimestamp');
    const fromClass = resolveTimestampExtractor(WallclockTimestampExtractor, 'x');
    expect(fromClass.name).toBe('WallclockTimestampExtractor');
    expect(Math.abs(fromClass.extract(record, -1) - Date.now())).toBeLessThan(1000);
    const offsetExtractor = (r: ExtractorRecord): number => r.offset;
    const fn = resolveTimestampExtractor(offsetExtractor, 'x');
    expect(fn.name).toBe('function offsetExtractor');
    expect(fn.extract(record, -1)).toBe(9);
    const literal = resolveTimestampExtractor({ extract: (r: ExtractorRecord, pt: number) => r.timestamp + pt }, 'x');
    expect(literal.extract(record, 10)).toBe(15);
    expect(resolveTimestampExtractor(fn, 'x')).toBe(fn);
  });

  it('refuses anything else with a ConfigError naming the setting', () => {
    for (const bad of [null, 42, 'WallclockTimestampExtractor', {}]) {
      expect(() => resolveTimestampExtractor(bad, "Config 'defaultTimestampExtractor'")).toThrow(ConfigError);
      expect(() => resolveTimestampExtractor(bad, "Config 'defaultTimestampExtractor'")).toThrow(/Config 'defaultTimestampExtractor' must be a TimestampExtractor/);
    }
  });
});
