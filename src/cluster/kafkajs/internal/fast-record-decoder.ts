/**
 * A replacement of kafkajs' record decoder (`protocol/recordBatch/record/v0/decoder.js`,
 * one call per fetched record) that gives the same record object without
 * kafkajs' `Long` arithmetic (issue 32): kafkajs computes every record's offset
 * and timestamp as `Long.fromValue(first).add(delta).toString()` and reads the
 * timestamp delta as a `Long` varlong, three to five `Long` objects and a
 * string parse per record. Here:
 * 1. attributes as kafkajs reads them;
 * 2. the timestamp delta, a zigzag varlong, read into a number while it fits
 *    49 bits (always, for deltas of real batches), else by kafkajs' own
 *    `readVarLong`;
 * 3. timestamp and offset = first + delta in numbers when both are safe
 *    integers (`String` of a safe integer is what `Long.toString` gives),
 *    else kafkajs' `Long` path;
 * 4. key, value and headers as kafkajs reads them; headers fold into the
 *    same object kafkajs' `reduce` builds (a repeated key becomes an array),
 *    in one pass instead of one object copy per header.
 * The output object has kafkajs' fields in kafkajs' order (unit-tested
 * against the original on the same bytes).
 */
import type { KafkaJsInternals } from './kafkajs-internals.js';

/** The record decoder module, relative to `kafkajs/src/`. */
export const RECORD_DECODER = 'protocol/recordBatch/record/v0/decoder.js';

/** The part of kafkajs' `Decoder` the record decoder uses. */
export interface KafkaJsRecordDecoderInput {
  buffer: Buffer;
  offset: number;
  readInt8(): number;
  readVarInt(): number;
  readVarLong(): { toString(): string };
  readVarIntBytes(): Buffer | null;
  readVarIntArray<T>(reader: (decoder: KafkaJsRecordDecoderInput) => T): T[];
}

/** The batch fields the record decoder reads (kafkajs' `recordContext`). */
export interface KafkaJsBatchContext {
  firstOffset?: string;
  firstTimestamp?: string;
  magicByte?: number;
  isControlBatch?: boolean;
  timestampType?: number;
  maxTimestamp?: string;
}

/** kafkajs' record decoder: `(decoder, batchContext) => record`. */
export type KafkaJsRecordDecoder = (decoder: KafkaJsRecordDecoderInput, batchContext?: KafkaJsBatchContext) => unknown;

interface LongLike {
  add(other: unknown): LongLike;
  toString(): string;
}
interface LongModule {
  fromValue(value: unknown): LongLike;
}
type HeaderDecoder = (decoder: KafkaJsRecordDecoderInput) => { key: string; value: Buffer | null };

/** kafkajs' `TimestampTypes.LOG_APPEND_TIME`. */
const LOG_APPEND_TIME = 1;
/** Varlong bits read into a number before falling back to kafkajs' `Long` varlong. */
const FAST_VARLONG_BITS = 49;

/**
 * Step 2: the zigzag varlong at the decoder's position as a number, the
 * position moved past it; `undefined` (position unchanged) when it has more
 * than {@link FAST_VARLONG_BITS} bits.
 */
export function readSmallVarLong(decoder: KafkaJsRecordDecoderInput): number | undefined {
  const buf = decoder.buffer;
  let at = decoder.offset;
  let result = 0;
  let multiplier = 1;
  for (let shift = 0; shift < FAST_VARLONG_BITS; shift += 7) {
    const byte = buf[at++];
    if (byte === undefined) return undefined;
    result += (byte & 0x7f) * multiplier;
    if (byte < 0x80) {
      decoder.offset = at;
      // zigzag: even n → n/2, odd n → -(n+1)/2
      return result % 2 === 0 ? result / 2 : -(result + 1) / 2;
    }
    multiplier *= 128;
  }
  return undefined;
}

/** `first + delta` as kafkajs' string, in numbers when safe (step 3), else through `Long`; `base` is `Number(first)`. */
function plus(Long: LongModule, first: string | undefined, base: number, delta: number | LongLike): string {
  if (typeof delta === 'number') {
    const sum = base + delta;
    if (Number.isSafeInteger(base) && Number.isSafeInteger(sum)) return String(sum);
  }
  return Long.fromValue(first).add(delta).toString();
}

/** The numbers of the last batch seen (every record of a batch shares its context object): parsed once per batch. */
interface BatchNumbers {
  context: KafkaJsBatchContext | undefined;
  firstOffset: number;
  firstTimestamp: number;
}

/** Step 4: kafkajs' header fold (`{ ...obj, [key]: ... }` per header), in one object. */
function foldHeaders(headers: { key: string; value: Buffer | null }[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of headers) {
    const previous = out[key];
    const next = previous === undefined ? value : Array.isArray(previous) ? previous.concat([value]) : [previous, value];
    // A computed key in an object literal defines an own property, even `__proto__`: so does this.
    Object.defineProperty(out, key, { value: next, writable: true, enumerable: true, configurable: true });
  }
  return out;
}

/** The replacement decoder, made from the copy's `Long` and header decoder. */
export function fastRecordDecoder(Long: LongModule, decodeHeader: HeaderDecoder): KafkaJsRecordDecoder {
  const last: BatchNumbers = { context: undefined, firstOffset: Number.NaN, firstTimestamp: Number.NaN };
  return (decoder, batchContext = {}) => {
    const { firstOffset, firstTimestamp, magicByte, isControlBatch = false, timestampType, maxTimestamp } = batchContext;
    if (last.context !== batchContext) {
      last.context = batchContext;
      // undefined → NaN: not safe, the Long path decides as kafkajs does
      last.firstOffset = firstOffset === undefined ? Number.NaN : Number(firstOffset);
      last.firstTimestamp = firstTimestamp === undefined ? Number.NaN : Number(firstTimestamp);
    }
    // 1.
    const attributes = decoder.readInt8();
    // 2.-3.
    const timestampDelta = readSmallVarLong(decoder) ?? (decoder.readVarLong() as LongLike);
    const timestamp = timestampType === LOG_APPEND_TIME && maxTimestamp ? maxTimestamp : plus(Long, firstTimestamp, last.firstTimestamp, timestampDelta);
    const offsetDelta = decoder.readVarInt();
    const offset = plus(Long, firstOffset, last.firstOffset, offsetDelta);
    // 4.
    const key = decoder.readVarIntBytes();
    const value = decoder.readVarIntBytes();
    const headers = foldHeaders(decoder.readVarIntArray(decodeHeader));
    return { magicByte, attributes, timestamp, offset, key, value, headers, isControlRecord: isControlBatch, batchContext };
  };
}

/**
 * Replaces the record decoder of a private kafkajs copy; it must run before
 * the record-batch decoder is loaded (it keeps the exports it required):
 * `patchKafkaJs` runs it first.
 */
export function installFastRecordDecoder(internals: KafkaJsInternals): void {
  const Long = internals.load<LongModule>('utils/long.js');
  const decodeHeader = internals.load<HeaderDecoder>('protocol/recordBatch/header/v0/decoder.js');
  internals.replace?.<KafkaJsRecordDecoder>(RECORD_DECODER, () => fastRecordDecoder(Long, decodeHeader));
}
