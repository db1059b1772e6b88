/**
 * Snappy, LZ4 and ZSTD for kafkajs 2.2.4 (installed on sluice's private copy
 * by `patches.ts`). kafkajs decodes gzip only: its codec table
 * (`protocol/message/compression/index.js`, `Codecs[type]` returns
 * `{ compress(encoder), decompress(buffer) }`) throws `KafkaJSNotImplemented`
 * for the others, so a fetch of a batch a Java producer compressed with
 * `compression.type=zstd` fails the consumer. The table of the private copy
 * gets sluice's codecs (`src/records/compression.ts`: the byte formats of
 * Java, librdkafka and Go producers); its record-batch decoder looks the
 * codec up on every compressed batch, so the group consumer and the partition
 * readers (restoration, standbys, global tables) all read them. Gzip stays
 * kafkajs' own (asynchronous zlib). Produce requests are encoded by sluice's
 * encoder (`produce-request.ts`), which compresses with the same module.
 */
import { compressRecords, decompressRecords, type CompressionType } from '../../../records/compression.js';
import type { KafkaJsInternals } from './kafkajs-internals.js';

/** The codec module of kafkajs, relative to `kafkajs/src/`. */
export const COMPRESSION_MODULE = 'protocol/message/compression/index.js';

/** A kafkajs codec: `compress` takes kafkajs' encoder (its bytes in `.buffer`). */
interface KafkaJsCodec {
  compress(encoder: { buffer: Buffer }): Promise<Buffer>;
  decompress(buffer: Buffer): Promise<Buffer>;
}

/** What the patch reads of kafkajs' compression module. */
export interface KafkaJsCompressionModule {
  Types: { None: number; GZIP: number; Snappy: number; LZ4: number; ZSTD: number };
  Codecs: Record<number, () => KafkaJsCodec>;
}

const PATCHED = Symbol.for('sluice.kafkajs.compressionCodecs');

/** A kafkajs codec over sluice's codec of `type` (id `id`). */
function codecOf(type: Exclude<CompressionType, 'none' | 'gzip'>, id: number): KafkaJsCodec {
  return {
    compress: (encoder) => Promise.resolve().then(() => compressRecords(type, encoder.buffer)),
    decompress: (buffer) => Promise.resolve().then(() => decompressRecords(id, buffer)),
  };
}

/** Registers snappy, lz4 and zstd in the codec table of `internals` (sluice's private kafkajs). Idempotent. */
export function installCompressionCodecs(internals: KafkaJsInternals): void {
  const compression = internals.load<KafkaJsCompressionModule & { [PATCHED]?: true }>(COMPRESSION_MODULE);
  if (compression[PATCHED]) return;
  const { Types, Codecs } = compression;
  const snappy = codecOf('snappy', Types.Snappy);
  const lz4 = codecOf('lz4', Types.LZ4);
  const zstd = codecOf('zstd', Types.ZSTD);
  Codecs[Types.Snappy] = () => snappy;
  Codecs[Types.LZ4] = () => lz4;
  Codecs[Types.ZSTD] = () => zstd;
  compression[PATCHED] = true;
}
