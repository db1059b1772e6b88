/**
 * kafkajs errors → the sluice error hierarchy (`src/errors.ts`).
 *
 * 1. Unwrap kafkajs wrappers (`KafkaJSNumberOfRetriesExceeded`,
 *    `KafkaJSNonRetriableError` with a `cause`) down to the original error.
 * 2. A broker answer (`KafkaJSProtocolError`, `type` + `code`) becomes a
 *    `KafkaProtocolError` with the numeric Kafka code; codes kafkajs does not
 *    know (`code: -99`, "Unknown error code 90") are recovered from the message.
 *    Produce v8 errors keep their `recordErrors` and `errorMessage`.
 *    Authorization codes (29, 30, 31, 53) name the principal, the operation and
 *    the resource (`security-errors.ts`).
 * 3. Authentication and TLS failures (a refused SASL login, an untrusted or
 *    misnamed certificate, a plaintext/TLS mismatch on the first connection)
 *    become fatal errors saying what to change (`security-errors.ts`).
 * 4. Connection loss, request timeouts, missing brokers and metadata become a
 *    retriable `KafkaProtocolError(13 NETWORK_EXCEPTION)` (or 7 REQUEST_TIMED_OUT).
 * 5. Anything else becomes a fatal `StreamsError` with the original as cause.
 */
import {
  KafkaErrorCode,
  KafkaProtocolError,
  ProducerFencedError,
  StreamsError,
  isProducerFenced,
  kafkaErrorName,
} from '../../../errors.js';
import { isProduceV8Error } from './produce-v8.js';
import { authorizationMessage, explainSecurityFailure, isAuthorizationCode, type Access, type ConnectionFacts } from './security-errors.js';

/** What the caller knows beyond the error: its connections' facts, and the resources the call needs. */
export interface ErrorSite {
  facts?: ConnectionFacts | undefined;
  access?: readonly Access[];
}

/** The shape of the kafkajs errors this module reads. */
interface KafkaJsLikeError extends Error {
  type?: string;
  code?: number | string;
  cause?: unknown;
  retriable?: boolean;
}

const CONNECTION_ERRORS = new Set([
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSBrokerNotFound',
  'KafkaJSNoBrokerAvailableError',
  'KafkaJSMetadataNotLoaded',
  'KafkaJSTopicMetadataNotLoaded',
  'KafkaJSGroupCoordinatorNotFound',
  'KafkaJSLockTimeout',
]);

/** kafkajs type names that differ from Kafka's `Errors.java` names sluice uses. */
const TYPE_ALIASES: Record<string, number> = {
  NOT_LEADER_FOR_PARTITION: KafkaErrorCode.NOT_LEADER_OR_FOLLOWER,
  GROUP_COORDINATOR_NOT_AVAILABLE: KafkaErrorCode.COORDINATOR_NOT_AVAILABLE,
  NOT_COORDINATOR_FOR_GROUP: KafkaErrorCode.NOT_COORDINATOR,
  GROUP_LOAD_IN_PROGRESS: KafkaErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
};

/** Follows `cause` links of kafkajs wrapper errors (and the first error of an aggregate) down to the error that was thrown first. */
export function rootKafkaJsError(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 10; depth += 1) {
    const e = current as (KafkaJsLikeError & { errors?: unknown[] }) | undefined;
    // Admin batch calls (createTopics, ...) throw KafkaJSAggregateError holding one error per topic.
    if (e && typeof e === 'object' && e.name === 'KafkaJSAggregateError' && Array.isArray(e.errors) && e.errors.length > 0) {
      current = e.errors[0];
      continue;
    }
    if (!e || typeof e !== 'object' || e.cause === undefined || e.cause === e) return current;
    if (e.name !== 'KafkaJSNumberOfRetriesExceeded' && e.name !== 'KafkaJSNonRetriableError' && e.name !== 'KafkaJSError') {
      return current;
    }
    current = e.cause;
  }
  return current;
}

/** The numeric Kafka error code of a kafkajs protocol error, or undefined when it is none. */
export function kafkaCodeOf(error: unknown): number | undefined {
  const e = error as KafkaJsLikeError | undefined;
  if (!e || typeof e !== 'object' || typeof e.type !== 'string') return undefined;
  if (typeof e.code === 'number' && e.code > 0) return e.code;
  if (e.type in TYPE_ALIASES) return TYPE_ALIASES[e.type];
  const unknown = /Unknown error code (\d+)/.exec(e.message ?? '');
  if (unknown) return Number(unknown[1]);
  if (typeof e.code === 'number' && e.code === -1) return -1;
  return undefined;
}

/**
 * Maps any error thrown by kafkajs to a `StreamsError`; `context` (e.g.
 * `produce to orders-0`) is prefixed to the message. Already-mapped sluice
 * errors are returned unchanged.
 */
export function mapKafkaJsError(error: unknown, context?: string, site: ErrorSite = {}): StreamsError {
  if (error instanceof StreamsError) return error;
  const root = rootKafkaJsError(error);
  if (root instanceof StreamsError) return root;
  const e = root as KafkaJsLikeError;
  const prefix = context ? `${context}: ` : '';
  // 3. (before 2: a refused SASL handshake is also a protocol error)
  const security = explainSecurityFailure(root, site.facts, context ?? '');
  if (security) return security;
  const code = kafkaCodeOf(root);
  if (code !== undefined) {
    const name = kafkaErrorName(code);
    if (isAuthorizationCode(code)) {
      return new KafkaProtocolError(code, `${prefix}${authorizationMessage(code, e.message, site.facts, site.access ?? [])}`, { cause: error });
    }
    if (isProduceV8Error(root)) {
      const detail = root.errorMessage ? `: ${root.errorMessage}` : '';
      return new KafkaProtocolError(code, `${prefix}${name} (${code})${detail}`, {
        cause: error,
        recordErrors: root.recordErrors,
        errorMessage: root.errorMessage,
      });
    }
    return new KafkaProtocolError(code, `${prefix}${name} (${code}): ${e.message}`, { cause: error });
  }
  if (e && typeof e === 'object' && e.name === 'KafkaJSRequestTimeoutError') {
    return new KafkaProtocolError(KafkaErrorCode.REQUEST_TIMED_OUT, `${prefix}request timed out: ${e.message}`, { cause: error });
  }
  if (e && typeof e === 'object' && (CONNECTION_ERRORS.has(e.name) || isSocketError(e))) {
    return new KafkaProtocolError(KafkaErrorCode.NETWORK_EXCEPTION, `${prefix}network error: ${e.message}`, { cause: error });
  }
  const message = e instanceof Error ? e.message : String(root);
  return new StreamsError(`${prefix}${message}`, { cause: error, code: 'KAFKA_CLIENT_ERROR', kind: 'fatal' });
}

function isSocketError(e: KafkaJsLikeError): boolean {
  return typeof e.code === 'string' && /^(ECONN|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN)/.test(e.code);
}

/** True when a mapped error means the producer was fenced or lost its epoch/sequence state (`src/errors.ts` table). */
export function isProducerFencing(error: StreamsError): boolean {
  return isProducerFenced(error);
}

/**
 * Maps an error of a producer call: producer-fencing codes of the
 * classification table become `ProducerFencedError` (cause: the
 * `KafkaProtocolError`), everything else as {@link mapKafkaJsError}.
 */
export function mapProducerError(error: unknown, context: string, site: ErrorSite = {}): StreamsError {
  const mapped = mapKafkaJsError(error, context, site);
  if (mapped instanceof KafkaProtocolError && isProducerFenced(mapped)) {
    return new ProducerFencedError(`${mapped.message} — the producer is unusable: close it and create a new one`, {
      cause: mapped,
    });
  }
  return mapped;
}
