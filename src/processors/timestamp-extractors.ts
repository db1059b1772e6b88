/**
 * Timestamp extractors (Kafka's `org.apache.kafka.streams.processor.TimestampExtractor`
 * and its built-ins): what a source makes of an input record's time. The
 * task applies the source's extractor after deserialization
 * (`internal/timestamp-extraction.ts`); the record is processed with the
 * extracted timestamp, stream time advances by it, and a negative one skips
 * the record (logged, counted in `recordsSkipped`).
 */
import type { Logger } from 'pino';
import { componentLogger } from '../internal/logger.js';
import { ConfigError, StreamsError } from '../errors.js';
import type { Headers } from '../records/types.js';

/** An input record after deserialization, as an extractor sees it (Kafka's `ConsumerRecord<Object, Object>`). */
export interface ExtractorRecord<K = unknown, V = unknown> {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly key: K;
  readonly value: V;
  /** The record's own (metadata) timestamp: CreateTime or LogAppendTime, ms. */
  readonly timestamp: number;
  readonly headers: Headers;
}

/**
 * Extracts the timestamp of an input record (Kafka's `TimestampExtractor`).
 * `partitionTime` is the largest timestamp extracted so far on the record's
 * partition, `-1` when none is known yet. Return whole milliseconds; a
 * negative result skips the record. Throwing fails the task.
 */
export interface TimestampExtractorObject<K = unknown, V = unknown> {
  extract(record: ExtractorRecord<K, V>, partitionTime: number): number;
}

/**
 * A plain function `(record, partitionTime) => timestamp` works as an
 * extractor too (declared as a method, so an extractor typed for the
 * stream's key and value fits where any is accepted, as a method's does).
 */
export type TimestampExtractorFunction<K = unknown, V = unknown> = {
  fn(record: ExtractorRecord<K, V>, partitionTime: number): number;
}['fn'];

/** An extractor object or function (see {@link TimestampExtractorObject}). */
export type TimestampExtractor<K = unknown, V = unknown> = TimestampExtractorObject<K, V> | TimestampExtractorFunction<K, V>;

/** Kafka's `RecordQueue.UNKNOWN`: no partition time yet. */
export const UNKNOWN_PARTITION_TIME = -1;

/** `record` for messages: `topic-partition@offset (timestamp t)`, plus key and value when they print briefly. */
export function describeExtractorRecord(record: ExtractorRecord): string {
  return `${record.topic}-${record.partition}@${record.offset} (timestamp ${record.timestamp}, key ${brief(record.key)}, value ${brief(record.value)})`;
}

function brief(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}

/**
 * The record's own timestamp; when it is negative, {@link onInvalidTimestamp}
 * decides (Kafka's package-private `ExtractRecordMetadataTimestamp`, base of
 * the three built-ins below). Extend it to keep the metadata timestamp with
 * your own fallback.
 */
export abstract class ExtractRecordMetadataTimestamp implements TimestampExtractorObject {
  extract(record: ExtractorRecord, partitionTime: number): number {
    const timestamp = record.timestamp;
    if (timestamp < 0) return this.onInvalidTimestamp(record, timestamp, partitionTime);
    return timestamp;
  }

  /** Called for a negative metadata timestamp: the timestamp to use (negative: the record is skipped). */
  abstract onInvalidTimestamp(record: ExtractorRecord, recordTimestamp: number, partitionTime: number): number;
}

/**
 * The default (Kafka's default too): the record's timestamp; a negative one
 * fails the task with a StreamsError (code `INVALID_EXTRACTED_TIMESTAMP`)
 * naming the record and the extractors to use instead.
 */
export class FailOnInvalidTimestamp extends ExtractRecordMetadataTimestamp {
  onInvalidTimestamp(record: ExtractorRecord, recordTimestamp: number): never {
    throw new StreamsError(
      `Input record ${describeExtractorRecord(record)} has invalid (negative) timestamp ${recordTimestamp}. ` +
        'Use a different TimestampExtractor to process this data: LogAndSkipOnInvalidTimestamp (skip such records), ' +
        'UsePartitionTimeOnInvalidTimestamp (use the partition time), WallclockTimestampExtractor, or your own ' +
        '(defaultTimestampExtractor in the config, or Consumed.with(...).withTimestampExtractor(e) for one source).',
      { code: 'INVALID_EXTRACTED_TIMESTAMP' },
    );
  }
}

/**
 * The record's timestamp; a negative one is logged (WARN) and returned as it
 * is, so the record is skipped (and counted in `recordsSkipped`).
 */
export class LogAndSkipOnInvalidTimestamp extends ExtractRecordMetadataTimestamp {
  readonly #logger: Logger;

  /** `logger`: where the WARN goes (default: a `timestamp-extractor` child of the root logger). */
  constructor(logger?: Logger) {
    super();
    this.#logger = logger ?? componentLogger('timestamp-extractor');
  }

  onInvalidTimestamp(record: ExtractorRecord, recordTimestamp: number): number {
    this.#logger.warn(
      { topic: record.topic, partition: record.partition, offset: record.offset, timestamp: recordTimestamp },
      `Input record ${describeExtractorRecord(record)} will be dropped because it has an invalid (negative) timestamp.`,
    );
    return recordTimestamp;
  }
}

/**
 * The record's timestamp; a negative one is replaced by the partition time
 * (the largest timestamp extracted so far on the partition). Fails (code
 * `INVALID_EXTRACTED_TIMESTAMP`) when no partition time is known yet.
 */
export class UsePartitionTimeOnInvalidTimestamp extends ExtractRecordMetadataTimestamp {
  onInvalidTimestamp(record: ExtractorRecord, _recordTimestamp: number, partitionTime: number): number {
    if (partitionTime < 0) {
      throw new StreamsError(
        `Could not infer new timestamp for input record ${describeExtractorRecord(record)} because partition time is unknown ` +
          '(no valid timestamp was extracted on its partition yet); use LogAndSkipOnInvalidTimestamp to skip such records, or another extractor',
        { code: 'INVALID_EXTRACTED_TIMESTAMP' },
      );
    }
    return partitionTime;
  }
}

/**
 * The wall-clock time of processing (`Date.now()`), whatever the record
 * says: processing-time semantics.
 */
export class WallclockTimestampExtractor implements TimestampExtractorObject {
  extract(): number {
    return Date.now();
  }
}

const RESOLVED = Symbol('sluice.ResolvedExtractor');

/** An extractor resolved to one shape, with the name messages use. */
export interface ResolvedExtractor {
  readonly [RESOLVED]: true;
  readonly name: string;
  extract(record: ExtractorRecord, partitionTime: number): number;
}

type ExtractorClass = new () => TimestampExtractorObject;

/**
 * `value` as an extractor: an object with `extract`, a class with it (Kafka
 * configures a class: `WallclockTimestampExtractor` works as
 * `new WallclockTimestampExtractor()`), or a function `(record,
 * partitionTime) => number`; anything else is a ConfigError naming `where`.
 */
export function resolveTimestampExtractor(value: unknown, where: string): ResolvedExtractor {
  if (typeof value === 'object' && value !== null && RESOLVED in value) return value as ResolvedExtractor;
  if (typeof value === 'function') {
    const proto = (value as { prototype?: { extract?: unknown } }).prototype;
    if (typeof proto?.extract === 'function') return resolveTimestampExtractor(new (value as ExtractorClass)(), where);
    const fn = value as TimestampExtractorFunction;
    return { [RESOLVED]: true, name: fn.name === '' ? 'function extractor' : `function ${fn.name}`, extract: (record, partitionTime) => fn(record, partitionTime) };
  }
  if (typeof value === 'object' && value !== null && typeof (value as { extract?: unknown }).extract === 'function') {
    const object = value as TimestampExtractorObject;
    const ctor = (object as { constructor?: { name?: string } }).constructor?.name;
    return { [RESOLVED]: true, name: ctor === undefined || ctor === 'Object' ? 'extractor object' : ctor, extract: (record, partitionTime) => object.extract(record, partitionTime) };
  }
  throw new ConfigError(
    `${where} must be a TimestampExtractor: an object with extract(record, partitionTime), e.g. new WallclockTimestampExtractor(), ` +
      `or a function (record, partitionTime) => timestamp; got ${value === null ? 'null' : typeof value}`,
  );
}

/** The default extractor when none is configured: {@link FailOnInvalidTimestamp}, as Kafka's `default.timestamp.extractor`. */
export function defaultTimestampExtractor(): ResolvedExtractor {
  return resolveTimestampExtractor(new FailOnInvalidTimestamp(), 'defaultTimestampExtractor');
}
