/**
 * The versioned-table join workload (issue 30), shared by the runner
 * (run-versioned-join.ts), the TypeScript contender and the check; bench/java
 * (KafkaStreamsStateBench, mode `versioned-join`) runs the same topology:
 *
 *   prices = table(<applicationId>-prices, Materialized.as(Stores.persistentVersionedKeyValueStore("prices-versioned", 1 h)))
 *   stream(input).join(prices, (value, price) -> price + "|" + value).to(output)
 *
 * The prices table has {@link VERSIONS} versions of every key `k<j>` (the count
 * workload's keys), at `base + v * STEP_MS` with the value `p<j>v<v>`,
 * written out of order (versions 2, 0, 3, 1) on partition j mod 8, the
 * partition of the key's input records. Input record i has key
 * `k<i mod keys>`, the pipeline's 100-byte value, partition i mod 8 and the
 * event time `base + (i * 7919) mod (VERSIONS * STEP_MS)`: spread over every
 * version's time range and out of order, so its join result is the version
 * valid then, not the latest. `base` is a minute boundary ten minutes before
 * the run (within the broker's retention and the store's history retention).
 */
import { PARTITIONS } from './workload.js';

/** Versions of every key's price. */
export const VERSIONS = 4;
/** Time between two versions of a price. */
export const STEP_MS = 60_000;
/** History retention of the versioned store (Java: `Duration.ofHours(1)`). */
export const PRICES_RETENTION_MS = 3_600_000;
/** Name of the prices table's store. */
export const PRICES_STORE = 'prices-versioned';
/** The order the versions of a key are written in (out of order). */
const WRITE_ORDER = [2, 0, 3, 1] as const;

/** The prices topic of the app `applicationId` (the contenders derive it the same way). */
export function pricesTopic(applicationId: string): string {
  return `${applicationId}-prices`;
}

/** One run's event times, table rows and truth. */
export interface VersionedJoinPlan {
  records: number;
  keys: number;
  base: number;
  /** Event time of input record `id`. */
  timestampOf(id: number): number;
  /** The price input record `id` joins: the version valid at its event time. */
  priceOf(id: number): string;
  /** The prices table's records, in the order they are written. */
  table: Array<{ partition: number; key: string; value: string; timestamp: number }>;
}

/** The plan of a run of `records` records over `keys` keys started at `now`. */
export function versionedJoinPlan(records: number, keys: number, now = Date.now()): VersionedJoinPlan {
  const base = Math.floor(now / 60_000) * 60_000 - 10 * 60_000;
  const offsetOf = (id: number): number => (id * 7919) % (VERSIONS * STEP_MS);
  const table: VersionedJoinPlan['table'] = [];
  for (let j = 0; j < keys; j++) {
    for (const v of WRITE_ORDER) table.push({ partition: j % PARTITIONS, key: `k${j}`, value: `p${j}v${v}`, timestamp: base + v * STEP_MS });
  }
  return {
    records,
    keys,
    base,
    timestampOf: (id) => base + offsetOf(id),
    priceOf: (id) => `p${id % keys}v${Math.floor(offsetOf(id) / STEP_MS)}`,
    table,
  };
}
