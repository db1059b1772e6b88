/**
 * The kafkajs partition reader's retries, over a fake kafkajs cluster: a
 * leader change (NOT_LEADER_OR_FOLLOWER) or a lost connection refreshes the
 * metadata and tries again; OFFSET_OUT_OF_RANGE (not retriable in
 * `src/error-table.ts`) rejects at once; the Fetch asks for the reader's
 * isolation level (read_committed = 1).
 */
import type { Kafka } from 'kafkajs';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { KafkaErrorCode, KafkaProtocolError } from '../../../src/errors.js';
import { KafkaJsPartitionReader } from '../../../src/cluster/kafkajs/internal/partition-reader.js';
import type { KafkaJsBroker, ReaderFetchPartition } from '../../../src/cluster/kafkajs/internal/reader-cluster.js';

const kafkaJsError = (type: string, code: number) => Object.assign(new Error(`kafkajs ${type}`), { name: 'KafkaJSProtocolError', type, code, retriable: true });
const message = (offset: number, value: string) => ({
  offset: String(offset), key: Buffer.from('k'), value: Buffer.from(value), timestamp: '1', headers: {},
  batchContext: { producerId: '-1', inTransaction: false, firstOffset: String(offset), lastOffsetDelta: 0 },
});

function fakeKafka(fetches: Array<() => ReaderFetchPartition>) {
  const calls = { fetch: [] as Parameters<KafkaJsBroker['fetch']>[0][], refresh: 0, isolationLevel: -1 };
  const broker: KafkaJsBroker = {
    fetch: async (request) => {
      calls.fetch.push(request);
      const next = fetches.shift();
      if (!next) throw new Error('no more answers');
      return { responses: [{ topicName: 't', partitions: [next()] }] };
    },
  };
  const cluster = {
    connect: async () => {},
    disconnect: async () => {},
    refreshMetadata: async () => void (calls.refresh += 1),
    addTargetTopic: async () => {},
    findTopicPartitionMetadata: () => [{ partitionId: 0, leader: 1 }],
    findLeaderForPartitions: () => ({ 1: [0] }),
    findBroker: async () => broker,
    fetchTopicsOffset: async () => [{ topic: 't', partitions: [{ partition: 0, offset: '7' }] }],
  };
  const kafka = {
    [Symbol('private:Kafka:createCluster')]: (options: { isolationLevel: number }) => ((calls.isolationLevel = options.isolationLevel), cluster),
  } as unknown as Kafka;
  return { kafka, calls };
}

const logger = pino({ level: 'silent' });
const answer = (messages: ReturnType<typeof message>[]): ReaderFetchPartition => ({ partition: 0, errorCode: 0, highWatermark: '9', lastStableOffset: '7', messages: messages as never });

describe('kafkajs partition reader: retries through the classification table', () => {
  it('NOT_LEADER_OR_FOLLOWER and a lost connection: metadata refreshed, fetched again from the new leader', async () => {
    const { kafka, calls } = fakeKafka([
      () => { throw kafkaJsError('NOT_LEADER_FOR_PARTITION', 6); },
      () => { throw Object.assign(new Error('Connection closed'), { name: 'KafkaJSConnectionClosedError' }); },
      () => answer([message(3, 'v3'), message(4, 'v4')]),
    ]);
    const reader = new KafkaJsPartitionReader(kafka, {}, logger);
    const result = await reader.fetch({ topic: 't', partition: 0 }, 3, { maxWaitMs: 50, maxBytes: 1000 });
    expect(result.records.map((r) => [r.offset, r.value?.toString()])).toEqual([[3, 'v3'], [4, 'v4']]);
    expect(result).toMatchObject({ nextOffset: 5, endOffset: 7 });
    expect(calls.fetch).toHaveLength(3);
    expect(calls.refresh).toBe(2);
    expect(calls.isolationLevel).toBe(1);
    expect(calls.fetch[0]).toMatchObject({ replicaId: -1, isolationLevel: 1, maxWaitTime: 50, maxBytes: 1000, topics: [{ topic: 't', partitions: [{ partition: 0, fetchOffset: '3', maxBytes: 1000 }] }] });
    expect(await reader.endOffsets('t')).toEqual([7]);
  });

  it('OFFSET_OUT_OF_RANGE rejects at once, as a KafkaProtocolError', async () => {
    const { kafka, calls } = fakeKafka([() => { throw Object.assign(kafkaJsError('OFFSET_OUT_OF_RANGE', 1), { name: 'KafkaJSOffsetOutOfRange', retriable: false }); }]);
    const reader = new KafkaJsPartitionReader(kafka, { isolationLevel: 'read_uncommitted' }, logger);
    const e = await reader.fetch({ topic: 't', partition: 0 }, 100).then(() => undefined, (x: unknown) => x);
    expect(e).toBeInstanceOf(KafkaProtocolError);
    expect((e as KafkaProtocolError).kafkaCode).toBe(KafkaErrorCode.OFFSET_OUT_OF_RANGE);
    expect(calls.fetch).toHaveLength(1);
    expect(calls.isolationLevel).toBe(0);
  });

  it('read_uncommitted: endOffset of a fetch is the high watermark', async () => {
    const { kafka } = fakeKafka([() => answer([message(0, 'v0')])]);
    const reader = new KafkaJsPartitionReader(kafka, { isolationLevel: 'read_uncommitted' }, logger);
    expect(await reader.fetch({ topic: 't', partition: 0 }, 0)).toMatchObject({ nextOffset: 1, endOffset: 9 });
  });
});
