/**
 * Checks of every user-supplied field of a {@link ProducerRecord} (issue 12,
 * item 2), made when `send()` is called and before anything else: nothing a
 * caller (or a processor, through the record collector) hands in may reach an
 * encoder unchecked and throw a raw error there (a fractional timestamp used
 * to make `BigInt()` throw inside the batch encoder, which put the producer in
 * FATAL_ERROR and lost the whole transaction).
 *
 * Every failure is **record-level** (`kind: 'record'`): under
 * `IGNORE_SEND_ERRORS` only that record is rejected and the transaction stays
 * committable; the production exception handler decides. Each message names
 * the field, the value and what to change.
 *
 * Decision on fractional timestamps: a record-level `InvalidTimestampError`,
 * not a silent truncation. Java never sees a fractional `long`, so there is no
 * Java behaviour to copy, and changing a user's data without a word (1.5 ms
 * becoming 1 ms, possibly reordering records' timestamps) is worse than telling
 * them to `Math.trunc()` it themselves.
 */
import { InvalidRecordError, InvalidTimestampError, SerializationError, type StreamsError } from '../../errors.js';
import type { ProducerRecord } from '../producer-types.js';

/** Kafka's limit on topic name length (`Topic.MAX_NAME_LENGTH`). */
export const MAX_TOPIC_NAME_LENGTH = 249;

const LEGAL_TOPIC_CHARS = /^[a-zA-Z0-9._-]+$/;

/** A short description of a value for error messages (type and, for primitives, the value). */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return `'${value.length > 60 ? `${value.slice(0, 60)}...` : value}' (string)`;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return `${String(value)} (${typeof value})`;
  if (typeof value === 'object') return `${(value as object).constructor?.name ?? 'an'} object`;
  return `a ${typeof value}`;
}

/**
 * Why `topic` is not a legal Kafka topic name, or null when it is (Kafka's
 * `Topic.validate`: non-empty, at most 249 characters of `[a-zA-Z0-9._-]`, not
 * `.` or `..`).
 */
export function topicNameProblem(topic: unknown): string | null {
  if (typeof topic !== 'string') return `the topic must be a string, got ${describeValue(topic)}`;
  if (topic.length === 0) return 'the topic name is empty';
  if (topic === '.' || topic === '..') return `'${topic}' is not a legal topic name`;
  if (topic.length > MAX_TOPIC_NAME_LENGTH) return `the topic name is ${topic.length} characters long, more than Kafka's ${MAX_TOPIC_NAME_LENGTH}`;
  if (!LEGAL_TOPIC_CHARS.test(topic)) return `topic '${topic}' contains characters other than ASCII letters, digits, '.', '_' and '-'`;
  return null;
}

/**
 * Why `timestamp` is not a usable CreateTime, or null when it is. Absent
 * (`undefined`) means "now". Valid: an integer number of ms in
 * [0, Number.MAX_SAFE_INTEGER] (beyond it a double no longer holds every
 * integer, and far beyond it Kafka's int64 overflows).
 */
export function timestampProblem(timestamp: unknown): string | null {
  if (timestamp === undefined) return null;
  if (typeof timestamp !== 'number') return `must be a number of ms since the epoch, got ${describeValue(timestamp)}; omit it to use the current time`;
  if (Number.isNaN(timestamp) || !Number.isFinite(timestamp)) return `must be a finite number of ms since the epoch, got ${timestamp}`;
  if (!Number.isInteger(timestamp)) return `must be an integer number of ms, got ${timestamp}; truncate it (Math.trunc) before sending`;
  if (timestamp < 0) return `must not be negative, got ${timestamp}`;
  if (timestamp > Number.MAX_SAFE_INTEGER) return `must be at most ${Number.MAX_SAFE_INTEGER} (Number.MAX_SAFE_INTEGER), got ${timestamp}`;
  return null;
}

function isBytesLike(value: unknown): value is string | Buffer {
  return typeof value === 'string' || Buffer.isBuffer(value);
}

/**
 * The record-level error of `record`, or null when every user-supplied field
 * has a type and range the encoders accept. Checks that need the topic's
 * metadata (partition < partition count, size, compaction, timestamp bounds)
 * are made later by `validateRecord`.
 */
export function checkProducerRecord(record: unknown): StreamsError | null {
  if (record === null || typeof record !== 'object') {
    return new InvalidRecordError(`send() needs a record object { topic, key?, value, partition?, headers?, timestamp? }, got ${describeValue(record)}`);
  }
  const r = record as Record<keyof ProducerRecord, unknown>;
  const topicProblem = topicNameProblem(r.topic);
  if (topicProblem) {
    return new InvalidRecordError(`Cannot send a record: ${topicProblem}; fix the record's topic (a sink's to() or its topic extractor)`, {
      code: 'INVALID_TOPIC_EXCEPTION',
      kind: 'record',
    });
  }
  const topic = r.topic as string;
  if (r.key !== undefined && r.key !== null && !isBytesLike(r.key)) {
    return new SerializationError(
      `Cannot send the record to topic '${topic}': its key must be a string, a Buffer or null, got ${describeValue(r.key)}; serialize it first`,
      { origin: 'KEY', topic },
    );
  }
  if (r.value !== null && !isBytesLike(r.value)) {
    return new SerializationError(
      `Cannot send the record to topic '${topic}': its value must be a string, a Buffer or null (a tombstone), got ${describeValue(r.value)}` +
        (r.value === undefined ? '; use null for a tombstone' : '; serialize it first'),
      { origin: 'VALUE', topic },
    );
  }
  if (r.partition !== undefined && !(typeof r.partition === 'number' && Number.isSafeInteger(r.partition) && r.partition >= 0)) {
    return new InvalidRecordError(
      `Cannot send the record to topic '${topic}': its partition must be a non-negative integer, got ${describeValue(r.partition)}; omit it to let the partitioner choose`,
    );
  }
  const headersProblem = headerProblem(r.headers);
  if (headersProblem) return new InvalidRecordError(`Cannot send the record to topic '${topic}': ${headersProblem}`);
  const tsProblem = timestampProblem(r.timestamp);
  if (tsProblem) return new InvalidTimestampError(`Cannot send the record to topic '${topic}': its timestamp ${tsProblem}`);
  return null;
}

/** Why `headers` cannot be encoded, or null. Header values are strings, Buffers or `null` (Kafka's null header value). */
function headerProblem(headers: unknown): string | null {
  if (headers === undefined || headers === null) return null;
  if (typeof headers !== 'object' || Array.isArray(headers) || Buffer.isBuffer(headers)) {
    return `its headers must be an object of name -> string | Buffer | null, got ${describeValue(headers)}`;
  }
  for (const [name, value] of Object.entries(headers)) {
    if (value !== null && !isBytesLike(value)) {
      return `header '${name}' must be a string, a Buffer or null, got ${describeValue(value)}; convert it (e.g. String(value)) or leave the header out`;
    }
  }
  return null;
}
