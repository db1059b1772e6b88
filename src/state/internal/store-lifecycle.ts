/**
 * The lifecycle of one store instance (one layer of the stack), as the state
 * contract has it: CREATED (built, nothing opened) → OPEN (`init`) → CLOSED
 * (`close`, terminal; closing a store never initialised is allowed).
 */
import { StateMachine, type TransitionTable, type WrongStateDetails } from '../../internal/state-machine.js';

/** The states of a store instance. */
export type StoreLifecycleState = 'CREATED' | 'OPEN' | 'CLOSED';

const TRANSITIONS: TransitionTable<StoreLifecycleState> = {
  CREATED: ['OPEN', 'CLOSED'],
  OPEN: ['CLOSED'],
  CLOSED: [],
};

const OPEN_ONLY: readonly StoreLifecycleState[] = ['OPEN'];

function wrongState(d: WrongStateDetails<StoreLifecycleState>): string {
  if (d.state === 'CREATED') {
    return `${d.what} cannot ${d.method} before init(context): the store is not initialised yet (the task opens its stores with init before processing)`;
  }
  return `${d.what} cannot ${d.method} in state ${d.state}; allowed in: ${d.allowed.join(' | ')}`;
}

/** Guards the data methods of a store and moves it through its lifecycle. */
export class StoreLifecycle {
  private readonly machine: StateMachine<StoreLifecycleState>;

  constructor(storeName: string) {
    this.machine = new StateMachine(`State store '${storeName}'`, TRANSITIONS, 'CREATED', {
      messages: {
        wrongState,
        illegalTransition: (d) => `${d.what} cannot move from ${d.from} to ${d.to}: init(context) is called once, before any other method`,
      },
    });
  }

  get state(): StoreLifecycleState {
    return this.machine.state;
  }

  /** True when OPEN. */
  get isOpen(): boolean {
    return this.machine.state === 'OPEN';
  }

  /** CREATED → OPEN; throws IllegalStateError when initialised twice or after close. */
  open(): void {
    this.machine.transition('OPEN');
  }

  /** Throws IllegalStateError unless CREATED (before `init` opens anything). */
  ensureNotStarted(): void {
    this.machine.require('init', ['CREATED']);
  }

  /** → CLOSED; returns false when it was already closed (close is idempotent). */
  close(): boolean {
    return this.machine.tryTransition('CLOSED');
  }

  /** Throws IllegalStateError naming `operation` unless OPEN. */
  ensureOpen(operation: string): void {
    if (this.machine.state !== 'OPEN') this.machine.require(operation, OPEN_ONLY);
  }
}
