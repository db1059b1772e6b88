import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { mapKafkaJsError, mapProducerError } from '../../../src/cluster/kafkajs/internal/error-mapping.js';
import { isRestartable } from '../../../src/cluster/kafkajs/internal/consumer-lifecycle.js';
import { sluiceKafkaJs } from '../../../src/cluster/kafkajs/internal/patches.js';
import { createReaderCluster } from '../../../src/cluster/kafkajs/internal/reader-cluster.js';
import { connectionFacts, isSecurityFailure, type ConnectionFacts } from '../../../src/cluster/kafkajs/internal/security-errors.js';
import { KafkaErrorCode as C, KafkaProtocolError, StreamsError, taskReactionTo } from '../../../src/errors.js';

/** kafkajs' own error classes and its code → error factory, as kafkajs throws them. */
const require = createRequire(import.meta.url);
const errors = require('kafkajs/src/errors.js') as Record<string, new (...args: never[]) => Error>;
const { createErrorFromCode } = require('kafkajs/src/protocol/error.js') as { createErrorFromCode(code: number): Error };
const make = <T extends Error>(name: string, ...args: unknown[]): T => new (errors[name] as unknown as new (...a: unknown[]) => T)(...args);

const SECRET = 'S3cr3t-never-shown';
const scram = (): ConnectionFacts => connectionFacts({ brokers: ['b1:9096', 'b2:9096'], ssl: true, sasl: { mechanism: 'scram-sha-512', username: 'alice' } });
const plaintext = (): ConnectionFacts => connectionFacts({ brokers: ['b1:9092'], ssl: undefined, sasl: undefined });
/** kafkajs gives up connecting after its retries with this wrapper around the last connection error. */
const afterRetries = (cause: Error) => make('KafkaJSNumberOfRetriesExceeded', cause, { retryCount: 5, retryTime: 3000 });
const connectionError = (message: string, code: string) => make('KafkaJSConnectionError', `Connection error: ${message}`, { broker: 'b1:9096', code });

function expectFatal(error: StreamsError, code: string): void {
  expect(error.code).toBe(code);
  expect(error.kind).toBe('fatal');
  expect(error.retriable).toBe(false);
  expect(taskReactionTo(error)).toBe('stop');
  expect(isSecurityFailure(error)).toBe(true);
  expect(isRestartable(error)).toBe(false);
  expect(error.message).not.toContain(SECRET);
}

describe('authentication failures as kafkajs throws them', () => {
  it('a refused SCRAM login names the mechanism, the user and the keys to check, never the password', () => {
    const kafkajs = make('KafkaJSSASLAuthenticationError', 'SASL SCRAM SHA512 authentication failed: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512');
    const mapped = mapKafkaJsError(kafkajs, 'admin connect', { facts: scram() });
    expectFatal(mapped, 'SASL_AUTHENTICATION_FAILED');
    expect(mapped).toBeInstanceOf(KafkaProtocolError);
    expect((mapped as KafkaProtocolError).kafkaCode).toBe(58);
    expect(mapped.message).toMatch(/^admin connect: SASL_AUTHENTICATION_FAILED \(58\): b1:9096, b2:9096 refused the SASL SCRAM-SHA-512 login as user 'alice'/);
    expect(mapped.message).toMatch(/Check sasl.username and sasl.password, and that the user has SCRAM-SHA-512 credentials on the cluster/);
    expect(mapped.cause).toBe(kafkajs);
  });

  it('a mechanism the broker does not enable (SaslHandshake answers 33) says to change sasl.mechanism', () => {
    const mapped = mapKafkaJsError(createErrorFromCode(33), 'admin connect', { facts: scram() });
    expectFatal(mapped, 'UNSUPPORTED_SASL_MECHANISM');
    expect(mapped.message).toMatch(/does not enable SASL mechanism SCRAM-SHA-512 .*Set sasl.mechanism to one the cluster enables/);
    // kafkajs' own check of the handshake's mechanism list
    const listed = mapKafkaJsError(make('KafkaJSSASLAuthenticationError', 'SASL SCRAM-SHA-512 mechanism is not supported by the server'), 'connect', { facts: scram() });
    expect(listed.code).toBe('UNSUPPORTED_SASL_MECHANISM');
  });
});

describe('TLS failures as kafkajs throws them (after its connection retries)', () => {
  it.each([
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate', /not trusted: set ssl.ca to the PEM of the CA that signed it/],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain', /not trusted: set ssl.ca/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames: IP: 10.0.0.1 is not in the cert's list", /hostname mismatch.*ssl.servername/],
    ['CERT_HAS_EXPIRED', 'certificate has expired', /certificate is expired/],
    ['ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE', 'error:0A000412:SSL routines:ssl3_read_bytes:sslv3 alert bad certificate', /requires a client certificate \(mutual TLS\): set ssl.cert and ssl.key/],
  ])('%s: SSL_HANDSHAKE_FAILED naming the broker and what to set', (code, text, fix) => {
    const mapped = mapKafkaJsError(afterRetries(connectionError(text, code)), 'admin connect', { facts: scram() });
    expectFatal(mapped, 'SSL_HANDSHAKE_FAILED');
    expect(mapped.message).toMatch(/^admin connect: TLS handshake with b1:9096 failed: /);
    expect(mapped.message).toMatch(fix);
  });

  it('a plaintext client whose first connection is closed unanswered: the listener probably requires TLS', () => {
    const closed = make('KafkaJSConnectionClosedError', 'Closed connection', { host: 'b1', port: 9092 });
    const facts = plaintext();
    const mapped = mapKafkaJsError(afterRetries(closed), 'admin connect', { facts });
    expectFatal(mapped, 'SECURITY_PROTOCOL_MISMATCH');
    expect(mapped.message).toMatch(/b1:9092 closed the connection before answering: the listener probably requires TLS: set ssl: true/);
    // once the cluster answered, a closed connection is a network error again (a broker restart)
    facts.answered = true;
    const later = mapKafkaJsError(afterRetries(closed), 'list topics', { facts }) as KafkaProtocolError;
    expect([later.kafkaCode, later.kind]).toEqual([C.NETWORK_EXCEPTION, 'retriable']);
  });

  it('TLS to a plaintext port, and TLS without SASL to a SASL_SSL port', () => {
    const reset = connectionError('Client network socket disconnected before secure TLS connection was established', 'ECONNRESET');
    const tlsOnPlain = mapKafkaJsError(afterRetries(reset), 'admin connect', { facts: scram() });
    expectFatal(tlsOnPlain, 'SECURITY_PROTOCOL_MISMATCH');
    expect(tlsOnPlain.message).toMatch(/this port does not speak TLS. Remove ssl/);
    const noSasl = mapKafkaJsError(make('KafkaJSConnectionClosedError', 'Closed connection', { host: 'b1', port: 9096 }), 'list topics', {
      facts: connectionFacts({ brokers: ['b1:9096'], ssl: true, sasl: undefined }),
    });
    expectFatal(noSasl, 'SECURITY_PROTOCOL_MISMATCH');
    expect(noSasl.message).toMatch(/requires a SASL login: set sasl/);
  });

  it('without facts (a kafkajs client sluice did not make) the old mapping stays: retriable network error', () => {
    const mapped = mapKafkaJsError(afterRetries(make('KafkaJSConnectionClosedError', 'Closed connection', { host: 'b1', port: 9092 }))) as KafkaProtocolError;
    expect([mapped.kafkaCode, mapped.kind]).toEqual([C.NETWORK_EXCEPTION, 'retriable']);
  });
});

describe('authorization failures name the principal, the operation and the resource', () => {
  it.each([
    [29, [{ resource: 'TOPIC', operation: 'WRITE', name: 'orders' }], /TOPIC_AUTHORIZATION_FAILED \(29\): User:alice is not allowed WRITE on topic 'orders' .*--allow-principal User:alice --operation WRITE --topic 'orders'/],
    [30, [{ resource: 'GROUP', operation: 'READ', name: 'app' }], /GROUP_AUTHORIZATION_FAILED \(30\): User:alice is not allowed READ on group 'app'.*--group 'app'/],
    [31, [{ resource: 'CLUSTER', operation: 'IDEMPOTENT_WRITE' }], /CLUSTER_AUTHORIZATION_FAILED \(31\): User:alice is not allowed IDEMPOTENT_WRITE on cluster .*--operation IDEMPOTENT_WRITE --cluster/],
    [53, [{ resource: 'TOPIC', operation: 'WRITE', name: 'out' }, { resource: 'TRANSACTIONAL_ID', operation: 'WRITE', name: 'app-0_0' }], /TRANSACTIONAL_ID_AUTHORIZATION_FAILED \(53\): User:alice is not allowed WRITE on transactional id 'app-0_0'/],
  ] as const)('code %d', (code, access, message) => {
    const mapped = mapProducerError(createErrorFromCode(code), 'produce to out-0', { facts: scram(), access });
    expectFatal(mapped, mapped.code);
    expect((mapped as KafkaProtocolError).kafkaCode).toBe(code);
    expect(mapped.message).toMatch(message);
    expect(mapped.message).toMatch(/\(broker: .+\)/); // the broker's own words are kept
  });

  it('the principal without SASL: the client certificate, else ANONYMOUS', () => {
    const mtls = connectionFacts({ brokers: ['b:9094'], ssl: {}, sasl: undefined });
    expect(mapKafkaJsError(createErrorFromCode(29), 'x', { facts: mtls }).message).toMatch(/User:ANONYMOUS .*is not allowed an operation on a topic this call uses/);
  });
});

describe('FindCoordinator refused (coordinator-denial patch)', () => {
  it('a transactional-id refusal reaches the caller instead of "Failed to find group coordinator"', async () => {
    const { kafkajs, internals } = sluiceKafkaJs();
    const cluster = createReaderCluster(new kafkajs.Kafka({ brokers: ['localhost:1'], logLevel: kafkajs.logLevel.NOTHING }), 1) as unknown as {
      findGroupCoordinatorMetadata(r: { groupId: string; coordinatorType: number }): Promise<unknown>;
      brokerPool: { withBroker(cb: (b: { nodeId: string; broker: unknown }) => Promise<unknown>): Promise<unknown> };
    };
    const Broker = internals.load<{ prototype: object }>('broker/index.js');
    const send = Object.getOwnPropertySymbols(Broker.prototype).find((s) => s.description === 'private:Broker:sendRequest');
    const own = internals.load<{ createErrorFromCode(code: number): Error }>('protocol/error.js');
    // a broker (kafkajs' Broker prototype) whose FindCoordinator answer is 53
    const broker = Object.assign(Object.create(Broker.prototype) as object, {
      lookupRequest: () => () => ({}),
      [send as symbol]: () => Promise.reject(own.createErrorFromCode(53)),
    });
    // kafkajs' withBroker swallows the callback's error and answers null
    cluster.brokerPool.withBroker = async (cb) => cb({ nodeId: '1', broker }).catch(() => null);
    const error = await cluster.findGroupCoordinatorMetadata({ groupId: 'app-0_0', coordinatorType: 1 }).catch((e: unknown) => e);
    expect((error as { type?: string }).type).toBe('TRANSACTIONAL_ID_AUTHORIZATION_FAILED');
    const mapped = mapProducerError(error, 'connect', { facts: scram(), access: [{ resource: 'TRANSACTIONAL_ID', operation: 'WRITE', name: 'app-0_0' }] });
    expect(mapped.message).toMatch(/TRANSACTIONAL_ID_AUTHORIZATION_FAILED \(53\): User:alice is not allowed WRITE on transactional id 'app-0_0'/);
    // any other failure still ends in kafkajs' own "not found"
    cluster.brokerPool.withBroker = () => Promise.resolve(null);
    const notFound = await cluster.findGroupCoordinatorMetadata({ groupId: 'app', coordinatorType: 0 }).catch((e: unknown) => e);
    expect((notFound as Error).name).toBe('KafkaJSGroupCoordinatorNotFound');
  });
});
