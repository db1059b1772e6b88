/**
 * A record batch emptied by compaction (Kafka's cleaner keeps the last batch of
 * a producer, header only) must move a reader's position: sluice's private
 * kafkajs decodes it as one control record at the batch's last offset
 * (`empty-batch-marker.ts`); the partition reader skips it and its
 * `nextOffset` passes the batch. The process-wide kafkajs is left as it is.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { sluiceKafkaJs } from '../../../src/cluster/kafkajs/internal/patches.js';
import { readResultOf } from '../../../src/cluster/kafkajs/internal/partition-reader.js';
import type { ReaderMessage } from '../../../src/cluster/kafkajs/internal/reader-cluster.js';
import { encodeBatch } from '../../../src/cluster/embedded/internal/record-batch.js';

const require = createRequire(import.meta.url);
type DecodeMessages = (decoder: unknown) => Promise<ReaderMessage[]>;
type DecoderCtor = new (raw: Buffer) => unknown;

/** A v2 batch at `baseOffset` whose records were all compacted away: no record, last offset delta `delta`. */
function emptyBatch(baseOffset: number, delta: number): Buffer {
  const bytes = encodeBatch({ baseOffset, records: [] });
  bytes.writeInt32BE(delta, 8 + 4 + 4 + 1 + 4 + 2); // base offset, length, leader epoch, magic, crc, attributes
  return bytes;
}
const oneRecord = (baseOffset: number) => encodeBatch({ baseOffset, records: [{ key: Buffer.from('k'), value: Buffer.from('v'), timestamp: 1 }] });
const messageSet = (...batches: Buffer[]) => {
  const body = Buffer.concat(batches);
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length);
  return Buffer.concat([size, body]);
};

describe('kafkajs: batches emptied by compaction', () => {
  const { internals } = sluiceKafkaJs();
  const decodeWith = async (decodeMessages: DecodeMessages, Decoder: DecoderCtor, raw: Buffer) => decodeMessages(new Decoder(raw));
  const ours = (raw: Buffer) =>
    decodeWith(internals.load<DecodeMessages>('protocol/requests/fetch/v4/decodeMessages.js'), internals.load<DecoderCtor>('protocol/decoder.js'), raw);

  it('decode as one control record at the batch’s last offset (the shared kafkajs decodes nothing)', async () => {
    const raw = messageSet(emptyBatch(10, 4), oneRecord(15));
    const messages = await ours(raw);
    expect(messages.map((m) => [m.offset, m.isControlRecord === true])).toEqual([['14', true], ['15', false]]);
    const shared = await decodeWith(require('kafkajs/src/protocol/requests/fetch/v4/decodeMessages.js') as DecodeMessages, require('kafkajs/src/protocol/decoder.js') as DecoderCtor, raw);
    expect(shared.map((m) => m.offset)).toEqual(['15']);
  });

  it('the partition reader skips it and moves past it, alone or followed by records', async () => {
    const tp = { topic: 't', partition: 0 };
    const alone = await ours(messageSet(emptyBatch(10, 4)));
    expect(readResultOf(tp, 10, { partition: 0, errorCode: 0, highWatermark: '15', lastStableOffset: '15', messages: alone }, true)).toEqual({ records: [], nextOffset: 15, endOffset: 15 });
    const followed = await ours(messageSet(emptyBatch(10, 4), oneRecord(15)));
    const result = readResultOf(tp, 12, { partition: 0, errorCode: 0, highWatermark: '16', lastStableOffset: '16', messages: followed }, true);
    expect(result.records.map((r) => [r.offset, r.key?.toString(), r.value?.toString()])).toEqual([[15, 'k', 'v']]);
    expect(result.nextOffset).toBe(16);
  });
});
