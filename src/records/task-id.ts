/**
 * The task id of sluice, one type and one printed form (ground: every layer
 * may use it). A task is one sub-topology applied to one partition; Kafka
 * Streams prints it `<subtopology>_<partition>` (`TaskId.toString()`), and so
 * does sluice everywhere a string is needed: handler contexts
 * (`ErrorHandlerContext.taskId`), the dead-letter `__sluice.task.id` header,
 * log fields, metric keys, error messages and transactional ids
 * (`<applicationId>-<taskId>`).
 */

/** A task: sub-topology `subtopology` applied to partition `partition`. */
export interface TaskId {
  readonly subtopology: number;
  readonly partition: number;
}

/** The one printed form of a task id: `0_1` for sub-topology 0, partition 1. */
export function formatTaskId(id: TaskId): string {
  return `${id.subtopology}_${id.partition}`;
}

/** The inverse of {@link formatTaskId}; throws a `TypeError` naming the expected form. */
export function parseTaskId(text: string): TaskId {
  const match = /^(\d+)_(\d+)$/.exec(text);
  if (!match) throw new TypeError(`'${text}' is not a task id; expected <subtopology>_<partition>, e.g. 0_1`);
  return { subtopology: Number(match[1]), partition: Number(match[2]) };
}
