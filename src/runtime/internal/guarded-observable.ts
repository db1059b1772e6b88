/**
 * An Observable whose subscribers cannot kill the process. rxjs reports an
 * error thrown by a subscriber's `next` (or an error notification nobody
 * handles) asynchronously with a `setTimeout(() => { throw error })`, which is
 * an uncaught exception: one careless `app.state$.subscribe(...)` would end a
 * worker. Here every subscriber callback is caught and reported through
 * `report`, also for observables piped from this one (`lift` keeps the guard).
 */
import { Observable, Subscriber, type Observer, type Operator, type Subscription } from 'rxjs';

/** Receives what a subscriber threw, or an error notification without an error callback. */
export type SubscriberErrorReport = (error: unknown, what: 'next' | 'error' | 'complete' | 'unhandled error notification') => void;

/** An {@link Observable} with guarded subscribers; see the module comment. */
export class GuardedObservable<T> extends Observable<T> {
  readonly #report: SubscriberErrorReport;

  constructor(report: SubscriberErrorReport, inner?: Observable<T>) {
    super(inner ? (subscriber) => inner.subscribe(subscriber) : undefined);
    this.#report = report;
  }

  /** Piped observables stay guarded (rxjs builds operator chains through `lift`). */
  override lift<R>(operator?: Operator<T, R>): Observable<R> {
    const lifted = new GuardedObservable<R>(this.#report);
    // As rxjs' own Subject does: `source`/`operator` are how an Observable subclass extends lift.
    lifted.source = this;
    lifted.operator = operator;
    return lifted;
  }

  override subscribe(
    observerOrNext?: Partial<Observer<T>> | ((value: T) => void) | null,
    error?: ((error: unknown) => void) | null,
    complete?: (() => void) | null,
  ): Subscription {
    // rxjs' own subscribers (operator chains, firstValueFrom) pass through: they call user code through guarded subscribers.
    if (observerOrNext instanceof Subscriber) return super.subscribe(observerOrNext);
    const observer: Partial<Observer<T>> =
      typeof observerOrNext === 'function' || observerOrNext == null
        ? { next: observerOrNext ?? undefined, error: error ?? undefined, complete: complete ?? undefined }
        : observerOrNext;
    const report = this.#report;
    const call = (what: 'next' | 'error' | 'complete', fn: () => void): void => {
      try {
        fn();
      } catch (thrown) {
        report(thrown, what);
      }
    };
    return super.subscribe({
      next: (value) => call('next', () => observer.next?.call(observer, value)),
      error: (err: unknown) => {
        const onError = observer.error;
        if (typeof onError === 'function') call('error', () => onError.call(observer, err));
        else report(err, 'unhandled error notification');
      },
      complete: () => call('complete', () => observer.complete?.call(observer)),
    });
  }
}
