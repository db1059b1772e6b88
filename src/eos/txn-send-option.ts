/**
 * `TxnSendOption` (KIP-1059): how a failed send affects the
 * open transaction, and the mapping of a handler's answer onto it.
 */
import { normalizeHandlerAnswer } from '../handlers/normalize.js';
import type { HandlerAnswer } from '../handlers/types.js';

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

/**
 * The producer send option matching a handler response (KIP-1059):
 * `'CONTINUE'` → `TxnSendOption.IGNORE_SEND_ERRORS` (only the failing record is
 * dropped, the transaction stays committable), `'FAIL'` → `TxnSendOption.NONE`
 * (the transaction becomes abortable-only). Accepts a full answer too.
 */
export function handlerResponseToTxnSendOption(response: HandlerAnswer): TxnSendOption {
  const { response: r } = normalizeHandlerAnswer(response, 'handlerResponseToTxnSendOption');
  return r === 'CONTINUE' ? TxnSendOption.IGNORE_SEND_ERRORS : TxnSendOption.NONE;
}
