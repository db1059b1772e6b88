/**
 * Partition counts of source and sink topics, read once through the admin
 * API (the collector partitions keyed records with murmur2 modulo the count).
 */
import type { Logger } from 'pino';
import type { AdminPort } from '../../cluster/port.js';
import { KafkaProtocolError, KafkaErrorCode, StreamsError } from '../../errors.js';

/** A cache of partition counts, filled at start and lazily for topics first seen at run time. */
export class PartitionCounts {
  readonly #counts = new Map<string, number>();
  readonly #loading = new Set<string>();
  readonly #failedAt = new Map<string, number>();

  constructor(
    private readonly admin: AdminPort,
    private readonly logger: Logger,
  ) {}

  /** Describes the source topics; a missing one rejects with an error naming it. */
  async loadSources(topics: string[]): Promise<void> {
    for (const topic of topics) {
      try {
        this.#counts.set(topic, (await this.admin.describeTopic(topic)).partitions);
      } catch (error) {
        if (error instanceof KafkaProtocolError && error.kafkaCode === KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION) {
          throw new StreamsError(`Source topic '${topic}' does not exist; create it (with the partition count you want) before starting the app`, {
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
    await Promise.all([...new Set(topics)].filter((t) => !this.#counts.has(t)).map((t) => this.#load(t)));
  }

  /** The count of `topic`, or undefined (a background describe is started). */
  get(topic: string): number | undefined {
    const count = this.#counts.get(topic);
    if (count === undefined) void this.#load(topic);
    return count;
  }

  /** The known counts. */
  snapshot(): ReadonlyMap<string, number> {
    return new Map(this.#counts);
  }

  async #load(topic: string): Promise<void> {
    if (this.#loading.has(topic) || Date.now() - (this.#failedAt.get(topic) ?? 0) < 5_000) return;
    this.#loading.add(topic);
    try {
      this.#counts.set(topic, (await this.admin.describeTopic(topic)).partitions);
    } catch (error) {
      this.#failedAt.set(topic, Date.now());
      this.logger.debug({ err: error, topic }, 'could not describe an output topic');
    } finally {
      this.#loading.delete(topic);
    }
  }
}
