/**
 * What the three windowed streams (`time-windowed.ts`, `sliding-windowed.ts`,
 * `session-windowed.ts`) resolve alike for each aggregation: the checked emit
 * strategy, and the serdes of its store and table (`Materialized`'s, else the
 * grouping's key serde and the operation's default value serde).
 */
import { IllegalArgumentError } from '../../errors.js';
import type { Serde } from '../../serdes/serde.js';
import type { EmitStrategy } from '../emit-strategy.js';
import type { Materialized } from '../options.js';
import { requireNonNull } from './checks.js';
import type { GroupedStreamParts } from './grouped-parts.js';

/** `strategy`, checked: `EmitStrategy.onWindowClose()` or `EmitStrategy.onWindowUpdate()`. */
export function checkedEmitStrategy(strategy: EmitStrategy): EmitStrategy {
  requireNonNull(strategy, 'emitStrategy');
  if (strategy.type !== 'ON_WINDOW_CLOSE' && strategy.type !== 'ON_WINDOW_UPDATE') {
    throw new IllegalArgumentError(`emitStrategy: give EmitStrategy.onWindowClose() or EmitStrategy.onWindowUpdate(); got ${String(strategy.type)}`);
  }
  return strategy;
}

/** The key and value serdes of one windowed aggregation's store (the table's key serde is the windowed serde of `keySerde`). */
export function aggregationSerdes<K, V, A>(parts: GroupedStreamParts<K, V>, materialized: Materialized<K, A>, defaultValueSerde: Serde<A>): { keySerde: Serde<K>; valueSerde: Serde<A> } {
  return { keySerde: materialized.keySerde ?? parts.keySerde(), valueSerde: materialized.valueSerde ?? defaultValueSerde };
}
