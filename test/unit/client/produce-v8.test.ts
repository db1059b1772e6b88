import { describe, expect, it } from 'vitest';
import { sluiceKafkaJs } from '../../../src/cluster/kafkajs/internal/patches.js';
import { decodeProduceV8, registerProduceV8 } from '../../../src/cluster/kafkajs/internal/produce-v8.js';

/** sluice's private kafkajs: the only copy the registration touches. */
const { internals } = sluiceKafkaJs();
const require = (path: string): unknown => internals.load(path.replace(/^kafkajs\/src\//, ''));

interface Encoder {
  writeInt16(v: number): Encoder;
  writeInt32(v: number): Encoder;
  writeInt64(v: number | string): Encoder;
  writeString(v: string | null): Encoder;
  writeArray(v: Encoder[]): Encoder;
  buffer: Buffer;
}
const Encoder = require('kafkajs/src/protocol/encoder.js') as new () => Encoder;
const produce = require('kafkajs/src/protocol/requests/produce/index.js') as {
  versions: string[];
  protocol: (o: { version: number }) => (args: Record<string, unknown>) => { request: { apiVersion: number; apiKey: number } };
};

describe('Produce v8 registration', () => {
  it('adds version 8 once and keeps the other versions', () => {
    registerProduceV8(internals);
    registerProduceV8(internals);
    expect(produce.versions.filter((v) => v === '8')).toHaveLength(1);
    const args = { acks: -1, timeout: 1000, topicData: [] };
    expect(produce.protocol({ version: 8 })(args).request).toMatchObject({ apiKey: 0, apiVersion: 8 });
    expect(produce.protocol({ version: 7 })(args).request).toMatchObject({ apiKey: 0, apiVersion: 7 });
  });

  it('is what kafkajs picks against a broker that supports v8+', () => {
    registerProduceV8(internals);
    const { lookup } = require('kafkajs/src/protocol/requests/index.js') as {
      lookup: (v: Record<number, { minVersion: number; maxVersion: number }>) => (key: number, def: unknown) => unknown;
    };
    const request = (lookup({ 0: { minVersion: 3, maxVersion: 12 } })(0, produce) as (a: object) => { request: { apiVersion: number } })({
      acks: -1,
      timeout: 1,
      topicData: [],
    });
    expect(request.request.apiVersion).toBe(8);
  });
});

describe('Produce v8 response decoding', () => {
  it('reads record_errors and error_message after log_start_offset', async () => {
    const partition = (index: number, code: number, errors: Array<[number, string | null]>, message: string | null) =>
      new Encoder()
        .writeInt32(index)
        .writeInt16(code)
        .writeInt64(code === 0 ? 41 : -1)
        .writeInt64(-1)
        .writeInt64(0)
        .writeArray(errors.map(([i, m]) => new Encoder().writeInt32(i).writeString(m)))
        .writeString(message);
    const body = new Encoder()
      .writeArray([
        new Encoder().writeString('orders').writeArray([partition(0, 0, [], null), partition(1, 87, [[1, 'no key'], [4, null]], 'rejected')]),
      ])
      .writeInt32(25);
    const decoded = await decodeProduceV8(internals, body.buffer);
    expect(decoded.clientSideThrottleTime).toBe(25);
    expect(decoded.topics[0]!.topicName).toBe('orders');
    expect(decoded.topics[0]!.partitions).toEqual([
      { partition: 0, errorCode: 0, baseOffset: '41', logAppendTime: '-1', logStartOffset: '0', recordErrors: [], errorMessage: null },
      {
        partition: 1,
        errorCode: 87,
        baseOffset: '-1',
        logAppendTime: '-1',
        logStartOffset: '0',
        recordErrors: [
          { batchIndex: 1, message: 'no key' },
          { batchIndex: 4, message: null },
        ],
        errorMessage: 'rejected',
      },
    ]);
  });
});
