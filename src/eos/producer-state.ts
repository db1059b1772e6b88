/**
 * The states of a `TransactionalProducer` (`producer.state`).
 */

/** Names of the producer states. */
export const ProducerState = {
  /** Created; `initTransactions()` not called yet. */
  UNINITIALIZED: 'UNINITIALIZED',
  /** `initTransactions()` running (connect + InitProducerId). */
  INITIALIZING: 'INITIALIZING',
  /** Initialised, no transaction open (an idempotent producer sends here). */
  READY: 'READY',
  /** A transaction is open (also while `commitTransaction()` waits for pending sends). */
  IN_TRANSACTION: 'IN_TRANSACTION',
  /** EndTxn(commit) in flight. */
  COMMITTING: 'COMMITTING',
  /** Pending sends are being drained and EndTxn(abort) is in flight. */
  ABORTING: 'ABORTING',
  /** A NONE send failed (or `markAbortable`): only `abortTransaction()` is allowed. */
  ABORTABLE_ERROR: 'ABORTABLE_ERROR',
  /** Fenced or fatal: only `close()` is allowed; the producer must be recreated. */
  FATAL_ERROR: 'FATAL_ERROR',
  /** Closed. */
  CLOSED: 'CLOSED',
} as const;

/** A producer state name. */
export type ProducerStateName = (typeof ProducerState)[keyof typeof ProducerState];
