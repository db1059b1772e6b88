/**
 * kafkajs' `producer/groupMessagesPerPartition.js` copies the partition's
 * array for every message (`[...current, message]`), so grouping a batch of n
 * messages costs O(n²). sluice sends one partition per request, with batches
 * of thousands of records; this replacement groups in one pass and returns the
 * same shape (`{ [partition]: messages in order }`, `{}` without partition
 * metadata).
 */
import type { KafkaJsInternals } from './kafkajs-internals.js';

/** The module's signature. */
type GroupMessagesPerPartition = (args: {
  topic: string;
  partitionMetadata: unknown[];
  messages: unknown[];
  partitioner: (args: { topic: string; partitionMetadata: unknown[]; message: unknown }) => number;
}) => Record<number, unknown[]>;

/** The linear grouping (see the module comment). */
export const groupMessagesPerPartition: GroupMessagesPerPartition = ({ topic, partitionMetadata, messages, partitioner }) => {
  const result: Record<number, unknown[]> = {};
  if (partitionMetadata.length === 0) return result;
  for (const message of messages) {
    const partition = partitioner({ topic, partitionMetadata, message });
    (result[partition] ??= []).push(message);
  }
  return result;
};

/**
 * Replaces the module in the copy. Must run before `producer/sendMessages.js`
 * is loaded (it keeps the exports it required): `patchKafkaJs` runs it first.
 */
export function installLinearGrouping(internals: KafkaJsInternals): void {
  internals.replace?.<GroupMessagesPerPartition>('producer/groupMessagesPerPartition.js', () => groupMessagesPerPartition);
}
