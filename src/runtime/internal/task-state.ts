/**
 * The task state, for the runtime: one type and one table shared with the
 * processor task (see `processors/task-state.ts`).
 */
export { createTaskStateMachine, TASK_TRANSITIONS, type TaskState } from '../../processors/task-state.js';
