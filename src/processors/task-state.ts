/**
 * The one task state of sluice, shared by the processor task (`StreamTask`)
 * and the runtime task that drives it on a cluster:
 *
 * ```
 * CREATED ──init──▶ RUNNING ──close──▶ CLOSED
 *    │  └─▶ RESTORING ─┘│                 ▲
 *    └──── failure ────┴──▶ FAILED ──────┘ (closed dirty, then re-created or the app stops)
 * ```
 *
 * RESTORING: the runtime task restores its state stores from their
 * changelogs before it processes (its partitions stay paused meanwhile).
 * The processor task never enters RESTORING or FAILED itself (the runtime task does, when
 * an error was seen and recovery is under way); CLOSED is final.
 */
import { StateMachine, type GuardTable, type TransitionTable } from '../internal/state-machine.js';

/** Task states (Kafka Streams' `Task.State`, reduced). */
export type TaskState = 'CREATED' | 'RESTORING' | 'RUNNING' | 'FAILED' | 'CLOSED';

/** The task transition table. */
export const TASK_TRANSITIONS: TransitionTable<TaskState> = {
  CREATED: ['RESTORING', 'RUNNING', 'FAILED', 'CLOSED'],
  RESTORING: ['RUNNING', 'FAILED', 'CLOSED'],
  RUNNING: ['FAILED', 'CLOSED'],
  FAILED: ['CLOSED'],
  CLOSED: [],
};

/** Which states allow each task operation. */
export const TASK_GUARDS: GuardTable<TaskState> = {
  init: ['CREATED'],
  initialize: ['CREATED'],
  restore: ['RESTORING'],
  process: ['RUNNING'],
  punctuateWallClock: ['RUNNING'],
};

/** Creates the state machine of task `label` (e.g. `0_1`) in state CREATED. */
export function createTaskStateMachine(label: string): StateMachine<TaskState> {
  return new StateMachine<TaskState>(`Task ${label}`, TASK_TRANSITIONS, 'CREATED', {
    guards: TASK_GUARDS,
    messages: {
      wrongState: (d) => `${d.what} cannot ${d.method} in state ${d.state}; allowed in: ${d.allowed.join(', ')}`,
      illegalTransition: (d) => `${d.what} cannot go from ${d.from} to ${d.to}; allowed from: ${d.allowedFrom.join(', ')}`,
    },
  });
}
