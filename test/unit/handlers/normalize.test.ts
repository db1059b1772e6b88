import { describe, expect, it } from 'vitest';
import {
  ProductionExceptionHandlerResponse,
  StreamsError,
} from '../../../src/index.js';
import { normalizeHandlerAnswer } from '../../../src/handlers/normalize.js';
import { handlerResponseToTxnSendOption } from '../../../src/eos/txn-send-option.js';
import { TxnSendOption as TxnSendOptionFromHandlers } from '../../../src/eos/txn-send-option.js';
import {
  invokeDeserializationHandler,
  invokeProcessingHandler,
  invokeProductionHandler,
} from '../../../src/handlers/invoke.js';
import { context, output, rawInput } from './fixtures.js';

describe('normalizeHandlerAnswer', () => {
  it('accepts the two strings and the constants', () => {
    expect(normalizeHandlerAnswer('CONTINUE')).toEqual({ response: 'CONTINUE', deadLetterRecords: [] });
    expect(normalizeHandlerAnswer(ProductionExceptionHandlerResponse.FAIL)).toEqual({ response: 'FAIL', deadLetterRecords: [] });
  });

  it('accepts { response, deadLetterRecords } and turns string payloads into bytes', () => {
    const n = normalizeHandlerAnswer({
      response: 'CONTINUE',
      deadLetterRecords: [{ topic: 'dlq', key: 'k', value: Buffer.from('v'), headers: { a: 'b' }, timestamp: 5 }, { topic: 'dlq', key: null, value: undefined }],
    });
    expect(n.response).toBe('CONTINUE');
    expect(n.deadLetterRecords).toHaveLength(2);
    expect(n.deadLetterRecords[0]).toEqual({ topic: 'dlq', key: Buffer.from('k'), value: Buffer.from('v'), headers: { a: 'b' }, timestamp: 5 });
    expect(n.deadLetterRecords[1]).toEqual({ topic: 'dlq', key: null, value: null });
    expect(normalizeHandlerAnswer({ response: 'FAIL' })).toEqual({ response: 'FAIL', deadLetterRecords: [] });
  });

  it.each([
    ['continue', /returned 'continue'/],
    [undefined, /returned undefined/],
    [42, /returned 42/],
    [{ response: 'SKIP' }, /response: 'SKIP'/],
    [{ response: 'CONTINUE', deadLetterRecords: 'x' }, /deadLetterRecords = 'x'/],
    [{ response: 'CONTINUE', deadLetterRecords: [{ key: null, value: null }] }, /without a topic/],
    [{ response: 'CONTINUE', deadLetterRecords: [{ topic: 't', key: 12, value: null }] }, /key/],
    [Promise.resolve('CONTINUE'), /Promise/],
  ])('rejects %o with an error naming the handler', (answer, pattern) => {
    let caught: unknown;
    try {
      normalizeHandlerAnswer(answer, 'myHandler');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(StreamsError);
    const err = caught as StreamsError;
    expect(err.code).toBe('INVALID_HANDLER_ANSWER');
    expect(err.kind).toBe('fatal');
    expect(err.message).toMatch(/^myHandler returned /);
    expect(err.message).toMatch(pattern);
    expect(err.message).toContain("'CONTINUE', 'FAIL' or { response");
  });
});

describe('handlerResponseToTxnSendOption', () => {
  it('maps CONTINUE to IGNORE_SEND_ERRORS and FAIL to NONE', () => {
    expect(handlerResponseToTxnSendOption('CONTINUE')).toBe(TxnSendOptionFromHandlers.IGNORE_SEND_ERRORS);
    expect(handlerResponseToTxnSendOption('FAIL')).toBe(TxnSendOptionFromHandlers.NONE);
    expect(handlerResponseToTxnSendOption({ response: 'CONTINUE', deadLetterRecords: [] })).toBe('IGNORE_SEND_ERRORS');
  });
  it('refuses anything else', () => {
    expect(() => handlerResponseToTxnSendOption('IGNORE' as never)).toThrow(StreamsError);
  });
});

describe('invoke helpers', () => {
  it('routes serialization errors to handleSerializationException when present', () => {
    const calls: string[] = [];
    const handler = {
      handle: () => (calls.push('handle'), 'FAIL' as const),
      handleSerializationException: (_c: unknown, _r: unknown, _e: unknown, origin: string) => (calls.push(`ser:${origin}`), 'CONTINUE' as const),
    };
    expect(invokeProductionHandler(handler, context, output, new Error('x'), 'VALUE').response).toBe('CONTINUE');
    expect(invokeProductionHandler(handler, context, output, new Error('x')).response).toBe('FAIL');
    expect(invokeProductionHandler({ handle: handler.handle }, context, output, new Error('x'), 'KEY').response).toBe('FAIL');
    expect(calls).toEqual(['ser:VALUE', 'handle', 'handle']);
  });

  it('turns a throwing handler into a fatal error naming it', () => {
    class ExplodingHandler {
      handle(): never {
        throw new TypeError('boom');
      }
    }
    let err: StreamsError | undefined;
    try {
      invokeDeserializationHandler(new ExplodingHandler(), context, rawInput, new Error('bad bytes'));
    } catch (e) {
      err = e as StreamsError;
    }
    expect(err).toBeInstanceOf(StreamsError);
    expect(err?.kind).toBe('fatal');
    expect(err?.code).toBe('HANDLER_THREW');
    expect(err?.message).toMatch(/^ExplodingHandler threw .*boom/);
    expect(err?.cause).toBeInstanceOf(TypeError);
  });

  it('names plain-object handlers after their slot when answering nonsense', () => {
    expect(() =>
      invokeProcessingHandler({ handle: () => 'NOPE' as never }, context, { key: 1, value: 2, timestamp: 0, headers: {} }, new Error('x')),
    ).toThrow(/^processingExceptionHandler returned 'NOPE'/);
  });
});
