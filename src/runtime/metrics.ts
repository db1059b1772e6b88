/**
 * The metrics shape returned by `KafkaStreams.metrics()`.
 */
import type { RestoreMetrics } from './state-restore-listener.js';
import type { AsyncNodeStats } from '../processors/task-contract.js';

/** Counters of one task (kept across restarts and re-acquisitions of the task on this instance). */
export interface TaskMetrics {
  /** Input records consumed by the task (processed or skipped by a handler). */
  recordsProcessed: number;
  /** Input records skipped because a deserialization or processing handler answered CONTINUE. */
  recordsSkipped: number;
  /** Output records acknowledged by the cluster (dead-letter records included). */
  recordsProduced: number;
  /** Output records dropped because the production exception handler answered CONTINUE. */
  droppedRecords: number;
  /** Committed transactions (exactly_once) or offset commits (at_least_once). */
  commits: number;
  /** Aborted transactions (or, at_least_once, failed batches rewound). */
  aborts: number;
  /** Times the task was closed dirty and re-created (fencing or RESTART_TASK). */
  restarts: number;
  /** Outputs sent and not yet acknowledged. */
  pendingOutputs: number;
  /** Records behind the high watermark, per input partition `topic-partition`. */
  lag: Record<string, number>;
  /**
   * Records the task processed although one of its input partitions had nothing buffered, after waiting
   * `maxTaskIdleMs` for it (Kafka's `enforced-processing-total`; such records may be out of timestamp order).
   */
  enforcedProcessing: number;
}

/** What `KafkaStreams.metrics()` returns. Totals include tasks no longer owned. */
export interface KafkaStreamsMetrics {
  recordsProcessed: number;
  recordsSkipped: number;
  recordsProduced: number;
  droppedRecords: number;
  commits: number;
  aborts: number;
  /** Records processed while an input partition of their task had nothing buffered (see {@link TaskMetrics.enforcedProcessing}). */
  enforcedProcessing: number;
  /** Task restarts (fencing or RESTART_TASK). */
  taskRestarts: number;
  /** Rebalances seen (assignment changes handled). */
  rebalances: number;
  /** Sum of the lag of the owned tasks' partitions (from the last fetched high watermarks). */
  consumerLag: number;
  /** Per-task counters, keyed by task id (e.g. `0_3`); `owned` says whether this instance runs it now. */
  tasks: Record<string, TaskMetrics & { owned: boolean }>;
  /** State restoration: records restored since start, remaining and rate of the restorations under way. */
  restore?: RestoreMetrics;
  /**
   * The standby tasks open on this instance (warm-ups included), keyed by task id: changelog records
   * applied since each opened, and the sum of its changelog positions (what the assignor is told).
   */
  standbyTasks?: Record<string, { recordsApplied: number; offsetSum: number }>;
  /**
   * The async steps (`KStream.mapValuesAsync`, `asyncProcessor`, ...), by processor name, summed over
   * the tasks running now (counted since each task was created on this instance); absent without async steps.
   */
  asyncProcessors?: Record<string, AsyncProcessorMetrics>;
}

/** The metrics of one async step (see {@link KafkaStreamsMetrics.asyncProcessors}). */
export interface AsyncProcessorMetrics {
  /** Records admitted and not finished: calls running, or waiting behind an earlier call of their key. */
  inFlight: number;
  /** Calls finished (settled, failed or timed out). */
  calls: number;
  /** Calls that rejected, threw or timed out. */
  failed: number;
  /** Mean call latency (start to settle), ms. */
  avgLatencyMs: number;
  /** Longest call, ms. */
  maxLatencyMs: number;
  /** Mean time a call waited behind an earlier call of its key before it started, ms. */
  avgQueueMs: number;
}

/** The public shape of summed async-node counters. */
export function asyncProcessorMetrics(stats: ReadonlyMap<string, AsyncNodeStats>): Record<string, AsyncProcessorMetrics> {
  const result: Record<string, AsyncProcessorMetrics> = {};
  for (const [name, s] of stats) {
    result[name] = {
      inFlight: s.inFlight,
      calls: s.calls,
      failed: s.failed,
      avgLatencyMs: s.calls === 0 ? 0 : s.totalLatencyMs / s.calls,
      maxLatencyMs: s.maxLatencyMs,
      avgQueueMs: s.calls === 0 ? 0 : s.totalQueueMs / s.calls,
    };
  }
  return result;
}

/** Creates zeroed task counters. */
export function newTaskMetrics(): TaskMetrics {
  return {
    recordsProcessed: 0,
    recordsSkipped: 0,
    recordsProduced: 0,
    droppedRecords: 0,
    commits: 0,
    aborts: 0,
    restarts: 0,
    pendingOutputs: 0,
    lag: {},
    enforcedProcessing: 0,
  };
}

const SUMMED = ['recordsProcessed', 'recordsSkipped', 'recordsProduced', 'droppedRecords', 'commits', 'aborts', 'enforcedProcessing'] as const;

/** Builds the app metrics from the per-task counters. */
export function aggregateMetrics(
  tasks: ReadonlyMap<string, TaskMetrics>,
  owned: ReadonlySet<string>,
  rebalances: number,
): KafkaStreamsMetrics {
  const result: KafkaStreamsMetrics = {
    recordsProcessed: 0,
    recordsSkipped: 0,
    recordsProduced: 0,
    droppedRecords: 0,
    commits: 0,
    aborts: 0,
    enforcedProcessing: 0,
    taskRestarts: 0,
    rebalances,
    consumerLag: 0,
    tasks: {},
  };
  for (const [id, m] of tasks) {
    for (const key of SUMMED) result[key] += m[key];
    result.taskRestarts += m.restarts;
    const isOwned = owned.has(id);
    if (isOwned) for (const lag of Object.values(m.lag)) result.consumerLag += lag;
    result.tasks[id] = { ...m, lag: { ...m.lag }, owned: isOwned };
  }
  return result;
}
