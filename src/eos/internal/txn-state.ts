/**
 * The producer's transaction state machine: a transition table and guards.
 * A call in a state that does not allow it throws `IllegalStateError` naming
 * the state(s) that do.
 */
import { IllegalStateError } from '../../errors.js';

import { ProducerState, type ProducerStateName } from '../producer-state.js';

export { ProducerState, type ProducerStateName };

const S = ProducerState;

/** Allowed transitions: from -> to[]. */
export const TRANSITIONS: Readonly<Record<ProducerStateName, readonly ProducerStateName[]>> = {
  UNINITIALIZED: [S.INITIALIZING, S.FATAL_ERROR, S.CLOSED],
  INITIALIZING: [S.READY, S.UNINITIALIZED, S.FATAL_ERROR, S.CLOSED],
  READY: [S.IN_TRANSACTION, S.FATAL_ERROR, S.CLOSED],
  IN_TRANSACTION: [S.COMMITTING, S.ABORTING, S.ABORTABLE_ERROR, S.FATAL_ERROR, S.CLOSED],
  COMMITTING: [S.READY, S.FATAL_ERROR, S.CLOSED],
  ABORTING: [S.READY, S.FATAL_ERROR, S.CLOSED],
  ABORTABLE_ERROR: [S.ABORTING, S.FATAL_ERROR, S.CLOSED],
  FATAL_ERROR: [S.CLOSED],
  CLOSED: [],
};

/** Which states allow each public method (the guard table). */
export const ALLOWED: Readonly<Record<string, readonly ProducerStateName[]>> = {
  initTransactions: [S.UNINITIALIZED],
  beginTransaction: [S.READY],
  sendTransactional: [S.IN_TRANSACTION, S.ABORTABLE_ERROR, S.FATAL_ERROR],
  sendIdempotent: [S.UNINITIALIZED, S.INITIALIZING, S.READY, S.FATAL_ERROR],
  sendOffsetsToTransaction: [S.IN_TRANSACTION],
  commitTransaction: [S.IN_TRANSACTION],
  abortTransaction: [S.IN_TRANSACTION, S.ABORTABLE_ERROR],
  markAbortable: [S.IN_TRANSACTION, S.ABORTABLE_ERROR, S.ABORTING, S.FATAL_ERROR],
  flush: [S.UNINITIALIZED, S.INITIALIZING, S.READY, S.IN_TRANSACTION, S.COMMITTING, S.ABORTING, S.ABORTABLE_ERROR, S.FATAL_ERROR],
};

/** Holds the current state; every change goes through the transition table. */
export class TxnStateMachine {
  #state: ProducerStateName = S.UNINITIALIZED;

  /** The current state. */
  get state(): ProducerStateName {
    return this.#state;
  }

  /** True when `method` is allowed in the current state. */
  allows(method: string): boolean {
    return (ALLOWED[method] ?? []).includes(this.#state);
  }

  /** Throws `IllegalStateError` unless `method` is allowed in the current state. */
  guard(method: string, label = method): void {
    if (this.allows(method)) return;
    const allowed = ALLOWED[method] ?? [];
    throw new IllegalStateError(
      `Cannot call ${label}() in state ${this.#state}; allowed in state(s): ${allowed.join(', ') || 'none'}`,
    );
  }

  /**
   * The send guard: `IGNORE_SEND_ERRORS` needs an open transaction (IN_TRANSACTION,
   * ABORTABLE_ERROR or FATAL_ERROR of a transactional producer); a transactional
   * producer sends only inside a transaction; nobody sends after close.
   * Throws `IllegalStateError` synchronously, before any I/O.
   */
  guardSend(transactional: boolean, ignoreSendErrors: boolean): void {
    const state = this.#state;
    const inTxn = state === S.IN_TRANSACTION || state === S.ABORTABLE_ERROR || state === S.FATAL_ERROR;
    if (ignoreSendErrors && (!transactional || !inTxn)) {
      throw new IllegalStateError(
        'send() with TxnSendOption.IGNORE_SEND_ERRORS is only allowed inside a transaction (state IN_TRANSACTION of a producer with a transactionalId); ' +
          `this producer is ${transactional ? `in state ${state}` : 'not transactional'}`,
      );
    }
    this.guard(transactional ? 'sendTransactional' : 'sendIdempotent', 'send');
  }

  /** Moves to `to`; throws `IllegalStateError` when the table forbids it. */
  transition(to: ProducerStateName): void {
    if (this.#state === to) return;
    if (!TRANSITIONS[this.#state].includes(to)) {
      throw new IllegalStateError(
        `Invalid producer state transition ${this.#state} -> ${to}; from ${this.#state} allowed: ${TRANSITIONS[this.#state].join(', ') || 'none'}`,
      );
    }
    this.#state = to;
  }
}
