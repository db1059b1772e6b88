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
 * The patch: a fetch that failed on a refused connection waits
 * {@link CONNECTION_RETRY_BACKOFF_MS} (Java's `retry.backoff.ms`) and refreshes
 * the metadata, then the fetch loop goes on (kafkajs rebuilds its fetchers when
 * the leaders of the assigned partitions changed). Any other error keeps
 * kafkajs' handling.
 */
import type { KafkaJsInternals } from './kafkajs-internals.js';

/** Pause before the metadata refresh that follows a refused connection (Java's `retry.backoff.ms` default). */
export const CONNECTION_RETRY_BACKOFF_MS = 100;

const PATCHED = Symbol.for('sluice.kafkajs.fetchLeaderFailover');

interface ConsumerGroupLike {
  cluster: { refreshMetadata(): Promise<void> };
  recoverFromFetch(error: unknown): Promise<void>;
}
type ConsumerGroupClass = { prototype: ConsumerGroupLike; [PATCHED]?: true };

/** True when `error` or one of its causes is kafkajs' `KafkaJSConnectionError` (a refused or failed connect). */
export function isRefusedConnection(error: unknown): boolean {
  for (let e = error as { name?: string; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.name === 'KafkaJSConnectionError') return true;
  }
  return false;
}

/** Wraps `ConsumerGroup.prototype.recoverFromFetch` (see the module comment). */
export function installFetchLeaderFailover(internals: KafkaJsInternals): void {
  const ConsumerGroup = internals.load<ConsumerGroupClass>('consumer/consumerGroup.js');
  if (ConsumerGroup[PATCHED]) return;
  ConsumerGroup[PATCHED] = true;
  const { recoverFromFetch } = ConsumerGroup.prototype;
  ConsumerGroup.prototype.recoverFromFetch = async function (this: ConsumerGroupLike, error: unknown): Promise<void> {
    if (!isRefusedConnection(error)) return recoverFromFetch.call(this, error);
    await new Promise((r) => setTimeout(r, CONNECTION_RETRY_BACKOFF_MS));
    await this.cluster.refreshMetadata().catch(() => undefined); // every broker down: the next fetch fails and comes back here
  };
}
