/**
 * Validation of handler answers and the mapping of a handler response to the
 * producer's {@link TxnSendOption}. The runtime calls handlers only through
 * these helpers, so a handler that answers nonsense or throws produces one
 * clear, fatal error naming the handler.
 */
import { inspect } from 'node:util';
import { StreamsError } from '../errors.js';
import type { DeadLetterRecord, HandlerResponse } from './types.js';

/** A handler answer in its one canonical form. */
export interface NormalizedHandlerAnswer {
  /** `'CONTINUE'` or `'FAIL'`. */
  response: HandlerResponse;
  /** Dead-letter records to write in the same transaction (empty when none). */
  deadLetterRecords: DeadLetterRecord[];
}

const SHAPE = "'CONTINUE', 'FAIL' or { response: 'CONTINUE' | 'FAIL', deadLetterRecords?: [{ topic, key, value, headers?, timestamp? }] }";

function invalid(handler: string, what: string): StreamsError {
  return new StreamsError(`${handler} returned ${what}; an exception handler must return ${SHAPE}`, {
    code: 'INVALID_HANDLER_ANSWER',
    kind: 'fatal',
  });
}

function show(value: unknown): string {
  return inspect(value, { depth: 2, breakLength: Infinity, maxStringLength: 80 });
}

function isResponse(value: unknown): value is HandlerResponse {
  return value === 'CONTINUE' || value === 'FAIL';
}

function toBytes(value: unknown, handler: string, where: string): Buffer | null {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return value;
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  if (value instanceof Uint8Array) return Buffer.from(value);
  throw invalid(handler, `a dead-letter record whose ${where} is ${show(value)} (expected a Buffer, a string or null)`);
}

function normalizeDeadLetter(record: unknown, index: number, handler: string): DeadLetterRecord {
  if (record === null || typeof record !== 'object') {
    throw invalid(handler, `deadLetterRecords[${index}] = ${show(record)}`);
  }
  const r = record as Record<string, unknown>;
  if (typeof r.topic !== 'string' || r.topic === '') {
    throw invalid(handler, `deadLetterRecords[${index}] without a topic`);
  }
  if (r.headers !== undefined && (r.headers === null || typeof r.headers !== 'object')) {
    throw invalid(handler, `deadLetterRecords[${index}] with headers ${show(r.headers)}`);
  }
  if (r.timestamp !== undefined && (typeof r.timestamp !== 'number' || !Number.isFinite(r.timestamp))) {
    throw invalid(handler, `deadLetterRecords[${index}] with timestamp ${show(r.timestamp)}`);
  }
  const out: DeadLetterRecord = {
    topic: r.topic,
    key: toBytes(r.key, handler, `key (deadLetterRecords[${index}])`),
    value: toBytes(r.value, handler, `value (deadLetterRecords[${index}])`),
  };
  if (r.headers !== undefined) out.headers = r.headers as DeadLetterRecord['headers'];
  if (r.timestamp !== undefined) out.timestamp = r.timestamp as number;
  return out;
}

/**
 * A thenable answer is refused, but its eventual rejection must not become an
 * unhandled rejection (which kills a Node process): attach a no-op handler.
 */
function settleQuietly(thenable: PromiseLike<unknown>): void {
  try {
    thenable.then(undefined, () => undefined);
  } catch {
    // A hostile `then` that throws: nothing is pending then.
  }
}

/**
 * Validates what a handler returned and brings it into canonical form.
 * Accepts `'CONTINUE'`, `'FAIL'` (or the equal constants such as
 * `ProductionExceptionHandlerResponse.CONTINUE`) and
 * `{ response, deadLetterRecords? }`; dead-letter keys and values may be
 * Buffers, strings (UTF-8) or null. Anything else throws a fatal
 * {@link StreamsError} (code `INVALID_HANDLER_ANSWER`) naming `handler`.
 *
 * Dead-letter records returned with `'FAIL'` are kept: under exactly-once they
 * are aborted together with the rest of the transaction.
 */
export function normalizeHandlerAnswer(answer: unknown, handler = 'exception handler'): NormalizedHandlerAnswer {
  if (isResponse(answer)) return { response: answer, deadLetterRecords: [] };
  if (answer === null || typeof answer !== 'object') throw invalid(handler, show(answer));
  if (typeof (answer as { then?: unknown }).then === 'function') {
    settleQuietly(answer as PromiseLike<unknown>);
    throw invalid(
      handler,
      'a Promise: exception handlers must answer synchronously, as in Kafka Streams ' +
        '(drop `async` and return the answer itself; do asynchronous work elsewhere, e.g. in a consumer of the dead-letter topic)',
    );
  }
  const { response, deadLetterRecords } = answer as { response?: unknown; deadLetterRecords?: unknown };
  if (!isResponse(response)) throw invalid(handler, `{ response: ${show(response)} }`);
  if (deadLetterRecords === undefined || deadLetterRecords === null) return { response, deadLetterRecords: [] };
  if (!Array.isArray(deadLetterRecords)) throw invalid(handler, `deadLetterRecords = ${show(deadLetterRecords)}`);
  return { response, deadLetterRecords: deadLetterRecords.map((r, i) => normalizeDeadLetter(r, i, handler)) };
}
