/**
 * The one-line reason the CLI prints when it stops on an error.
 */
import { StreamsError } from '../../errors.js';

/** First non-empty line of the error's message, prefixed with its class unless it is a usage/config error. */
export function oneLineReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split('\n').find((l) => l.trim() !== '') ?? message;
  if (error instanceof StreamsError && error.kind === 'usage') return line;
  const name = error instanceof Error ? error.name : 'Error';
  const cause = error instanceof Error && error.cause instanceof Error && !line.includes(error.cause.message) ? ` (cause: ${error.cause.message.split('\n')[0]})` : '';
  return `${line.startsWith(name) ? line : `${name}: ${line}`}${cause}`;
}

/** A hint to append when `error` says the brokers cannot be reached. */
export function connectionHint(error: unknown, brokers: readonly string[] | undefined): string {
  if (!brokers || brokers.length === 0) return '';
  const text = error instanceof Error ? `${error.message} ${error.cause instanceof Error ? error.cause.message : ''}` : String(error);
  return /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|network error|Connection error|connection timeout/i.test(text)
    ? `; is Kafka reachable at ${brokers.join(',')}? (check --bootstrap-servers / KAFKA_BROKERS, or use --embedded)`
    : '';
}
