/**
 * The versions of one key of a versioned store (Kafka's `RocksDBVersionedStore`
 * semantics, KIP-889), as a list sorted by `validFrom`: each version is valid
 * from its timestamp until the next version's (the last one, the latest, has
 * no `validTo`). A `null` value is a tombstone: the key has no value in that
 * stretch. Tombstones are kept (they bound the versions before them).
 *
 * Stored form (one blob per key): a 4-byte count, then per version its
 * timestamp (8 bytes, big-endian), the value's length (4 bytes, -1 for a
 * tombstone) and the value's bytes.
 *
 * Expiry (history retention, which is also the grace period, as in Kafka):
 * with `bound = observedStreamTime - historyRetention`,
 * - a put or delete with `timestamp < bound` does nothing (`NOT_PUT`);
 * - `get(asOf)` with `asOf < bound` answers only from the latest version;
 * - a range whose `to < bound` answers only from the latest version;
 * - a version whose `validTo <= bound` can no longer be read: it is dropped
 *   when its key is next written.
 */

/** One version: its timestamp (`validFrom`) and value (`null`: tombstone). */
export interface Version {
  timestamp: number;
  value: Buffer | null;
}

/** A version as read: with `validTo` unless it is the latest. */
export interface VersionRead {
  /** The value's bytes. */
  value: Buffer;
  /** When the version became valid (ms). */
  timestamp: number;
  /** When the next version took over (exclusive); absent for the latest. */
  validTo?: number;
}

/** Kafka's `VersionedKeyValueStore.PUT_RETURN_CODE_VALID_TO_UNDEFINED`: the put is the latest version. */
export const VALID_TO_UNDEFINED = -1;
/** Kafka's `VersionedKeyValueStore.PUT_RETURN_CODE_NOT_PUT` (`Long.MIN_VALUE`): the put was older than the grace period. */
export const NOT_PUT = -(2 ** 63);

/** Decodes a stored version list (an absent key: none). */
export function decodeVersions(blob: Buffer | null): Version[] {
  if (blob === null) return [];
  const count = blob.readInt32BE(0);
  const versions: Version[] = [];
  let at = 4;
  for (let i = 0; i < count; i++) {
    const timestamp = Number(blob.readBigInt64BE(at));
    const length = blob.readInt32BE(at + 8);
    at += 12;
    if (length < 0) versions.push({ timestamp, value: null });
    else {
      versions.push({ timestamp, value: Buffer.from(blob.subarray(at, at + length)) });
      at += length;
    }
  }
  return versions;
}

/** Encodes a version list; an empty list is `null` (the key is removed). */
export function encodeVersions(versions: readonly Version[]): Buffer | null {
  if (versions.length === 0) return null;
  const size = versions.reduce((n, v) => n + 12 + (v.value?.length ?? 0), 4);
  const blob = Buffer.allocUnsafe(size);
  blob.writeInt32BE(versions.length, 0);
  let at = 4;
  for (const v of versions) {
    blob.writeBigInt64BE(BigInt(v.timestamp), at);
    blob.writeInt32BE(v.value === null ? -1 : v.value.length, at + 8);
    at += 12;
    if (v.value !== null) at += v.value.copy(blob, at);
  }
  return blob;
}

/** The timestamp of version `i`, or `undefined` past either end. */
function timestampAt(versions: readonly Version[], i: number): number | undefined {
  return versions[i]?.timestamp;
}

/** The index of the last version valid at or before `time` (-1: none). */
function lastAtOrBefore(versions: readonly Version[], time: number): number {
  let i = versions.length - 1;
  while (i >= 0 && (timestampAt(versions, i) ?? -Infinity) > time) i--;
  return i;
}

/**
 * Puts `value` at `timestamp` into `versions` (in place): replaces a version
 * with the same timestamp, else inserts it in order; then drops versions
 * expired at `bound`. Returns the put's `validTo` (the next version's
 * timestamp) or {@link VALID_TO_UNDEFINED} when it is the latest. The caller
 * checks `timestamp >= bound` first.
 */
export function putVersion(versions: Version[], value: Buffer | null, timestamp: number, bound: number): number {
  let at = lastAtOrBefore(versions, timestamp);
  if (at >= 0 && timestampAt(versions, at) === timestamp) versions[at] = { timestamp, value };
  else versions.splice(++at, 0, { timestamp, value });
  const validTo = timestampAt(versions, at + 1) ?? VALID_TO_UNDEFINED;
  expire(versions, bound);
  return validTo;
}

/** Drops, from the front, the versions no read can reach any more (`validTo <= bound`). */
function expire(versions: Version[], bound: number): void {
  let drop = 0;
  while ((timestampAt(versions, drop + 1) ?? Infinity) <= bound) drop++;
  if (drop > 0) versions.splice(0, drop);
}

/** A version as read: `validTo` is the next version's timestamp (none for the latest); `null` for a tombstone. */
function read(versions: readonly Version[], i: number): VersionRead | null {
  const v = versions[i];
  if (v === undefined || v.value === null) return null;
  const validTo = timestampAt(versions, i + 1);
  return validTo === undefined ? { value: v.value, timestamp: v.timestamp } : { value: v.value, timestamp: v.timestamp, validTo };
}

/** The latest version, unless it is a tombstone (or there is none). */
export function latest(versions: readonly Version[]): VersionRead | null {
  return read(versions, versions.length - 1);
}

/** The version valid at `asOf` (see the module comment for `bound`), unless it is a tombstone. */
export function versionAsOf(versions: readonly Version[], asOf: number, bound: number): VersionRead | null {
  const i = lastAtOrBefore(versions, asOf);
  if (i < 0) return null;
  const isLatest = i === versions.length - 1;
  return !isLatest && asOf < bound ? null : read(versions, i);
}

/**
 * The versions (tombstones left out) valid at some time in `[from, to]`,
 * newest first (Kafka's `ResultOrder.ANY`, which its store answers newest
 * first) or oldest first. Only the latest version when `to < bound`.
 */
export function versionsBetween(versions: readonly Version[], from: number, to: number, bound: number, ascending: boolean): VersionRead[] {
  const out: VersionRead[] = [];
  for (let i = versions.length - 1; i >= 0; i--) {
    if (i < versions.length - 1 && to < bound) break;
    const startsAfter = (timestampAt(versions, i) ?? Infinity) > to;
    const endsBefore = (timestampAt(versions, i + 1) ?? Infinity) <= from;
    const r = startsAfter || endsBefore ? null : read(versions, i);
    if (r !== null) out.push(r);
  }
  return ascending ? out.reverse() : out;
}
