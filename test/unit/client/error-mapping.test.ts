import { createRequire } from 'node:module';
import kafkajs from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { mapKafkaJsError, mapProducerError, rootKafkaJsError } from '../../../src/cluster/kafkajs/internal/error-mapping.js';
import { parseProduceV8 } from '../../../src/cluster/kafkajs/internal/produce-v8.js';
import { KafkaProtocolError, ProducerFencedError, StreamsError } from '../../../src/errors.js';

/** The parser over the process-wide kafkajs graph: its errors are that graph's classes. */
const sharedKafkaJs = { load: <T>(path: string) => createRequire(import.meta.url)(`kafkajs/src/${path}`) as T };
const { KafkaJSProtocolError, KafkaJSNumberOfRetriesExceeded, KafkaJSConnectionError, KafkaJSRequestTimeoutError } = kafkajs;

const protocolError = (type: string, code: number, retriable = false, message = `${type} happened`) =>
  new KafkaJSProtocolError({ type, code, retriable, message } as never);

describe('mapKafkaJsError', () => {
  it('maps a KafkaJSProtocolError to KafkaProtocolError with the numeric code and classification', () => {
    const mapped = mapKafkaJsError(protocolError('INVALID_RECORD', 87), 'produce to t-0');
    expect(mapped).toBeInstanceOf(KafkaProtocolError);
    expect(mapped).toMatchObject({ kafkaCode: 87, code: 'INVALID_RECORD', kind: 'record' });
    expect(mapped.message).toMatch(/^produce to t-0: INVALID_RECORD \(87\)/);
  });

  it('unwraps KafkaJSNumberOfRetriesExceeded down to the cause', () => {
    const cause = protocolError('NOT_LEADER_FOR_PARTITION', 6, true);
    const wrapped = new KafkaJSNumberOfRetriesExceeded(cause, { retryCount: 5, retryTime: 100 });
    expect(rootKafkaJsError(wrapped)).toBe(cause);
    const mapped = mapKafkaJsError(wrapped) as KafkaProtocolError;
    expect(mapped.kafkaCode).toBe(6);
    expect(mapped.kind).toBe('retriable');
    expect(mapped.cause).toBe(wrapped);
  });

  it('recovers codes kafkajs does not know from its "Unknown error code" message', () => {
    const unknown = protocolError('KAFKAJS_UNKNOWN_ERROR_CODE', -99, false, 'Unknown error code 90');
    const mapped = mapKafkaJsError(unknown) as KafkaProtocolError;
    expect(mapped.kafkaCode).toBe(90);
    expect(mapped.code).toBe('PRODUCER_FENCED');
    expect(mapped.kind).toBe('fencing');
  });

  it('maps connection errors and timeouts to retriable network codes', () => {
    const net = mapKafkaJsError(new KafkaJSConnectionError('Connection error: ECONNREFUSED', { broker: 'b:1' } as never)) as KafkaProtocolError;
    expect(net).toMatchObject({ kafkaCode: 13, kind: 'retriable' });
    const timeout = mapKafkaJsError(new KafkaJSRequestTimeoutError('Request Produce timed out', {} as never)) as KafkaProtocolError;
    expect(timeout).toMatchObject({ kafkaCode: 7, kind: 'retriable' });
  });

  it('keeps sluice errors and turns anything else into a fatal StreamsError', () => {
    const own = new ProducerFencedError('fenced');
    expect(mapKafkaJsError(own)).toBe(own);
    const other = mapKafkaJsError(new TypeError('boom'), 'ctx');
    expect(other).toBeInstanceOf(StreamsError);
    expect(other.kind).toBe('fatal');
    expect(other.message).toBe('ctx: boom');
  });
});

describe('mapProducerError', () => {
  it.each([
    ['PRODUCER_FENCED', 90],
    ['INVALID_PRODUCER_EPOCH', 47],
    ['UNKNOWN_PRODUCER_ID', 59],
    ['OUT_OF_ORDER_SEQUENCE_NUMBER', 45],
  ])('%s becomes ProducerFencedError with the protocol error as cause', (type, code) => {
    const mapped = mapProducerError(protocolError(type, code), 'commitTransaction');
    expect(mapped).toBeInstanceOf(ProducerFencedError);
    expect(mapped.kind).toBe('fencing');
    expect((mapped.cause as KafkaProtocolError).kafkaCode).toBe(code);
  });

  it('leaves record-level errors as KafkaProtocolError', () => {
    expect(mapProducerError(protocolError('MESSAGE_TOO_LARGE', 10), 'p')).toBeInstanceOf(KafkaProtocolError);
  });
});

describe('Produce v8 parse errors', () => {
  const response = (errorCode: number, recordErrors: Array<{ batchIndex: number; message: string | null }>, errorMessage: string | null) => ({
    topics: [
      {
        topicName: 't',
        partitions: [{ partition: 3, errorCode, baseOffset: '-1', logAppendTime: '-1', logStartOffset: '0', recordErrors, errorMessage }],
      },
    ],
    throttleTime: 0,
    clientSideThrottleTime: 0,
  });

  it('returns a successful response unchanged', async () => {
    const ok = response(0, [], null);
    await expect(parseProduceV8(sharedKafkaJs, ok)).resolves.toBe(ok);
  });

  it('throws a kafkajs protocol error that maps to KafkaProtocolError with record errors and message', async () => {
    const thrown = await parseProduceV8(sharedKafkaJs, response(87, [{ batchIndex: 1, message: 'no key' }], 'One or more records have been rejected')).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(KafkaJSProtocolError);
    expect((thrown as { retriable: boolean }).retriable).toBe(false); // kafkajs must not retry it
    const mapped = mapKafkaJsError(thrown) as KafkaProtocolError;
    expect(mapped).toMatchObject({ kafkaCode: 87, errorMessage: 'One or more records have been rejected' });
    expect(mapped.recordErrors).toEqual([{ batchIndex: 1, message: 'no key' }]);
  });

  it('builds a non-retriable error for codes kafkajs does not know', async () => {
    const thrown = await parseProduceV8(sharedKafkaJs, response(90, [], null)).catch((e: unknown) => e);
    expect(thrown).toMatchObject({ type: 'PRODUCER_FENCED', code: 90, retriable: false });
    expect(mapProducerError(thrown, 'produce')).toBeInstanceOf(ProducerFencedError);
  });
});
