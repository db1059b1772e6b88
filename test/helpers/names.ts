/** Unique names for topics, groups and transactional ids, so tests never share state on a broker. */
import { randomBytes } from 'node:crypto';

let counter = 0;

/**
 * `<prefix>-<pid>-<counter>-<random>`: unique across files, workers and runs on
 * the same broker, and valid as a Kafka topic, group or transactional id
 * (characters outside `[a-zA-Z0-9._-]` in the prefix become `-`).
 */
export function uniqueName(prefix = 'test'): string {
  counter += 1;
  const safe = prefix.replace(/[^a-zA-Z0-9._-]/g, '-');
  return `${safe}-${process.pid}-${counter}-${randomBytes(3).toString('hex')}`;
}

/** A unique topic name starting with `prefix`. */
export function uniqueTopic(prefix = 'topic'): string {
  return uniqueName(prefix);
}

/** A unique consumer group id (also usable as an `applicationId`) starting with `prefix`. */
export function uniqueGroup(prefix = 'group'): string {
  return uniqueName(prefix);
}
