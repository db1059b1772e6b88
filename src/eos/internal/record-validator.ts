/**
 * Record-level errors (a helper of the send path, DESIGN.md §4): pre-send
 * validation — the checks a broker would make, done from cached topic configs
 * so a bad record fails alone, before any produce request — and the record's
 * own error when the broker rejected its batch.
 */
import type { WireRecord } from '../../records/types.js';
import { InvalidRecordError, InvalidTimestampError, KafkaErrorCode, KafkaProtocolError, RecordTooLargeError, type StreamsError } from '../../errors.js';
import { singleRecordBatchSize } from './record-size.js';
import type { TopicInfo } from '../topic-metadata.js';

/**
 * Returns the record-level error of `record` for `info`, or null when it is valid.
 * `partition` is the explicit partition, if the caller gave one.
 */
export function validateRecord(
  record: WireRecord,
  info: TopicInfo,
  partition: number | undefined,
  maxRequestSize: number,
  now: number,
): StreamsError | null {
  const topic = info.topic;
  const size = singleRecordBatchSize(record);
  if (size > info.maxMessageBytes) {
    return new RecordTooLargeError(
      `The record is ${size} bytes when serialized (including the 61-byte batch header), which is larger than ` +
        `max.message.bytes=${info.maxMessageBytes} of topic '${topic}'; raise the topic config 'max.message.bytes' or send a smaller record`,
    );
  }
  if (size > maxRequestSize) {
    return new RecordTooLargeError(
      `The record is ${size} bytes when serialized (including the 61-byte batch header), which is larger than ` +
        `the producer's maxRequestSize=${maxRequestSize} (topic '${topic}'); raise the producer option 'maxRequestSize' (max.request.size)`,
    );
  }
  if (partition !== undefined && (!Number.isInteger(partition) || partition < 0 || partition >= info.partitions)) {
    return new InvalidRecordError(
      `Partition ${partition} of topic '${topic}' does not exist: the topic has ${info.partitions} partition(s) [0..${info.partitions - 1}]`,
    );
  }
  if (info.compacted && record.key === null) {
    return new InvalidRecordError(
      `Topic '${topic}' is compacted (cleanup.policy contains 'compact'): a compacted topic needs a key, and this record has a null key`,
    );
  }
  if (info.createTime) {
    const ts = record.timestamp;
    if (ts < 0) {
      return new InvalidTimestampError(`Record timestamp ${ts} for topic '${topic}' is negative`);
    }
    if (ts < now - info.beforeMaxMs) {
      return new InvalidTimestampError(
        `Record timestamp ${ts} for topic '${topic}' is ${now - ts} ms in the past, more than ` +
          `message.timestamp.before.max.ms=${info.beforeMaxMs}; fix the timestamp or raise that topic config`,
      );
    }
    if (ts > now + info.afterMaxMs) {
      return new InvalidTimestampError(
        `Record timestamp ${ts} for topic '${topic}' is ${ts - now} ms in the future, more than ` +
          `message.timestamp.after.max.ms=${info.afterMaxMs}; fix the timestamp or raise that topic config`,
      );
    }
  }
  return null;
}

/** The record's own error for a broker rejection of its batch (`brokerMessage`: its record_errors entry, if any). */
export function brokerRecordError(error: StreamsError, brokerMessage: string | null, topic: string, partition: number): StreamsError {
  if (!(error instanceof KafkaProtocolError)) return error;
  const what = `The broker rejected the record for ${topic}-${partition} (${error.code}): ${brokerMessage ?? error.errorMessage ?? error.message}`;
  switch (error.kafkaCode) {
    case KafkaErrorCode.INVALID_TIMESTAMP:
      return new InvalidTimestampError(what, { cause: error });
    case KafkaErrorCode.MESSAGE_TOO_LARGE:
    case KafkaErrorCode.RECORD_LIST_TOO_LARGE:
      return new RecordTooLargeError(`${what}; the record alone is larger than the topic's max.message.bytes: raise the topic config 'max.message.bytes' or send a smaller record`, { cause: error });
    default:
      return new InvalidRecordError(what, { cause: error });
  }
}
