/**
 * {@link GroupConsumerPort} over a kafkajs consumer (autoCommit off,
 * eachBatch, `partitionsConsumedConcurrently` = {@link CONCURRENT_PARTITIONS}).
 *
 * How the port's semantics are obtained from kafkajs 2.2.4:
 * 1. Assignment: kafkajs emits GROUP_JOIN (synchronously, before fetching) after
 *    every join+sync with the whole `memberAssignment`; it is diffed with the
 *    previous one. Partitions kept across a rebalance are re-positioned with a
 *    seek to the next offset this member would have read: kafkajs builds a new
 *    offset manager per generation and would otherwise restart them from the
 *    committed offset.
 * 2. `onAssignment` calls run one after the other; a batch of a newly assigned
 *    partition waits for the call that assigned it, then is dropped if a seek
 *    made it stale (`isStale()`); batches of partitions no longer assigned are
 *    dropped; records below the member's position (re-fetched after a
 *    rebalance) are dropped.
 * 3. `eachBatch` calls are serialized per partition (a promise chain, on top of
 *    kafkajs' own fetch-then-process loop) and heartbeat every
 *    `heartbeatIntervalMs` while they run.
 * 4. A custom assignor (`options.groupAssignor`, sluice's task assignor) is the
 *    consumer's preferred `partitionAssigner` (`custom-assigner.ts`; kafkajs'
 *    round-robin is offered second, for a mixed group during an upgrade); the user data
 *    it made for this member are read from the SyncGroup answer
 *    (`join-generation.ts`) and handed to `onAssignmentUserData` at GROUP_JOIN.
 *
 * What kafkajs cannot do: no callback before a rebalance (revocation is only
 *   known after the rejoin, so a revoked partition's last batch may still be
 *   running when the new owner starts: onAssignment waits for it locally only);
 *   no OffsetFetch `require_stable`; one slow partition delays the next fetch of
 *   every partition led by the same broker (kafkajs fetches, then waits for all
 *   batches of that fetch); the generation id is captured from JoinGroup answers.
 *
 * 5. Static membership (`options.groupInstanceId`) and `requestRejoin`: the
 *    consumer's assigners carry a `MemberTag` read by the patched kafkajs
 *    `ConsumerGroup` (`static-membership.ts`); FENCED_INSTANCE_ID stops the
 *    consumer with `fencedInstanceIdError` naming the id.
 *
 * Start, crash, restart and close: `consumer-lifecycle.ts` (a consumer closed
 * while joining never rejoins).
 */
import type { Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import { IllegalStateError, KafkaErrorCode, KafkaProtocolError, StreamsError } from '../../../errors.js';
import type { Logger } from '../../../internal/logger.js';
import type {
  GroupConsumerHandlers,
  GroupConsumerOptions,
  GroupConsumerPort,
  TopicPartition,
  TopicPartitionOffset,
} from '../../port.js';
import { fencedInstanceIdError } from '../../port.js';
import { diffAssignment, fromMemberAssignment, tpKey } from './assignment.js';
import { tagAssigner, type MemberTag } from './static-membership.js';
import { joinHeldMessage, watchJoin } from './join-wait.js';
import { mapKafkaJsError, type ErrorSite } from './error-mapping.js';
import { kafkaJsRetry } from './retry-options.js';
import { connectionFactsOf, isSecurityFailure } from './security-errors.js';
import { forgetMember, generationOf, takeSyncAssignment } from './join-generation.js';
import { assignmentUserData, kafkaJsAssigner } from './custom-assigner.js';
import { sluiceKafkaJs } from './patches.js';
import { PartitionSerializer, startHeartbeats, toConsumedRecord } from './batch-delivery.js';
import { CommittedOffsetsReader } from './committed-offsets.js';
import { ConsumerLifecycle, isRestartable } from './consumer-lifecycle.js';
import { PartitionPositions } from './positions.js';
import { SourceTopicWatch } from './source-topics.js';

/** How many partitions' batches kafkajs hands out concurrently. */
export const CONCURRENT_PARTITIONS = 8;

/** Group consumer backed by one kafkajs consumer. */
export class KafkaJsGroupConsumer implements GroupConsumerPort {
  private readonly consumer: Consumer;
  private readonly options: GroupConsumerOptions;
  private readonly logger: Logger;
  private readonly offsets: CommittedOffsetsReader;
  private readonly heartbeatIntervalMs: number;
  private handlers: GroupConsumerHandlers | undefined;
  private running = false;
  private closing: Promise<void> | undefined;
  private connected: Promise<void> | undefined;
  private assignment: TopicPartition[] = [];
  private readonly assignedKeys = new Set<string>();
  private memberId = '';
  private joins = 0;
  /** Promise of the onAssignment call that assigned a partition: false when that call failed. */
  private readonly gates = new Map<string, Promise<boolean>>();
  private assignmentChain: Promise<void> = Promise.resolve();
  /** Positions, seeks and pauses (positions.ts). */
  private readonly positions: PartitionPositions;
  /** Per-partition chain of eachBatch calls. */
  private readonly serializer = new PartitionSerializer();
  private readonly lifecycle: ConsumerLifecycle;
  private readonly sourceTopics: SourceTopicWatch;
  private topics: string[] = [];
  private readonly tag: MemberTag;
  /** Facts of the connections and the resources the group needs, for authentication and authorization failures. */
  private readonly site: ErrorSite;

  constructor(kafka: Kafka, options: GroupConsumerOptions, logger: Logger) {
    this.options = options;
    this.site = { facts: connectionFactsOf(kafka), access: [{ resource: 'GROUP', operation: 'READ', name: options.groupId }, { resource: 'TOPIC', operation: 'READ' }] };
    this.logger = logger;
    const sessionTimeout = options.sessionTimeoutMs ?? 30_000;
    // kafkajs refuses heartbeatInterval >= sessionTimeout; the default follows Kafka's advice (a third, at most 3 s).
    this.heartbeatIntervalMs = options.heartbeatIntervalMs ?? Math.min(3_000, Math.floor(sessionTimeout / 3));
    this.tag = {
      groupInstanceId: options.groupInstanceId,
      onRejoin: (reason) => this.logger.info({ reason }, 'rejoining the group on request'),
      // A join held for the dead previous member's session (a restart after a crash) is said once, with the time left.
      onJoinStart: () =>
        watchJoin({
          groupId: options.groupId,
          sessionTimeoutMs: sessionTimeout,
          onHeld: (held) => this.logger.info({ groupId: held.groupId, waitedMs: held.waitedMs, remainingMs: held.remainingMs }, joinHeldMessage(held)),
        }),
    };
    this.consumer = kafka.consumer({
      groupId: options.groupId,
      sessionTimeout,
      heartbeatInterval: this.heartbeatIntervalMs,
      maxBytesPerPartition: options.maxBytesPerPartition ?? 1_048_576,
      ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
      ...(options.minBytes !== undefined ? { minBytes: options.minBytes } : {}),
      ...(options.rebalanceTimeoutMs !== undefined ? { rebalanceTimeout: options.rebalanceTimeoutMs } : {}),
      readUncommitted: options.isolationLevel === 'read_uncommitted',
      allowAutoTopicCreation: false,
      // Bounds how long close() waits for an idle fetch.
      maxWaitTimeInMs: options.maxWaitMs ?? 500,
      // The adapter restarts after a crash itself, never once closed (consumer-lifecycle.ts).
      retry: kafkaJsRetry(options.connection ?? {}, { restartOnFailure: async () => false }),
      // The custom assignor first; kafkajs' round-robin (its default, what earlier sluice versions offered)
      // second, so a rolling upgrade's mixed group still agrees on a protocol (then without user data).
      // Each carries the member tag (static membership, rejoin requests).
      partitionAssigners: [
        ...(options.groupAssignor ? [kafkaJsAssigner(options.groupAssignor, sluiceKafkaJs().kafkajs.AssignerProtocol)] : []),
        sluiceKafkaJs().kafkajs.PartitionAssigners.roundRobin,
      ].map((factory) => tagAssigner(factory, this.tag)),
    });
    this.lifecycle = new ConsumerLifecycle(logger);
    this.positions = new PartitionPositions(this.consumer);
    this.offsets = new CommittedOffsetsReader(kafka, options.groupId);
    this.sourceTopics = new SourceTopicWatch({
      missingTopics: (topics) => this.offsets.missingTopics(topics),
      report: (error) => void (this.closing || this.handlers?.onError?.(error)),
      logger,
    });
  }

  private connect(): Promise<void> {
    this.connected ??= this.consumer.connect().catch((error: unknown) => {
      this.connected = undefined;
      throw mapKafkaJsError(error, `consumer '${this.options.groupId}' connect`, this.site);
    });
    return this.connected;
  }

  async subscribe(topics: string[]): Promise<void> {
    if (this.closing) throw new IllegalStateError('subscribe(): the consumer is closed');
    if (this.running) throw new IllegalStateError('subscribe() must be called before run()');
    await this.lifecycle.track(
      (async () => {
        await this.connect();
        try {
          await this.consumer.subscribe({ topics, fromBeginning: (this.options.autoOffsetReset ?? 'earliest') === 'earliest' });
          this.topics = [...new Set([...this.topics, ...topics])];
        } catch (error) {
          throw mapKafkaJsError(error, `subscribe to ${topics.join(', ')}`, {
            ...this.site,
            access: [{ resource: 'TOPIC', operation: 'DESCRIBE', name: topics.length === 1 ? topics[0] : undefined }],
          });
        }
      })(),
    );
  }

  /**
   * 1. listen to GROUP_JOIN, END_BATCH_PROCESS and CRASH; 2. start kafkajs (resolves after the first
   * join+sync); 3. rejects when close() was called meanwhile (the consumer then left the group).
   */
  async run(handlers: GroupConsumerHandlers): Promise<void> {
    if (this.closing) throw new IllegalStateError('run(): the consumer is closed');
    if (this.running) throw new IllegalStateError('run(): the consumer is already running');
    this.handlers = handlers;
    this.running = true;
    // 1.
    this.consumer.on(this.consumer.events.GROUP_JOIN, (event) => {
      this.onJoin(event.payload.memberId, event.payload.memberAssignment as Record<string, number[]>);
    });
    this.consumer.on(this.consumer.events.END_BATCH_PROCESS, (event) => this.onFilteredBatch(event.payload));
    this.consumer.on(this.consumer.events.CRASH, (event) => {
      const error = this.fenced(mapKafkaJsError(event.payload.error, `consumer '${this.options.groupId}'`, this.site));
      if (this.closing) return this.logger.debug({ err: error }, 'consumer stopped while closing');
      // (an authentication, TLS or authorization failure is never restarted: it would only fail again)
      if (isRestartable(event.payload.error) && !isSecurityFailure(error)) return void this.restartAfterCrash(error);
      this.logger.warn({ err: error }, 'consumer crashed');
      handlers.onError?.(error);
    });
    // 2.
    try {
      await this.lifecycle.track(this.startKafka());
    } catch (error) {
      this.running = false;
      throw error;
    }
    // 3.
    if (this.closing) throw new IllegalStateError(`run(): consumer '${this.options.groupId}' was closed while joining the group`);
  }

  /** After a retriable crash: restart, unless a source topic was deleted (then reported through onError). */
  private async restartAfterCrash(error: Error): Promise<void> {
    if (SourceTopicWatch.isUnknownTopic(error) && (await this.sourceTopics.deleted(this.topics))) return;
    this.lifecycle.scheduleRestart(error, () => this.startKafka(), (failure) => {
      if (!this.closing) this.handlers?.onError?.(failure instanceof Error ? failure : new StreamsError(String(failure)));
    });
  }

  /** Starts kafkajs' consumer (first run, or a restart after a crash it stopped on). */
  private async startKafka(): Promise<void> {
    try {
      await this.connect();
      await this.consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: true,
        partitionsConsumedConcurrently: CONCURRENT_PARTITIONS,
        eachBatch: (payload) => this.onBatch(payload),
      });
    } catch (error) {
      throw mapKafkaJsError(error, `consumer '${this.options.groupId}' run`, this.site);
    }
  }

  /** Synchronous GROUP_JOIN handling: diff, re-position, gate, queue the onAssignment call. */
  private onJoin(memberId: string, memberAssignment: Record<string, number[]>): void {
    const next = fromMemberAssignment(memberAssignment);
    const { assigned, revoked, kept } = diffAssignment(this.assignment, next);
    this.assignment = next;
    this.memberId = memberId;
    this.joins += 1;
    this.assignedKeys.clear();
    for (const tp of next) this.assignedKeys.add(tpKey(tp));
    // 1.-2. Revoked partitions forget their position and gate; kept and assigned ones are re-positioned and re-paused.
    for (const tp of revoked) this.gates.delete(tpKey(tp));
    this.positions.onJoin({ assigned, revoked, kept }, this.assignedKeys);
    const handlers = this.handlers;
    const generationId = generationOf(memberId) ?? this.joins;
    this.handUserData(memberId, generationId);
    // 3. onAssignment after the previous one and after running batches of revoked partitions.
    const waitRevoked = revoked.map((tp) => this.serializer.idle(tpKey(tp)));
    const call = this.assignmentChain
      .then(() => Promise.all(waitRevoked))
      .then(() => handlers?.onAssignment({ assigned, revoked, generationId, memberId }));
    const settled = call.then(
      () => true,
      (error: unknown) => {
        this.logger.error({ err: error }, 'onAssignment failed; its partitions get no batches');
        handlers?.onError?.(error instanceof Error ? error : new StreamsError(String(error)));
        return false;
      },
    );
    this.assignmentChain = settled.then(() => undefined);
    for (const tp of assigned) this.gates.set(tpKey(tp), settled);
  }

  /** With a custom assignor: its user data for this member, from the SyncGroup answer (a throwing handler is logged). */
  private handUserData(memberId: string, generationId: number): void {
    const raw = takeSyncAssignment(memberId);
    if (!this.options.groupAssignor) return;
    const userData = assignmentUserData(raw, sluiceKafkaJs().kafkajs.AssignerProtocol);
    if (userData === undefined) return;
    try {
      this.handlers?.onAssignmentUserData?.(userData, generationId);
    } catch (error) {
      this.logger.warn({ err: error }, 'onAssignmentUserData threw; ignored');
    }
  }

  private onBatch(payload: EachBatchPayload): Promise<void> {
    return this.serializer.run(tpKey(payload.batch), () => this.deliver(payload));
  }

  /** 1. wait for the gate; 2. drop stale/unassigned; 3. drop already-delivered offsets; 4. hand over with heartbeats. */
  private async deliver(payload: EachBatchPayload): Promise<void> {
    const { batch, isStale, isRunning } = payload;
    const key = tpKey(batch);
    const stopHeartbeats = startHeartbeats(payload.heartbeat, this.heartbeatIntervalMs);
    try {
      if ((await this.gates.get(key)) === false) return;
      if (!isRunning() || this.closing || !this.assignedKeys.has(key) || isStale()) return;
      const position = this.positions.position(key);
      if (this.sourceTopics.replaced(batch.topic, batch.partition, Number(batch.highWatermark), position)) return;
      const seeks = this.positions.seeks(key);
      const records = batch.messages
        .filter((m) => position === undefined || Number(m.offset) >= position)
        .map((m) => toConsumedRecord(batch.topic, batch.partition, m));
      const next = Number(batch.lastOffset()) + 1;
      if (records.length > 0) {
        await this.handlers?.eachBatch({
          topic: batch.topic,
          partition: batch.partition,
          records,
          highWatermark: Number(batch.highWatermark),
          nextOffset: next,
        });
      }
      // The position moves unless the caller sought meanwhile (an internal re-positioning seek does not count).
      if (this.assignedKeys.has(key) && this.positions.seeks(key) === seeks) this.positions.advance(key, next);
    } catch (error) {
      this.logger.error({ err: error, topic: batch.topic, partition: batch.partition }, 'eachBatch handler failed; stopping');
      this.handlers?.onError?.(error instanceof Error ? error : new StreamsError(String(error)));
      void this.close();
    } finally {
      stopHeartbeats();
    }
  }

  /**
   * kafkajs resolves a fetch made only of control or aborted records without calling
   * eachBatch; its END_BATCH_PROCESS event (batchSize 0) is the only trace. Hand the
   * position over as an empty batch, in the partition's order, and only when the fetch
   * started at this member's position (a stale one, from before a seek, is dropped).
   */
  private onFilteredBatch(p: { topic: string; partition: number; batchSize: number; firstOffset: string | null; lastOffset: string; highWatermark: string }): void {
    if (p.batchSize !== 0 || p.firstOffset === null) return;
    const key = tpKey(p);
    const first = Number(p.firstOffset);
    const next = Number(p.lastOffset) + 1;
    void this.serializer.run(key, async () => {
      if ((await this.gates.get(key)) === false || this.closing || !this.assignedKeys.has(key)) return;
      const position = this.positions.position(key);
      if (position === undefined || first > position || next <= position) return;
      await this.handlers?.eachBatch({ topic: p.topic, partition: p.partition, records: [], highWatermark: Number(p.highWatermark), nextOffset: next });
      this.positions.advance(key, next);
    }).catch((error: unknown) => {
      this.logger.error({ err: error, topic: p.topic, partition: p.partition }, 'eachBatch handler failed; stopping');
      this.handlers?.onError?.(error instanceof Error ? error : new StreamsError(String(error)));
      void this.close();
    });
  }

  seek(tpo: TopicPartitionOffset): void {
    this.positions.seek(tpo, this.running && this.assignedKeys.has(tpKey(tpo)));
  }

  pause(partitions: TopicPartition[]): void {
    this.positions.pause(partitions, this.running ? partitions.filter((tp) => this.assignedKeys.has(tpKey(tp))) : []);
  }

  resume(partitions: TopicPartition[]): void {
    this.positions.resume(partitions, this.running && this.assignment.length > 0);
  }

  committed(partitions: TopicPartition[]): Promise<TopicPartitionOffset[]> {
    return this.offsets.read(partitions);
  }

  async commitOffsets(offsets: TopicPartitionOffset[]): Promise<void> {
    if (!this.running) throw new IllegalStateError('commitOffsets(): the consumer must be running (call run() first)');
    try {
      await this.consumer.commitOffsets(offsets.map((o) => ({ topic: o.topic, partition: o.partition, offset: String(o.offset) })));
    } catch (error) {
      throw mapKafkaJsError(error, `commit offsets of '${this.options.groupId}'`, this.site);
    }
  }

  /** Next heartbeat answers REBALANCE_IN_PROGRESS, so kafkajs rejoins (a new generation of the whole group). */
  requestRejoin(reason: string): void {
    if (!this.running || this.closing) return;
    this.logger.debug({ reason }, 'rejoin requested');
    this.tag.rejoinReason = reason;
  }

  /** FENCED_INSTANCE_ID of a static member: the error naming its groupInstanceId. */
  private fenced(error: StreamsError): StreamsError {
    const id = this.options.groupInstanceId;
    if (id === undefined || !(error instanceof KafkaProtocolError) || error.kafkaCode !== KafkaErrorCode.FENCED_INSTANCE_ID) return error;
    return fencedInstanceIdError(this.options.groupId, id, error);
  }

  /**
   * Idempotent. 1. no restart from now on, wait for a join in flight (consumer-lifecycle.ts);
   * 2. stop fetching, wait for running batches, leave the group (a static member does not), disconnect.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      // 1.
      await this.lifecycle.close();
      // 2.
      try {
        await this.consumer.disconnect();
      } catch (error) {
        this.logger.debug({ err: error }, 'consumer disconnect failed');
      }
      await this.offsets.close();
      this.running = false;
      if (this.memberId) forgetMember(this.memberId);
    })();
    return this.closing;
  }
}
