/**
 * The commit protocol of one task (DESIGN.md §6 step 4). Runs inside the
 * task's queue, so it never overlaps processing of the same task.
 *
 * exactly_once:
 * 1. flush the task's state stores;
 * 2. `producer.flush()`: wait for every send and its callback (handler
 *    decisions and dead-letter sends included);
 * 3. stop if the collector recorded a failure (FAIL, a throwing handler,
 *    fencing): the caller aborts;
 * 4. `sendOffsetsToTransaction` with the next offsets of every consumed input
 *    record (records skipped by a handler included), group = applicationId;
 * 5. `commitTransaction()`;
 * 6. record the committed offsets and metrics. The next transaction begins
 *    lazily on the next send or commit.
 *
 * at_least_once: steps 1–3 as above, then 4. `consumer.commitOffsets` (only
 * now that every output of those inputs is acknowledged), 5. record.
 */
import type { GroupConsumerPort, TopicPartitionOffset } from '../../cluster/port.js';
import type { TaskRecordCollector } from '../../eos/record-collector.js';
import type { ManagedStateStore } from '../../processors/task-contract.js';
import type { TaskProducer } from './task-producer.js';

/** What a commit needs from its task. */
export interface CommitContext {
  exactlyOnce: boolean;
  groupId: string;
  producer: TaskProducer;
  consumer: GroupConsumerPort;
  collector: TaskRecordCollector;
  stores: ReadonlyArray<ManagedStateStore>;
  /** Next offsets to commit (empty when nothing was consumed since the last commit). */
  offsets: TopicPartitionOffset[];
  /** Opens the transaction if none is open (exactly_once). */
  ensureTransaction(): void;
}

/** Runs the numbered commit steps above. Throws on any failure; the caller aborts and recovers. */
export async function commitTask(ctx: CommitContext): Promise<void> {
  // 1. flush state stores
  for (const store of ctx.stores) store.flush();
  // 2. wait for every send and its callback
  await ctx.producer.flush();
  // 3. a FAIL / fatal / fencing recorded by the collector stops the commit
  ctx.collector.checkHealthy();
  if (ctx.exactlyOnce) {
    // 4. the input offsets go into the same transaction
    if (ctx.offsets.length > 0) {
      ctx.ensureTransaction();
      await ctx.producer.sendOffsetsToTransaction(ctx.offsets, ctx.groupId);
    }
    // 5. commit
    await ctx.producer.commitTransaction();
  } else if (ctx.offsets.length > 0) {
    // 4. (at_least_once) outputs are acknowledged: commit the inputs
    await ctx.consumer.commitOffsets(ctx.offsets);
  }
  // 6. (the caller records offsets and metrics)
}
