/**
 * Partition counts of source and sink topics (the collector partitions keyed
 * records with murmur2 modulo the count), read from the app's one
 * {@link TopicMetadataCache} — the cache its task producers share — so a topic
 * is described once per app and the runtime and the producers agree on it.
 */
import type { Logger } from 'pino';
import { KafkaProtocolError, KafkaErrorCode, StreamsError } from '../../errors.js';
import type { TopicMetadataCache } from '../../eos/topic-metadata.js';

/** How long a topic that could not be described is not asked for again by {@link PartitionCounts.get} (ms). */
const FAILED_RETRY_MS = 5_000;

/** The partition counts of the app, filled at start and lazily for topics first seen at run time. */
export class PartitionCounts {
  readonly #failedAt = new Map<string, number>();

  constructor(
    private readonly metadata: TopicMetadataCache,
    private readonly logger: Logger,
  ) {}

  /** Describes the source topics; a missing one rejects with an error naming it. */
  async loadSources(topics: string[]): Promise<void> {
    for (const topic of topics) {
      try {
        await this.metadata.describe(topic);
      } catch (error) {
        if (error instanceof KafkaProtocolError && error.kafkaCode === KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION) {
          // (on a secured cluster the admin's message adds that the principal may not see it: keep that part)
          const hidden = / or (.+ may not see it .*)$/.exec(error.message)?.[1];
          throw new StreamsError(`Source topic '${topic}' does not exist; create it (with the partition count you want) before starting the app${hidden ? ` — or ${hidden}` : ''}`, {
            code: 'MISSING_SOURCE_TOPIC',
            kind: 'fatal',
            cause: error,
          });
        }
        throw error;
      }
    }
  }

  /** Describes topics whose count is not known yet; failures are logged, not thrown (the producer partitions then). */
  async prefetch(topics: string[]): Promise<void> {
    await Promise.all([...new Set(topics)].filter((t) => !this.metadata.peek(t)).map((t) => this.#load(t)));
  }

  /** The count of `topic`, or undefined (a background describe is started). */
  get(topic: string): number | undefined {
    const count = this.metadata.peek(topic)?.partitions;
    if (count === undefined) void this.#load(topic);
    return count;
  }

  /** The known counts. */
  snapshot(): ReadonlyMap<string, number> {
    return this.metadata.partitionCounts();
  }

  async #load(topic: string): Promise<void> {
    if (Date.now() - (this.#failedAt.get(topic) ?? 0) < FAILED_RETRY_MS) return;
    try {
      await this.metadata.describe(topic); // joins a describe in flight
    } catch (error) {
      this.#failedAt.set(topic, Date.now());
      this.logger.debug({ err: error, topic }, 'could not describe an output topic');
    }
  }
}
