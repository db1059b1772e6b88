/**
 * CRC32C (Castagnoli), as Kafka uses for v2 record batches.
 *
 * The hardware-accelerated implementation of `@node-rs/crc32` (SSE 4.2 / ARM
 * CRC instructions; its prebuilt binary for the platform comes from the npm
 * registry as an optional dependency) is used when it loads; otherwise a
 * table-driven fallback in JavaScript (reflected polynomial 0x82F63B78) gives
 * the same values, so a platform without a prebuilt binary still works.
 */
import { createRequire } from 'node:module';

type Crc32c = (bytes: Uint8Array) => number;

const TABLE: Uint32Array = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The JavaScript CRC32C (also the reference the native one is tested against). */
export function crc32cPortable(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  // Both indexes are in range (i < length, a byte indexes 256 entries); `?? 0` only satisfies the type.
  for (let i = 0; i < bytes.length; i++) crc = (TABLE[(crc ^ (bytes[i] ?? 0)) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function loadNative(): Crc32c | undefined {
  try {
    const native = createRequire(import.meta.url)('@node-rs/crc32') as { crc32c(input: Uint8Array, initial?: number): number };
    if (native.crc32c(Buffer.from('123456789')) !== 0xe3069283) return undefined;
    return (bytes) => native.crc32c(bytes) >>> 0;
  } catch {
    return undefined;
  }
}

const implementation: Crc32c = loadNative() ?? crc32cPortable;

/** True when the hardware-accelerated CRC32C is in use. */
export const crc32cIsNative: boolean = implementation !== crc32cPortable;

/** CRC32C of `bytes` as an unsigned 32-bit number. */
export function crc32c(bytes: Uint8Array): number {
  return implementation(bytes);
}
