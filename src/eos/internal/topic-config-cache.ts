/**
 * Topic configs the producer validates against, read once per topic through
 * `AdminPort.describeTopic` and cached; invalidated when the broker rejects
 * records for size or record reasons (the config may have changed).
 */
import type { AdminPort } from '../../cluster/port.js';
import { errorKindOf } from '../../errors.js';
import { metadataTimeoutError } from './metadata-wait.js';
import { backoffDelay, sleep } from '../../internal/backoff.js';

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

interface Entry {
  value?: TopicInfo;
  inflight?: Promise<TopicInfo>;
}

/** Per-topic cache of {@link TopicInfo}. */
export class TopicConfigCache {
  readonly #entries = new Map<string, Entry>();

  constructor(
    private readonly admin: () => AdminPort,
    private readonly opts: {
      deliveryTimeoutMs: number;
      /** How long a lookup of a topic the cluster does not know may wait (issue 12 item 5). */
      maxBlockMs: number;
      retryBackoffMs: number;
      /** An error that ends retries early (producer fatal, aborting or closed). */
      stopError: () => Error | undefined;
    },
  ) {}

  /** The cached info, if present and fresh (no I/O). */
  peek(topic: string): TopicInfo | undefined {
    return this.#entries.get(topic)?.value;
  }

  /**
   * The broker rejected records of the topic for size or record reasons: its
   * config may have changed. Describes it again in the background; the old
   * info stays in use until the new one arrives (the broker still checks).
   */
  refresh(topic: string): void {
    const e = this.#entries.get(topic);
    if (!e || e.inflight) return;
    const inflight = this.#describe(topic);
    e.inflight = inflight;
    inflight.then(
      (info) => {
        e.value = info;
        if (e.inflight === inflight) delete e.inflight;
      },
      () => {
        if (e.inflight === inflight) delete e.inflight;
      },
    );
  }

  /**
   * The topic's info, described once and shared by concurrent callers.
   * Retriable errors (e.g. an unknown topic, UNKNOWN_TOPIC_OR_PARTITION) are
   * retried with back-off for at most `maxBlockMs`, then the lookup rejects
   * with `UnknownTopicError` (or `DeliveryTimeoutError`) naming the topic. Other errors reject as they are.
   */
  get(topic: string): Promise<TopicInfo> {
    const e = this.#entries.get(topic) ?? {};
    this.#entries.set(topic, e);
    if (e.value) return Promise.resolve(e.value);
    if (!e.inflight) {
      const inflight = this.#describe(topic);
      e.inflight = inflight;
      inflight.then(
        (info) => {
          e.value = info;
          if (e.inflight === inflight) delete e.inflight;
        },
        () => {
          if (e.inflight === inflight) delete e.inflight;
        },
      );
    }
    return e.inflight;
  }

  async #describe(topic: string): Promise<TopicInfo> {
    const start = Date.now();
    for (let attempt = 0; ; attempt++) {
      try {
        const d = await this.admin().describeTopic(topic);
        return toTopicInfo(topic, d.partitions, d.config);
      } catch (err) {
        if (errorKindOf(err) !== 'retriable') throw err;
        const stop = this.opts.stopError();
        if (stop) throw stop;
        // Issue 12 item 5: the wait for metadata is bounded by maxBlockMs (not the delivery timeout).
        const bound = this.opts.maxBlockMs <= this.opts.deliveryTimeoutMs ? 'maxBlockMs' : 'deliveryTimeoutMs';
        const remaining = start + this.opts[bound] - Date.now();
        if (remaining <= 0) throw metadataTimeoutError(topic, err, this.opts[bound], bound);
        await sleep(Math.min(backoffDelay(attempt, this.opts.retryBackoffMs), remaining));
      }
    }
  }
}
