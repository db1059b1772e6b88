/**
 * Deletes the records of repartition topics that the instance's tasks have
 * committed past, as Kafka Streams' `TaskManager.maybePurgeCommittedRecords`
 * (called by `StreamThread.maybeCommit` when `repartition.purge.interval.ms`
 * has passed): repartition topics are created with `retention.ms=-1`, so
 * without this they would only grow.
 *
 * {@link RepartitionPurger.maybePurge}, at most once per interval:
 * 1. note the time (also when nothing is sent, as Kafka does);
 * 2. skip while the previous delete-records request is still running
 *    (Kafka's "previous request not done");
 * 3. collect the committed offset of every repartition partition the running
 *    tasks consume (`StreamTask.purgeableOffsets`), leaving out those already
 *    purged to that offset;
 * 4. send one delete-records request per topic. A failure is logged (WARN
 *    the first time, then DEBUG) and never fails a task: the next purge sends
 *    newer offsets anyway.
 */
import type { Logger } from 'pino';
import type { AdminPort, TopicPartitionOffset } from '../../cluster/port.js';

/** What the purger needs. */
export interface RepartitionPurgerDeps {
  /** The app's admin client (absent or without `deleteRecords`: nothing is purged). */
  admin: AdminPort | undefined;
  /** The resolved names of the topology's repartition topics. */
  repartitionTopics: ReadonlySet<string>;
  /** `repartitionPurgeIntervalMs`. */
  intervalMs: number;
  logger: Logger;
  /** The time the interval starts from (the task manager's creation). */
  startedAt: number;
}

/** See the module comment. */
export class RepartitionPurger {
  #lastPurgeAt: number;
  #inFlight: Promise<void> | undefined;
  #warned = false;
  /** `topic:partition` → the offset last purged to. */
  readonly #purged = new Map<string, number>();

  constructor(private readonly deps: RepartitionPurgerDeps) {
    this.#lastPurgeAt = deps.startedAt;
  }

  /** The request under way, if any (tests await it). */
  get inFlight(): Promise<void> | undefined {
    return this.#inFlight;
  }

  /** Steps 1–4 of the module comment; `committed` gives the committed offsets of the running active tasks. */
  maybePurge(now: number, committed: () => TopicPartitionOffset[]): void {
    const admin = this.deps.admin;
    const deleteRecords = admin?.deleteRecords?.bind(admin);
    if (this.deps.repartitionTopics.size === 0 || deleteRecords === undefined) return;
    if (now - this.#lastPurgeAt <= this.deps.intervalMs) return;
    // 1.
    this.#lastPurgeAt = now;
    // 2.
    if (this.#inFlight) return;
    // 3.
    const byTopic = new Map<string, Map<number, number>>();
    for (const { topic, partition, offset } of committed()) {
      if (!this.deps.repartitionTopics.has(topic) || offset <= 0 || this.#purged.get(`${topic}:${partition}`) === offset) continue;
      const partitions = byTopic.get(topic) ?? new Map<number, number>();
      partitions.set(partition, offset);
      byTopic.set(topic, partitions);
    }
    if (byTopic.size === 0) return;
    // 4.
    const requests = [...byTopic].map(([topic, offsets]) =>
      deleteRecords(topic, offsets).then(() => {
        for (const [partition, offset] of offsets) this.#purged.set(`${topic}:${partition}`, offset);
        this.deps.logger.debug({ topic, offsets: Object.fromEntries(offsets) }, 'purged consumed repartition records');
      }),
    );
    this.#inFlight = Promise.all(requests)
      .then(() => undefined, (error: unknown) => this.#failed(error))
      .finally(() => (this.#inFlight = undefined));
  }

  #failed(error: unknown): void {
    const message = 'purging consumed records of repartition topics failed; the tasks go on and the next purge retries with newer offsets';
    if (this.#warned) {
      this.deps.logger.debug({ err: error }, message);
      return;
    }
    this.#warned = true;
    this.deps.logger.warn({ err: error }, `${message} (further failures are logged at DEBUG)`);
  }
}
