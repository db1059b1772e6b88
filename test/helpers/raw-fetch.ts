/**
 * Raw Fetch v4 requests over a socket, to see what kafkajs hides: the
 * attributes (codec bits) of the record batches a real broker stores.
 */
import { connect } from 'node:net';

/** Codec ids of the data batches of a partition, read with raw Fetch v4 requests (kafkajs hides batch attributes). */
export async function batchCodecs(broker: string, topic: string, partition: number): Promise<{ codecs: number[]; records: number }> {
  const codecs: number[] = [];
  let records = 0;
  for (let offset = 0; ; ) {
    const { highWatermark, batches } = await rawFetch(broker, topic, partition, offset);
    for (const b of batches) {
      if (!b.control) {
        codecs.push(b.attributes & 7);
        records += b.count;
      }
      offset = b.lastOffset + 1;
    }
    if (offset >= highWatermark || batches.length === 0) return { codecs, records };
  }
}

/** One batch header of a Fetch answer. */
export interface RawBatch { attributes: number; control: boolean; count: number; lastOffset: number }

/** One Fetch v4 (read_uncommitted) of `topic`-`partition` from `offset`: the high watermark and the whole batches of the answer. */
export async function rawFetch(broker: string, topic: string, partition: number, offset: number): Promise<{ highWatermark: number; batches: RawBatch[] }> {
  const str = (s: string) => Buffer.concat([Buffer.from([s.length >> 8, s.length & 0xff]), Buffer.from(s)]);
  const i32 = (v: number) => { const b = Buffer.alloc(4); b.writeInt32BE(v); return b; };
  const i64 = (v: number) => { const b = Buffer.alloc(8); b.writeBigInt64BE(BigInt(v)); return b; };
  const body = Buffer.concat([
    Buffer.from([0, 1, 0, 4]), i32(1), str('sluice-compression-test'), // Fetch v4, correlation id, client id
    i32(-1), i32(100), i32(1), i32(4 << 20), Buffer.from([0]), // replica, max wait, min bytes, max bytes, read_uncommitted
    i32(1), str(topic), i32(1), i32(partition), i64(offset), i32(4 << 20),
  ]);
  const [host, port] = broker.split(':');
  const response = await new Promise<Buffer>((resolve, reject) => {
    const socket = connect(Number(port), host!);
    let buf = Buffer.alloc(0);
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length >= 4 && buf.length >= 4 + buf.readInt32BE(0)) {
        socket.end();
        resolve(buf.subarray(4));
      }
    });
    socket.on('error', reject);
    socket.write(Buffer.concat([i32(body.length), body]));
  });
  let o = 4 + 4 + 4; // correlation id, throttle, topics count
  o += 2 + response.readInt16BE(o) + 4 + 4; // topic, partitions count, partition
  const errorCode = response.readInt16BE(o);
  if (errorCode !== 0) throw new Error(`Fetch of ${topic}-${partition} failed with error ${errorCode}`);
  const highWatermark = Number(response.readBigInt64BE(o + 2));
  o += 2 + 8 + 8;
  const aborted = response.readInt32BE(o);
  o += 4 + Math.max(aborted, 0) * 16;
  const size = response.readInt32BE(o);
  o += 4;
  const end = o + Math.max(size, 0);
  const batches: RawBatch[] = [];
  while (o + 61 <= end) {
    const length = response.readInt32BE(o + 8);
    if (o + 12 + length > end) break; // a partial batch at the end of the answer
    const attributes = response.readInt16BE(o + 21);
    batches.push({ attributes, control: (attributes & 0x20) !== 0, count: response.readInt32BE(o + 57), lastOffset: Number(response.readBigInt64BE(o)) + response.readInt32BE(o + 23) });
    o += 12 + length;
  }
  return { highWatermark, batches };
}

