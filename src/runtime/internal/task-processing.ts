/**
 * The processing loop of a task executor (Kafka's `TaskExecutor.processTask`
 * with `StreamTask.process`): takes records from the task's input in
 * timestamp order while the partition group is ready and hands them to the
 * task's processors; moves each partition's position past what it processed.
 * Runs inside the task's queue (`task-executor.ts` `processBuffered`).
 */
import type { TopicPartition } from '../../cluster/port.js';
import type { TaskRecordCollector } from '../../eos/record-collector.js';
import type { TaskProcessor } from '../../processors/task-contract.js';
import { defined } from '../../internal/defined.js';
import { topicPartitionKey as tpKey } from '../../records/topic-partition.js';
import type { TaskMetrics } from '../metrics.js';
import type { TaskInput } from './task-input.js';

/** What the loop reads and moves. */
export interface ProcessingTarget {
  input: TaskInput;
  processor: TaskProcessor;
  collector: TaskRecordCollector;
  metrics: TaskMetrics;
  /** `maxPendingOutputRecordsPerTask`. */
  maxPendingOutputs: number;
  partitions: readonly TopicPartition[];
  /** Next offset to process, per partition key. */
  position: Map<string, number>;
  /** False once the task stopped running (failed, closing) or was re-positioned meanwhile. */
  running(): boolean;
  /** A position moved: the next commit has work. */
  markDirty(): void;
  /**
   * True when a commit waits behind this loop in the task's queue: after a record it had to wait for
   * (an async step at its bound, the output bound), the loop gives way to it (step 5).
   */
  commitWaiting?(): boolean;
}

/** How long the loop processes before it lets the event loop run (sends, acknowledgements, timers, other tasks), in ms. */
export const SLICE_MS = 5;
/** Records between two looks at the clock. */
const SLICE_CHECK_EVERY = 32;

/**
 * Processes what is ready:
 * 1. ask the input whether the task may take a record now (`maxTaskIdleMs`, see `partition-group.ts`);
 * 2. take the head record with the lowest timestamp across the task's partitions (a paused partition
 *    back at its bound resumes);
 * 3. while more outputs than `maxPendingOutputRecordsPerTask` are unacknowledged, wait until half of them are;
 * 4. process it (an async processor: wait for it, in order) and move that partition's position past it;
 *    a drained partition moves on to the end of its fetches (control records);
 * 5. every `SLICE_MS` of processing, let the event loop run once (setImmediate: the sender's requests and
 *    acknowledgements, linger timers and other tasks' jobs get their turn, so an output does not wait for
 *    the whole buffer to be processed before it is sent); again from 1 until nothing is ready, or until a commit waits after a record the loop had to wait
 *    for (a loop held by an async step at its bound, or by the output bound, would otherwise keep the
 *    commit waiting for as long as input keeps coming); then the lag metrics.
 * @returns true when it gave way to a commit with records still buffered (the caller processes again after it).
 */
export async function processReady(t: ProcessingTarget): Promise<boolean> {
  const { input, processor, collector, metrics, maxPendingOutputs: bound, position } = t;
  const group = input.group;
  if (group.numBuffered() === 0) return false;
  const now = Date.now();
  let yielded = false;
  let sliceStart = performance.now();
  let sliceRecords = 0;
  collector.checkHealthy();
  // 1.
  while (input.ready(now)) {
    // 2.
    const record = group.nextRecord();
    if (record === undefined) break;
    const key = group.lastPartitionKey;
    input.taken(key, group.lastPartitionBuffered, defined(group.lastPartition, 'partition of the record taken'));
    // 3.
    let waited = false;
    if (collector.pending > bound) {
      // Resume at half the bound, not at the bound: waking at the first acknowledged batch would refill the
      // buffer one acknowledgement at a time, and batches would shrink to a few records each.
      await collector.waitForPendingAtMost(bound >> 1);
      waited = true;
      if (!t.running()) return false;
      collector.checkHealthy();
    }
    // 4.
    let outcome = processor.process(record);
    if (typeof outcome !== 'string') {
      outcome = await outcome;
      waited = true;
    }
    if (!t.running()) return false;
    collector.checkHealthy();
    position.set(key, record.offset + 1);
    t.markDirty();
    metrics.recordsProcessed++;
    if (outcome === 'skipped') metrics.recordsSkipped++;
    if (group.lastPartitionBuffered === 0 && moveDrained(input, position, key)) t.markDirty();
    // 5.
    if (++sliceRecords >= SLICE_CHECK_EVERY) {
      sliceRecords = 0;
      if (performance.now() - sliceStart >= SLICE_MS && group.numBuffered() > 0) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
        if (!t.running()) return false;
      }
    }
    if (waited && t.commitWaiting?.() === true && group.numBuffered() > 0) {
      yielded = true;
      break;
    }
  }
  for (const tp of t.partitions) {
    const key = tpKey(tp);
    const hw = input.highWatermark(key);
    if (hw !== undefined) metrics.lag[key] = Math.max(0, hw - (position.get(key) ?? 0));
  }
  return yielded;
}

/**
 * A partition with nothing buffered (the caller checked) moves past the control and aborted
 * records its fetches covered; true when its position moved.
 */
export function moveDrained(input: TaskInput, position: Map<string, number>, key: string): boolean {
  const end = input.fetchedEnd(key);
  const at = position.get(key);
  if (end === undefined || at === undefined || end <= at) return false;
  position.set(key, end);
  return true;
}
