/**
 * The states of a KafkaStreams application, as in Kafka Streams'
 * `KafkaStreams.State`:
 *
 * ```
 * CREATED ──start()──▶ REBALANCING ◀──▶ RUNNING
 *    │                     │   │           │  │
 *    │ close()             │   └─ failure ─┼──┴──▶ PENDING_ERROR ──▶ ERROR
 *    ▼                     ▼ close()       ▼ close()
 * PENDING_SHUTDOWN ──────────────────────────▶ NOT_RUNNING
 * ```
 */
import { StateMachine, type TransitionTable } from '../../internal/state-machine.js';

/** A KafkaStreams application state. */
export type AppState =
  | 'CREATED'
  | 'REBALANCING'
  | 'RUNNING'
  | 'PENDING_SHUTDOWN'
  | 'NOT_RUNNING'
  | 'PENDING_ERROR'
  | 'ERROR';

/** Kafka Streams' transition table (`KafkaStreams.State`). */
export const APP_TRANSITIONS: TransitionTable<AppState> = {
  CREATED: ['REBALANCING', 'PENDING_SHUTDOWN'],
  REBALANCING: ['RUNNING', 'PENDING_SHUTDOWN', 'PENDING_ERROR'],
  RUNNING: ['REBALANCING', 'PENDING_SHUTDOWN', 'PENDING_ERROR'],
  PENDING_SHUTDOWN: ['NOT_RUNNING'],
  NOT_RUNNING: [],
  PENDING_ERROR: ['ERROR'],
  ERROR: [],
};

/** Creates the app state machine in state CREATED. */
export function createAppStateMachine(): StateMachine<AppState> {
  return new StateMachine<AppState>('KafkaStreams', APP_TRANSITIONS, 'CREATED');
}
