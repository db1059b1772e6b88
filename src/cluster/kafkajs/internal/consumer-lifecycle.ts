/**
 * Start, crash and close of a kafkajs consumer, owned by the adapter so that
 * a closed consumer never comes back (issue 12 item 0).
 *
 * kafkajs 2.2.4 alone leaves a ghost member when closed while joining:
 * `Runner.stop()` is a no-op until the first join+sync completed
 * (`running` is still false), so `disconnect()` returns without LeaveGroup; the
 * join in flight then fails on the closed connection (a retriable crash:
 * kafkajs restarts the consumer in 300 ms, which rejoins) or completes and
 * starts fetching. Hence:
 * 1. kafkajs never restarts on its own (`retry.restartOnFailure` answers false);
 *    the adapter restarts after a retriable crash, with kafkajs' delay, unless closing;
 * 2. every start (the first `run()` and each restart) is tracked until it settled;
 * 3. close: no restart from then on; wait for the starts in flight (the join
 *    completes or crashes); then `disconnect()`, which now leaves the group.
 */
import type { Logger } from '../../../internal/logger.js';
import { isSecurityFailure } from './security-errors.js';

/** kafkajs' `initialRetryTime` default: the delay of its own restart. */
const DEFAULT_RESTART_MS = 300;

interface CrashedError {
  name?: string;
  retriable?: boolean;
  retryTime?: number;
  cause?: unknown;
}

function rootCause(error: unknown): CrashedError {
  const e = error as CrashedError;
  return e && typeof e === 'object' && e.cause ? rootCause(e.cause) : e;
}

/**
 * Root causes kafkajs calls non-retriable that only mean "the cluster is not
 * reachable right now" (a broker restarting): Java's consumer keeps looking
 * for the coordinator, so the adapter keeps restarting.
 */
const TRANSIENT_ROOT_CAUSES: ReadonlySet<string> = new Set(['KafkaJSGroupCoordinatorNotFound', 'KafkaJSBrokerNotFound', 'KafkaJSConnectionError']);

/**
 * kafkajs' own restart rule (`consumer/index.js` onCrash): retries exhausted, or a retriable root cause; plus an
 * unreachable cluster. Never an authentication, TLS or authorization failure (mapped by sluice): it would fail again.
 */
export function isRestartable(error: unknown): boolean {
  if (isSecurityFailure(error)) return false;
  const e = error as CrashedError | undefined;
  const root = rootCause(error);
  return e?.name === 'KafkaJSNumberOfRetriesExceeded' || root?.retriable === true || TRANSIENT_ROOT_CAUSES.has(root?.name ?? '') || TRANSIENT_ROOT_CAUSES.has(e?.name ?? '');
}

/** Longest wait between two restarts of a consumer that keeps failing to start (the cluster is down). */
export const MAX_RESTART_DELAY_MS = 10_000;

/** The restart delay kafkajs would use. */
export function restartDelayMs(error: unknown): number {
  return (error as CrashedError | undefined)?.retryTime || DEFAULT_RESTART_MS;
}

/** Tracks starts in flight and the pending restart; see the module comment. */
export class ConsumerLifecycle {
  private readonly inFlight = new Set<Promise<unknown>>();
  private restartTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly logger: Logger) {}

  /** True once {@link close} was called. */
  get closing(): boolean {
    return this.closed;
  }

  /** 2. Tracks a start (connect, subscribe, run) until it settled; returns it. */
  track<T>(start: Promise<T>): Promise<T> {
    this.inFlight.add(start);
    const untrack = () => void this.inFlight.delete(start);
    start.then(untrack, untrack);
    return start;
  }

  /**
   * 1. After a crash kafkajs stopped on: schedules `restart` after kafkajs'
   * delay, unless closing. A restart that fails again with a restartable
   * error (the cluster is still down) is rescheduled with a doubling delay
   * (at most {@link MAX_RESTART_DELAY_MS}); any other failure goes to `giveUp`.
   */
  scheduleRestart(error: unknown, restart: () => Promise<void>, giveUp: (error: unknown) => void = () => undefined, attempt = 0): void {
    if (this.closed) return;
    const delay = Math.min(MAX_RESTART_DELAY_MS, restartDelayMs(error) * 2 ** attempt);
    this.logger.warn({ err: error, restartInMs: delay, attempt }, 'consumer crashed; restarting it');
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.closed) return;
      void this.track(restart()).catch((e: unknown) => {
        if (this.closed) return;
        if (isRestartable(e)) return this.scheduleRestart(e, restart, giveUp, attempt + 1);
        this.logger.warn({ err: e }, 'consumer restart failed');
        giveUp(e);
      });
    }, delay);
  }

  /** 3. No restart from now on; resolves once every start in flight settled. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}
