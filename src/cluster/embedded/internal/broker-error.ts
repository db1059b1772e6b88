/**
 * Error answers of the embedded broker, shaped like a Kafka 4 broker's: a
 * partition-level `error_message` only accompanies `record_errors` (KIP-467;
 * a real broker answers null otherwise, verified with raw Produce v8
 * requests). The human-readable detail is kept in the error's `message`.
 */
import { KafkaProtocolError, kafkaErrorName, type RecordErrorEntry } from '../../../errors.js';

/** A broker error with `detail` in the message and no `error_message`. */
export function brokerError(code: number, detail: string): KafkaProtocolError {
  return new KafkaProtocolError(code, `${kafkaErrorName(code)} (${code}): ${detail}`, { errorMessage: null });
}

/** A rejected batch with per-record errors and the broker's `error_message`. */
export function recordValidationError(code: number, errorMessage: string, recordErrors: RecordErrorEntry[]): KafkaProtocolError {
  return new KafkaProtocolError(code, undefined, { errorMessage, recordErrors });
}
