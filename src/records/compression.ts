/**
 * The compression codecs of Kafka record batches (attributes bits 0-2), in the
 * byte formats Kafka's Java client (kafka-clients 4.x), librdkafka and the Go
 * clients write, for both backends: sluice's record-batch encoder compresses
 * with them, the embedded cluster and sluice's private kafkajs decompress with
 * them.
 *
 * | id | codec | format written | read | package |
 * |---|---|---|---|---|
 * | 1 | gzip | gzip member (Java's `GZIPOutputStream`) | any gzip/zlib stream | `node:zlib` |
 * | 2 | snappy | xerial framing (`\x82SNAPPY\0`, Java's `SnappyOutputStream`, `snappy-framing.ts`) | xerial framing or raw snappy (librdkafka, sarama) | `snappy` (napi-rs) |
 * | 3 | lz4 | LZ4 frame, independent 64 KiB blocks (Java's `Lz4BlockOutputStream`) | any LZ4 frame | `lz4-napi` (napi-rs, lz4_flex) |
 * | 4 | zstd | one zstd frame | zstd frames, with or without content size (zstd-jni streams have none) | `@bokuweb/zstd-wasm` (compress), `fzstd` (decompress) |
 *
 * The native codecs are loaded on first use, so a platform without a prebuilt
 * binary fails only when that codec is used, with an error naming it. Zstd
 * compression needs `await loadCompression('zstd')` once (its WebAssembly is
 * instantiated asynchronously); the producers of both backends do it in
 * `connect()`. Everything else is synchronous.
 */
import { createRequire } from 'node:module';
import { gunzipSync, gzipSync } from 'node:zlib';
import { frameSnappy, unframeSnappy } from './snappy-framing.js';

/** Kafka's `compression.type` of a producer. */
export type CompressionType = 'none' | 'gzip' | 'snappy' | 'lz4' | 'zstd';

/** Every {@link CompressionType}, in Kafka's id order. */
export const COMPRESSION_TYPES: readonly CompressionType[] = ['none', 'gzip', 'snappy', 'lz4', 'zstd'];

/** Mask of the codec bits of a batch's attributes. */
export const COMPRESSION_CODEC_MASK = 0x07;

/** The codec id (attributes bits 0-2) of a compression type. */
export const compressionCodecId = (type: CompressionType): number => COMPRESSION_TYPES.indexOf(type);

/** The compression type of a codec id, or undefined for an unknown id (5-7). */
export const compressionTypeOfId = (id: number): CompressionType | undefined => COMPRESSION_TYPES[id];

/** True when `value` is one of Kafka's producer `compression.type` values. */
export const isCompressionType = (value: unknown): value is CompressionType => COMPRESSION_TYPES.includes(value as CompressionType);

const load = createRequire(import.meta.url);

interface SnappyModule {
  compressSync(input: Uint8Array): Buffer;
  uncompressSync(input: Uint8Array, options: { asBuffer: true }): Buffer;
}
interface Lz4Module {
  compressFrameSync(input: Buffer, options?: { contentChecksum?: boolean; blockChecksums?: boolean }): Buffer;
  decompressFrameSync(input: Buffer): Buffer;
}
interface ZstdWasmModule {
  init(): Promise<void>;
  compress(input: Uint8Array, level?: number): Uint8Array;
}
interface FzstdModule {
  decompress(input: Uint8Array): Uint8Array;
}

const modules = new Map<string, unknown>();

/** Loads a codec package once; a failure names the codec and the package. */
function codecModule<T>(pkg: string, codec: CompressionType): T {
  let m = modules.get(pkg);
  if (m === undefined) {
    try {
      m = load(pkg) as T;
    } catch (error) {
      throw new Error(`The ${codec} codec cannot be loaded (package '${pkg}': ${(error as Error).message}); reinstall the dependencies with npm ci on this platform`, { cause: error });
    }
    modules.set(pkg, m);
  }
  return m as T;
}

let zstdReady: Promise<void> | undefined;
let zstdLoaded = false;

/** Zstd's compression level: zstd-jni's default (3), as Kafka's `compression.zstd.level` default. */
const ZSTD_LEVEL = 3;

/**
 * Prepares the codec of `type` for {@link compressRecords}: instantiates the
 * zstd WebAssembly once; the others need nothing. Resolves at once after the first time.
 */
export function loadCompression(type: CompressionType): Promise<void> {
  if (type !== 'zstd' || zstdLoaded) return Promise.resolve();
  zstdReady ??= codecModule<ZstdWasmModule>('@bokuweb/zstd-wasm', 'zstd')
    .init()
    .then(() => {
      zstdLoaded = true;
    });
  return zstdReady;
}

const asBuffer = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

/**
 * Compresses the records section of a batch with `type` (not `'none'`).
 * Zstd needs {@link loadCompression} first.
 */
export function compressRecords(type: Exclude<CompressionType, 'none'>, records: Buffer): Buffer {
  switch (type) {
    case 'gzip':
      return gzipSync(records);
    case 'snappy':
      return frameSnappy(records, (block) => codecModule<SnappyModule>('snappy', 'snappy').compressSync(block));
    case 'lz4':
      // lz4_flex's frame defaults: independent blocks, no checksums, the header checksum Kafka verifies
      return codecModule<Lz4Module>('lz4-napi', 'lz4').compressFrameSync(records);
    case 'zstd':
      if (!zstdLoaded) throw new Error("zstd compression is not loaded yet: await loadCompression('zstd') first");
      return asBuffer(codecModule<ZstdWasmModule>('@bokuweb/zstd-wasm', 'zstd').compress(records, ZSTD_LEVEL));
  }
}

/**
 * Decompresses the records section of a batch whose codec id is `codecId`
 * (1-4). Throws on an unknown id or bytes the codec cannot read.
 */
export function decompressRecords(codecId: number, compressed: Buffer): Buffer {
  switch (compressionTypeOfId(codecId)) {
    case 'none':
      return compressed;
    case 'gzip':
      return gunzipSync(compressed);
    case 'snappy': {
      const snappy = codecModule<SnappyModule>('snappy', 'snappy');
      return unframeSnappy(compressed, (block) => snappy.uncompressSync(block, { asBuffer: true }));
    }
    case 'lz4':
      return codecModule<Lz4Module>('lz4-napi', 'lz4').decompressFrameSync(compressed);
    case 'zstd':
      // fzstd streams frames without a content size (zstd-jni's output); zstd-wasm's one-shot decoder cannot
      return asBuffer(codecModule<FzstdModule>('fzstd', 'zstd').decompress(compressed));
    default:
      throw new Error(`Unknown compression type id: ${codecId}`);
  }
}
