/**
 * Authentication, TLS and authorization failures, explained: what the broker
 * refused and what to change, in one message that never holds a secret.
 *
 * kafkajs reports these as a SASL error naming neither user nor fix, as
 * `Connection error: <Node TLS message>` (retried five times), as a bare
 * "Closed connection" (plaintext client on a TLS listener), or as an
 * authorization code naming neither resource nor principal. The kafkajs
 * cluster records what sluice knows about its connections
 * ({@link ConnectionFacts}: brokers, TLS, mechanism, username, client
 * certificate subject, whether the cluster ever answered a request) on each
 * kafkajs `Kafka` it makes; {@link explainSecurityFailure} turns a kafkajs
 * error into a fatal sluice error with that knowledge (classified in
 * `src/error-table.ts`: never retried, the app stops in ERROR).
 */
import { X509Certificate } from 'node:crypto';
import { KafkaErrorCode, KafkaProtocolError, StreamsError, kafkaErrorName } from '../../../errors.js';

/** What sluice knows about the connections of one kafkajs cluster (no secret). */
export interface ConnectionFacts {
  readonly brokers: readonly string[];
  readonly ssl: boolean;
  /** The SASL mechanism as the broker names it (`SCRAM-SHA-512`), if any. */
  readonly mechanism: string | undefined;
  readonly username: string | undefined;
  /** Subject of the client certificate (mutual TLS), e.g. `CN=orders-app`. */
  readonly certificateSubject: string | undefined;
  /** True once the cluster answered a request past the connection handshake. */
  answered: boolean;
}

/** A resource a call needs and the operation it needs on it (Kafka's ACL terms), for authorization messages. */
export interface Access {
  resource: 'TOPIC' | 'GROUP' | 'CLUSTER' | 'TRANSACTIONAL_ID';
  operation: string;
  /** The resource name; none for the cluster, or when the call concerns several. */
  name?: string;
}

const FACTS = new WeakMap<object, ConnectionFacts>();

/** Records the facts of the connections `client` (a kafkajs `Kafka`) makes. */
export function registerConnectionFacts(client: object, facts: ConnectionFacts): void {
  FACTS.set(client, facts);
}

/** The facts recorded for `client`, if any (a kafkajs `Kafka` made elsewhere has none). */
export function connectionFactsOf(client: object): ConnectionFacts | undefined {
  return FACTS.get(client);
}

/** The facts of a cluster configuration; the subject is read from the client certificate (PEM), never the key. */
export function connectionFacts(options: { brokers: readonly string[]; ssl: unknown; sasl: { mechanism: string; username?: string } | undefined }): ConnectionFacts {
  const cert = typeof options.ssl === 'object' && options.ssl !== null ? (options.ssl as { cert?: unknown }).cert : undefined;
  return {
    brokers: options.brokers,
    ssl: options.ssl !== undefined && options.ssl !== false,
    mechanism: options.sasl?.mechanism.toUpperCase(),
    username: options.sasl?.username,
    certificateSubject: subjectOf(cert),
    answered: false,
  };
}

/** The principal the broker sees, as precisely as sluice knows it. */
export function principalOf(facts: ConnectionFacts | undefined): string {
  if (!facts) return 'this client';
  if (facts.username !== undefined) return `User:${facts.username}`;
  if (facts.mechanism === 'OAUTHBEARER') return 'the principal of the OAuth token';
  if (facts.certificateSubject !== undefined) return `the client certificate's principal (User:${facts.certificateSubject} under the broker's default mapping)`;
  return 'User:ANONYMOUS (no SASL, no client certificate)';
}

/** kafkajs' names of the four authorization codes and the ACL resource each one is about. */
const AUTHORIZATION: Readonly<Record<number, Access['resource']>> = {
  [KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED]: 'TOPIC',
  [KafkaErrorCode.GROUP_AUTHORIZATION_FAILED]: 'GROUP',
  [KafkaErrorCode.CLUSTER_AUTHORIZATION_FAILED]: 'CLUSTER',
  [KafkaErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED]: 'TRANSACTIONAL_ID',
};

/** kafka-acls.sh option naming each resource. */
const ACL_FLAG: Readonly<Record<Access['resource'], string>> = { TOPIC: '--topic', GROUP: '--group', CLUSTER: '--cluster', TRANSACTIONAL_ID: '--transactional-id' };

/** The sluice codes of authentication, TLS and authorization failures (never worth a retry or a restart). */
const SECURITY_CODES: ReadonlySet<string> = new Set([
  'SSL_HANDSHAKE_FAILED', 'SECURITY_PROTOCOL_MISMATCH', 'SASL_AUTHENTICATION_FAILED', 'UNSUPPORTED_SASL_MECHANISM', 'ILLEGAL_SASL_STATE',
  'TOPIC_AUTHORIZATION_FAILED', 'GROUP_AUTHORIZATION_FAILED', 'CLUSTER_AUTHORIZATION_FAILED', 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED',
]);

/** True for an authentication, TLS or authorization failure (a mapped sluice error). */
export function isSecurityFailure(error: unknown): boolean {
  return error instanceof StreamsError && SECURITY_CODES.has(error.code);
}

/** True for the authorization codes (29, 30, 31, 53). */
export function isAuthorizationCode(code: number): boolean {
  return code in AUTHORIZATION;
}

/**
 * The message of an authorization failure: the code, the principal, the operation and resource (from
 * `access` when it names the resource the code is about), the broker's own words, and the ACL to add.
 */
export function authorizationMessage(code: number, brokerText: string, facts: ConnectionFacts | undefined, access: readonly Access[]): string {
  const resource = AUTHORIZATION[code] ?? 'TOPIC';
  const hint = access.find((a) => a.resource === resource);
  const principal = principalOf(facts);
  const what = hint
    ? `${hint.operation} on ${resource.toLowerCase().replace('_', ' ')}${hint.name === undefined ? '' : ` '${hint.name}'`}`
    : `an operation on a ${resource.toLowerCase().replace('_', ' ')} this call uses`;
  const acl = hint
    ? ` Grant it with an ACL, e.g. kafka-acls.sh --add --allow-principal ${facts?.username !== undefined ? principal : 'User:<principal>'} --operation ${hint.operation} ${ACL_FLAG[resource]}${hint.name === undefined ? '' : ` '${hint.name}'`}.`
    : '';
  return `${kafkaErrorName(code)} (${code}): ${principal} is not allowed ${what} (broker: ${brokerText}).${acl}`;
}

/** Node's TLS codes for a broker certificate that is not trusted. */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_UNTRUSTED', 'CERT_SIGNATURE_FAILURE', 'CERT_REJECTED',
]);

interface KafkaJsError {
  name?: string;
  message?: string;
  code?: unknown;
  type?: string;
  broker?: string;
}

/**
 * A fatal sluice error for a kafkajs authentication or TLS failure (`root`: the unwrapped kafkajs error),
 * or undefined when it is none. `context` (e.g. `admin connect`) is prefixed.
 * 1. SASL refused (wrong password, unknown user, mechanism not enabled): SASL_AUTHENTICATION_FAILED (58) or
 *    UNSUPPORTED_SASL_MECHANISM (33), naming mechanism and username;
 * 2. TLS: an untrusted, expired or misnamed broker certificate, or a refused client certificate:
 *    SSL_HANDSHAKE_FAILED, naming the `ssl` key to set;
 * 3. a first connection closed before any answer (plaintext on TLS, TLS on plaintext, no SASL on a SASL
 *    listener): SECURITY_PROTOCOL_MISMATCH, saying which of `ssl` / `sasl` to set. Once the cluster
 *    answered a request, a closed connection is a network error again (retriable).
 */
export function explainSecurityFailure(root: unknown, facts: ConnectionFacts | undefined, context: string): StreamsError | undefined {
  const e = root as KafkaJsError | undefined;
  if (!e || typeof e !== 'object') return undefined;
  const prefix = context ? `${context}: ` : '';
  const brokers = facts ? facts.brokers.join(', ') : 'the brokers';
  const message = String(e.message ?? '');
  // 1.
  if (e.name === 'KafkaJSSASLAuthenticationError' || e.type === 'SASL_AUTHENTICATION_FAILED' || e.type === 'UNSUPPORTED_SASL_MECHANISM' || e.type === 'ILLEGAL_SASL_STATE') {
    const mechanism = facts?.mechanism ?? 'SASL';
    const user = facts?.username !== undefined ? ` as user '${facts.username}'` : '';
    if (e.type === 'UNSUPPORTED_SASL_MECHANISM' || /mechanism is not supported by the server/.test(message)) {
      return new KafkaProtocolError(
        KafkaErrorCode.UNSUPPORTED_SASL_MECHANISM,
        `${prefix}UNSUPPORTED_SASL_MECHANISM (33): ${brokers} does not enable SASL mechanism ${mechanism} (broker: ${message}). ` +
          `Set sasl.mechanism to one the cluster enables (its sasl.enabled.mechanisms; e.g. 'plain' for Confluent Cloud, 'scram-sha-512' for Amazon MSK)`,
        { cause: root },
      );
    }
    return new KafkaProtocolError(
      KafkaErrorCode.SASL_AUTHENTICATION_FAILED,
      `${prefix}SASL_AUTHENTICATION_FAILED (58): ${brokers} refused the SASL ${mechanism} login${user} (broker: ${message}). ` +
        `Check sasl.username and sasl.password${mechanism.startsWith('SCRAM') ? `, and that the user has ${mechanism} credentials on the cluster` : ''}`,
      { cause: root },
    );
  }
  if (e.name !== 'KafkaJSConnectionError' && e.name !== 'KafkaJSConnectionClosedError') return undefined;
  const code = typeof e.code === 'string' ? e.code : '';
  const where = e.broker ?? brokers;
  // 2.
  const tls = tlsProblem(code, message, facts);
  if (tls) return new StreamsError(`${prefix}TLS handshake with ${where} failed: ${tls} (${message.split('\n')[0]})`, { code: 'SSL_HANDSHAKE_FAILED', cause: root });
  // 3.
  if (facts && !facts.answered) {
    const mismatch = protocolMismatch(facts, message);
    if (mismatch) return new StreamsError(`${prefix}${mismatch.replace('%s', where)} (${message})`, { code: 'SECURITY_PROTOCOL_MISMATCH', cause: root });
  }
  return undefined;
}

function tlsProblem(code: string, message: string, facts: ConnectionFacts | undefined): string | undefined {
  if (UNTRUSTED.has(code)) return "the broker's certificate is not trusted: set ssl.ca to the PEM of the CA that signed it (e.g. ssl: { ca: [fs.readFileSync('ca.pem', 'utf8')] })";
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return `the broker's certificate is ${code === 'CERT_HAS_EXPIRED' ? 'expired' : 'not yet valid'}: the cluster must renew it (or the clock of this machine is wrong)`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return "the broker's certificate does not name the address connected to (hostname mismatch): use a bootstrap address the certificate lists, or set ssl.servername to a name it lists";
  }
  if (/^ERR_SSL_/.test(code) && /CERTIFICATE|HANDSHAKE_FAILURE|UNKNOWN_CA|ACCESS_DENIED/.test(code)) {
    return facts?.certificateSubject === undefined
      ? 'the broker refused the handshake: its listener requires a client certificate (mutual TLS): set ssl.cert and ssl.key'
      : `the broker refused the client certificate (${facts.certificateSubject}): it must be signed by a CA the broker trusts (its ssl.truststore)`;
  }
  return undefined;
}

function protocolMismatch(facts: ConnectionFacts, message: string): string | undefined {
  if (facts.ssl && /before secure TLS connection was established|wrong version number|WRONG_VERSION_NUMBER|packet length too long/i.test(message)) {
    return '%s closed the connection during the TLS handshake: this port does not speak TLS. Remove ssl (a PLAINTEXT or SASL_PLAINTEXT listener), or use the port of the TLS listener';
  }
  if (!/Closed connection/.test(message)) return undefined;
  if (!facts.ssl) {
    return `%s closed the connection before answering: the listener probably requires TLS: set ssl: true (or ssl: { ca } for a private CA)${facts.mechanism === undefined ? ', and sasl if it requires a login (SASL_SSL)' : ''}`;
  }
  if (facts.mechanism === undefined) return '%s closed the connection before answering: the listener probably requires a SASL login: set sasl: { mechanism, username, password }';
  return undefined;
}

/** The subject of a PEM client certificate (the first one), or undefined when there is none or it cannot be read. */
function subjectOf(cert: unknown): string | undefined {
  const first = Array.isArray(cert) ? (cert as unknown[])[0] : cert;
  if (typeof first !== 'string' && !Buffer.isBuffer(first)) return undefined;
  try {
    return new X509Certificate(first).subject.split('\n').join(',');
  } catch {
    return undefined;
  }
}
