/**
 * Topic metadata (partition count and the configs records are validated
 * against), read through `AdminPort.describeTopic` and cached per topic.
 *
 * One cache serves one application: the runtime builds it on the app's admin
 * client and hands it to every task producer (`StreamsProducerOptions.topicMetadata`)
 * and to its own partition counts, so a topic is described once per app. A
 * standalone producer builds its own on its own admin client.
 *
 * Freshness: an entry is replaced whenever the topic is described again —
 * {@link TopicMetadataCache.refresh} after the broker rejected records of it
 * (its config may have changed), {@link TopicMetadataCache.describe} when a
 * caller needs the current partition count (e.g. a partition beyond the cached
 * count: partitions may have been added).
 */
import type { AdminPort } from '../cluster/port.js';
import { errorKindOf } from '../errors.js';
import type { Logger } from '../internal/logger.js';
import { backoffDelay } from '../internal/backoff.js';
import { retryWhile } from '../internal/retry.js';
import { metadataTimeoutError } from './internal/metadata-wait.js';

/** What the producer needs to know about a topic. */
export interface TopicInfo {
  topic: string;
  partitions: number;
  /** `max.message.bytes` (largest record batch the topic accepts). */
  maxMessageBytes: number;
  /** `cleanup.policy` contains `compact`: keys are mandatory. */
  compacted: boolean;
  /** `message.timestamp.type` is `CreateTime` (timestamp bounds apply). */
  createTime: boolean;
  /** `message.timestamp.before.max.ms`: how far in the past a timestamp may be. */
  beforeMaxMs: number;
  /** `message.timestamp.after.max.ms`: how far in the future a timestamp may be. */
  afterMaxMs: number;
}

/** How long one caller of {@link TopicMetadataCache.get} may wait, and what stops it early (the caller's own producer settings). */
export interface MetadataWait {
  deliveryTimeoutMs: number;
  /** How long a lookup of a topic the cluster does not know may wait (issue 12 item 5). */
  maxBlockMs: number;
  retryBackoffMs: number;
  /** An error that ends retries early (the calling producer is fatal, aborting or closed). */
  stopError?: () => Error | undefined;
}

const DEFAULT_MAX_MESSAGE_BYTES = 1048588;

function num(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  return Number.isFinite(n) ? n : fallback;
}

/** Parses a described topic's config into {@link TopicInfo}. */
export function toTopicInfo(topic: string, partitions: number, config: Record<string, string>): TopicInfo {
  const legacyDiff = num(config['message.timestamp.difference.max.ms'], Number.MAX_SAFE_INTEGER);
  return {
    topic,
    partitions,
    maxMessageBytes: num(config['max.message.bytes'], DEFAULT_MAX_MESSAGE_BYTES),
    compacted: (config['cleanup.policy'] ?? 'delete').split(',').some((p) => p.trim() === 'compact'),
    createTime: (config['message.timestamp.type'] ?? 'CreateTime') === 'CreateTime',
    beforeMaxMs: num(config['message.timestamp.before.max.ms'], legacyDiff),
    afterMaxMs: num(config['message.timestamp.after.max.ms'], legacyDiff),
  };
}

/**
 * The info of a topic whose configs cannot be read (no DESCRIBE_CONFIGS, as under Kafka Streams' documented
 * least privilege): what the Java producer assumes, which knows no topic config either. No size bound of the
 * topic (the producer's `maxRequestSize` still applies), keys optional, timestamps unbounded (negative ones
 * still refused): the broker checks the real configs and rejects a record that breaks one, which then fails
 * alone as a record-level error.
 */
export function unknownConfigTopicInfo(topic: string, partitions: number): TopicInfo {
  return { topic, partitions, maxMessageBytes: Number.MAX_SAFE_INTEGER, compacted: false, createTime: true, beforeMaxMs: Number.MAX_SAFE_INTEGER, afterMaxMs: Number.MAX_SAFE_INTEGER };
}

/** Per-topic cache of {@link TopicInfo}, shared by every producer of an app (see the module comment). */
export class TopicMetadataCache {
  readonly #info = new Map<string, TopicInfo>();
  /** The describe in flight per topic: concurrent callers share it. */
  readonly #inflight = new Map<string, Promise<TopicInfo>>();
  /** Topics whose unreadable configs were logged (one INFO line per topic). */
  readonly #unreadableLogged = new Set<string>();

  /**
   * `admin` is called per describe (a standalone producer's admin client exists only once it connected);
   * `logger` gets the one INFO line per topic whose configs cannot be read.
   */
  constructor(
    private readonly admin: () => AdminPort,
    private readonly logger?: Logger,
  ) {}

  /** The cached info, if present (no I/O). */
  peek(topic: string): TopicInfo | undefined {
    return this.#info.get(topic);
  }

  /** The cached partition counts. */
  partitionCounts(): ReadonlyMap<string, number> {
    return new Map([...this.#info].map(([topic, info]) => [topic, info.partitions]));
  }

  /**
   * Describes the topic now (one attempt, no retry; joins a describe already
   * in flight) and caches the answer. Errors reject as they are.
   */
  describe(topic: string): Promise<TopicInfo> {
    const running = this.#inflight.get(topic);
    if (running) return running;
    const inflight = (async () => {
      const d = await this.admin().describeTopic(topic);
      const info = d.configUnreadable === undefined ? toTopicInfo(topic, d.partitions, d.config) : this.#withoutConfigs(topic, d.partitions, d.configUnreadable);
      this.#info.set(topic, info);
      return info;
    })();
    this.#inflight.set(topic, inflight);
    const done = (): void => void (this.#inflight.get(topic) === inflight && this.#inflight.delete(topic));
    inflight.then(done, done);
    return inflight;
  }

  #withoutConfigs(topic: string, partitions: number, why: string): TopicInfo {
    if (!this.#unreadableLogged.has(topic)) {
      this.#unreadableLogged.add(topic);
      this.logger?.info(
        { topic, reason: why },
        `cannot read the configs of topic '${topic}' (no DESCRIBE_CONFIGS on it): records to it are not pre-checked against its ` +
          'max.message.bytes, cleanup.policy and message.timestamp.* (defaults: no size bound but maxRequestSize, keys optional, any timestamp >= 0); ' +
          'the broker still enforces them and a rejected record fails alone',
      );
    }
    return unknownConfigTopicInfo(topic, partitions);
  }

  /**
   * The broker rejected records of the topic for size or record reasons: its
   * config may have changed. Describes it again in the background; the old
   * info stays in use until the new one arrives (the broker still checks).
   */
  refresh(topic: string): void {
    if (!this.#info.has(topic) || this.#inflight.has(topic)) return;
    this.describe(topic).catch(() => undefined);
  }

  /**
   * The topic's info: the cached one, else described (concurrent callers share
   * each attempt). Retriable errors (e.g. an unknown topic,
   * UNKNOWN_TOPIC_OR_PARTITION) are retried with back-off for at most the
   * caller's `maxBlockMs` (or its delivery timeout, if smaller), then the lookup
   * rejects with `UnknownTopicError` (or `DeliveryTimeoutError`) naming the
   * topic; the caller's `stopError` ends the retries early. Other errors reject as they are.
   */
  async get(topic: string, wait: MetadataWait): Promise<TopicInfo> {
    const cached = this.#info.get(topic);
    if (cached) return cached;
    // Issue 12 item 5: the wait for metadata is bounded by maxBlockMs (not the delivery timeout).
    const bound = wait.maxBlockMs <= wait.deliveryTimeoutMs ? 'maxBlockMs' : 'deliveryTimeoutMs';
    const deadline = Date.now() + wait[bound];
    let giveUp: Error | undefined;
    try {
      return await retryWhile(() => this.describe(topic), {
        retryIf: (error) => {
          if (errorKindOf(error) !== 'retriable') return false;
          giveUp = wait.stopError?.() ?? (deadline - Date.now() <= 0 ? metadataTimeoutError(topic, error, wait[bound], bound) : undefined);
          return giveUp === undefined;
        },
        delayMs: (attempt) => Math.min(backoffDelay(attempt, wait.retryBackoffMs), deadline - Date.now()),
      });
    } catch (error) {
      throw giveUp ?? error;
    }
  }
}
