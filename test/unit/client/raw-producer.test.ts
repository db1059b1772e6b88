import kafkajs from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { KafkaJsRawProducer } from '../../../src/cluster/kafkajs/internal/raw-producer.js';
import type { WireRecord } from '../../../src/cluster/port.js';
import { IllegalStateError, KafkaProtocolError, ProducerFencedError } from '../../../src/errors.js';
import { componentLogger } from '../../../src/internal/logger.js';

const { KafkaJSProtocolError, KafkaJSConnectionError } = kafkajs;
const logger = componentLogger('test');
const rec = (value: string): WireRecord => ({ key: Buffer.from('k'), value: Buffer.from(value), headers: {}, timestamp: 1 });

type Outcome = Error | { baseOffset: string };

/** A kafkajs Kafka whose producer answers sends from a script and records what it was asked. */
function stubKafka(script: Outcome[], endTxn: Array<Error | undefined> = []) {
  const calls: Array<{ topic: string; partitions: number[]; values: string[]; acks: number }> = [];
  let config: Record<string, unknown> = {};
  const send = async (req: { topic: string; acks: number; messages: Array<{ partition: number; value: Buffer }> }) => {
    calls.push({ topic: req.topic, acks: req.acks, partitions: [...new Set(req.messages.map((m) => m.partition))], values: req.messages.map((m) => m.value.toString()) });
    const next = script.shift() ?? { baseOffset: '0' };
    if (next instanceof Error) throw next;
    return [{ topicName: req.topic, partition: req.messages[0]!.partition, errorCode: 0, baseOffset: next.baseOffset }];
  };
  const producer = {
    connect: async () => undefined,
    disconnect: async () => undefined,
    send,
    transaction: async () => ({
      send,
      sendOffsets: async () => undefined,
      commit: async () => {
        const e = endTxn.shift();
        if (e) throw e;
      },
      abort: async () => undefined,
      isActive: () => true,
    }),
  };
  const kafka = {
    producer: (c: Record<string, unknown>) => {
      config = c;
      return producer;
    },
  };
  return { kafka: kafka as never, calls, config: () => config };
}

const protocolError = (type: string, code: number) => new KafkaJSProtocolError({ type, code, retriable: false, message: type } as never);

describe('KafkaJsRawProducer', () => {
  it('sends one partition per call with acks=-1 and returns the base offset', async () => {
    const stub = stubKafka([{ baseOffset: '17' }]);
    const p = new KafkaJsRawProducer(stub.kafka, {}, logger);
    await p.connect();
    expect(await p.produce({ topic: 't', partition: 2, records: [rec('a'), rec('b')] })).toEqual({ topic: 't', partition: 2, baseOffset: 17 });
    expect(stub.calls).toEqual([{ topic: 't', acks: -1, partitions: [2], values: ['a', 'b'] }]);
    expect(stub.config()).toMatchObject({ idempotent: true, allowAutoTopicCreation: false });
    await p.close();
  });

  it('a transactional producer needs beginTransaction before produce and sendOffsets', async () => {
    const stub = stubKafka([]);
    const p = new KafkaJsRawProducer(stub.kafka, { transactionalId: 'tx' }, logger);
    await p.connect();
    expect(stub.config()).toMatchObject({ idempotent: false, transactionalId: 'tx' });
    await expect(p.produce({ topic: 't', partition: 0, records: [rec('a')] })).rejects.toBeInstanceOf(IllegalStateError);
    await expect(p.sendOffsets('g', [])).rejects.toBeInstanceOf(IllegalStateError);
    await p.beginTransaction();
    await expect(p.beginTransaction()).rejects.toBeInstanceOf(IllegalStateError);
    await p.produce({ topic: 't', partition: 0, records: [rec('a')] });
    await p.commitTransaction();
    await p.close();
  });

  it('a record-level rejection leaves the producer usable', async () => {
    const stub = stubKafka([protocolError('INVALID_RECORD', 87), { baseOffset: '0' }]);
    const p = new KafkaJsRawProducer(stub.kafka, {}, logger);
    await p.connect();
    await expect(p.produce({ topic: 't', partition: 0, records: [rec('a')] })).rejects.toMatchObject({ kafkaCode: 87 });
    await expect(p.produce({ topic: 't', partition: 0, records: [rec('b')] })).resolves.toMatchObject({ baseOffset: 0 });
    await p.close();
  });

  it('after fencing every call rejects with ProducerFencedError', async () => {
    const stub = stubKafka([protocolError('INVALID_PRODUCER_EPOCH', 47)]);
    const p = new KafkaJsRawProducer(stub.kafka, { transactionalId: 'tx' }, logger);
    await p.connect();
    await p.beginTransaction();
    await expect(p.produce({ topic: 't', partition: 0, records: [rec('a')] })).rejects.toBeInstanceOf(ProducerFencedError);
    await expect(p.produce({ topic: 't', partition: 1, records: [rec('a')] })).rejects.toBeInstanceOf(ProducerFencedError);
    await expect(p.commitTransaction()).rejects.toBeInstanceOf(ProducerFencedError);
    expect(stub.calls).toHaveLength(1);
    await p.close();
  });

  it('a failed EndTxn makes the producer unusable', async () => {
    const stub = stubKafka([], [protocolError('COORDINATOR_NOT_AVAILABLE', 15)]);
    const p = new KafkaJsRawProducer(stub.kafka, { transactionalId: 'tx' }, logger);
    await p.connect();
    await p.beginTransaction();
    await expect(p.commitTransaction()).rejects.toMatchObject({ kafkaCode: 15 });
    await expect(p.beginTransaction()).rejects.toBeInstanceOf(ProducerFencedError);
    await p.close();
  });

  it('after an unknown outcome only the same records may be re-sent to that partition', async () => {
    const lost = () => new KafkaJSConnectionError('Connection error: socket hang up', {} as never);
    const stub = stubKafka([lost(), { baseOffset: '5' }, lost(), { baseOffset: '0' }]);
    const p = new KafkaJsRawProducer(stub.kafka, {}, logger);
    await p.connect();
    const error = await p.produce({ topic: 't', partition: 0, records: [rec('a')] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KafkaProtocolError);
    expect((error as KafkaProtocolError).kind).toBe('retriable');
    // the same batch again: allowed (the broker de-duplicates it if it was written)
    await expect(p.produce({ topic: 't', partition: 0, records: [rec('a')] })).resolves.toMatchObject({ baseOffset: 5 });
    // lost again, then different records: refused, the producer is unusable
    await expect(p.produce({ topic: 't', partition: 0, records: [rec('b')] })).rejects.toBeInstanceOf(KafkaProtocolError);
    await expect(p.produce({ topic: 't', partition: 1, records: [rec('c')] })).resolves.toMatchObject({ baseOffset: 0 });
    await expect(p.produce({ topic: 't', partition: 0, records: [rec('other')] })).rejects.toBeInstanceOf(ProducerFencedError);
    await expect(p.produce({ topic: 't', partition: 1, records: [rec('c')] })).rejects.toBeInstanceOf(ProducerFencedError);
    await p.close();
  });
});
