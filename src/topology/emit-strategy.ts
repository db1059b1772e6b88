/**
 * When a windowed aggregation emits (KIP-825, Kafka's `EmitStrategy`):
 * `onWindowUpdate()` (the default) forwards every update of a window;
 * `onWindowClose()` forwards each window once, its final result, when stream
 * time passes its end plus grace.
 */

/** The two strategies, by Kafka's names. */
export type EmitStrategyType = 'ON_WINDOW_UPDATE' | 'ON_WINDOW_CLOSE';

/** An emit strategy (Kafka's `EmitStrategy`). */
export interface EmitStrategy {
  /** Kafka's `StrategyType`. */
  readonly type: EmitStrategyType;
}

const ON_WINDOW_UPDATE: EmitStrategy = Object.freeze({ type: 'ON_WINDOW_UPDATE' });
const ON_WINDOW_CLOSE: EmitStrategy = Object.freeze({ type: 'ON_WINDOW_CLOSE' });

/** Factories of {@link EmitStrategy}. */
export const EmitStrategy = {
  /** Each window is emitted once, when it closes (stream time past its end plus grace). */
  onWindowClose(): EmitStrategy {
    return ON_WINDOW_CLOSE;
  },
  /** Every update of a window is emitted (as the store's cache lets through). */
  onWindowUpdate(): EmitStrategy {
    return ON_WINDOW_UPDATE;
  },
};
