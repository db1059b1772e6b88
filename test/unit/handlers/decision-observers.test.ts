/**
 * observeHandlerDecisions (the live UI's "last handler decisions"): every call
 * of an observed handler is reported with its slot, context, error and
 * answer; a throwing handler as THREW; a throwing observer changes nothing;
 * other handler objects and stopped observers hear nothing.
 */
import { describe, expect, it } from 'vitest';
import { invokeDeserializationHandler, invokeProcessingHandler, invokeProductionHandler, observeHandlerDecisions, type HandlerDecision } from '../../../src/handlers/invoke.js';
import type { ErrorHandlerContext } from '../../../src/handlers/types.js';

const context: ErrorHandlerContext = { topic: 'in', partition: 2, offset: 41, headers: {}, timestamp: 0, processorNodeId: 'node', taskId: '0_2' };

describe('observeHandlerDecisions', () => {
  it('reports each call with slot, handler name, context, error, answer and dead-letter count', () => {
    const seen: HandlerDecision[] = [];
    const dlq = { name: 'my-dlq', handle: () => ({ response: 'CONTINUE' as const, deadLetterRecords: [{ topic: 'dlq', key: null, value: Buffer.from('x') }] }) };
    const fail = { handle: () => 'FAIL' as const };
    const stopDlq = observeHandlerDecisions(dlq, (d) => seen.push(d));
    observeHandlerDecisions(fail, (d) => seen.push(d));
    const error = new TypeError('boom');
    expect(invokeDeserializationHandler(dlq, context, { topic: 'in', partition: 2, offset: 41, key: null, value: null, headers: {}, timestamp: 0 }, error).response).toBe('CONTINUE');
    expect(invokeProcessingHandler(fail, context, { key: 1, value: 2, timestamp: 0, headers: {} }, error).response).toBe('FAIL');
    expect(invokeProductionHandler(fail, context, { topic: 'out', key: null, value: null, headers: {}, timestamp: 0 } as never, error).response).toBe('FAIL');
    expect(seen.map((d) => [d.slot, d.handler, d.response, d.deadLetters, d.error, d.context.offset])).toEqual([
      ['deserialization', 'my-dlq', 'CONTINUE', 1, error, 41],
      ['processing', 'processingExceptionHandler', 'FAIL', 0, error, 41],
      ['production', 'productionExceptionHandler', 'FAIL', 0, error, 41],
    ]);
    stopDlq();
    invokeDeserializationHandler(dlq, context, { topic: 'in', partition: 2, offset: 42, key: null, value: null, headers: {}, timestamp: 0 }, error);
    expect(seen).toHaveLength(3);
  });

  it('reports a throwing handler as THREW (still a fatal HANDLER_THREW), and ignores a throwing observer', () => {
    const seen: string[] = [];
    const broken = { handle: (): never => { throw new Error('handler bug'); } };
    const fine = { handle: () => 'CONTINUE' as const };
    observeHandlerDecisions(broken, (d) => seen.push(d.response));
    observeHandlerDecisions(fine, () => { throw new Error('observer bug'); });
    expect(() => invokeProcessingHandler(broken, context, { key: 1, value: 2, timestamp: 0, headers: {} }, new Error('e'))).toThrow(expect.objectContaining({ code: 'HANDLER_THREW' }));
    expect(seen).toEqual(['THREW']);
    expect(invokeProcessingHandler(fine, context, { key: 1, value: 2, timestamp: 0, headers: {} }, new Error('e')).response).toBe('CONTINUE');
    const unobserved = { handle: () => 'CONTINUE' as const };
    expect(invokeProcessingHandler(unobserved, context, { key: 1, value: 2, timestamp: 0, headers: {} }, new Error('e')).response).toBe('CONTINUE');
    expect(seen).toEqual(['THREW']);
  });
});
