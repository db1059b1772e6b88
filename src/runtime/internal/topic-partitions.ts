/**
 * The partition count of a topic, as the internal-topic and changelog set-up
 * read it: `undefined` when the topic does not exist; and, after a create
 * that lost the race to another instance (`TOPIC_ALREADY_EXISTS`), the count
 * once the topic's metadata has propagated (a topic another instance is
 * creating can be unknown to `describeTopic` for a moment).
 */
import type { AdminPort } from '../../cluster/port.js';
import { KafkaErrorCode, KafkaProtocolError } from '../../errors.js';

/** The topic's partition count, or `undefined` when it does not exist. */
export async function partitionsOf(admin: AdminPort, topic: string): Promise<number | undefined> {
  try {
    return (await admin.describeTopic(topic)).partitions;
  } catch (error) {
    if (error instanceof KafkaProtocolError && error.kafkaCode === KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION) return undefined;
    throw error;
  }
}

/**
 * The partition count of a topic that exists (its create answered
 * `TOPIC_ALREADY_EXISTS`): retried while `describeTopic` does not know it
 * yet, up to `timeoutMs`; `undefined` if it never shows.
 */
export async function partitionsOfExisting(admin: AdminPort, topic: string, timeoutMs = 10_000): Promise<number | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (let waitMs = 50; ; waitMs = Math.min(waitMs * 2, 1_000)) {
    const partitions = await partitionsOf(admin, topic);
    if (partitions !== undefined || Date.now() >= deadline) return partitions;
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}

/** True when `error` says the topic exists already (another instance created it first). */
export function isTopicAlreadyExists(error: unknown): boolean {
  return error instanceof KafkaProtocolError && error.kafkaCode === KafkaErrorCode.TOPIC_ALREADY_EXISTS;
}
