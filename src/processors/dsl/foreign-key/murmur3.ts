/**
 * Murmur3 x64 128-bit hash, ported from Kafka's
 * `org.apache.kafka.streams.state.internals.Murmur3.hash128` (itself from
 * Hive), so sluice hashes a foreign-key join's left values to the same two
 * longs as Kafka Streams does. 64-bit arithmetic on BigInt, kept unsigned
 * (Java's `>>>`), returned signed as Java's `long[]`.
 */

/** Two signed 64-bit halves, as Kafka's `long[] {h1, h2}`. */
export type Hash128 = readonly [bigint, bigint];

/** Kafka's `Murmur3.DEFAULT_SEED`. */
export const DEFAULT_SEED = 104729;

const MASK = (1n << 64n) - 1n;
const C1 = 0x87c37b91114253d5n;
const C2 = 0x4cf5ad432745937fn;
const R1 = 31n;
const R2 = 27n;
const R3 = 33n;
const M = 5n;
const N1 = 0x52dce729n;
const N2 = 0x38495ab5n;

const mul = (a: bigint, b: bigint): bigint => (a * b) & MASK;
const add = (a: bigint, b: bigint): bigint => (a + b) & MASK;
const rotl = (x: bigint, r: bigint): bigint => ((x << r) | (x >> (64n - r))) & MASK;

function fmix64(h: bigint): bigint {
  h ^= h >> 33n;
  h = mul(h, 0xff51afd7ed558ccdn);
  h ^= h >> 33n;
  h = mul(h, 0xc4ceb9fe1a85ec53n);
  h ^= h >> 33n;
  return h;
}

function mixK1(k1: bigint): bigint {
  return mul(rotl(mul(k1, C1), R1), C2);
}

function mixK2(k2: bigint): bigint {
  return mul(rotl(mul(k2, C2), R3), C1);
}

/** Little-endian bytes `data[from, from + count)` as an unsigned 64-bit value. */
function littleEndian(data: Uint8Array, from: number, count: number): bigint {
  let v = 0n;
  for (let i = count - 1; i >= 0; i--) v = (v << 8n) | BigInt(data[from + i] ?? 0);
  return v;
}

/** Kafka's `Murmur3.hash128(data, offset, length, seed)`; `hash128(data)` uses the whole array and {@link DEFAULT_SEED}. */
export function hash128(data: Uint8Array, offset = 0, length = data.length - offset, seed = DEFAULT_SEED): Hash128 {
  let h1 = BigInt.asUintN(64, BigInt(seed));
  let h2 = h1;
  const nblocks = length >> 4;
  // body
  for (let i = 0; i < nblocks; i++) {
    const at = offset + (i << 4);
    h1 ^= mixK1(littleEndian(data, at, 8));
    h1 = add(mul(add(rotl(h1, R2), h2), M), N1);
    h2 ^= mixK2(littleEndian(data, at + 8, 8));
    h2 = add(mul(add(rotl(h2, R1), h1), M), N2);
  }
  // tail
  const tailStart = offset + (nblocks << 4);
  const tail = length - (nblocks << 4);
  if (tail > 8) h2 ^= mixK2(littleEndian(data, tailStart + 8, tail - 8));
  if (tail > 0) h1 ^= mixK1(littleEndian(data, tailStart, Math.min(tail, 8)));
  // finalization
  h1 ^= BigInt(length);
  h2 ^= BigInt(length);
  h1 = add(h1, h2);
  h2 = add(h2, h1);
  h1 = fmix64(h1);
  h2 = fmix64(h2);
  h1 = add(h1, h2);
  h2 = add(h2, h1);
  return [BigInt.asIntN(64, h1), BigInt.asIntN(64, h2)];
}

/** True when both hashes are null or both have the same halves (Java's `Arrays.equals` of the two `long[]`). */
export function hashesEqual(a: Hash128 | null, b: Hash128 | null): boolean {
  if (a === null || b === null) return a === b;
  return a[0] === b[0] && a[1] === b[1];
}
