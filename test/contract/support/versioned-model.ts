/**
 * A model of a versioned key-value store as Kafka's `RocksDBVersionedStore`
 * behaves (KIP-889), one store per partition as in an app: each partition has
 * its own observed stream time; an update older than `streamTime -
 * historyRetention` is dropped; `get(key, asOf)` is null below that bound,
 * otherwise the version valid at `asOf` (a tombstone: null) with `validTo` the
 * next version's timestamp. Tests compute their expected answers with it.
 */
import { partitionFor } from '../../../src/records/partitioner.js';

/** One update of a versioned table: `value` null is a tombstone. */
export interface Update {
  key: string;
  value: string | null;
  timestamp: number;
}

/** What `VersionedKeyValueStore.get` returns, as plain data. */
export interface ModelRecord {
  value: string;
  timestamp: number;
  validTo?: number;
}

/** The model (see the module comment). */
export class VersionedModel {
  readonly #versions = new Map<string, Array<{ timestamp: number; value: string | null }>>();
  readonly #streamTime = new Map<number, number>();
  /** The updates dropped as older than the history retention, in order. */
  readonly dropped: Update[] = [];

  constructor(
    private readonly partitions: number,
    private readonly historyRetentionMs: number,
  ) {}

  #partition(key: string): number {
    return partitionFor(Buffer.from(key), this.partitions);
  }

  #bound(key: string): number {
    return (this.#streamTime.get(this.#partition(key)) ?? -1) - this.historyRetentionMs;
  }

  /** Applies `update` (the table source's put); false when it was dropped as too old. */
  put(update: Update): boolean {
    if (update.timestamp < this.#bound(update.key)) {
      this.dropped.push(update);
      return false;
    }
    const p = this.#partition(update.key);
    this.#streamTime.set(p, Math.max(this.#streamTime.get(p) ?? -1, update.timestamp));
    const versions = this.#versions.get(update.key) ?? [];
    const at = versions.findIndex((v) => v.timestamp >= update.timestamp);
    const version = { timestamp: update.timestamp, value: update.value };
    if (at === -1) versions.push(version);
    else if (versions[at]!.timestamp === update.timestamp) versions[at] = version;
    else versions.splice(at, 0, version);
    this.#versions.set(update.key, versions);
    return true;
  }

  /** `get(key, asOf)` of the store of the key's partition. */
  get(key: string, asOf: number): ModelRecord | null {
    if (asOf < this.#bound(key)) return null;
    const versions = this.#versions.get(key) ?? [];
    let i = versions.length - 1;
    while (i >= 0 && versions[i]!.timestamp > asOf) i--;
    const version = versions[i];
    if (version === undefined || version.value === null) return null;
    const next = versions[i + 1];
    return next === undefined ? { value: version.value, timestamp: version.timestamp } : { value: version.value, timestamp: version.timestamp, validTo: next.timestamp };
  }
}

/** `count` keys `<prefix>-<n>` for each of `partitions` partitions (by the default partitioner): result[p] are partition p's. */
export function keysOnPartitions(partitions: number, count: number, prefix: string): string[][] {
  const result = Array.from({ length: partitions }, (): string[] => []);
  for (let n = 0; result.some((keys) => keys.length < count); n++) {
    const key = `${prefix}-${n}`;
    const keys = result[partitionFor(Buffer.from(key), partitions)]!;
    if (keys.length < count) keys.push(key);
  }
  return result;
}
