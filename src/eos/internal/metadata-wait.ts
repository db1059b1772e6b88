/**
 * The bounded wait for a topic's metadata (issue 12, item 5): like Java's
 * `max.block.ms`, a send to a topic the cluster does not know waits at most
 * `maxBlockMs` (default 5 s) for it to appear, then the record fails with a
 * record-level {@link UnknownTopicError} naming the topic, instead of waiting
 * out the 120 s delivery timeout while the transaction (and the app) stalls.
 */
import { DeliveryTimeoutError, KafkaErrorCode, KafkaProtocolError, StreamsError, UnknownTopicError } from '../../errors.js';

/** Default of the producer option `maxBlockMs`. */
export const DEFAULT_MAX_BLOCK_MS = 5_000;

/**
 * The error for a topic whose metadata could not be read within `maxBlockMs`:
 * {@link UnknownTopicError} when the cluster kept answering
 * UNKNOWN_TOPIC_OR_PARTITION, else a {@link DeliveryTimeoutError} carrying the
 * last retriable error. Both are record-level (nothing was written).
 */
export function metadataTimeoutError(topic: string, lastError: unknown, waitedMs: number, bound: 'maxBlockMs' | 'deliveryTimeoutMs'): StreamsError {
  if (lastError instanceof KafkaProtocolError && lastError.kafkaCode === KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION) {
    return new UnknownTopicError(
      `Topic '${topic}' does not exist (UNKNOWN_TOPIC_OR_PARTITION for ${waitedMs} ms, producer option '${bound}'): ` +
        `create the topic, or fix the topic name (a sink's to(), a topic extractor or a dead-letter topic)`,
      { topic, cause: lastError },
    );
  }
  const reason = lastError instanceof StreamsError ? lastError.code : String(lastError);
  return new DeliveryTimeoutError(
    `The metadata of topic '${topic}' could not be read within ${bound}=${waitedMs} (${reason}); ` +
      `does the topic exist? Create it or fix the topic name, or raise the producer option '${bound}'`,
    { cause: lastError },
  );
}
