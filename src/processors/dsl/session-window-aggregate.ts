/**
 * The processor behind a session-windowed count / reduce / aggregate (Kafka's
 * `KStreamSessionWindowAggregate`): keeps one aggregate per key and session
 * in a session store and forwards `Change`s keyed by `Windowed<K>`, as a
 * KTable node. Per record:
 *
 * 1. a null key is dropped (WARN "Skipping record due to null key", counted);
 * 2. stream time (this node's: the largest timestamp it saw) advances; the
 *    close time is `streamTime - grace - gap`;
 * 3. the key's sessions within the gap of the record
 *    (`findSessions(key, ts - gap, ts + gap)`) are merged into the new
 *    session `[ts, ts]`: their aggregates folded with the merger, starting
 *    from `initializer()`, their windows spanned;
 * 4. a merged session ending before the close time is late: the record is
 *    dropped, logged at DEBUG with Kafka's "Skipping record for expired
 *    window" line and counted;
 * 5. otherwise, when the merged window is not just `[ts, ts]`, every merged
 *    session is removed from the store and a tombstone `Change(null, old)`
 *    forwarded for it; the aggregator folds the record into the merged
 *    aggregate, which is stored and forwarded under the merged window;
 * 6. with `onWindowClose()` (KIP-825), updates are not forwarded; instead the
 *    sessions that closed since the last emission are forwarded once
 *    (throttled by wall-clock time).
 *
 * Restart (`onWindowClose()`): Kafka keeps the last emitted close time in
 * the commit's metadata; sluice derives it from the session store's stream
 * time (restored from the changelog, or kept by a persistent store), which is
 * the stream time of the last committed record: before the first record of a
 * processor instance, its stream time and last emitted close time start from
 * there (`streamTime - grace - gap`), so the sessions emitted before the
 * restart are not emitted again. This is exact when every record checks for
 * closed sessions (emit interval 0, sluice's default).
 *
 * Every forward is stamped with the session's end. With `onWindowUpdate()`
 * updates go through the store's flush listener when the store caches.
 * Initializer, aggregator and merger must be synchronous.
 */
import type { Processor, ProcessorContext } from '../processor.js';
import { Record } from '../record.js';
import { dslContext, type DslProcessorContext } from '../dsl-context.js';
import type { KeyValue } from '../../records/key-value.js';
import type { SessionStore } from '../../state/session-store.js';
import { ValueAndTimestamp } from '../../state/value-and-timestamp.js';
import type { SessionWindow, Windowed } from '../../state/window-types.js';
import { Change } from './change.js';
import type { KTableProcessorSupplier, KTableValueGetterSupplier } from './ktable-contract.js';
import { EmitFinalTracker, NO_TIMESTAMP, SessionTupleForwarder } from './session-forwarding.js';
import { syncResult } from './sync-result.js';
import type { WindowedAggregateSupplier } from './windowed-contract.js';

/** The session windows the processor needs (the topology's `SessionWindows`, seen from the processors layer). */
export interface SessionWindowsSpec {
  inactivityGap(): number;
  gracePeriodMs(): number;
}

/** How the session aggregation folds values. */
export interface SessionAggregation<K, V, AGG> {
  /** The operation, for error messages (`count`, `reduce`, `aggregate`). */
  readonly operation: string;
  readonly initializer: () => AGG;
  readonly aggregator: (key: K, value: V, aggregate: AGG) => AGG;
  /** Combines the aggregate so far with a merged session's (Kafka's `Merger`). */
  readonly merger: (key: K, aggregate1: AGG, aggregate2: AGG) => AGG;
}

/** Kafka's `KStreamSessionWindowAggregate`: see the module comment. */
export class SessionWindowAggregateSupplier<K, V, AGG> implements KTableProcessorSupplier<K, V, Windowed<K>, AGG>, WindowedAggregateSupplier {
  private sendOldValues = false;

  constructor(
    readonly windows: SessionWindowsSpec,
    readonly storeName: string,
    /** True for `EmitStrategy.onWindowClose()`. */
    readonly emitOnWindowClose: boolean,
    private readonly aggregation: SessionAggregation<K, V, AGG>,
  ) {}

  /** Grace plus gap: a session closes that long after its end. */
  windowCloseDelayMs(): number {
    return this.windows.gracePeriodMs() + this.windows.inactivityGap();
  }

  enableSendingOldValues(): boolean {
    this.sendOldValues = true;
    return true;
  }

  get(): Processor<K, V, Windowed<K>, Change<AGG>> {
    return new SessionWindowAggregateProcessor<K, V, AGG>(this, this.aggregation, this.sendOldValues);
  }

  /** Kafka's `KTableSessionWindowValueGetter`: the aggregate of exactly that session, stamped with its end. */
  view(): KTableValueGetterSupplier<Windowed<K>, AGG> {
    const { storeName } = this;
    return {
      get() {
        let store: SessionStore<K, AGG>;
        return {
          init(context) {
            store = context.getStateStore<SessionStore<K, AGG>>(storeName);
          },
          get(key) {
            return ValueAndTimestamp.make(store.fetchSession(key.key, key.window.start, key.window.end), key.window.end);
          },
        };
      },
      storeNames: () => [storeName],
    };
  }
}

function mergeSessionWindow(one: SessionWindow, two: SessionWindow): SessionWindow {
  return { start: Math.min(one.start, two.start), end: Math.max(one.end, two.end) };
}

class SessionWindowAggregateProcessor<K, V, AGG> implements Processor<K, V, Windowed<K>, Change<AGG>> {
  private context!: DslProcessorContext<Windowed<K>, Change<AGG>>;
  private store!: SessionStore<K, AGG>;
  private forwarder!: SessionTupleForwarder<K, AGG>;
  private emitFinal: EmitFinalTracker | undefined;
  private observedStreamTime = NO_TIMESTAMP;
  /** False until the first record: then the emit-final times are taken from the store (see the module comment). */
  private resumed = false;

  constructor(
    private readonly supplier: SessionWindowAggregateSupplier<K, V, AGG>,
    private readonly aggregation: SessionAggregation<K, V, AGG>,
    private readonly sendOldValues: boolean,
  ) {}

  init(context: ProcessorContext<Windowed<K>, Change<AGG>>): void {
    this.context = dslContext(context);
    this.store = context.getStateStore<SessionStore<K, AGG>>(this.supplier.storeName);
    if (this.supplier.emitOnWindowClose) {
      this.emitFinal = EmitFinalTracker.forContext(this.context);
      this.forwarder = new SessionTupleForwarder<K, AGG>(undefined, this.context, this.sendOldValues);
    } else {
      this.forwarder = new SessionTupleForwarder<K, AGG>(this.store, this.context, this.sendOldValues);
    }
  }

  process(record: Record<K, V>): void {
    const { windows } = this.supplier;
    const { operation, initializer, aggregator, merger } = this.aggregation;
    // 1.
    if (record.key === null || record.key === undefined) {
      this.context.recordDropped('null key');
      return;
    }
    if (!this.resumed) this.resumeFromStore();
    // 2.
    const timestamp = record.timestamp;
    this.observedStreamTime = Math.max(this.observedStreamTime, timestamp);
    const windowCloseTime = this.observedStreamTime - windows.gracePeriodMs() - windows.inactivityGap();
    // 3.
    const newSessionWindow: SessionWindow = { start: timestamp, end: timestamp };
    let mergedWindow = newSessionWindow;
    let agg = syncResult(operation, 'initializer', initializer());
    const merged: KeyValue<Windowed<K>, AGG>[] = this.store.findSessions(record.key, timestamp - windows.inactivityGap(), timestamp + windows.inactivityGap());
    for (const next of merged) {
      agg = syncResult(operation, 'session merger', merger(record.key, agg, next.value));
      mergedWindow = mergeSessionWindow(mergedWindow, next.key.window);
    }
    if (mergedWindow.end < windowCloseTime) {
      // 4.
      this.logSkippedRecordForExpiredWindow(timestamp, windowCloseTime, mergedWindow);
    } else {
      // 5.
      if (mergedWindow.start !== newSessionWindow.start || mergedWindow.end !== newSessionWindow.end) {
        for (const session of merged) {
          this.store.remove(session.key);
          this.maybeForwardUpdate(session.key, session.value, null);
        }
      }
      agg = syncResult(operation, 'aggregator', aggregator(record.key, record.value, agg));
      const sessionKey: Windowed<K> = { key: record.key, window: mergedWindow };
      this.store.put(sessionKey, agg);
      this.maybeForwardUpdate(sessionKey, null, agg);
    }
    // 6.
    this.maybeForwardFinalResult(record, windowCloseTime);
  }

  /** Emit-final after a restart: stream time and the last emitted close time from the store's stream time. */
  private resumeFromStore(): void {
    this.resumed = true;
    const tracker = this.emitFinal;
    const storeTime = (this.store as { streamTime?: number }).streamTime;
    if (tracker === undefined || storeTime === undefined || storeTime < 0) return;
    const { windows } = this.supplier;
    this.observedStreamTime = Math.max(this.observedStreamTime, storeTime);
    const closeTime = storeTime - windows.gracePeriodMs() - windows.inactivityGap();
    if (closeTime > 0) tracker.lastEmitWindowCloseTime = closeTime;
  }

  private maybeForwardUpdate(windowedKey: Windowed<K>, oldAgg: AGG | null, newAgg: AGG | null): void {
    if (this.emitFinal !== undefined) return;
    const change = Change.of<AGG>(newAgg, this.sendOldValues ? oldAgg : null);
    // the forwarded record's timestamp is the session's end
    this.forwarder.maybeForward(recordOf(windowedKey, change, windowedKey.window.end, undefined));
  }

  /** Step 6: the sessions that closed since the last emission, by end time, each `Change(agg, null)` at its end. */
  private maybeForwardFinalResult(record: Record<K, V>, windowCloseTime: number): void {
    const tracker = this.emitFinal;
    if (tracker === undefined) return;
    const range = tracker.dueRange(this.context.currentSystemTimeMs(), windowCloseTime);
    if (range === undefined) return;
    for (const kv of this.store.findSessions(range.lower, range.upper)) {
      this.forwarder.maybeForward(recordOf(kv.key, Change.of<AGG>(kv.value, null), kv.key.window.end, record));
    }
    tracker.lastEmitWindowCloseTime = windowCloseTime;
  }

  private logSkippedRecordForExpiredWindow(timestamp: number, windowExpire: number, window: SessionWindow): void {
    const metadata = this.context.recordMetadata();
    const where = metadata === null
      ? 'Topic, partition, and offset not known. '
      : `topic=[${metadata.topic}] partition=[${metadata.partition}] offset=[${metadata.offset}] `;
    this.context.recordDropped(
      'expired window',
      `Skipping record for expired window. ${where}timestamp=[${timestamp}] window=[${window.start},${window.end}] expiration=[${windowExpire}] streamTime=[${this.observedStreamTime}]`,
    );
  }
}

/** A record of the windowed key, with the headers of `source` when given (Kafka: `new Record<>(..)` for updates, the input's headers for final results). */
function recordOf<K, AGG>(key: Windowed<K>, change: Change<AGG>, timestamp: number, source: Record<K, unknown> | undefined): Record<Windowed<K>, Change<AGG>> {
  return new Record(key, change, timestamp, source?.headers ?? {});
}
