/**
 * `TxnSendOption` (KIP-1059, `shared/seeds/000`): how a failed send affects the
 * open transaction. See `DESIGN.md` §3.
 */

/**
 * The option passed to {@link TransactionalProducer.send}.
 *
 * - `NONE` (default, the Java producer's contract): a record-level failure
 *   rejects the record's promise **and** moves the transaction to the
 *   abortable-error state: `commitTransaction()` rejects, only
 *   `abortTransaction()` is allowed.
 * - `IGNORE_SEND_ERRORS`: a record-level failure rejects only that record's
 *   promise; the record is excluded and the transaction stays committable.
 *   Only allowed inside a transaction: elsewhere `send` throws
 *   `IllegalStateError` synchronously.
 *
 * Fatal and fencing errors put the producer into its fatal state whatever the option.
 */
export const TxnSendOption = {
  /** A failed send makes the transaction abortable-only. */
  NONE: 'NONE',
  /** A failed send drops only that record; the transaction still commits. */
  IGNORE_SEND_ERRORS: 'IGNORE_SEND_ERRORS',
} as const;

/** `'NONE'` or `'IGNORE_SEND_ERRORS'`. */
export type TxnSendOption = (typeof TxnSendOption)[keyof typeof TxnSendOption];
