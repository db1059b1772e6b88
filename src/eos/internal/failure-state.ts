/**
 * The producer's two failure states: the abortable error of the open
 * transaction (a NONE send failed, or `markAbortable`) and the fatal error of
 * the producer (fenced, EndTxn failed, authorization, ...).
 */
import { ProducerFencedError, TransactionAbortableError, errorKindOf } from '../../errors.js';
import type { Logger } from '../../internal/logger.js';
import { ProducerState, type TxnStateMachine } from './txn-state.js';

/** Tracks the abortable and fatal causes and drives the matching state transitions. */
export class FailureState {
  /** Why the open transaction can only be aborted. */
  abortable: TransactionAbortableError | undefined;
  /** Why the producer is unusable. */
  fatal: Error | undefined;

  constructor(
    private readonly sm: TxnStateMachine,
    private readonly log: Logger,
    private readonly transactionalId: string | undefined,
    /** Called once when the producer turns fatal (fail every unsent record). */
    private readonly onFatal: (error: Error) => void,
  ) {}

  /** Throws the fatal, else the abortable cause, if any. */
  throwIfFailed(): void {
    if (this.fatal) throw this.fatal;
    if (this.abortable) throw this.abortable;
  }

  /** IN_TRANSACTION -> ABORTABLE_ERROR with `error` as cause; a no-op in any other state. */
  toAbortable(error: Error): void {
    if (this.sm.state !== ProducerState.IN_TRANSACTION) return;
    this.abortable =
      error instanceof TransactionAbortableError
        ? error
        : new TransactionAbortableError(`The transaction can only be aborted: ${error.message}`, { cause: error });
    this.sm.transition(ProducerState.ABORTABLE_ERROR);
    this.log.warn({ err: error }, 'transaction moved to ABORTABLE_ERROR');
  }

  /**
   * Any state -> FATAL_ERROR (first cause wins). Fencing errors become
   * `ProducerFencedError`; others are kept as they are. Returns the error every
   * record and later call gets.
   */
  toFatal(err: unknown): Error {
    if (this.fatal) return this.fatal;
    const error = err instanceof Error ? err : new Error(String(err));
    if (this.sm.state === ProducerState.CLOSED) return error;
    this.fatal =
      errorKindOf(err) === 'fencing' && !(error instanceof ProducerFencedError)
        ? new ProducerFencedError(
            `Producer${this.transactionalId ? ` '${this.transactionalId}'` : ''} was fenced or lost its producer state ` +
              `(${error.message}); close it and create a new one`,
            { cause: error },
          )
        : error;
    this.sm.transition(ProducerState.FATAL_ERROR);
    this.log.error({ err: this.fatal }, 'producer moved to FATAL_ERROR');
    this.onFatal(this.fatal);
    return this.fatal;
  }

  /** A send callback threw: logged, and the open transaction becomes abortable (it must not commit silently). */
  callbackThrew(err: unknown): void {
    this.log.error({ err }, 'a send callback threw');
    this.toAbortable(err instanceof Error ? err : new Error(String(err)));
  }

  /** Clears the abortable cause (transaction ended). */
  clearAbortable(): void {
    this.abortable = undefined;
  }
}
