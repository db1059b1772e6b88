/**
 * Transaction states of the coordinator (Kafka's `TransactionState`) as a
 * transition table with a guarded transition function (the shared
 * state-machine helper's `checkTransition`; the state lives on the
 * coordinator's metadata record, which `describeTransaction` hands out).
 */
import { checkTransition, type TransitionTable } from '../../../internal/state-machine.js';

/** States of a transactional id. */
export type TxnState = 'Empty' | 'Ongoing' | 'PrepareCommit' | 'PrepareAbort' | 'CompleteCommit' | 'CompleteAbort' | 'PrepareEpochFence';

/** Allowed transitions: from -> to. */
export const TXN_TRANSITIONS: TransitionTable<TxnState> = {
  Empty: ['Empty', 'Ongoing'],
  Ongoing: ['PrepareCommit', 'PrepareAbort', 'PrepareEpochFence'],
  PrepareCommit: ['CompleteCommit'],
  PrepareAbort: ['CompleteAbort'],
  CompleteCommit: ['Empty', 'Ongoing'],
  CompleteAbort: ['Empty', 'Ongoing'],
  PrepareEpochFence: ['PrepareAbort'],
};

/** Anything with a transaction state and an id for messages. */
export interface HasTxnState {
  transactionalId: string;
  state: TxnState;
}

/** Moves `meta` to `to`, or throws an `IllegalStateError` naming the states that allow it. */
export function transition(meta: HasTxnState, to: TxnState): void {
  checkTransition(`Transaction ${meta.transactionalId}`, TXN_TRANSITIONS, meta.state, to, {
    illegalTransition: (d) => `${d.what} cannot move from ${d.from} to ${d.to}; only from: ${d.allowedFrom.join(', ')}`,
  });
  meta.state = to;
}
