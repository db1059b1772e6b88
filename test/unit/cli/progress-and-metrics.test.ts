import { afterEach, describe, expect, it } from 'vitest';
import { createMetricsRegistry } from '../../../src/cli/metrics-registry.js';
import { startMetricsServer, type MetricsServer } from '../../../src/cli/metrics-server.js';
import { formatProgress } from '../../../src/cli/progress-line.js';
import type { KafkaStreamsMetrics } from '../../../src/runtime/metrics.js';
import { newTaskMetrics } from '../../../src/runtime/metrics.js';

function snapshot(processed: number, extra: Partial<KafkaStreamsMetrics> = {}): KafkaStreamsMetrics {
  return {
    recordsProcessed: processed,
    recordsSkipped: 1,
    recordsProduced: processed * 2,
    droppedRecords: 3,
    commits: 7,
    aborts: 2,
    enforcedProcessing: 4,
    taskRestarts: 0,
    rebalances: 1,
    consumerLag: 120,
    tasks: {
      '0_0': { ...newTaskMetrics(), recordsProcessed: processed, droppedRecords: 3, lag: { 'orders-0': 120 }, owned: true },
      '0_1': { ...newTaskMetrics(), owned: false },
    },
    ...extra,
  };
}

describe('progress line', () => {
  it('shows records/s from two snapshots, lag, commits and drops', () => {
    const line = formatProgress('RUNNING', snapshot(3500), snapshot(1000), 500);
    expect(line).toBe('RUNNING | 5,000 rec/s | processed 3,500 | lag 120 | commits 7 | dropped 3 | aborts 2');
    expect(formatProgress(undefined, undefined, undefined, 0)).toContain('STARTING | 0 rec/s');
  });

  it('shows the restorations under way as `restoring 63% (1.2 M / 1.9 M, 180 k/s)` and nothing when none is', () => {
    const restore = { restoredRecords: 1_200_000, remainingRecords: 700_000, totalRecords: 1_900_000, rate: 180_000, activeRestorations: 2 };
    const line = formatProgress('REBALANCING', snapshot(0, { restore }), snapshot(0), 1000);
    expect(line).toContain('REBALANCING | restoring 63% (1.2 M / 1.9 M, 180 k/s)');
    const idle = formatProgress('RUNNING', snapshot(10, { restore: { ...restore, remainingRecords: 0, totalRecords: 0, activeRestorations: 0 } }), snapshot(0), 1000);
    expect(idle).not.toContain('restoring');
  });
});

describe('Prometheus metrics', () => {
  let server: MetricsServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('reads app.metrics() on every scrape and serves it on /metrics', async () => {
    let current = snapshot(10);
    const registry = createMetricsRegistry({ metrics: () => current, state: () => 'RUNNING' }, { defaults: false });
    server = await startMetricsServer({ registry, port: 0, host: '127.0.0.1', healthy: () => false });
    const scrape = async () => (await fetch(`http://127.0.0.1:${server!.port}/metrics`)).text();
    const first = await scrape();
    expect(first).toContain('sluice_records_processed_total 10');
    expect(first).toContain('sluice_records_produced_total 20');
    expect(first).toContain('sluice_dropped_records_total 3');
    expect(first).toContain('sluice_commits_total 7');
    expect(first).toContain('sluice_aborts_total 2');
    expect(first).toContain('sluice_enforced_processing_total 4');
    expect(first).toContain('sluice_consumer_lag 120');
    expect(first).toContain('sluice_task_records_processed_total{task="0_0"} 10');
    expect(first).toContain('sluice_partition_lag{task="0_0",partition="orders-0"} 120');
    expect(first).toContain('sluice_tasks_owned 1');
    expect(first).toContain('sluice_app_state{state="RUNNING"} 1');
    expect(first).toContain('# TYPE sluice_commits_total counter');
    current = snapshot(25, { commits: 9, restore: { restoredRecords: 5000, remainingRecords: 1500, totalRecords: 4000, rate: 900, activeRestorations: 1 } });
    const second = await scrape();
    expect(second).toContain('sluice_restore_records_total 5000');
    expect(second).toContain('sluice_restore_remaining_records 1500');
    expect(second).toContain('sluice_restore_rate 900');
    expect(second).toContain('sluice_records_processed_total 25');
    expect(second).toContain('sluice_commits_total 9');
    expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(503);
    expect((await fetch(`http://127.0.0.1:${server.port}/nope`)).status).toBe(404);
  });
});
