/**
 * The transformer of `KTable.transformValues` (Kafka's
 * `ValueTransformerWithKey` and `ValueTransformerWithKeySupplier`): a
 * stateful per-value computation that sees the key, may use state stores and
 * cannot forward (the table node forwards its result).
 */
import type { ConnectedStoreProvider, ProcessorContext } from '../processor.js';

/**
 * Computes a new value from a read-only key and a value (Kafka's
 * `ValueTransformerWithKey`). One instance per task (and one more per value
 * getter reading the table when it is not materialized).
 *
 * - `init(context)`: once, before the first `transform`; reach the stores
 *   named in `transformValues(…, storeNames)` (or declared by the supplier's
 *   `stores()`) with `context.getStateStore(name)`. `context.forward` throws:
 *   the table node forwards the result (Kafka's `ForwardingDisabledProcessorContext`).
 * - `transform(readOnlyKey, value)`: the new value; `value` is null for a
 *   deleted key (the transformer is called for it, as Kafka's). A result of
 *   null or undefined is a delete. Runs synchronously.
 * - `close()`: when the task closes.
 */
export interface ValueTransformerWithKey<K, V, VR> {
  init?(context: ProcessorContext<never, never>): void;
  transform(readOnlyKey: K, value: V | null): VR | null | undefined;
  close?(): void;
}

/**
 * Creates a new {@link ValueTransformerWithKey} per call (Kafka's
 * `ValueTransformerWithKeySupplier`): a function or an object with `get()`;
 * either may declare stores with `stores()` (added and connected to the
 * table node, as `KStream.process` does).
 */
export type ValueTransformerWithKeySupplier<K, V, VR> = ((() => ValueTransformerWithKey<K, V, VR>) | { get(): ValueTransformerWithKey<K, V, VR> }) & ConnectedStoreProvider;
