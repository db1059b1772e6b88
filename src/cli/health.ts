/**
 * What `GET /healthz` of `sluice run --metrics-port` answers. Unhealthy (503
 * with a one-line reason) when the app is in PENDING_ERROR / ERROR, or when it
 * has work and commits nothing: no commit succeeded for the stall threshold
 * although input is waiting (consumer lag), outputs are unacknowledged or
 * records were processed since the last commit. A missing output topic, a
 * stuck transaction or a broker that rejects every commit look like that: the
 * app is RUNNING, yet nothing becomes visible.
 *
 * Threshold: max(30 s, 10 × commitIntervalMs), i.e. ten missed commit rounds
 * and never less than 30 s (a rebalance or a broker failover may pause commits
 * for several seconds without anything being wrong).
 */
import type { KafkaStreamsMetrics } from '../runtime/metrics.js';

/** The answer of a health check. */
export interface HealthStatus {
  ok: boolean;
  /** Why not ok (one line). */
  reason?: string;
}

/** The stall threshold for a commit interval: max(30 s, 10 × commitIntervalMs). */
export function stallThresholdMs(commitIntervalMs: number): number {
  return Math.max(30_000, 10 * commitIntervalMs);
}

/** Tracks commits over time and tells whether the app stalls; feed it with {@link CommitWatchdog.check}. */
export class CommitWatchdog {
  #commits = -1;
  #processedAtCommit = 0;
  /** Since when there has been work without a commit (undefined: no such work now). */
  #stalledSince: number | undefined;

  constructor(readonly thresholdMs: number) {}

  /** Samples `metrics` at `now` (ms) and answers for the app in `state`. */
  check(state: string | undefined, metrics: KafkaStreamsMetrics | undefined, now: number): HealthStatus {
    if (state === 'ERROR' || state === 'PENDING_ERROR') return { ok: false, reason: `the app is in state ${state}` };
    if (!metrics) return { ok: true };
    const pending = Object.values(metrics.tasks).reduce((sum, t) => sum + (t.owned ? t.pendingOutputs : 0), 0);
    if (metrics.commits !== this.#commits) {
      this.#commits = metrics.commits;
      this.#processedAtCommit = metrics.recordsProcessed;
      this.#stalledSince = undefined;
    }
    const uncommitted = metrics.recordsProcessed - this.#processedAtCommit;
    const work = metrics.consumerLag > 0 || pending > 0 || uncommitted > 0;
    if (!work || state !== 'RUNNING') {
      this.#stalledSince = undefined;
      return { ok: true };
    }
    this.#stalledSince ??= now;
    const stalledMs = now - this.#stalledSince;
    if (stalledMs < this.thresholdMs) return { ok: true };
    return {
      ok: false,
      reason:
        `no commit for ${Math.round(stalledMs / 1000)} s although there is work (consumer lag ${metrics.consumerLag}, ` +
        `${pending} unacknowledged outputs, ${uncommitted} records processed since the last commit); ` +
        `the threshold is max(30 s, 10 x commitIntervalMs) = ${this.thresholdMs} ms. Check the log for a missing topic or failing commits`,
    };
  }
}
