import { describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { partitionFor } from '../../../src/records/partitioner.js';
import { TaskRecordCollector, type CollectorProducer } from '../../../src/eos/record-collector.js';
import type { ProducerRecord, SendCallback } from '../../../src/eos/producer-types.js';
import { TxnSendOption } from '../../../src/eos/txn-send-option.js';
import { InvalidRecordError, ProducerFencedError, RecordTooLargeError } from '../../../src/errors.js';
import type { ErrorHandlerContext, ProductionExceptionHandler } from '../../../src/handlers/types.js';
import type { OutputRecord } from '../../../src/processors/task-contract.js';
import { Serdes } from '../../../src/serdes/serdes.js';

/** A producer whose sends stay pending until `settle` is called. */
class FakeProducer implements CollectorProducer {
  readonly sent: Array<{ record: ProducerRecord; callback?: SendCallback; option?: string }> = [];
  readonly markAbortable = vi.fn();
  dispatch(record: ProducerRecord, callback: SendCallback, option?: TxnSendOption): void {
    this.sent.push({ record, callback, option });
  }
  settle(index: number, error: Error | null): void {
    const { record, callback } = this.sent[index]!;
    callback?.(error, error ? null : { topic: record.topic, partition: record.partition ?? 0, offset: index, timestamp: 0 });
  }
}

const context: ErrorHandlerContext = { topic: 'in', partition: 2, offset: 41, headers: {}, timestamp: 1, processorNodeId: 'KSTREAM-SINK-0000000002', taskId: '0_2' };
const output = (value: string | null, extra: Partial<OutputRecord> = {}): OutputRecord => ({
  topic: 'out',
  key: 'k',
  value,
  keySerializer: Serdes.String() as never,
  valueSerializer: Serdes.String() as never,
  headers: {},
  timestamp: 5,
  ...extra,
});

function collector(handler: ProductionExceptionHandler, partitions = 6) {
  const producer = new FakeProducer();
  const counters = { recordsProduced: 0, droppedRecords: 0 };
  const c = new TaskRecordCollector({
    taskId: '0_2',
    producer,
    sendOption: TxnSendOption.IGNORE_SEND_ERRORS,
    deadLetterOption: TxnSendOption.NONE,
    handler,
    partitionCount: (topic) => (topic === 'out' ? partitions : undefined),
    counters,
    logger: pino({ level: 'silent' }),
  });
  return { c, producer, counters };
}

describe('TaskRecordCollector', () => {
  it('serializes, partitions keyed records with murmur2 and sends with IGNORE_SEND_ERRORS', () => {
    const { c, producer } = collector({ handle: () => 'FAIL' });
    c.send(output('v'), context);
    c.send(output('w', { partition: 4 }), context);
    c.send(output('x', { key: null }), context);
    expect(producer.sent.map((s) => s.option)).toEqual(['IGNORE_SEND_ERRORS', 'IGNORE_SEND_ERRORS', 'IGNORE_SEND_ERRORS']);
    expect(producer.sent[0]!.record).toMatchObject({ topic: 'out', key: Buffer.from('k'), value: Buffer.from('v'), timestamp: 5 });
    expect(producer.sent[0]!.record.partition).toBe(partitionFor(Buffer.from('k'), 6));
    expect(producer.sent[1]!.record.partition).toBe(4);
    expect(producer.sent[2]!.record.partition).toBeUndefined(); // keyless: the producer's sticky partitioner
    expect(c.partitionsFor('out')).toBe(6);
  });

  it('CONTINUE counts one dropped record, keeps the task healthy and sends dead letters with NONE', () => {
    const handle = vi.fn(() => ({ response: 'CONTINUE' as const, deadLetterRecords: [{ topic: 'dlq', key: null, value: Buffer.from('dead') }] }));
    const { c, producer, counters } = collector({ handle });
    c.send(output('v'), context);
    expect(c.pending).toBe(1);
    producer.settle(0, new RecordTooLargeError('too large'));
    expect(handle).toHaveBeenCalledWith(context, expect.objectContaining({ topic: 'out', keyBytes: Buffer.from('k') }), expect.any(RecordTooLargeError));
    expect(counters.droppedRecords).toBe(1);
    expect(c.failure).toBeUndefined();
    expect(producer.sent[1]).toMatchObject({ option: 'NONE', record: { topic: 'dlq', value: Buffer.from('dead') } });
    expect(c.pending).toBe(1); // the dead letter
    producer.settle(1, new InvalidRecordError('dlq rejects it'));
    expect(producer.markAbortable).toHaveBeenCalledTimes(1);
    expect(c.failure?.code).toBe('DEAD_LETTER_FAILED');
  });

  it('FAIL marks the transaction abortable (as TxnSendOption.NONE would) and fails the task', () => {
    const { c, producer, counters } = collector({ handle: () => 'FAIL' });
    c.send(output('v'), context);
    const error = new InvalidRecordError('bad');
    producer.settle(0, error);
    expect(producer.markAbortable).toHaveBeenCalledWith(error);
    expect(c.failure?.cause).toBe(error);
    expect(c.failure?.kind).toBe('record');
    expect(counters.droppedRecords).toBe(0);
    expect(() => c.checkHealthy()).toThrow(/productionExceptionHandler answered FAIL/);
    expect(() => c.send(output('w'), context)).toThrow(/answered FAIL/);
  });

  it('fencing errors never reach the handler', () => {
    const handle = vi.fn(() => 'CONTINUE' as const);
    const { c, producer } = collector({ handle });
    c.send(output('v'), context);
    producer.settle(0, new ProducerFencedError('fenced'));
    expect(handle).not.toHaveBeenCalled();
    expect(c.failure?.kind).toBe('fencing');
  });

  it('a handler that throws is fatal, with the handler error as cause', () => {
    const bug = new Error('bug');
    const { c, producer } = collector({ handle: () => { throw bug; } });
    c.send(output('v'), context);
    producer.settle(0, new RecordTooLargeError('too large'));
    expect(c.failure?.kind).toBe('fatal');
    expect(c.failure?.cause).toBe(bug);
  });

  it('a serialization failure goes to handleSerializationException (origin KEY) and throws synchronously on FAIL', () => {
    const origins: string[] = [];
    const failingKey = { serialize: () => { throw new Error('no'); } };
    const { c, producer } = collector({ handle: () => 'CONTINUE', handleSerializationException: (_c, _r, _e, origin) => (origins.push(origin), 'FAIL') });
    expect(() => c.send(output('v', { keySerializer: failingKey as never }), context)).toThrow(/answered FAIL/);
    expect(origins).toEqual(['KEY']);
    expect(producer.sent).toHaveLength(0);
  });

  it('waitForPendingAtMost resolves once enough sends are acknowledged', async () => {
    const { c, producer, counters } = collector({ handle: () => 'FAIL' });
    for (let i = 0; i < 3; i++) c.send(output(`v${i}`), context);
    let released = false;
    const wait = c.waitForPendingAtMost(1).then(() => (released = true));
    producer.settle(0, null);
    await Promise.resolve();
    expect(released).toBe(false);
    producer.settle(1, null);
    await wait;
    expect(released).toBe(true);
    expect(counters.recordsProduced).toBe(2);
  });
});
