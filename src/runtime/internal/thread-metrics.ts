/**
 * One instance's metrics over all its stream threads (`numStreamThreads`):
 * counters are summed, per-task and per-standby entries joined (a task that
 * moved between two threads of the instance shows once, from the thread that
 * owns it), async-step latencies averaged by calls.
 */
import type { AsyncProcessorMetrics, KafkaStreamsMetrics } from '../metrics.js';
import type { RestoreMetrics } from '../state-restore-listener.js';

const SUMMED = ['recordsProcessed', 'recordsSkipped', 'recordsProduced', 'droppedRecords', 'commits', 'aborts', 'enforcedProcessing', 'taskRestarts', 'rebalances', 'consumerLag'] as const;

/** The metrics of every thread as one instance's; the first is thread 1's. */
export function mergeThreadMetrics(all: readonly KafkaStreamsMetrics[]): KafkaStreamsMetrics {
  const [first, ...rest] = all;
  if (first === undefined) throw new RangeError('mergeThreadMetrics needs thread 1');
  if (rest.length === 0) return first;
  const result: KafkaStreamsMetrics = { ...first, tasks: { ...first.tasks } };
  for (const m of rest) {
    for (const key of SUMMED) result[key] += m[key];
    for (const [id, task] of Object.entries(m.tasks)) {
      const seen = result.tasks[id];
      if (seen === undefined || (!seen.owned && task.owned)) result.tasks[id] = task;
    }
    if (m.standbyTasks) result.standbyTasks = { ...result.standbyTasks, ...m.standbyTasks };
    if (m.asyncProcessors) result.asyncProcessors = mergeAsync(result.asyncProcessors ?? {}, m.asyncProcessors);
    if (m.restore) result.restore = result.restore ? mergeRestore(result.restore, m.restore) : m.restore;
  }
  return result;
}

function mergeAsync(a: Record<string, AsyncProcessorMetrics>, b: Record<string, AsyncProcessorMetrics>): Record<string, AsyncProcessorMetrics> {
  const result = { ...a };
  for (const [name, y] of Object.entries(b)) {
    const x = result[name];
    if (x === undefined) {
      result[name] = y;
      continue;
    }
    const calls = x.calls + y.calls;
    const mean = (f: 'avgLatencyMs' | 'avgQueueMs'): number => (calls === 0 ? 0 : (x[f] * x.calls + y[f] * y.calls) / calls);
    result[name] = {
      inFlight: x.inFlight + y.inFlight, calls, failed: x.failed + y.failed,
      avgLatencyMs: mean('avgLatencyMs'), maxLatencyMs: Math.max(x.maxLatencyMs, y.maxLatencyMs), avgQueueMs: mean('avgQueueMs'),
    };
  }
  return result;
}

function mergeRestore(a: RestoreMetrics, b: RestoreMetrics): RestoreMetrics {
  return {
    restoredRecords: a.restoredRecords + b.restoredRecords,
    remainingRecords: a.remainingRecords + b.remainingRecords,
    totalRecords: a.totalRecords + b.totalRecords,
    rate: a.rate + b.rate,
    activeRestorations: a.activeRestorations + b.activeRestorations,
  };
}
