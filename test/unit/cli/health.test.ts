/**
 * Issue 12 item 5: /healthz reports a stalled app (RUNNING, work waiting, no
 * commit for max(30 s, 10 x commitIntervalMs)) and ERROR, with a reason;
 * `sluice run` bounds close() with --close-timeout-ms.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CommitWatchdog, stallThresholdMs, type HealthStatus } from '../../../src/cli/health.js';
import { createMetricsRegistry } from '../../../src/cli/metrics-registry.js';
import { startMetricsServer, type MetricsServer } from '../../../src/cli/metrics-server.js';
import { resolveRunOptions } from '../../../src/cli/options.js';
import { newTaskMetrics, type KafkaStreamsMetrics } from '../../../src/runtime/metrics.js';
import { spawnCli, type CliProcess } from './spawn-cli.js';

function metrics(m: { commits: number; processed: number; lag?: number; pending?: number }): KafkaStreamsMetrics {
  return {
    recordsProcessed: m.processed,
    recordsSkipped: 0,
    recordsProduced: 0,
    droppedRecords: 0,
    commits: m.commits,
    aborts: 0,
    enforcedProcessing: 0,
    taskRestarts: 0,
    rebalances: 1,
    consumerLag: m.lag ?? 0,
    tasks: { '0_0': { ...newTaskMetrics(), pendingOutputs: m.pending ?? 0, owned: true } },
  };
}

describe('the stall threshold', () => {
  it('is max(30 s, 10 x commitIntervalMs)', () => {
    expect(stallThresholdMs(100)).toBe(30_000);
    expect(stallThresholdMs(5_000)).toBe(50_000);
  });
});

describe('CommitWatchdog', () => {
  it('is healthy while commits advance, unhealthy once work waits longer than the threshold without a commit', () => {
    const w = new CommitWatchdog(30_000);
    expect(w.check('RUNNING', metrics({ commits: 1, processed: 10 }), 0).ok).toBe(true);
    // Unacknowledged outputs (a missing topic): the clock starts.
    expect(w.check('RUNNING', metrics({ commits: 1, processed: 11, pending: 1 }), 1_000).ok).toBe(true);
    expect(w.check('RUNNING', metrics({ commits: 1, processed: 11, pending: 1 }), 30_999).ok).toBe(true);
    const stalled = w.check('RUNNING', metrics({ commits: 1, processed: 11, pending: 1, lag: 40 }), 31_000);
    expect(stalled.ok).toBe(false);
    expect(stalled.reason).toMatch(/^no commit for 30 s although there is work \(consumer lag 40, 1 unacknowledged outputs, 1 records processed since the last commit\)/);
    expect(stalled.reason).toContain('max(30 s, 10 x commitIntervalMs) = 30000 ms');
    // A commit heals it.
    expect(w.check('RUNNING', metrics({ commits: 2, processed: 11, pending: 0 }), 32_000).ok).toBe(true);
  });

  it('an idle app (no lag, nothing pending, nothing uncommitted) stays healthy however long nothing commits', () => {
    const w = new CommitWatchdog(30_000);
    expect(w.check('RUNNING', metrics({ commits: 3, processed: 50 }), 0).ok).toBe(true);
    expect(w.check('RUNNING', metrics({ commits: 3, processed: 50 }), 3_600_000).ok).toBe(true);
  });

  it('ERROR and PENDING_ERROR are unhealthy at once; a rebalance pauses the clock', () => {
    const w = new CommitWatchdog(30_000);
    expect(w.check('ERROR', undefined, 0)).toEqual({ ok: false, reason: 'the app is in state ERROR' });
    expect(w.check('PENDING_ERROR', metrics({ commits: 0, processed: 0 }), 0).ok).toBe(false);
    w.check('RUNNING', metrics({ commits: 0, processed: 0, lag: 5 }), 0);
    expect(w.check('REBALANCING', metrics({ commits: 0, processed: 0, lag: 5 }), 40_000).ok).toBe(true);
    expect(w.check('RUNNING', metrics({ commits: 0, processed: 0, lag: 5 }), 41_000).ok).toBe(true);
  });
});

describe('GET /healthz', () => {
  let server: MetricsServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('answers 503 with the reason when unhealthy, 200 ok otherwise', async () => {
    let status: HealthStatus = { ok: true };
    const registry = createMetricsRegistry({ metrics: () => undefined, state: () => 'RUNNING' }, { defaults: false });
    server = await startMetricsServer({ registry, port: 0, host: '127.0.0.1', health: () => status });
    const get = async (): Promise<[number, string]> => {
      const res = await fetch(`http://127.0.0.1:${server!.port}/healthz`);
      return [res.status, await res.text()];
    };
    expect(await get()).toEqual([200, 'ok\n']);
    status = { ok: false, reason: 'no commit for 31 s although there is work' };
    expect(await get()).toEqual([503, 'unhealthy: no commit for 31 s although there is work\n']);
  });
});

describe('sluice run --close-timeout-ms', () => {
  const running: CliProcess[] = [];
  afterEach(() => {
    for (const p of running.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  });

  it('defaults to 30 s and is validated', () => {
    expect(resolveRunOptions('app.ts', {}, {}).closeTimeoutMs).toBe(30_000);
    expect(resolveRunOptions('app.ts', { closeTimeoutMs: '500' }, {}).closeTimeoutMs).toBe(500);
    expect(() => resolveRunOptions('app.ts', {}, { SLUICE_CLOSE_TIMEOUT_MS: 'soon' })).toThrow(/SLUICE_CLOSE_TIMEOUT_MS \(or --close-timeout-ms\) must be an integer/);
  });

  it('a close that hangs ends the worker after the timeout with exit 1 and one sluice: line saying so', { timeout: 60_000 }, async () => {
    const p = spawnCli(['run', 'test/unit/cli/fixtures/hanging-close-app.ts', '--log-level', 'info', '--close-timeout-ms', '800']);
    running.push(p);
    const deadline = Date.now() + 30_000;
    while (!p.stdout().includes('"msg":"app running"')) {
      if (Date.now() > deadline) throw new Error(`app not running: ${p.stderr()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const signalled = Date.now();
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(1);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(p.stderr()).toBe('sluice: the app did not close within 800 ms (--close-timeout-ms); exiting anyway\n');
  });
});
