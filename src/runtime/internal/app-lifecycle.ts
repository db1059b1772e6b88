/**
 * The lifecycle of one `KafkaStreams` app: its state machine, the first
 * assignment `start()` waits for, and the two ways it stops:
 * - `close()`: PENDING_SHUTDOWN, the close steps (`stopParts`), NOT_RUNNING;
 * - `fail(error)`: PENDING_ERROR, the same steps, ERROR (the error is kept).
 * Whichever comes first wins; the other waits for it. A task failure during a
 * close is only recorded (the app still ends in NOT_RUNNING).
 */
import type { Observable } from 'rxjs';
import { IllegalStateError } from '../../errors.js';
import { GuardedObservable } from './guarded-observable.js';
import type { Logger } from '../../internal/logger.js';
import type { StateMachine } from '../../internal/state-machine.js';
import { createAppStateMachine, type AppState } from './app-state.js';
import type { TaskManager } from './task-manager.js';

/** The states in which the app does no more work. */
export const STOPPED: readonly AppState[] = ['PENDING_SHUTDOWN', 'NOT_RUNNING', 'PENDING_ERROR', 'ERROR'];

/** See the module comment. */
export class AppLifecycle {
  readonly sm: StateMachine<AppState> = createAppStateMachine();
  #error: Error | undefined;
  #shutdown: Promise<void> | undefined;
  #firstAssignment: { resolve: () => void; reject: (error: Error) => void } | undefined;
  /** Incremented by every assignment: only the latest one's restoration moves the app to RUNNING. */
  #assignmentRound = 0;
  #state$: Observable<AppState> | undefined;
  #stateListener: { unsubscribe(): void } | undefined;
  /** True when this thread's own tasks are assigned and restored (the app is RUNNING when the other threads are too). */
  #ownReady = false;
  /** Whether stream threads 2..N all run (`numStreamThreads`; none: true). */
  othersRunning: () => boolean = () => true;

  /** `stopParts`: the close steps of the app's parts (./app-close.ts); `log`: the app's logger. */
  constructor(
    private readonly log: Logger,
    private readonly stopParts: () => Promise<void>,
  ) {}

  get state(): AppState {
    return this.sm.state;
  }

  /** The error that stopped the app (or a task failure while it closed). */
  get error(): Error | undefined {
    return this.#error;
  }

  /** `KafkaStreams.state$`: every state change; a throwing subscriber is logged at ERROR and ignored. */
  get state$(): Observable<AppState> {
    this.#state$ ??= new GuardedObservable<AppState>(
      (error, what) => this.log.error({ err: error, state: this.state }, `a state$ subscriber threw in ${what}; ignored, the app keeps going`),
      this.sm.state$,
    );
    return this.#state$;
  }

  /** `KafkaStreams.setStateListener`: `listener(newState, oldState)` on every change from now on. */
  setStateListener(listener: (newState: AppState, oldState: AppState) => void): void {
    // 1. Kafka's rule: only before start (IllegalStateException otherwise).
    this.sm.require('setStateListener', ['CREATED']);
    if (typeof listener !== 'function') throw new TypeError('setStateListener: listener must be a function (newState, oldState) => void');
    // 2. A later call replaces the listener.
    this.#stateListener?.unsubscribe();
    // 3. state$ replays the current state first: that is no change, so the listener starts from it.
    let previous = this.state;
    this.#stateListener = this.state$.subscribe((next) => {
      if (next === previous) return;
      const old = previous;
      previous = next;
      listener(next, old);
    });
  }

  /** True once the app is stopping or stopped. */
  get stopped(): boolean {
    return STOPPED.includes(this.state);
  }

  /** A promise of the first assignment's end (RUNNING), settled by {@link onAssignment} or the shutdown. */
  firstAssignment(): Promise<void> {
    const first = new Promise<void>((resolve, reject) => (this.#firstAssignment = { resolve, reject }));
    // A close() or failure may reject it before start() awaits it: never an unhandled rejection.
    first.catch(() => undefined);
    return first;
  }

  /** Handles an assignment; the app is RUNNING once every task restored its state (REBALANCING meanwhile, as Kafka Streams). */
  async onAssignment(manager: TaskManager, change: Parameters<TaskManager['onAssignment']>[0]): Promise<void> {
    if (this.stopped) return;
    this.#ownReady = false;
    this.sm.tryTransition('REBALANCING');
    await manager.onAssignment(change);
    const round = ++this.#assignmentRound;
    void manager.whenRestored().then(() => {
      if (round !== this.#assignmentRound) return;
      this.#ownReady = true;
      this.#settle();
    });
  }

  /** Another stream thread of the instance changed state: the instance rebalances while one does, and runs when all do. */
  onThreadState(state: AppState): void {
    if (this.stopped) return;
    if (state === 'REBALANCING') this.sm.tryTransition('REBALANCING');
    else if (state === 'RUNNING') this.#settle();
  }

  #settle(): void {
    if (this.#ownReady && this.othersRunning() && this.sm.tryTransition('RUNNING')) this.#firstAssignment?.resolve();
  }

  /** Between start steps: throws once a close() or a failure came. */
  checkRunning(): void {
    if (this.stopped) {
      throw this.#error ?? new IllegalStateError(`KafkaStreams was closed while starting (state ${this.state}); start() needs state CREATED`);
    }
  }

  /** A failed start(): the error shutdown, then the cause (or "closed while starting" when a close() came first). */
  async startFailed(error: unknown): Promise<never> {
    const cause = error instanceof Error ? error : new Error(String(error));
    const closedWhileStarting = this.#shutdown !== undefined && this.#error === undefined;
    await this.fail(cause);
    if (!closedWhileStarting) throw cause;
    throw new IllegalStateError(`KafkaStreams was closed while starting (state ${this.state}); start() needs state CREATED`, { cause });
  }

  /** A task failure that stops the app; during a close it is only recorded (see {@link error}). */
  onTaskFatal(error: Error): void {
    if (this.#shutdown && this.#error === undefined) {
      this.#error = error;
      this.log.error({ err: error }, 'a task failed while the app was closing');
      return;
    }
    void this.fail(error);
  }

  /** Error shutdown: PENDING_ERROR, the close steps, then ERROR. */
  fail(error: Error): Promise<void> {
    if (this.#shutdown) return this.#shutdown;
    this.#error = error;
    if (!this.sm.tryTransition('PENDING_ERROR')) return Promise.resolve();
    this.log.error({ err: error }, 'stopping the app in ERROR');
    this.#firstAssignment?.reject(error);
    this.#shutdown = this.#stop().then(() => this.#stopped('ERROR'));
    return this.#shutdown;
  }

  /** Clean shutdown: PENDING_SHUTDOWN, the close steps, then NOT_RUNNING; in PENDING_ERROR it waits for the error shutdown. */
  close(): Promise<void> {
    if (!this.#shutdown && this.state !== 'NOT_RUNNING' && this.state !== 'ERROR') {
      this.sm.transition('PENDING_SHUTDOWN');
      this.#shutdown = this.#stop().then(() => this.#stopped('NOT_RUNNING'));
    }
    return this.#shutdown ?? Promise.resolve();
  }

  /** The close steps; the first assignment, if still awaited, is rejected first. */
  async #stop(): Promise<void> {
    this.#firstAssignment?.reject(this.#error ?? new IllegalStateError('KafkaStreams was closed before it was running'));
    await this.stopParts();
  }

  /** The last step of a shutdown: the final state, then one line naming it. */
  #stopped(state: 'NOT_RUNNING' | 'ERROR'): void {
    this.sm.transition(state);
    this.log.info({ state }, 'stopped');
  }
}
