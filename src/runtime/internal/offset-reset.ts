/** Where a task partition with no committed offset starts (`autoOffsetReset`). */
import type { TopicPartition, TopicPartitionOffset } from '../../cluster/port.js';
import { topicPartitionKey as tpKey } from '../../records/topic-partition.js';
import type { TaskExecutorDeps } from './task-deps.js';

/** Under `autoOffsetReset: 'latest'`, the end offset of each partition that has no committed offset (else nothing: those start at 0). */
export async function resetOffsets(
  partitions: readonly TopicPartition[],
  committed: readonly TopicPartitionOffset[],
  deps: Pick<TaskExecutorDeps, 'config' | 'endOffsets'>,
): Promise<Map<string, number>> {
  const reset = new Map<string, number>();
  const { config, endOffsets } = deps;
  if (config.autoOffsetReset !== 'latest' || endOffsets === undefined) return reset;
  const uncommitted = partitions.filter((tp) => !committed.some((c) => c.topic === tp.topic && c.partition === tp.partition && c.offset >= 0));
  for (const topic of new Set(uncommitted.map((tp) => tp.topic))) {
    const ends = await endOffsets(topic);
    for (const tp of uncommitted) if (tp.topic === topic) reset.set(tpKey(tp), ends[tp.partition] ?? 0);
  }
  return reset;
}
