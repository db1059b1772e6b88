/**
 * Pure checks of the user-supplied fields of a record on its way to a
 * partition, shared by every path that writes one (the TopologyTestDriver's
 * collector today; the runtime's produce path may use the same functions) so
 * that a record accepted in a test is accepted in production. Each returns
 * the record-level error naming what to change, or `null`.
 */
import { InvalidRecordError, InvalidTimestampError } from '../errors.js';

/** A CreateTime timestamp must be a non-negative whole number of ms (Kafka's `long`). */
export function timestampError(timestamp: unknown, topic: string): InvalidTimestampError | null {
  if (typeof timestamp === 'number' && Number.isSafeInteger(timestamp) && timestamp >= 0) return null;
  const shown = typeof timestamp === 'number' ? String(timestamp) : `${typeof timestamp} ${String(timestamp)}`;
  return new InvalidTimestampError(
    `Record timestamp ${shown} for topic '${topic}' is not a non-negative whole number of milliseconds; ` +
      'Kafka timestamps are 64-bit integers: use e.g. Math.trunc(ms) or Date.now()',
  );
}

/**
 * Header values must be strings, Buffers or `null` (Kafka allows a null header
 * value; a number or an object would be written as its string form, or fail).
 */
export function headersError(headers: unknown, topic: string): InvalidRecordError | null {
  if (headers === undefined) return null;
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) {
    return new InvalidRecordError(`Record headers for topic '${topic}' must be an object of string, Buffer or null values, got ${describe(headers)}`);
  }
  for (const [name, value] of Object.entries(headers)) {
    if (value !== null && typeof value !== 'string' && !Buffer.isBuffer(value)) {
      return new InvalidRecordError(
        `Header '${name}' of a record for topic '${topic}' is ${describe(value)}; header values must be a string, a Buffer or null ` +
          `(convert it, e.g. String(value) or Buffer.from(...))`,
      );
    }
  }
  return null;
}

/** An explicit partition must be a whole number in `[0, partitions)`. */
export function partitionError(partition: unknown, topic: string, partitions: number): InvalidRecordError | null {
  if (partition === undefined) return null;
  if (typeof partition === 'number' && Number.isInteger(partition) && partition >= 0 && partition < partitions) return null;
  return new InvalidRecordError(
    `Partition ${typeof partition === 'number' ? String(partition) : describe(partition)} of topic '${topic}' does not exist: the topic has ${partitions} partition(s) [0..${partitions - 1}]`,
  );
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Buffer.isBuffer(value)) return 'a Buffer';
  if (value instanceof Uint8Array) return 'a Uint8Array';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an object (${(value as object).constructor?.name ?? 'Object'})`;
  return `${typeof value} ${String(value)}`;
}
