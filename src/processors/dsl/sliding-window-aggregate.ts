/**
 * The processor supplier of a sliding-window aggregation (Kafka's
 * `KStreamSlidingWindowAggregate`): a KTable node of `Windowed<K>` keys over
 * a timestamped window store per task. Its view looks a windowed key up in
 * that store; it sends old values once asked; it tells suppression when its
 * windows close (`windowCloseDelayMs()`: the grace period).
 *
 * Initializer and aggregator (or reducer) must be synchronous. Count,
 * reduce and aggregate differ only in these two functions:
 * - count: `() => 0`, `(k, v, n) => n + 1`;
 * - reduce: no initial aggregate, `(k, v, agg) => agg === null ? v : reducer(agg, v)`;
 * - aggregate: the user's.
 */
import type { Processor } from '../processor.js';
import type { Windowed } from '../../state/window-types.js';
import type { Change } from './change.js';
import type { KTableProcessorSupplier, KTableValueGetterSupplier } from './ktable-contract.js';
import { SlidingWindowAggregateProcessor } from './sliding-window-processor.js';
import { syncResult } from './sync-result.js';
import { windowStoreValueGetter } from './window-aggregate.js';
import type { WindowEmitStrategy } from './window-aggregate-processor.js';
import type { WindowedAggregateSupplier } from './windowed-contract.js';

/** The sliding window definition as the processor reads it (the topology's `SlidingWindows`). */
export interface SlidingWindowSpec {
  timeDifferenceMs(): number;
  gracePeriodMs(): number;
}

/** Kafka's `KStreamSlidingWindowAggregate`. */
export class SlidingWindowAggregateSupplier<K, V, A> implements KTableProcessorSupplier<K, V, Windowed<K>, A>, WindowedAggregateSupplier {
  private sendOldValues = false;

  constructor(
    readonly windows: SlidingWindowSpec,
    readonly storeName: string,
    readonly emitStrategy: WindowEmitStrategy,
    private readonly initializer: () => A | null,
    private readonly aggregator: (key: K, value: V, aggregate: A | null) => A,
  ) {}

  get(): Processor<K, V, Windowed<K>, Change<A>> {
    return new SlidingWindowAggregateProcessor<K, V, A>({
      storeName: this.storeName,
      timeDifferenceMs: this.windows.timeDifferenceMs(),
      gracePeriodMs: this.windows.gracePeriodMs(),
      emitStrategy: this.emitStrategy,
      sendOldValues: this.sendOldValues,
      initializer: this.initializer,
      aggregator: this.aggregator,
    });
  }

  /** Old values are always available: the aggregation keeps its store (the flag is ignored, as Kafka's). */
  enableSendingOldValues(): boolean {
    this.sendOldValues = true;
    return true;
  }

  /** Looks `windowedKey` up in the window store: the aggregate of the window starting at its start (Kafka's `KStreamWindowAggregateValueGetter`). */
  view(): KTableValueGetterSupplier<Windowed<K>, A> {
    return windowStoreValueGetter<K, A>(this.storeName);
  }

  /** Windows close at their end plus grace. */
  windowCloseDelayMs(): number {
    return this.windows.gracePeriodMs();
  }
}

/** `count()`: 0, then + 1 per record. */
export function slidingCountSupplier<K, V>(windows: SlidingWindowSpec, storeName: string, emitStrategy: WindowEmitStrategy): SlidingWindowAggregateSupplier<K, V, number> {
  return new SlidingWindowAggregateSupplier<K, V, number>(windows, storeName, emitStrategy, () => 0, (_k, _v, n) => (n ?? 0) + 1);
}

/** `aggregate(initializer, aggregator)`. */
export function slidingAggregateSupplier<K, V, A>(
  windows: SlidingWindowSpec,
  storeName: string,
  emitStrategy: WindowEmitStrategy,
  initializer: () => A,
  aggregator: (key: K, value: V, aggregate: A) => A,
): SlidingWindowAggregateSupplier<K, V, A> {
  return new SlidingWindowAggregateSupplier<K, V, A>(
    windows,
    storeName,
    emitStrategy,
    () => syncResult('aggregate', 'initializer', initializer()),
    (key, value, aggregate) => syncResult('aggregate', 'aggregator', aggregator(key, value, aggregate as A)),
  );
}

/** `reduce(reducer)`: the first value as is, then `reducer(aggregate, value)`. */
export function slidingReduceSupplier<K, V>(windows: SlidingWindowSpec, storeName: string, emitStrategy: WindowEmitStrategy, reducer: (aggregate: V, value: V) => V): SlidingWindowAggregateSupplier<K, V, V> {
  return new SlidingWindowAggregateSupplier<K, V, V>(windows, storeName, emitStrategy, () => null, (_k, value, aggregate) =>
    aggregate === null ? value : syncResult('reduce', 'reducer', reducer(aggregate, value)),
  );
}
