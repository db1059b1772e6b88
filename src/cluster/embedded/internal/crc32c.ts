/**
 * CRC32C for the embedded cluster: the shared implementation of
 * `src/records/crc32c.ts` (hardware-accelerated where `@node-rs/crc32` loads).
 */
export { crc32c } from '../../../records/crc32c.js';
