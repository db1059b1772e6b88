/**
 * The states of a runtime task, as a transition table:
 *
 * ```
 * CREATED ──initialize()──▶ RUNNING ──close──▶ CLOSED
 *    │                         │                 ▲
 *    └────── failure ──────────┴──▶ FAILED ──────┘ (closed dirty, then re-created or the app stops)
 * ```
 */
import type { TopicPartition } from '../../cluster/port.js';
import { StateMachine, type TransitionTable } from '../../internal/state-machine.js';

/** Task states. FAILED: an error was seen and recovery is under way; CLOSED is final. */
export type TaskState = 'CREATED' | 'RUNNING' | 'FAILED' | 'CLOSED';

/** The task transition table. */
export const TASK_TRANSITIONS: TransitionTable<TaskState> = {
  CREATED: ['RUNNING', 'FAILED', 'CLOSED'],
  RUNNING: ['FAILED', 'CLOSED'],
  FAILED: ['CLOSED'],
  CLOSED: [],
};

/** Creates the state machine of task `id` in state CREATED. */
export function createTaskStateMachine(id: string): StateMachine<TaskState> {
  return new StateMachine<TaskState>(`Task ${id}`, TASK_TRANSITIONS, 'CREATED');
}

/** `topic-partition`. */
export function tpKey(tp: TopicPartition): string {
  return `${tp.topic}-${tp.partition}`;
}
