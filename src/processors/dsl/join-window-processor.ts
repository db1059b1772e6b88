/**
 * The window node of a stream–stream join (Kafka's `KStreamJoinWindow`,
 * named `KSTREAM-WINDOWED-<n>`): forwards each record to its join processor,
 * then keeps it in the side's window store (retaining duplicates) for the
 * other side's records to find. A record with a null key can never join and
 * is not stored.
 */
import type { Processor, ProcessorContext, ProcessorSupplier } from '../processor.js';
import type { Record } from '../record.js';
import type { WindowStore } from '../../state/window-store.js';

/** The supplier of a join window node storing into the window store `storeName`. */
export function joinWindowSupplier<K, V>(storeName: string): ProcessorSupplier<K, V, K, V> {
  return (): Processor<K, V, K, V> => {
    let context: ProcessorContext<K, V>;
    let window: WindowStore<K, V>;
    return {
      init(ctx) {
        context = ctx;
        window = ctx.getStateStore<WindowStore<K, V>>(storeName);
      },
      process(record: Record<K, V>) {
        // 1. the join processor first (it must not find this record in its own side's store)
        context.forward(record);
        // 2. then the store: every record starts a window of its own; the store is kept for its retention
        if (record.key !== null && record.key !== undefined) window.put(record.key, record.value, record.timestamp);
      },
    };
  };
}
