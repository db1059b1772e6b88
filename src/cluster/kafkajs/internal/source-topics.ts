/**
 * A source topic deleted, or deleted and re-created, under a running kafkajs
 * consumer (issue 12 item 6). kafkajs alone hides both: after a deletion its
 * fetch loop retries UNKNOWN_TOPIC_OR_PARTITION, crashes (retriable) and is
 * restarted forever; after a re-creation the member re-seeks to its old
 * positions, beyond the new log, and the new records are never delivered.
 * Kafka Streams stops with a `MissingSourceTopicException`; so does sluice:
 * 1. a crash whose root cause is UNKNOWN_TOPIC_OR_PARTITION: ask the admin
 *    which subscribed topics exist; a missing one is reported, not restarted;
 * 2. a fetched batch whose partition log ends (high watermark) below the
 *    position this member had reached: that log was replaced (re-created, or
 *    truncated); reported.
 * Reported once, through `onError`, as `missingSourceTopicError` (naming the
 * topic), with an error log line naming it.
 *
 * Limit: kafkajs speaks Metadata v6 (no topic ids), so a topic re-created and
 * refilled past the old position before this member fetches again looks like
 * the old one; only the broker's topic id would tell them apart.
 */
import { KafkaErrorCode, KafkaProtocolError, type StreamsError } from '../../../errors.js';
import type { Logger } from '../../../internal/logger.js';
import { missingSourceTopicError } from '../../port.js';

/** Dependencies of {@link SourceTopicWatch}. */
export interface SourceTopicWatchDeps {
  /** Which of the topics do not exist now. */
  missingTopics(topics: string[]): Promise<string[]>;
  /** Hands the error to the consumer's `onError`. */
  report(error: StreamsError): void;
  logger: Logger;
}

/** Detects and reports source topics that went away; see the module comment. */
export class SourceTopicWatch {
  private reported = false;

  constructor(private readonly deps: SourceTopicWatchDeps) {}

  /** True when `error` (mapped) is kafkajs giving up on a topic it cannot find. */
  static isUnknownTopic(error: Error): boolean {
    return error instanceof KafkaProtocolError && error.kafkaCode === KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
  }

  /** 1. After an unknown-topic crash: true (and reported) when one of `topics` is gone. */
  async deleted(topics: string[]): Promise<boolean> {
    const missing = await this.deps.missingTopics(topics).catch((error: unknown) => {
      this.deps.logger.warn({ err: error }, 'could not check the source topics; restarting the consumer');
      return [];
    });
    if (missing.length === 0) return false;
    const first = missing[0];
      if (first !== undefined) this.fail(first, 'was deleted', { missing });
    return true;
  }

  /** 2. True (and reported) when the partition's log ends below `position`. */
  replaced(topic: string, partition: number, highWatermark: number, position: number | undefined): boolean {
    if (position === undefined || highWatermark >= position) return false;
    this.fail(topic, `partition ${partition} was deleted and re-created (or truncated): its log ends at offset ${highWatermark}, below offset ${position} already consumed,`, {
      partition,
      highWatermark,
      position,
    });
    return true;
  }

  private fail(topic: string, what: string, details: Record<string, unknown>): void {
    if (this.reported) return;
    this.reported = true;
    const error = missingSourceTopicError(topic, what);
    this.deps.logger.error({ topic, ...details, err: error }, `source topic '${topic}' ${what.replace(/,$/, '')}: stopping`);
    this.deps.report(error);
  }
}
