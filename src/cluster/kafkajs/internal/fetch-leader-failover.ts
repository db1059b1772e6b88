/**
 * A consumer fetch whose partition leader died: kafkajs 2.2.4's
 * `ConsumerGroup.recoverFromFetch` refreshes metadata after a closed
 * connection or an unknown broker, but not after a refused one. When a
 * leader's broker is SIGKILLed, every fetch to it fails in `connectBroker`
 * with `KafkaJSConnectionError` (wrapped in `KafkaJSNonRetriableError`: kafkajs
 * "bails on connection errors and refreshes metadata on a higher level", which
 * the consumer never does); the runner's retrier repeats the fetch against the
 * same dead broker until its retries run out (10 to 17 s, measured on a
 * 3-broker cluster), then the consumer crashes and sluice restarts it (a new
 * member: a rebalance). Java's consumer marks the node unavailable, refreshes
 * metadata and fetches from the new leader once it is elected.
 *
 * The same holds for the group coordinator: kafkajs keeps the coordinator's
 * broker found at the last JoinGroup and heartbeats to it; once it died every
 * heartbeat is refused until the runner's retries run out and the consumer
 * crashes. Java's consumer marks the coordinator unknown, finds the new one
 * (which loaded the group from `__consumer_offsets`, membership intact) and
 * heartbeats there, with no rebalance.
 *
 * The patches:
 * 1. `recoverFromFetch`: a fetch that failed on a refused connection waits
 *    {@link CONNECTION_RETRY_BACKOFF_MS} (Java's `retry.backoff.ms`; doubling
 *    up to 1 s while the refusals go on, {@link refusalBackOffMs}) and
 *    refreshes the metadata, then the fetch loop goes on (kafkajs rebuilds its
 *    fetchers when the leaders of the assigned partitions changed);
 * 2. `heartbeat`: a heartbeat whose connection was refused or closed waits the
 *    same back-off, refreshes the metadata and looks the coordinator up again
 *    (kept when the lookup fails; one lookup per group at a time); the heartbeat counts as skipped, the next one
 *    goes to the coordinator found. A member the new coordinator no longer
 *    knows gets UNKNOWN_MEMBER_ID there and rejoins, as kafkajs does.
 * Any other error keeps kafkajs' handling.
 */
import type { KafkaJsInternals } from './kafkajs-internals.js';

/** Pause before the metadata refresh that follows a refused connection (Java's `retry.backoff.ms` default). */
export const CONNECTION_RETRY_BACKOFF_MS = 100;

/** Longest wait between two tries of a fetch refused again and again (Java's `reconnect.backoff.max.ms`). */
export const MAX_CONNECTION_RETRY_BACKOFF_MS = 1000;

const PATCHED = Symbol.for('sluice.kafkajs.fetchLeaderFailover');

interface ConsumerGroupLike {
  groupId: string;
  coordinator: unknown;
  cluster: { refreshMetadata(): Promise<void>; findGroupCoordinator(args: { groupId: string }): Promise<unknown> };
  recoverFromFetch(error: unknown): Promise<void>;
  heartbeat(options: { interval: number }): Promise<void>;
}
type ConsumerGroupClass = { prototype: ConsumerGroupLike; [PATCHED]?: true };

function causedBy(error: unknown, names: readonly string[]): boolean {
  for (let e = error as { name?: string; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (names.includes(e.name ?? '')) return true;
  }
  return false;
}

/** True when `error` or one of its causes is kafkajs' `KafkaJSConnectionError` (a refused or failed connect). */
export function isRefusedConnection(error: unknown): boolean {
  return causedBy(error, ['KafkaJSConnectionError']);
}

/** A refused connection, or one the broker closed (it died mid-request). */
export function isLostConnection(error: unknown): boolean {
  return causedBy(error, ['KafkaJSConnectionError', 'KafkaJSConnectionClosedError']);
}

/** Coordinator lookups in flight, per kafkajs ConsumerGroup. */
const lookups = new WeakMap<object, Promise<void>>();

/** Per group: consecutive refused fetches and when the last one was. */
const refusals = new WeakMap<object, { count: number; at: number }>();

/**
 * The wait before the next try after a refused fetch: {@link CONNECTION_RETRY_BACKOFF_MS}, doubling
 * while the refusals go on (at most {@link MAX_CONNECTION_RETRY_BACKOFF_MS}, as Java's
 * `reconnect.backoff.max.ms`); a refusal 2 s after the last one starts over. Bounds the connection
 * attempts to a dead broker during an election (each one leaves a listener on kafkajs' dead socket).
 */
export function refusalBackOffMs(group: object, now = Date.now()): number {
  const last = refusals.get(group);
  const count = last && now - last.at < 2000 ? last.count + 1 : 0;
  refusals.set(group, { count, at: now });
  return Math.min(MAX_CONNECTION_RETRY_BACKOFF_MS, CONNECTION_RETRY_BACKOFF_MS * 2 ** count);
}

const backOff = () => new Promise((r) => setTimeout(r, CONNECTION_RETRY_BACKOFF_MS));

/** Wraps `ConsumerGroup.prototype.recoverFromFetch` and `heartbeat` (see the module comment). */
export function installFetchLeaderFailover(internals: KafkaJsInternals): void {
  const ConsumerGroup = internals.load<ConsumerGroupClass>('consumer/consumerGroup.js');
  if (ConsumerGroup[PATCHED]) return;
  ConsumerGroup[PATCHED] = true;
  const proto = ConsumerGroup.prototype;
  const { recoverFromFetch, heartbeat } = proto;
  // 1.
  proto.recoverFromFetch = async function (this: ConsumerGroupLike, error: unknown): Promise<void> {
    if (!isRefusedConnection(error)) return recoverFromFetch.call(this, error);
    await new Promise((r) => setTimeout(r, refusalBackOffMs(this)));
    await this.cluster.refreshMetadata().catch(() => undefined); // every broker down: the next fetch fails and comes back here
  };
  // 2.
  proto.heartbeat = async function (this: ConsumerGroupLike, options: { interval: number }): Promise<void> {
    try {
      await heartbeat.call(this, options);
    } catch (error) {
      if (!isLostConnection(error)) throw error;
      // one lookup per group at a time: the runner's and sluice's heartbeats may fail together
      let lookup = lookups.get(this);
      if (!lookup) {
        lookup = (async () => {
          await backOff();
          await this.cluster.refreshMetadata().catch(() => undefined);
          this.coordinator = await this.cluster.findGroupCoordinator({ groupId: this.groupId }).catch(() => this.coordinator);
        })().finally(() => lookups.delete(this));
        lookups.set(this, lookup);
      }
      await lookup;
    }
  };
}
