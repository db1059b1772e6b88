/** One measured run of one contender (one row of bench/results/<date>.json). */
export interface RunResult {
  /** Row id: a pipeline contender id, or broker-produce / broker-consume. */
  id: string;
  round: number;
  records: number;
  /** True when the output check passed (always checked before a figure counts). */
  ok: boolean;
  reason?: string;
  /** Input records per second (processing window: first record seen to all offsets committed). */
  recordsPerSec: number;
  seconds: number;
  /** Spawn to first record, ms. */
  startupMs?: number;
  latencyP50Ms?: number;
  latencyP99Ms?: number;
  maxRssKb: number;
  cpuSeconds: number;
  /** CPU seconds the broker process used during the processing window (first record → complete), when it runs on this machine. */
  brokerCpuSeconds?: number;
  /** Records the CPU time was spent on, when not `records` (ProducerPerformance also sends warm-up records). */
  cpuRecords?: number;
  /** Who measured RSS/CPU: the child itself or /proc sampling. */
  usageSource: string;
  outputCount?: number;
  /** Output records of aborted transactions seen by the check (not visible, not counted). */
  abortedOutput?: number;
  expectedOutput?: number;
  loadMs?: number;
  /** What the contender reported about itself at stop (sluice: `app.metrics()`). */
  childMetrics?: unknown;
  /** Keys of a stateful run (count: keys counted; restore: keys in the store). */
  keys?: number;
  /** Restore runs: records restored (sum of the listener's totalRestored) and spawn → RUNNING (ms). */
  restoredRecords?: number;
  toRunningMs?: number;
  /** What the contender noted about its run (printed under the table). */
  notes?: string[];
  /** Wall time of the whole run: topics, load, child, check, cleanup (seconds). */
  wallSeconds?: number;
}
