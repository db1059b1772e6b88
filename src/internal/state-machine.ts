/**
 * A small transition-table state machine with guards, used for the app state
 * (Kafka Streams' `KafkaStreams.State`) and the task state.
 */
import { BehaviorSubject, type Observable } from 'rxjs';
import { IllegalStateError } from '../errors.js';

/** A transition table: for each state, the states it may move to. */
export type TransitionTable<S extends string> = Readonly<Record<S, readonly S[]>>;

/** A guarded state machine: `transition` checks the table, `require` guards a method. */
export class StateMachine<S extends string> {
  readonly #subject: BehaviorSubject<S>;

  constructor(
    private readonly what: string,
    private readonly table: TransitionTable<S>,
    initial: S,
  ) {
    this.#subject = new BehaviorSubject<S>(initial);
  }

  /** The current state. */
  get state(): S {
    return this.#subject.value;
  }

  /** Every state, current one first. */
  get state$(): Observable<S> {
    return this.#subject.asObservable();
  }

  /** True when the table allows moving from the current state to `next`. */
  canTransitionTo(next: S): boolean {
    return this.table[this.state].includes(next);
  }

  /** Moves to `next`; throws {@link IllegalStateError} when the table does not allow it. */
  transition(next: S): void {
    if (!this.canTransitionTo(next)) {
      const from = (Object.keys(this.table) as S[]).filter((s) => this.table[s].includes(next));
      throw new IllegalStateError(
        `${this.what}: cannot move from ${this.state} to ${next}; allowed only from ${from.join(' | ') || 'no state'}`,
      );
    }
    this.#subject.next(next);
  }

  /** Moves to `next` when allowed; returns whether it moved. */
  tryTransition(next: S): boolean {
    if (!this.canTransitionTo(next)) return false;
    this.#subject.next(next);
    return true;
  }

  /** Throws {@link IllegalStateError} unless the current state is one of `allowed`. */
  require(method: string, allowed: readonly S[]): void {
    if (!allowed.includes(this.state)) {
      throw new IllegalStateError(
        `${this.what}.${method}() is only allowed in state ${allowed.join(' | ')}; current state: ${this.state}`,
      );
    }
  }

  /** Completes the observable (no more states). */
  complete(): void {
    this.#subject.complete();
  }
}
