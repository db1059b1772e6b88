/**
 * Serdes and stores of a stream–stream join (Kafka's `StreamJoined`).
 * TODO(issue 16, stream-stream joins).
 */
import type { WindowBytesStoreSupplier } from '../processors/state/window-store.js';
import type { Serde } from '../serdes/serde.js';

/** See the file comment. */
export interface StreamJoined<K, V, VO> {
  readonly keySerde?: Serde<K>;
  readonly valueSerde?: Serde<V>;
  readonly otherValueSerde?: Serde<VO>;
  readonly thisStoreSupplier?: WindowBytesStoreSupplier;
  readonly otherStoreSupplier?: WindowBytesStoreSupplier;
  /** Base name of the join's processors. */
  readonly name?: string;
  /** Base name of the join's stores and their changelogs. */
  readonly storeName?: string;
  readonly loggingEnabled?: boolean;
  readonly logConfig?: Record<string, string>;
}

/** Helpers for {@link StreamJoined}. */
export const StreamJoined = {
  with<K, V, VO>(keySerde: Serde<K>, valueSerde: Serde<V>, otherValueSerde: Serde<VO>): StreamJoined<K, V, VO> {
    return { keySerde, valueSerde, otherValueSerde };
  },
};
