/**
 * Step 2 of the task assignor: standby replicas (Kafka's
 * `DefaultStandbyTaskAssignor` and `StandbyTaskAssignmentUtils`, then
 * `HighAvailabilityTaskAssignor.balanceTasksOverThreads` on the standbys).
 *
 * 1. for every stateful task in task order, up to `numStandbyReplicas` times:
 *    the least loaded member (active plus standby tasks, ties: member id)
 *    whose process has no copy of the task yet (no member sharing its
 *    `processId` runs it or has a standby of it) gets a standby; when no
 *    member is left the missing standbys are counted (Kafka logs them);
 * 2. balance: for every pair of members (source, destination) in id order,
 *    the source's standby tasks (in task order) move to the destination while
 *    the source has at least two tasks more than the destination and the
 *    destination's process has no copy of the task besides the source's;
 *    repeated until nothing moves.
 * Members that already hold state for a task are preferred later, by the
 * standby movements of step 4 (`warmup-assignor.ts`), as in Kafka.
 */
import { assignedCount, cmp, pickOrNone, processHasCopy, standbysOf, type Work } from './assignor-work.js';
import { compareTaskIdText } from './task-ids.js';

/**
 * Assigns the standby replicas of `statefulTasks` (in task order); returns
 * per task the standbys that found no member (only tasks missing some).
 */
export function assignStandbys(work: Work, statefulTasks: readonly string[], numStandbyReplicas: number): Map<string, number> {
  const missing = new Map<string, number>();
  if (numStandbyReplicas <= 0) return missing;
  // 1. least loaded member without a copy, per replica
  for (const task of statefulTasks) {
    let remaining = numStandbyReplicas;
    while (remaining > 0) {
      const to = pickOrNone(
        work.ids.filter((c) => !processHasCopy(work, c, task)),
        (c) => [assignedCount(work, c)],
        cmp,
      );
      if (to === undefined) break;
      standbysOf(work, to).add(task);
      remaining--;
    }
    if (remaining > 0) missing.set(task, remaining);
  }
  // 2. balance the standbys over the members
  balanceStandbys(work);
  return missing;
}

/** Kafka's `shouldMoveATask` with capacity 1: a move must reduce the skew without reversing it. */
function shouldMove(work: Work, source: string, destination: string): boolean {
  return assignedCount(work, source) - assignedCount(work, destination) >= 2;
}

function balanceStandbys(work: Work): void {
  let keepBalancing = true;
  while (keepBalancing) {
    keepBalancing = false;
    for (const source of work.ids) {
      for (const destination of work.ids) {
        if (source === destination) continue;
        for (const task of [...standbysOf(work, source)].sort(compareTaskIdText)) {
          if (!shouldMove(work, source, destination)) break;
          if (processHasCopy(work, destination, task, source)) continue;
          standbysOf(work, source).delete(task);
          standbysOf(work, destination).add(task);
          keepBalancing = true;
        }
      }
    }
  }
}
