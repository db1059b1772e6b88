/**
 * How an instance starts its stream threads 2..N (`numStreamThreads`): on
 * worker threads when it names a `streamThreadModule` and runs on Kafka,
 * else on its own event loop (stream-threads.ts).
 */
import type { Logger } from '../../internal/logger.js';
import type { KafkaStreamsConfig, ResolvedConfig } from '../config.js';
import { plainConfig, threadConfig, type StreamThreadIdentity } from './stream-thread-identity.js';
import { InLoopStreamThread, StreamThreads, type StreamThreadEvents, type ThreadApp } from './stream-threads.js';
import { WorkerStreamThread } from './worker-stream-thread.js';

/** How often a worker thread sends its metrics and thread metadata. */
export const SNAPSHOT_INTERVAL_MS = 200;

export interface ThreadSetup {
  config: ResolvedConfig;
  /** The config the app was given (what threads are built from). */
  given: KafkaStreamsConfig;
  processId: string;
  /** Builds an in-loop thread's app from its config. */
  inLoop(config: KafkaStreamsConfig): ThreadApp;
  events: StreamThreadEvents;
  log: Logger;
}

/** The instance's extra threads (none with `numStreamThreads: 1`), not started yet. */
export function createStreamThreads(setup: ThreadSetup): StreamThreads {
  const { config, given, processId, events, log } = setup;
  const moduleUrl = config.cluster === undefined ? config.streamThreadModule : undefined;
  const identities: StreamThreadIdentity[] = [];
  for (let index = 2; index <= config.numStreamThreads; index++) identities.push({ index, processId });
  if (identities.length === 0) return new StreamThreads([]);
  if (moduleUrl === undefined) {
    log.info(
      { numStreamThreads: config.numStreamThreads },
      config.cluster === undefined
        ? 'stream threads 2..N run on this event loop (set streamThreadModule to run them on worker threads, one core each)'
        : 'stream threads 2..N run on this event loop (the embedded cluster lives in this thread)',
    );
    return new StreamThreads(identities.map((identity) => new InLoopStreamThread(identity.index, setup.inLoop(threadConfig(given, identity)), events)));
  }
  const { plain, dropped } = plainConfig(given);
  if (dropped.length > 0) log.info({ keys: dropped }, 'config keys that are not plain values come from the streamThreadModule config on stream threads 2..N');
  const closeTimeoutMs = Math.min(2_147_483_647, config.transactionTimeoutMs + 30_000);
  return new StreamThreads(
    identities.map((identity) => new WorkerStreamThread(identity.index, { identity, moduleUrl, config: plain, snapshotIntervalMs: SNAPSHOT_INTERVAL_MS }, events, log, closeTimeoutMs)),
  );
}
