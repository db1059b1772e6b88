/**
 * The one state-machine helper of sluice: a transition table with guards,
 * used for the app state (Kafka Streams' `KafkaStreams.State`), the task
 * state and the embedded cluster's transaction state.
 *
 * - `transition(next)` checks the table; an illegal move throws
 *   {@link IllegalStateError} naming the states it is allowed from.
 * - `require(method, allowed)` / `guard(method)` check that a method may run in
 *   the current state; the error names the state(s) that allow it.
 * - `state$` emits every state, current one first, and completes once a
 *   terminal state (one with no outgoing transition) is reached; a late
 *   subscriber still receives that final state before the completion.
 * - State held on a plain record (e.g. a coordinator's metadata object) uses
 *   {@link checkTransition} with the same table and messages.
 *
 * Each machine keeps its own message wording through {@link StateMessages}, so
 * errors users and tests already read do not change.
 */
import { ReplaySubject, type Observable } from 'rxjs';
import { IllegalStateError } from '../errors.js';

/** A transition table: for each state, the states it may move to. */
export type TransitionTable<S extends string> = Readonly<Record<S, readonly S[]>>;

/** A guard table: for each method name, the states it may be called in. */
export type GuardTable<S extends string> = Readonly<Record<string, readonly S[]>>;

/** What a wrong-state call reports. */
export interface WrongStateDetails<S extends string> {
  what: string;
  method: string;
  state: S;
  allowed: readonly S[];
}

/** What an illegal transition reports. */
export interface IllegalTransitionDetails<S extends string> {
  what: string;
  from: S;
  to: S;
  /** The states the table allows moving to `to` from. */
  allowedFrom: readonly S[];
  /** The states the table allows leaving `from` for. */
  allowedTo: readonly S[];
}

/** The wording of a machine's errors; defaults below. */
export interface StateMessages<S extends string> {
  wrongState?: (details: WrongStateDetails<S>) => string;
  illegalTransition?: (details: IllegalTransitionDetails<S>) => string;
}

/** Options of a {@link StateMachine}. */
export interface StateMachineOptions<S extends string> {
  /** Which states allow each method, for {@link StateMachine.guard}. */
  guards?: GuardTable<S>;
  /** The machine's own error wording. */
  messages?: StateMessages<S>;
}

const defaultWrongState = <S extends string>(d: WrongStateDetails<S>): string =>
  `${d.what}.${d.method}() is only allowed in state ${d.allowed.join(' | ') || 'no state'}; current state: ${d.state}`;

const defaultIllegalTransition = <S extends string>(d: IllegalTransitionDetails<S>): string =>
  `${d.what}: cannot move from ${d.from} to ${d.to}; allowed only from ${d.allowedFrom.join(' | ') || 'no state'}`;

/** The states `table` allows moving to `to` from. */
export function sourcesOf<S extends string>(table: TransitionTable<S>, to: S): S[] {
  return (Object.keys(table) as S[]).filter((s) => table[s].includes(to));
}

/** Throws {@link IllegalStateError} unless `table` allows moving from `from` to `to`. */
export function checkTransition<S extends string>(
  what: string,
  table: TransitionTable<S>,
  from: S,
  to: S,
  messages: StateMessages<S> = {},
): void {
  if (table[from].includes(to)) return;
  const format = messages.illegalTransition ?? defaultIllegalTransition;
  throw new IllegalStateError(format({ what, from, to, allowedFrom: sourcesOf(table, to), allowedTo: table[from] }));
}

/** A guarded state machine: `transition` checks the table, `require`/`guard` guard a method. */
export class StateMachine<S extends string> {
  readonly #subject = new ReplaySubject<S>(1);
  readonly #guards: GuardTable<S>;
  readonly #messages: StateMessages<S>;
  #state: S;

  constructor(
    private readonly what: string,
    private readonly table: TransitionTable<S>,
    initial: S,
    options: StateMachineOptions<S> = {},
  ) {
    this.#guards = options.guards ?? {};
    this.#messages = options.messages ?? {};
    this.#state = initial;
    this.#subject.next(initial);
  }

  /** The current state. */
  get state(): S {
    return this.#state;
  }

  /** Every state, current one first; completes after a terminal state. */
  get state$(): Observable<S> {
    return this.#subject.asObservable();
  }

  /** True when the current state has no outgoing transition. */
  get terminal(): boolean {
    return this.table[this.#state].length === 0;
  }

  /** True when the table allows moving from the current state to `next`. */
  canTransitionTo(next: S): boolean {
    return this.table[this.#state].includes(next);
  }

  /** Moves to `next`; throws {@link IllegalStateError} when the table does not allow it. */
  transition(next: S): void {
    checkTransition(this.what, this.table, this.#state, next, this.#messages);
    this.#enter(next);
  }

  /** Moves to `next` when allowed; returns whether it moved. */
  tryTransition(next: S): boolean {
    if (!this.canTransitionTo(next)) return false;
    this.#enter(next);
    return true;
  }

  /** Throws {@link IllegalStateError} unless the current state is one of `allowed`. */
  require(method: string, allowed: readonly S[]): void {
    if (allowed.includes(this.#state)) return;
    const format = this.#messages.wrongState ?? defaultWrongState;
    throw new IllegalStateError(format({ what: this.what, method, state: this.#state, allowed }));
  }

  /** True when the guard table lets `method` run in the current state. */
  allows(method: string): boolean {
    return (this.#guards[method] ?? []).includes(this.#state);
  }

  /** {@link require} with the states the guard table lists for `method`. */
  guard(method: string): void {
    this.require(method, this.#guards[method] ?? []);
  }

  /** Completes `state$` (no more states); idempotent. Entering a terminal state does this too. */
  complete(): void {
    this.#subject.complete();
  }

  #enter(next: S): void {
    this.#state = next;
    this.#subject.next(next);
    if (this.terminal) this.#subject.complete();
  }
}
