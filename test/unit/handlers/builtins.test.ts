import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DeadLetterHeaders,
  InvalidTimestampError,
  RecordTooLargeError,
  deadLetterQueueHandler,
  failHandler,
  logAndContinueHandler,
  type DeserializationExceptionHandler,
  type ProcessingExceptionHandler,
  type ProductionExceptionHandler,
} from '../../../src/index.js';
// The per-slot classes are no longer exported from 'sluice' (issue 31: one factory per behaviour); their modules keep them.
import { FailProductionExceptionHandler, LogAndFailDeserializationExceptionHandler, LogAndFailProcessingExceptionHandler } from '../../../src/handlers/fail.js';
import {
  LogAndContinueDeserializationExceptionHandler,
  LogAndContinueProcessingExceptionHandler,
  LogAndContinueProductionExceptionHandler,
} from '../../../src/handlers/log-and-continue.js';
import {
  DeadLetterQueueDeserializationExceptionHandler,
  DeadLetterQueueProcessingExceptionHandler,
  DeadLetterQueueProductionExceptionHandler,
} from '../../../src/handlers/dead-letter-queue.js';
import { captureLogger } from './capture-logger.js';
import { context, output, rawInput } from './fixtures.js';

describe('built-in handlers fit every handler slot', () => {
  it('type-checks as the three contracts', () => {
    const slots: Array<[ProductionExceptionHandler, DeserializationExceptionHandler, ProcessingExceptionHandler]> = [
      [failHandler(), failHandler(), failHandler()],
      [logAndContinueHandler(), logAndContinueHandler(), logAndContinueHandler()],
      [deadLetterQueueHandler({ topic: 'd' }), deadLetterQueueHandler({ topic: 'd' }), deadLetterQueueHandler({ topic: 'd' })],
      [new FailProductionExceptionHandler(), new LogAndFailDeserializationExceptionHandler(), new LogAndFailProcessingExceptionHandler()],
      [
        new LogAndContinueProductionExceptionHandler(),
        new LogAndContinueDeserializationExceptionHandler(),
        new LogAndContinueProcessingExceptionHandler(),
      ],
      [
        new DeadLetterQueueProductionExceptionHandler({ topic: 'd' }),
        new DeadLetterQueueDeserializationExceptionHandler({ topic: 'd' }),
        new DeadLetterQueueProcessingExceptionHandler({ topic: 'd' }),
      ],
    ];
    expect(slots).toHaveLength(6);
  });
});

describe('fail handlers', () => {
  it('answer FAIL and log one ERROR naming the config key that would skip', () => {
    const { logger, lines } = captureLogger();
    const h = failHandler({ logger });
    expect(h.handle(context, output, new RecordTooLargeError('too big'))).toBe('FAIL');
    expect(new LogAndFailDeserializationExceptionHandler({ logger }).handle(context, rawInput, new Error('bad'))).toBe('FAIL');
    expect(lines).toHaveLength(2);
    expect(lines[0]?.level).toBe(50);
    expect(lines[0]?.msg).toContain('productionExceptionHandler');
    expect(lines[0]?.msg).toContain('RecordTooLargeError: too big');
    expect(lines[1]?.msg).toContain('deserializationExceptionHandler');
  });
});

describe('log-and-continue handlers', () => {
  it('answer CONTINUE with one WARN per record carrying coordinates and the config key', () => {
    const { logger, lines } = captureLogger();
    const h = logAndContinueHandler({ logger });
    expect(h.handle(context, output, new RecordTooLargeError('too big'))).toBe('CONTINUE');
    expect(h.handle(context, rawInput, new Error('undecodable'))).toBe('CONTINUE');
    expect(h.handle(context, { key: 'k', value: 1, timestamp: 0, headers: {} }, new Error('npe'))).toBe('CONTINUE');
    expect(h.handleSerializationException(context, output, new Error('circular'), 'VALUE')).toBe('CONTINUE');
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      expect(line.level).toBe(40);
      expect(line).toMatchObject({ topic: 'orders-in', partition: 2, offset: 41, taskId: '0_2', component: 'exception-handler' });
      expect(line.msg).toContain('topic orders-in partition 2 offset 41');
    }
    expect(lines.map((l) => l.stage)).toEqual(['production', 'deserialization', 'processing', 'serialization']);
    expect(lines[0]?.msg).toContain('set productionExceptionHandler to failHandler()');
    expect(lines[0]?.outputTopic).toBe('orders-eu');
    expect(lines[1]?.msg).toContain('deserializationExceptionHandler');
    expect(lines[2]?.msg).toContain('processingExceptionHandler');
    expect(lines[3]?.msg).toContain('productionExceptionHandler');
  });
});

describe('dead-letter-queue handlers', () => {
  it('refuse to be built without a topic', () => {
    expect(() => deadLetterQueueHandler({} as never)).toThrow(ConfigError);
    expect(() => new DeadLetterQueueProductionExceptionHandler({ topic: '' })).toThrow(/topic/);
  });

  it('dead-letter a rejected output record with its original bytes and the failure headers', () => {
    const { logger, lines } = captureLogger();
    const h = deadLetterQueueHandler({ topic: 'orders-dlq', logger });
    const answer = h.handle(context, output, new RecordTooLargeError('Record of 3000 bytes exceeds max.message.bytes 2048'));
    expect(answer).toMatchObject({ response: 'CONTINUE' });
    const [dead, ...rest] = (answer as { deadLetterRecords: Array<{ topic: string; key: Buffer | null; value: Buffer | null; headers: Record<string, unknown>; timestamp: number }> }).deadLetterRecords;
    expect(rest).toHaveLength(0);
    expect(dead?.topic).toBe('orders-dlq');
    expect(dead?.key).toEqual(Buffer.from('o-1'));
    expect(dead?.value).toEqual(Buffer.from('{"big":true}'));
    expect(dead?.timestamp).toBe(output.timestamp);
    expect(dead?.headers).toEqual({
      out: 'h',
      [DeadLetterHeaders.ERROR_CLASS]: 'RecordTooLargeError',
      [DeadLetterHeaders.ERROR_MESSAGE]: 'Record of 3000 bytes exceeds max.message.bytes 2048',
      [DeadLetterHeaders.ERROR_CODE]: 'RECORD_TOO_LARGE',
      [DeadLetterHeaders.ERROR_STAGE]: 'production',
      'sluice.input.topic': 'orders-in',
      'sluice.input.partition': '2',
      'sluice.input.offset': '41',
      'sluice.processor.node': 'KSTREAM-SINK-0000000004',
      'sluice.task.id': '0_2',
      'sluice.output.topic': 'orders-eu',
      'sluice.dlq.payload': 'output',
      'sluice.record.timestamp': String(output.timestamp),
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe(40);
    expect(lines[0]?.deadLetterTopic).toBe('orders-dlq');
  });

  it('keeps a null key (the culprit of a compacted topic) as null', () => {
    const h = new DeadLetterQueueProductionExceptionHandler({ topic: 'dlq', logLevel: 'silent', includeOriginalHeaders: false });
    const answer = h.handle(context, { ...output, key: null, keyBytes: null }, new Error('null key on compacted topic')) as {
      deadLetterRecords: Array<{ key: Buffer | null; headers: Record<string, unknown> }>;
    };
    expect(answer.deadLetterRecords[0]?.key).toBeNull();
    expect(answer.deadLetterRecords[0]?.headers.out).toBeUndefined();
    expect(answer.deadLetterRecords[0]?.headers['sluice.error.class']).toBe('Error');
  });

  it('dead-letter undeserializable input with the raw bytes and the input coordinates', () => {
    const h = new DeadLetterQueueDeserializationExceptionHandler({ topic: 'dlq', logLevel: 'silent' });
    const answer = h.handle({ ...context, offset: 99 }, rawInput, new SyntaxError('Unexpected token')) as {
      deadLetterRecords: Array<{ key: Buffer | null; value: Buffer | null; headers: Record<string, unknown> }>;
    };
    const dead = answer.deadLetterRecords[0];
    expect(dead?.key).toEqual(Buffer.from('k-raw'));
    expect(dead?.value).toEqual(Buffer.from([0xff, 0x00, 0x7b]));
    expect(dead?.headers['sluice.input.offset']).toBe('41');
    expect(dead?.headers['sluice.error.class']).toBe('SyntaxError');
    expect(dead?.headers['sluice.error.stage']).toBe('deserialization');
    expect(dead?.headers['sluice.dlq.payload']).toBe('input');
    expect(dead?.headers.trace).toBe('abc');
  });

  it('for a serialization failure, prefer the raw input record, else render the output', () => {
    const h = deadLetterQueueHandler({ topic: 'dlq', logLevel: 'silent' });
    const failing = { ...output, value: { n: 1n }, valueBytes: undefined };
    const withRaw = h.handleSerializationException(
      { ...context, sourceRawKey: Buffer.from('in-k'), sourceRawValue: Buffer.from('in-v') },
      failing,
      new Error('BigInt'),
      'VALUE',
    ) as { deadLetterRecords: Array<{ key: Buffer | null; value: Buffer | null; headers: Record<string, unknown> }> };
    expect(withRaw.deadLetterRecords[0]?.value).toEqual(Buffer.from('in-v'));
    expect(withRaw.deadLetterRecords[0]?.headers['sluice.dlq.payload']).toBe('input');
    expect(withRaw.deadLetterRecords[0]?.headers['sluice.error.origin']).toBe('VALUE');
    const rendered = h.handleSerializationException(context, { ...output, value: { a: 'b' }, valueBytes: undefined }, new Error('x'), 'VALUE') as {
      deadLetterRecords: Array<{ key: Buffer | null; value: Buffer | null; headers: Record<string, unknown> }>;
    };
    expect(rendered.deadLetterRecords[0]?.key).toEqual(Buffer.from('o-1'));
    expect(rendered.deadLetterRecords[0]?.value).toEqual(Buffer.from('{"a":"b"}'));
    expect(rendered.deadLetterRecords[0]?.headers['sluice.dlq.payload']).toBe('output-rendered');
  });

  it('dead-letter processing failures with raw input when supplied, else the rendered record', () => {
    const h = new DeadLetterQueueProcessingExceptionHandler({ topic: 'dlq', logLevel: 'silent' });
    const rec = { key: 'k', value: { x: 1 }, timestamp: 7, headers: {} };
    const rendered = h.handle(context, rec, new Error('npe')) as { deadLetterRecords: Array<{ key: Buffer | null; value: Buffer | null; headers: Record<string, unknown>; timestamp?: number }> };
    expect(rendered.deadLetterRecords[0]?.key).toEqual(Buffer.from('k'));
    expect(rendered.deadLetterRecords[0]?.value).toEqual(Buffer.from('{"x":1}'));
    expect(rendered.deadLetterRecords[0]?.timestamp).toBe(7);
    expect(rendered.deadLetterRecords[0]?.headers['sluice.dlq.payload']).toBe('input-rendered');
    const raw = h.handle({ ...context, sourceRawKey: null, sourceRawValue: Buffer.from('raw') }, rec, new Error('npe')) as {
      deadLetterRecords: Array<{ key: Buffer | null; value: Buffer | null; headers: Record<string, unknown> }>;
    };
    expect(raw.deadLetterRecords[0]?.key).toBeNull();
    expect(raw.deadLetterRecords[0]?.value).toEqual(Buffer.from('raw'));
    expect(raw.deadLetterRecords[0]?.headers['sluice.dlq.payload']).toBe('input');
  });

  it('re-stamps a record rejected for its timestamp, keeping the original in a header', () => {
    const h = deadLetterQueueHandler({ topic: 'dlq', logLevel: 'silent' });
    const before = Date.now();
    const answer = h.handle(context, { ...output, timestamp: 5 }, new InvalidTimestampError('timestamp 5 out of range')) as {
      deadLetterRecords: Array<{ timestamp?: number; headers: Record<string, string> }>;
    };
    expect(answer.deadLetterRecords[0]?.timestamp).toBeGreaterThanOrEqual(before);
    expect(answer.deadLetterRecords[0]?.headers['sluice.record.timestamp']).toBe('5');
  });

  it('truncates very long error messages in the header', () => {
    const h = deadLetterQueueHandler({ topic: 'dlq', logLevel: 'silent' });
    const answer = h.handle(context, output, new Error('x'.repeat(5000))) as { deadLetterRecords: Array<{ headers: Record<string, string> }> };
    expect(answer.deadLetterRecords[0]?.headers['sluice.error.message']?.length).toBeLessThanOrEqual(1001);
  });
});
