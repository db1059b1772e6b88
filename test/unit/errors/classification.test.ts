/**
 * The one classification table (src/errors.ts): every consumer reads the same
 * rows — unknown-outcome codes, producer fencing, what the runtime does with a
 * failed task, and the kind of a FAIL answer in the runtime and the driver.
 */
import { describe, expect, it } from 'vitest';
import {
  CLIENT_ERRORS,
  DeliveryTimeoutError,
  KafkaErrorCode as C,
  KafkaProtocolError,
  ProducerFencedError,
  StreamsError,
  isOutcomeUnknown,
  isProducerFenced,
  taskReactionTo,
} from '../../../src/errors.js';
import { mapProducerError } from '../../../src/cluster/kafkajs/internal/error-mapping.js';
import { Serdes, StreamsBuilder } from '../../../src/index.js';
import { TopologyTestDriver } from '../../../src/testing.js';

describe('classification table', () => {
  it('REQUEST_TIMED_OUT, NETWORK_EXCEPTION and NOT_ENOUGH_REPLICAS_AFTER_APPEND are retriable writes with an unknown outcome', () => {
    for (const code of [C.REQUEST_TIMED_OUT, C.NETWORK_EXCEPTION, C.NOT_ENOUGH_REPLICAS_AFTER_APPEND]) {
      const e = new KafkaProtocolError(code);
      expect(e.kind, e.code).toBe('retriable');
      expect(isOutcomeUnknown(e), e.code).toBe(true);
    }
    for (const code of [C.NOT_LEADER_OR_FOLLOWER, C.NOT_ENOUGH_REPLICAS, C.INVALID_RECORD, C.CONCURRENT_TRANSACTIONS]) {
      expect(isOutcomeUnknown(new KafkaProtocolError(code)), String(code)).toBe(false);
    }
    const gaveUp = new DeliveryTimeoutError('gave up', { code: 'DELIVERY_OUTCOME_UNKNOWN' });
    expect(gaveUp.kind).toBe('unknown_outcome');
    expect(new DeliveryTimeoutError('gave up').kind).toBe('record');
  });

  it('producer fencing is one set, read by the kafkajs mapping and by isProducerFenced', () => {
    const producerCodes = [C.PRODUCER_FENCED, C.INVALID_PRODUCER_EPOCH, C.OUT_OF_ORDER_SEQUENCE_NUMBER, C.UNKNOWN_PRODUCER_ID, C.INVALID_TXN_STATE, C.INVALID_PRODUCER_ID_MAPPING, C.TRANSACTION_COORDINATOR_FENCED];
    for (const code of producerCodes) {
      expect(isProducerFenced(new KafkaProtocolError(code)), String(code)).toBe(true);
      const kafkajs = Object.assign(new Error(`code ${code}`), { name: 'KafkaJSProtocolError', type: 'X', code });
      expect(mapProducerError(kafkajs, 'produce'), String(code)).toBeInstanceOf(ProducerFencedError);
    }
    // group fencing is fencing, but the producer stays usable
    expect(new KafkaProtocolError(C.ILLEGAL_GENERATION).kind).toBe('fencing');
    expect(isProducerFenced(new KafkaProtocolError(C.ILLEGAL_GENERATION))).toBe(false);
  });

  it('what the runtime does with a failed task is read from the table, not from string lists', () => {
    expect(taskReactionTo(new StreamsError('x', { code: 'HANDLER_THREW' }))).toBe('stop');
    expect(taskReactionTo(new StreamsError('x', { code: 'INVALID_HANDLER_ANSWER' }))).toBe('stop');
    // a changelog deleted under a running task: restarting it would fail again (issue 28 item 10)
    expect(taskReactionTo(new StreamsError('x', { code: 'CHANGELOG_DELETED' }))).toBe('stop');
    expect(taskReactionTo(new KafkaProtocolError(C.TOPIC_AUTHORIZATION_FAILED))).toBe('stop');
    expect(taskReactionTo(new KafkaProtocolError(C.UNSUPPORTED_VERSION))).toBe('stop');
    expect(taskReactionTo(new StreamsError('x', { code: 'DESERIALIZATION_FAILED' }))).toBe('policy');
    expect(taskReactionTo(new StreamsError('x', { code: 'PRODUCTION_FAILED' }))).toBe('policy');
    expect(taskReactionTo(new ProducerFencedError('x'))).toBe('reacquire');
    expect(taskReactionTo(new KafkaProtocolError(C.NOT_COORDINATOR))).toBe('reacquire');
    expect(taskReactionTo(new DeliveryTimeoutError('x', { code: 'DELIVERY_OUTCOME_UNKNOWN' }))).toBe('reacquire');
    // a dead-letter failure caused by fencing keeps its fencing kind and is re-acquired
    expect(taskReactionTo(new StreamsError('x', { code: 'DEAD_LETTER_FAILED', kind: 'fencing' }))).toBe('reacquire');
    // every code the runtime stops on is emitted by someone (no dead rows)
    // (SECURITY_PROTOCOL_MISMATCH and SSL_HANDSHAKE_FAILED: src/cluster/kafkajs/internal/security-errors.ts)
    expect(Object.entries(CLIENT_ERRORS).filter(([, row]) => row.reaction === 'stop').map(([code]) => code).sort()).toEqual([
      'CHANGELOG_DELETED', 'HANDLER_THREW', 'INVALID_HANDLER_ANSWER', 'SECURITY_PROTOCOL_MISMATCH', 'SSL_HANDSHAKE_FAILED',
    ]);
    // authentication and authorization: fatal, never retried, the app stops
    for (const code of [C.TOPIC_AUTHORIZATION_FAILED, C.GROUP_AUTHORIZATION_FAILED, C.CLUSTER_AUTHORIZATION_FAILED, C.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, C.SASL_AUTHENTICATION_FAILED, C.UNSUPPORTED_SASL_MECHANISM]) {
      const error = new KafkaProtocolError(code);
      expect([error.kind, error.retriable, taskReactionTo(error)], String(code)).toEqual(['fatal', false, 'stop']);
    }
    expect(taskReactionTo(new StreamsError('x', { code: 'SSL_HANDSHAKE_FAILED' }))).toBe('stop');
    expect(new StreamsError('x', { code: 'SECURITY_PROTOCOL_MISMATCH' }).kind).toBe('fatal');
  });

  it('PRODUCTION_FAILED has the same kind in the test driver as in the runtime collector (record)', () => {
    const builder = new StreamsBuilder();
    const failing = Serdes.from<string>(() => { throw new Error('no bytes'); }, (_t, d) => d!.toString());
    builder.stream<string, string>('in', { keySerde: Serdes.String(), valueSerde: Serdes.String() }).to('out', { keySerde: Serdes.String(), valueSerde: failing });
    const driver = new TopologyTestDriver(builder.build(), { productionExceptionHandler: { handle: () => 'FAIL' } });
    try {
      const input = driver.createInputTopic('in', Serdes.String(), Serdes.String());
      let error: unknown;
      try {
        input.pipeInput('k', 'v');
      } catch (e) {
        error = e;
      }
      expect(error).toMatchObject({ code: 'PRODUCTION_FAILED', kind: 'record' });
    } finally {
      driver.close();
    }
  });
});
