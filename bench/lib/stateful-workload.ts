/**
 * The stateful workloads (issue #15 "Benchmarks"), shared by the runner, the
 * TypeScript contenders and their checks; bench/java (KafkaStreamsStateBench.java)
 * runs the same topologies.
 *
 * - count: input record i has key `k<i mod keys>` (10,000 keys) and the
 *   pipeline's 100-byte value, on partition i mod 8; the topology is
 *   `stream(input).groupByKey().count().toStream().to(output, Long serde)`.
 *   Because `keys` is a multiple of 8, every key lives on one partition, so
 *   `groupByKey()` needs no repartition and each key is counted by one task.
 * - restore: a changelog of `records` (1,000,000) records over `keys`
 *   (100,000) keys, value ~100 bytes; record i has key `k<i mod keys>`, on
 *   partition i mod 8 (the partition of that key's task), so every key is
 *   written records/keys times and the last write of key j is the largest
 *   i < records with i mod keys = j.
 */
import { PARTITIONS } from './workload.js';

/** Distinct keys of the count workload. */
export const COUNT_KEYS = 10_000;
/** Records in the restore workload's changelog. */
export const RESTORE_RECORDS = 1_000_000;
/** Distinct keys in the restore workload's changelog. */
export const RESTORE_KEYS = 100_000;
/** Name of the restore workload's store; its changelog is `<applicationId>-restore-store-changelog`. */
export const RESTORE_STORE = 'restore-store';
/** Size of every restore changelog value in bytes. */
export const RESTORE_VALUE_BYTES = 100;

/** Throws unless every key of `keys` maps to exactly one partition (keys a positive multiple of the partition count). */
export function checkKeys(keys: number): void {
  if (!Number.isInteger(keys) || keys < PARTITIONS || keys % PARTITIONS !== 0) {
    throw new RangeError(`keys must be a positive multiple of ${PARTITIONS} (every key on one partition), got ${keys}`);
  }
}

/** The key of record `id` in a workload of `keys` keys. */
export function statefulKeyOf(id: number, keys: number): string {
  return `k${id % keys}`;
}

/** How many of the records 0..records-1 carry key index `j` (its true count). */
export function trueCount(j: number, records: number, keys: number): number {
  return j < records ? Math.floor((records - 1 - j) / keys) + 1 : 0;
}

/** Keys that occur in a workload of `records` records (`min(records, keys)`). */
export function keysPresent(records: number, keys: number): number {
  return Math.min(records, keys);
}

/** The index of the last record written for key index `j`, or -1 when none. */
export function lastWriteOf(j: number, records: number, keys: number): number {
  const n = trueCount(j, records, keys);
  return n === 0 ? -1 : j + (n - 1) * keys;
}

/** The ~100-byte changelog value of restore record `id` (a JSON string, padded). */
export function changelogValue(id: number, keys: number): string {
  const head = `{"seq":${id},"key":${id % keys},"pad":"`;
  const padLength = RESTORE_VALUE_BYTES - head.length - 2;
  if (padLength < 0) throw new RangeError(`seq ${id} does not fit a ${RESTORE_VALUE_BYTES}-byte value`);
  return `${head}${'x'.repeat(padLength)}"}`;
}

/** The key indexes whose stored values a restore contender reports (first, middle, last key). */
export function sampleKeys(records: number, keys: number): number[] {
  const present = keysPresent(records, keys);
  return [...new Set([0, Math.floor(present / 2), present - 1])];
}
