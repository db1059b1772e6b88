/**
 * What the session window aggregation forwards through, apart from its
 * merging step:
 * - {@link SessionTupleForwarder}: Kafka's `TimestampedTupleForwarder` with a
 *   `SessionCacheFlushListener`: when the session store caches (its
 *   `setFlushListener` answers true) the store's flush listener forwards
 *   `Change(new, old)` stamped with the session's end; otherwise
 *   `maybeForward` forwards at once;
 * - {@link EmitFinalTracker}: the KIP-825 bookkeeping of `onWindowClose()`:
 *   throttled by wall-clock time (Kafka's `TimeTracker` and
 *   `__emit.interval.ms.kstreams.windowed.aggregation__`), and only when the
 *   close time moved since the last emission.
 */
import { Record } from '../record.js';
import type { DslProcessorContext } from '../dsl-context.js';
import { isCachedStateStore } from '../../state/caching-flush-listener.js';
import type { StoreRecordContext } from '../../state/store-contract.js';
import type { Windowed } from '../../state/window-types.js';
import { Change } from './change.js';

/** Kafka's `ConsumerRecord.NO_TIMESTAMP`. */
export const NO_TIMESTAMP = -1;

/** The emit interval without a task's (Kafka's default `__emit.interval.ms.kstreams.windowed.aggregation__`; a task's default is 0: see `TaskOptions`). */
export const WINDOWED_AGGREGATION_EMIT_INTERVAL_MS = 1000;

/** Forwards session updates, through the store's flush listener when it caches. */
export class SessionTupleForwarder<K, AGG> {
  private readonly cached: boolean;

  /** `store` undefined: never through a cache (Kafka's emit-final forwarder). */
  constructor(
    store: unknown,
    private readonly context: DslProcessorContext<Windowed<K>, Change<AGG>>,
    sendOldValues: boolean,
  ) {
    this.cached =
      store !== undefined &&
      isCachedStateStore<Windowed<K>, AGG>(store) &&
      store.setFlushListener((key, newValue, oldValue, recordContext: StoreRecordContext) => {
        // Kafka's SessionCacheFlushListener: the session's end is the record's timestamp
        const change = Change.of<AGG>(newValue, sendOldValues ? oldValue : null);
        context.forwardFromCache(new Record(key, change, key.window.end, recordContext.headers), recordContext);
      }, sendOldValues);
  }

  /** Forwards `record` unless the store's flush listener will. */
  maybeForward(record: Record<Windowed<K>, Change<AGG>>): void {
    if (!this.cached) this.context.forward(record);
  }
}

/** When `onWindowClose()` looks for closed sessions (Kafka's `shouldEmitFinal` and its emit range). */
export class EmitFinalTracker {
  /** The close time of the last emission (Kafka's `lastEmitWindowCloseTime`). */
  lastEmitWindowCloseTime = NO_TIMESTAMP;
  private nextTimeToEmit = 0;

  constructor(private readonly emitIntervalMs: number) {}

  /** The interval of `context` (the TopologyTestDriver's is 0), else Kafka's default. */
  static forContext(context: DslProcessorContext<unknown, unknown>): EmitFinalTracker {
    return new EmitFinalTracker(context.windowedAggregationEmitIntervalMs?.() ?? WINDOWED_AGGREGATION_EMIT_INTERVAL_MS);
  }

  /**
   * The session ends to emit, `[lower, upper]` (both inclusive), or
   * undefined when not due:
   * 1. throttle: not before the next emit time by the wall clock `now`; the
   *    next one is scheduled from `now`;
   * 2. only when the close time moved since the last emission;
   * 3. upper bound `windowCloseTime - 1` (a session's end is inclusive);
   *    nothing when negative (no session ever closed);
   * 4. lower bound the last close time (at least 0); a single-point range
   *    counts, as a session may be `[t, t]`.
   */
  dueRange(now: number, windowCloseTime: number): { lower: number; upper: number } | undefined {
    // 1.
    if (now < this.nextTimeToEmit) return undefined;
    this.nextTimeToEmit = now + this.emitIntervalMs;
    // 2.
    if (this.lastEmitWindowCloseTime !== NO_TIMESTAMP && this.lastEmitWindowCloseTime >= windowCloseTime) return undefined;
    // 3.
    const upper = windowCloseTime - 1;
    if (upper < 0) return undefined;
    // 4.
    const lower = Math.max(0, this.lastEmitWindowCloseTime);
    return upper >= lower ? { lower, upper } : undefined;
  }
}
