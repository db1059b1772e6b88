/**
 * The synchronous part of collecting an output record (src/eos/record-collection.ts),
 * and that the runtime's collector and the TopologyTestDriver's collector, both
 * built on it, hand the production handler the same record and fail alike.
 */
import { describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { choosePartition, deadLetterToWrite, decideOnRecordError, prepareOutput } from '../../../src/eos/record-collection.js';
import { TaskRecordCollector } from '../../../src/eos/record-collector.js';
import { TxnSendOption } from '../../../src/eos/txn-send-option.js';
import { InvalidRecordError, ProducerFencedError, SerializationError, StreamsError } from '../../../src/errors.js';
import type { ErrorHandlerContext, FailedOutputRecord, ProductionExceptionHandler } from '../../../src/handlers/types.js';
import type { OutputRecord } from '../../../src/processors/task-contract.js';
import { partitionFor } from '../../../src/records/partitioner.js';
import { Serdes } from '../../../src/serdes/serdes.js';
import { DriverCollector } from '../../../src/testing/internal/driver-collector.js';

const context: ErrorHandlerContext = { topic: 'in', partition: 0, offset: 7, headers: {}, timestamp: 1, processorNodeId: 'sink', taskId: '0_0' };
const output = (extra: Partial<OutputRecord> = {}): OutputRecord => ({
  topic: 'out',
  key: 'k',
  value: 'v',
  keySerializer: Serdes.String() as never,
  valueSerializer: Serdes.String() as never,
  headers: { h: 'x' },
  timestamp: 5,
  ...extra,
});
const six = (topic: string): number | undefined => (topic === 'out' ? 6 : undefined);
const failing = { serialize: () => { throw new Error('too big'); } } as never;

describe('prepareOutput (steps 1 and 2)', () => {
  it('serializes key and value and partitions by murmur2 of the key bytes when the count is known', () => {
    const prepared = prepareOutput(output(), six);
    expect(prepared).toEqual({
      ok: true,
      record: { topic: 'out', key: Buffer.from('k'), value: Buffer.from('v'), partition: partitionFor(Buffer.from('k'), 6), headers: { h: 'x' }, timestamp: 5 },
      failed: { topic: 'out', partition: undefined, key: 'k', value: 'v', keyBytes: Buffer.from('k'), valueBytes: Buffer.from('v'), headers: { h: 'x' }, timestamp: 5 },
    });
  });

  it("keeps the sink's partition; leaves keyless records and unknown counts to the producer", () => {
    expect(choosePartition('out', Buffer.from('k'), 4, six)).toBe(4);
    expect(choosePartition('out', null, undefined, six)).toBeUndefined();
    expect(choosePartition('other', Buffer.from('k'), undefined, six)).toBeUndefined();
  });

  it('returns a value serialization failure as a SerializationError (origin VALUE) with the key bytes already in the failed record', () => {
    const prepared = prepareOutput(output({ valueSerializer: failing }), six);
    expect(prepared.ok).toBe(false);
    if (prepared.ok) return;
    expect(prepared.error).toBeInstanceOf(SerializationError);
    expect(prepared.error.origin).toBe('VALUE');
    expect(prepared.error.message).toMatch(/Failed to serialize value for topic 'out' .*too big/);
    expect(prepared.failed.keyBytes).toEqual(Buffer.from('k'));
    expect(prepared.failed.valueBytes).toBeUndefined();
  });
});

describe('decideOnRecordError (step 3)', () => {
  const failed: FailedOutputRecord = { topic: 'out', key: 'k', value: 'v', headers: {}, timestamp: 5 };

  it('never asks the handler about a fencing error', () => {
    const handle = vi.fn(() => 'CONTINUE' as const);
    const fenced = new ProducerFencedError('fenced');
    expect(decideOnRecordError({ handle }, context, failed, fenced)).toEqual({ response: 'FAIL', error: fenced, asked: false });
    expect(handle).not.toHaveBeenCalled();
  });

  it('maps FAIL to a PRODUCTION_FAILED task failure naming task, sink, topic and input, with the error as cause', () => {
    const error = new InvalidRecordError('bad header');
    const decision = decideOnRecordError({ handle: () => 'FAIL' }, context, failed, error);
    expect(decision.response).toBe('FAIL');
    if (decision.response !== 'FAIL') return;
    expect(decision).toMatchObject({ asked: true, error: { code: 'PRODUCTION_FAILED', kind: 'record', cause: error } });
    expect(decision.error.message).toBe(
      "Output record of task 0_0 from sink 'sink' to topic out failed (input in-0@7) and productionExceptionHandler answered FAIL: bad header",
    );
  });

  it('routes a serialization error to handleSerializationException and passes CONTINUE dead letters on', () => {
    const dead = { topic: 'dlq', key: null, value: Buffer.from('x') };
    const handler: ProductionExceptionHandler = { handle: () => 'FAIL', handleSerializationException: vi.fn(() => ({ response: 'CONTINUE' as const, deadLetterRecords: [dead] })) };
    const error = new SerializationError('no', { origin: 'KEY', topic: 'out' });
    expect(decideOnRecordError(handler, context, failed, error)).toEqual({ response: 'CONTINUE', deadLetterRecords: [dead] });
    expect(handler.handleSerializationException).toHaveBeenCalledWith(context, failed, error, 'KEY');
  });

  it('turns a throwing handler into a fatal HANDLER_THREW failure', () => {
    const decision = decideOnRecordError({ handle: () => { throw new Error('oops'); } }, context, failed, new InvalidRecordError('x'));
    expect(decision).toMatchObject({ response: 'FAIL', asked: true, error: { code: 'HANDLER_THREW', kind: 'fatal' } });
  });
});

describe('deadLetterToWrite (step 4)', () => {
  it('partitions a keyed dead letter by murmur2 and uses the fallback timestamp when it has none', () => {
    expect(deadLetterToWrite({ topic: 'out', key: Buffer.from('k'), value: null }, six, 99)).toEqual({
      topic: 'out', key: Buffer.from('k'), value: null, partition: partitionFor(Buffer.from('k'), 6), headers: {}, timestamp: 99,
    });
    expect(deadLetterToWrite({ topic: 'dlq', key: null, value: null, timestamp: 3, headers: { a: 'b' } }, six, 99)).toMatchObject({ partition: undefined, timestamp: 3, headers: { a: 'b' } });
  });
});

describe('the runtime collector and the driver collector share it', () => {
  it('hand the handler the same failed record and fail with the same error for a serializer failure', () => {
    const seen: FailedOutputRecord[] = [];
    const handler: ProductionExceptionHandler = { handle: (_c, record) => (seen.push(record), 'FAIL') };
    const runtime = new TaskRecordCollector({
      taskId: '0_0',
      producer: { dispatch: () => undefined, markAbortable: () => undefined },
      sendOption: TxnSendOption.IGNORE_SEND_ERRORS,
      deadLetterOption: TxnSendOption.NONE,
      handler,
      partitionCount: () => 1,
      counters: { recordsProduced: 0, droppedRecords: 0 },
      logger: pino({ level: 'silent' }),
    });
    const driver = new DriverCollector(handler, () => undefined);
    const errors = [runtime, driver].map((c) => {
      try {
        c.send(output({ valueSerializer: failing }), context);
      } catch (error) {
        return error as StreamsError;
      }
      return undefined;
    });
    expect(errors[0]).toBeInstanceOf(StreamsError);
    expect(errors[1]?.message).toBe(errors[0]?.message);
    expect(errors[1]?.code).toBe('PRODUCTION_FAILED');
    expect(seen).toHaveLength(2);
    expect(seen[1]).toEqual(seen[0]);
  });
});
