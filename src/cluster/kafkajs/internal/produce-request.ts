/**
 * The body of a Produce request (v3–v8, the same bytes) encoded by sluice's
 * own record-batch encoder (`src/records/record-batch-encoder.ts`) instead of
 * kafkajs' (which builds a small encoder, a spread copy and a buffer copy per
 * record). Used by `produce-v8.ts` for every request; uncompressed, the bytes
 * equal kafkajs' v3 encoder's for the same arguments (unit-tested); with
 * `compression` (kafkajs' codec number, Kafka's codec id) the records are
 * compressed by `src/records/compression.ts`.
 *
 * Layout: transactional_id nullable string, acks int16, timeout int32,
 * topic_data [topic string, data [partition int32, record_set bytes]].
 */
import { compressionTypeOfId } from '../../../records/compression.js';
import { encodeRecordBatch, type EncodableRecord } from '../../../records/record-batch-encoder.js';

/** The transactional bit of a batch's attributes. */
const TRANSACTIONAL = 0x10;

/** A message as kafkajs hands it to the Produce request (`timestamp` a string or number of ms). */
export interface KafkaJsProduceMessage {
  key?: Buffer | string | null;
  value: Buffer | string | null;
  headers?: EncodableRecord['headers'];
  timestamp?: string | number;
}

/** The arguments kafkajs passes to a Produce request factory. */
export interface KafkaJsProduceArgs {
  acks: number;
  timeout: number;
  transactionalId?: string | null;
  producerId?: { toString(): string } | number;
  producerEpoch?: number;
  compression?: number;
  topicData: Array<{ topic: string; partitions: Array<{ partition: number; firstSequence?: number; messages: KafkaJsProduceMessage[] }> }>;
}

/** A minimal kafkajs `Encoder` look-alike: kafkajs' request framing reads `.buf` (a Buffer) and `.buffer`. */
export interface EncodedPayload {
  readonly buf: Buffer;
  readonly buffer: Buffer;
  size(): number;
}

function writeString(parts: Buffer[], s: string | null): void {
  if (s === null) {
    const b = Buffer.allocUnsafe(2);
    b.writeInt16BE(-1, 0);
    parts.push(b);
    return;
  }
  const bytes = Buffer.from(s, 'utf8');
  const len = Buffer.allocUnsafe(2);
  len.writeInt16BE(bytes.length, 0);
  parts.push(len, bytes);
}

function int32(v: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeInt32BE(v, 0);
  return b;
}

/** Encodes the request body (see the module comment). */
export function encodeProduceBody(args: KafkaJsProduceArgs, now: number = Date.now()): Buffer {
  const transactionalId = args.transactionalId ?? null;
  const producerId = args.producerId === undefined ? -1n : BigInt(args.producerId.toString());
  const producerEpoch = args.producerEpoch ?? 0;
  const compression = compressionTypeOfId(args.compression ?? 0);
  if (compression === undefined) throw new Error(`Unknown compression type id: ${args.compression}`);
  const parts: Buffer[] = [];
  writeString(parts, transactionalId);
  const head = Buffer.allocUnsafe(6);
  head.writeInt16BE(args.acks, 0);
  head.writeInt32BE(args.timeout, 2);
  parts.push(head, int32(args.topicData.length));
  for (const topic of args.topicData) {
    writeString(parts, topic.topic);
    parts.push(int32(topic.partitions.length));
    for (const p of topic.partitions) {
      // kafkajs stamps a message without a timestamp with the time of the request (a timestamp of 0 is a timestamp)
      const stamped = p.messages.every((m) => m.timestamp !== undefined && m.timestamp !== null && m.timestamp !== '');
      const records: readonly EncodableRecord[] = stamped
        ? (p.messages as EncodableRecord[])
        : p.messages.map((m) => ({ key: m.key, value: m.value, headers: m.headers, timestamp: m.timestamp === undefined || m.timestamp === null || m.timestamp === '' ? now : m.timestamp }));
      const batch = encodeRecordBatch(records, {
        partitionLeaderEpoch: 0,
        attributes: transactionalId ? TRANSACTIONAL : 0,
        producerId,
        producerEpoch,
        baseSequence: p.firstSequence ?? 0,
        compression,
      });
      parts.push(int32(p.partition), int32(batch.length), batch);
    }
  }
  return Buffer.concat(parts);
}

/** Wraps a body so kafkajs' request framing (`protocol/request.js`, `writeEncoder`) takes it as an encoder. */
export function asEncoder(body: Buffer): EncodedPayload {
  return { buf: body, buffer: body, size: () => body.length };
}
