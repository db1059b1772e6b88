/**
 * Transaction states of the coordinator (Kafka's `TransactionState`) as a
 * transition table with a guarded transition function.
 */
import { IllegalStateError } from '../../../errors.js';

/** States of a transactional id. */
export type TxnState = 'Empty' | 'Ongoing' | 'PrepareCommit' | 'PrepareAbort' | 'CompleteCommit' | 'CompleteAbort' | 'PrepareEpochFence';

/** Allowed transitions: from -> to. */
export const TXN_TRANSITIONS: Readonly<Record<TxnState, readonly TxnState[]>> = {
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

/** Moves `meta` to `to`, or throws an {@link IllegalStateError} naming the states that allow it. */
export function transition(meta: HasTxnState, to: TxnState): void {
  if (!TXN_TRANSITIONS[meta.state].includes(to)) {
    const allowed = (Object.keys(TXN_TRANSITIONS) as TxnState[]).filter((s) => TXN_TRANSITIONS[s].includes(to));
    throw new IllegalStateError(
      `Transaction ${meta.transactionalId} cannot move from ${meta.state} to ${to}; only from: ${allowed.join(', ')}`,
    );
  }
  meta.state = to;
}
