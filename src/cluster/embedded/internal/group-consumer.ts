/**
 * The embedded cluster's {@link GroupConsumerPort}: a member of a group of the
 * embedded group coordinator with a fetch loop.
 *
 * - Each assigned partition has a position, a paused flag and at most one
 *   in-flight fetch+eachBatch (serialized per partition, concurrent across).
 * - A new assignment is applied in order: stop fetching revoked partitions,
 *   wait for their in-flight eachBatch, call onAssignment (newly assigned
 *   partitions are held until it resolves), then fetch them.
 * - A member removed by the coordinator (session expiry, fault injection)
 *   learns it on its next heartbeat or commit (UNKNOWN_MEMBER_ID /
 *   ILLEGAL_GENERATION), revokes everything and rejoins.
 * - Static membership (`groupInstanceId`): close() does not leave the group;
 *   FENCED_INSTANCE_ID (another member took the id) stops the consumer with
 *   `fencedInstanceIdError`. `requestRejoin` asks the coordinator for a rebalance.
 * - A subscribed topic deleted (its log gone) or deleted and re-created (a
 *   different log object) while running stops the consumer with
 *   `missingSourceTopicError` naming it, as Kafka Streams stops with a
 *   `MissingSourceTopicException`.
 */
import { IllegalStateError, KafkaErrorCode, KafkaProtocolError } from '../../../errors.js';
import type {
  GroupConsumerHandlers, GroupConsumerOptions, GroupConsumerPort, TopicPartition, TopicPartitionOffset,
} from '../../port.js';
import { fencedInstanceIdError, missingSourceTopicError } from '../../port.js';
import type { Broker } from './broker.js';
import { topicPartitionKey } from '../../../records/topic-partition.js';
import type { PartitionLog } from './partition-log.js';
import type { AssignorName } from './assignors.js';
import { defined } from '../../../internal/defined.js';

/** Embedded-only consumer options. */
export interface EmbeddedConsumerOptions extends GroupConsumerOptions {
  /** Partition assignor (the group uses its first member's), default `range`. */
  assignor?: AssignorName;
}

interface PartitionState {
  tp: TopicPartition;
  position: number | undefined;
  paused: boolean;
  /** Held until onAssignment resolved. */
  held: boolean;
  inFlight: Promise<void> | undefined;
  seekEpoch: number;
  /** Log version at the last empty fetch (skip refetching until the partition changed). */
  emptyAt: number;
  /** The partition's log when first fetched: another one later means the topic was re-created. */
  log?: PartitionLog;
}

const key = topicPartitionKey;
const REJOIN_CODES = new Set<number>([KafkaErrorCode.UNKNOWN_MEMBER_ID, KafkaErrorCode.ILLEGAL_GENERATION]);

/** A group consumer of the embedded cluster. */
export class EmbeddedGroupConsumer implements GroupConsumerPort {
  private topics: string[] = [];
  private handlers: GroupConsumerHandlers | undefined;
  private memberId = '';
  private generationId = -1;
  private delivered = false;
  private readonly parts = new Map<string, PartitionState>();
  private readonly pendingSeeks = new Map<string, number>();
  private rebalances: Promise<void> = Promise.resolve();
  private running = false;
  private closed = false;
  private rejoining = false;
  private wakeUp: (() => void) | undefined;
  private unlisten: (() => void) | undefined;
  private loopDone: Promise<void> = Promise.resolve();
  private lastHeartbeat = 0;
  private readonly isolation;
  private readonly heartbeatMs: number;

  constructor(private readonly broker: Broker, private readonly options: EmbeddedConsumerOptions) {
    this.isolation = options.isolationLevel ?? 'read_committed';
    this.heartbeatMs = options.heartbeatIntervalMs ?? 3000;
  }

  async subscribe(topics: string[]): Promise<void> {
    for (const t of topics) this.broker.logs(t); // UNKNOWN_TOPIC_OR_PARTITION for a missing topic
    this.topics = [...new Set([...this.topics, ...topics])];
  }

  /**
   * Joins the group and starts the fetch loop; resolves once the first assignment was applied, rejects
   * when close() was called meanwhile (the member then left the group), as the kafkajs adapter.
   */
  async run(handlers: GroupConsumerHandlers): Promise<void> {
    if (this.running || this.closed) throw new IllegalStateError('run() may be called once, before close(); the consumer is ' + (this.closed ? 'closed' : 'running'));
    if (this.topics.length === 0) throw new IllegalStateError('run() needs subscribe(topics) first');
    this.handlers = handlers;
    this.running = true;
    this.unlisten = this.broker.onChange(() => this.wake());
    const done = this.join();
    this.loopDone = this.loop();
    await done;
    if (this.closed) throw new IllegalStateError(`run(): consumer '${this.options.groupId}' was closed while joining the group`);
  }

  private join(): Promise<void> {
    const sessionTimeoutMs = this.options.sessionTimeoutMs ?? 30_000;
    const { memberId, done } = this.broker.groups.join(this.options.groupId, {
      clientId: this.options.clientId ?? 'sluice-embedded',
      topics: this.topics,
      assignor: this.options.assignor ?? 'range',
      ...(this.options.groupAssignor ? { groupAssignor: this.options.groupAssignor } : {}),
      sessionTimeoutMs,
      ...(this.options.groupInstanceId !== undefined ? { groupInstanceId: this.options.groupInstanceId } : {}),
      rebalanceTimeoutMs: this.options.rebalanceTimeoutMs ?? Math.max(sessionTimeoutMs, 60_000),
      deliver: (tps, gen, userData, force) => this.deliver(memberId, tps, gen, userData, force),
      crash: () => this.simulateCrash(),
    });
    this.memberId = memberId;
    this.lastHeartbeat = Date.now();
    return done;
  }

  /** Called by the coordinator: applies an assignment (queued behind earlier ones). */
  private deliver(memberId: string, tps: TopicPartition[], generationId: number, userData: Buffer | undefined, force: boolean): Promise<void> {
    if (!this.running || memberId !== this.memberId) return Promise.resolve();
    this.generationId = generationId;
    this.rebalances = this.rebalances.then(() => this.apply(tps, generationId, userData, force)).catch((e) => this.crash(e));
    return this.rebalances;
  }

  /**
   * Applies an assignment. Steps: 1. diff with the current one; 2. stop
   * fetching revoked partitions and wait for their in-flight eachBatch;
   * 3. hold newly assigned ones (a seek made before the assignment applies); 4. onAssignment (on the first
   * assignment, a change, or `force`: a requested rebalance); 5. release them.
   */
  private async apply(tps: TopicPartition[], generationId: number, userData: Buffer | undefined, force: boolean): Promise<void> {
    if (!this.running) return;
    if (userData !== undefined) this.handUserData(userData, generationId);
    // 1.
    const next = new Set(tps.map(key));
    const revoked = [...this.parts.values()].filter((s) => !next.has(key(s.tp)));
    const assigned = tps.filter((tp) => !this.parts.has(key(tp)));
    // 2.
    for (const s of revoked) this.parts.delete(key(s.tp));
    await Promise.allSettled(revoked.map((s) => s.inFlight));
    // 3.
    const added: PartitionState[] = assigned.map((tp) => {
      const pending = this.pendingSeeks.get(key(tp));
      this.pendingSeeks.delete(key(tp));
      return { tp: { topic: tp.topic, partition: tp.partition }, position: pending, paused: false, held: true, inFlight: undefined, seekEpoch: 0, emptyAt: -1 };
    });
    for (const s of added) this.parts.set(key(s.tp), s);
    // 4.
    if (!this.delivered || revoked.length || assigned.length || force) {
      this.delivered = true;
      await defined(this.handlers, 'consumer handlers (set by run())').onAssignment({ assigned, revoked: revoked.map((s) => s.tp), generationId, memberId: this.memberId });
    }
    // 5.
    for (const s of added) s.held = false;
    this.wake();
  }

  /** The custom assignor's user data of this assignment (a throwing handler is ignored, as the port says). */
  private handUserData(userData: Buffer, generationId: number): void {
    try {
      this.handlers?.onAssignmentUserData?.(userData, generationId);
    } catch {
      // The port: an exception of onAssignmentUserData is ignored.
    }
  }

  private wake(): void {
    const w = this.wakeUp;
    this.wakeUp = undefined;
    w?.();
  }

  private async loop(): Promise<void> {
    while (this.running) {
      this.heartbeat();
      for (const s of this.parts.values()) {
        if (s.held || s.paused || s.inFlight || s.emptyAt === this.versionOf(s.tp) || !this.running) continue;
        s.inFlight = this.fetchOne(s).finally(() => {
          s.inFlight = undefined;
          this.wake();
        });
      }
      // wait for a change, a wake-up or the next heartbeat; the timer is ref'd so a running
      // consumer keeps the process alive (as an open kafkajs connection does); close() ends it
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(done, this.heartbeatMs);
        this.wakeUp = done;
      });
    }
  }

  /** Version of a partition's log (-2 when the topic is gone, so it is not refetched). */
  private versionOf(tp: TopicPartition): number {
    try {
      return this.broker.log(tp.topic, tp.partition).version;
    } catch {
      return -2;
    }
  }

  private heartbeat(): void {
    if (this.rejoining || Date.now() - this.lastHeartbeat < this.heartbeatMs) return;
    this.lastHeartbeat = Date.now();
    try {
      this.broker.groups.heartbeat(this.options.groupId, this.memberId, this.generationId, this.options.groupInstanceId);
    } catch (e) {
      this.maybeRejoin(e);
    }
  }

  /**
   * After UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION: revoke everything, then join again with a new member id.
   * FENCED_INSTANCE_ID: stop, with the error naming the groupInstanceId.
   */
  private maybeRejoin(e: unknown): void {
    if (e instanceof KafkaProtocolError && e.kafkaCode === KafkaErrorCode.FENCED_INSTANCE_ID) {
      this.crash(fencedInstanceIdError(this.options.groupId, this.options.groupInstanceId ?? '', e));
      return;
    }
    if (!(e instanceof KafkaProtocolError) || !REJOIN_CODES.has(e.kafkaCode) || this.rejoining || !this.running) return;
    this.rejoining = true;
    const old = this.memberId;
    this.memberId = '';
    void this.broker.groups.leave(this.options.groupId, old);
    this.rebalances = this.rebalances
      .then(() => this.apply([], this.generationId, undefined, false))
      .then(() => {
        this.rejoining = false;
        // not awaited: the join's rebalance delivers through this same queue
        if (this.running) void this.join();
      })
      .catch((err) => this.crash(err));
  }

  /** The partition's log, or the missing-source-topic error when it was deleted or replaced since first fetched. */
  private sourceLog(s: PartitionState): PartitionLog | Error {
    let log: PartitionLog;
    try {
      log = this.broker.log(s.tp.topic, s.tp.partition);
    } catch (e) {
      if (e instanceof KafkaProtocolError && e.kafkaCode === KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION) return missingSourceTopicError(s.tp.topic, 'was deleted');
      return e instanceof Error ? e : new Error(String(e));
    }
    if (s.log && s.log !== log) return missingSourceTopicError(s.tp.topic, `partition ${s.tp.partition} was deleted and re-created`);
    return (s.log = log);
  }

  /** One fetch + eachBatch of a partition; never rejects (errors, a deleted or re-created topic included, crash the consumer). */
  private async fetchOne(s: PartitionState): Promise<void> {
    const { topic, partition } = s.tp;
    const epoch = s.seekEpoch;
    const version = this.versionOf(s.tp);
    let result;
    try {
      const log = this.sourceLog(s);
      if (log instanceof Error) throw log;
      if (s.position === undefined) s.position = this.startOffset(s.tp);
      result = await this.broker.fetch(topic, partition, s.position, this.isolation, this.options.maxBytesPerPartition);
    } catch (e) {
      // Below the log start offset (records deleted): reset per autoOffsetReset, as a Kafka consumer does.
      if (e instanceof KafkaProtocolError && e.kafkaCode === KafkaErrorCode.OFFSET_OUT_OF_RANGE && s.seekEpoch === epoch) {
        s.position = this.resetOffset(s.tp);
        this.wake();
        return;
      }
      this.crash(e);
      return;
    }
    // a seek, revocation or close made this fetch stale
    if (!this.running || this.parts.get(key(s.tp)) !== s || s.seekEpoch !== epoch || s.paused) return;
    const from = s.position;
    s.position = result.nextOffset;
    if (result.records.length === 0) {
      s.emptyAt = version;
      // A fetch of transaction markers or aborted records only: still hand over the position (port: nextOffset).
      if (result.nextOffset <= from) return;
    }
    try {
      await defined(this.handlers, 'consumer handlers (set by run())').eachBatch({ topic, partition, records: result.records, highWatermark: result.highWatermark, nextOffset: result.nextOffset });
    } catch (e) {
      this.crash(e);
    }
  }

  /** Committed offset of the group, else `autoOffsetReset`. */
  private startOffset(tp: TopicPartition): number {
    const [committed] = this.broker.groups.fetchOffsets(this.options.groupId, [tp]);
    if (committed && committed.offset >= 0) return committed.offset;
    return this.resetOffset(tp);
  }

  /** Where `autoOffsetReset` starts a partition: its log start offset (`earliest`) or its end. */
  private resetOffset(tp: TopicPartition): number {
    return this.options.autoOffsetReset === 'latest' ? this.broker.latestOffset(tp.topic, tp.partition, this.isolation) : this.broker.log(tp.topic, tp.partition).logStartOffset;
  }

  private crash(e: unknown): void {
    if (!this.running) return;
    void this.close();
    this.handlers?.onError?.(e instanceof Error ? e : new Error(String(e)));
  }

  seek(tpo: TopicPartitionOffset): void {
    const s = this.parts.get(key(tpo));
    if (!s) {
      // as the kafkajs adapter: remembered and applied when the partition is assigned
      this.pendingSeeks.set(key(tpo), tpo.offset);
      return;
    }
    s.position = tpo.offset;
    s.seekEpoch++;
    s.emptyAt = -1;
    this.wake();
  }

  pause(partitions: TopicPartition[]): void {
    for (const tp of partitions) {
      const s = this.parts.get(key(tp));
      if (s) s.paused = true;
    }
  }

  resume(partitions: TopicPartition[]): void {
    for (const tp of partitions) {
      const s = this.parts.get(key(tp));
      if (s) {
        s.paused = false;
        s.emptyAt = -1;
      }
    }
    this.wake();
  }

  async committed(partitions: TopicPartition[]): Promise<TopicPartitionOffset[]> {
    return this.broker.groups.fetchOffsets(this.options.groupId, partitions);
  }

  async commitOffsets(offsets: TopicPartitionOffset[]): Promise<void> {
    // as the kafkajs adapter: commits go through a running member (generation-checked)
    if (!this.running) throw new IllegalStateError('commitOffsets(): the consumer must be running (call run() first)');
    try {
      this.broker.groups.commitMember(this.options.groupId, this.memberId, this.generationId, offsets, this.options.groupInstanceId);
    } catch (e) {
      this.maybeRejoin(e);
      if (e instanceof KafkaProtocolError && e.kafkaCode === KafkaErrorCode.FENCED_INSTANCE_ID) throw fencedInstanceIdError(this.options.groupId, this.options.groupInstanceId ?? '', e);
      throw e;
    }
  }

  /** Asks the coordinator for a rebalance of the whole group (ignored before run(), after close(), while rejoining). */
  requestRejoin(_reason: string): void {
    if (!this.running || this.rejoining || !this.memberId) return;
    void this.broker.groups.requestRejoin(this.options.groupId, this.memberId);
  }

  /** Fault injection: stop like a killed process — no more callbacks, no heartbeats, no LeaveGroup. */
  private simulateCrash(): void {
    this.closed = true;
    this.running = false;
    this.unlisten?.();
    this.wake();
  }

  /** Stops fetching, waits for in-flight eachBatch calls, leaves the group (a static member does not). Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const wasRunning = this.running;
    this.running = false;
    this.unlisten?.();
    this.wake();
    await this.loopDone;
    await Promise.allSettled([...this.parts.values()].map((s) => s.inFlight));
    this.parts.clear();
    if (wasRunning && this.memberId && this.options.groupInstanceId === undefined) void this.broker.groups.leave(this.options.groupId, this.memberId);
  }
}
