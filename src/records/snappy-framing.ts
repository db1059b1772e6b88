/**
 * The xerial snappy framing Java's Kafka client writes (`snappy-java`'s
 * `SnappyOutputStream`, used by kafka-clients' `SnappyCompression`):
 *
 *   magic `\x82 S N A P P Y \0` (8 bytes), version int32 BE (1), compatible
 *   version int32 BE (1), then blocks: compressed length int32 BE, raw snappy
 *   block of at most 32 KiB of input.
 *
 * Reading accepts the framing and, as `SnappyInputStream` does, a stream
 * without the magic as one raw snappy block (what librdkafka and sarama write).
 */

/** xerial's magic header. */
export const XERIAL_MAGIC = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00]);
/** Bytes of the stream header (magic, version, compatible version). */
const HEADER_SIZE = 16;
/** `SnappyOutputStream`'s default block size (input bytes per block). */
export const XERIAL_BLOCK_SIZE = 32 * 1024;

/** Frames `input` as `SnappyOutputStream` does, compressing each block with `compressBlock` (raw snappy). */
export function frameSnappy(input: Buffer, compressBlock: (block: Buffer) => Buffer): Buffer {
  const header = Buffer.alloc(HEADER_SIZE);
  XERIAL_MAGIC.copy(header, 0);
  header.writeInt32BE(1, 8);
  header.writeInt32BE(1, 12);
  const parts: Buffer[] = [header];
  for (let at = 0; at < input.length; at += XERIAL_BLOCK_SIZE) {
    const block = compressBlock(input.subarray(at, Math.min(at + XERIAL_BLOCK_SIZE, input.length)));
    const length = Buffer.allocUnsafe(4);
    length.writeInt32BE(block.length, 0);
    parts.push(length, block);
  }
  return Buffer.concat(parts);
}

/** True when `input` starts with xerial's magic. */
export const isXerialFramed = (input: Buffer): boolean => input.length >= XERIAL_MAGIC.length && input.subarray(0, XERIAL_MAGIC.length).equals(XERIAL_MAGIC);

/** Reads xerial-framed or raw snappy, uncompressing each block with `uncompressBlock`. */
export function unframeSnappy(input: Buffer, uncompressBlock: (block: Buffer) => Buffer): Buffer {
  if (!isXerialFramed(input)) return uncompressBlock(input);
  if (input.length < HEADER_SIZE) throw new Error(`Truncated xerial snappy header: ${input.length} bytes`);
  const parts: Buffer[] = [];
  let at = HEADER_SIZE;
  while (at < input.length) {
    if (at + 4 > input.length) throw new Error(`Truncated xerial snappy block length at byte ${at}`);
    const length = input.readInt32BE(at);
    at += 4;
    if (length < 0 || at + length > input.length) throw new Error(`xerial snappy block of ${length} bytes at byte ${at} exceeds the ${input.length - at} bytes left`);
    parts.push(uncompressBlock(input.subarray(at, at + length)));
    at += length;
  }
  return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
}
