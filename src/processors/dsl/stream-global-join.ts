/**
 * The processor of `stream.join/leftJoin(globalTable, keySelector, joiner)`
 * (Kafka's `KStreamGlobalKTableJoin` over `KStreamKTableJoinProcessor`):
 * each stream record looks up the global table's row of
 * `keySelector(key, value)` and forwards `joiner(value, row, key)` with the
 * stream record's key and timestamp. Global-table updates produce nothing.
 *
 * For each record (the steps of Kafka's `process` / `maybeDropRecord` /
 * `doJoin`):
 * 1. select the table key;
 * 2. drop the record (logged, counted as skipped) when the selected key or
 *    the value is null — except a left join keeps a null-key record with a
 *    value;
 * 3. look the row up (none when the selected key is null);
 * 4. forward the joined value: always for a left join (row null when
 *    missing), only with a row for an inner join.
 */
import type { Processor, ProcessorContext, ProcessorSupplier } from '../processor.js';
import { dslContext, type DslProcessorContext } from '../dsl-context.js';
import type { Record } from '../record.js';
import type { KTableValueGetter, KTableValueGetterSupplier } from './ktable-contract.js';
import { syncResult } from './sync-result.js';

/** The supplier of the KStream–GlobalKTable join processor; see the file comment. */
export function streamGlobalJoinSupplier<K, V, GK, GV, VR>(
  table: KTableValueGetterSupplier<GK, GV>,
  keySelector: (key: K, value: V) => GK,
  joiner: (value: V, tableValue: GV | null, key: K) => VR,
  leftJoin: boolean,
): ProcessorSupplier<K, V, K, VR> {
  return (): Processor<K, V, K, VR> => {
    let context: DslProcessorContext<K, VR>;
    let getter: KTableValueGetter<GK, GV>;
    return {
      init(c) {
        context = dslContext(c);
        getter = table.get();
        getter.init(c as ProcessorContext<unknown, unknown>);
      },
      process(record: Record<K, V>) {
        // 1.
        const mappedKey = syncResult('join', 'keySelector', keySelector(record.key, record.value)) ?? null;
        // 2.
        const keepNullKey = leftJoin && (record.key === null || record.key === undefined) && record.value !== null && record.value !== undefined;
        if (!keepNullKey && (mappedKey === null || record.value === null || record.value === undefined)) {
          context.recordDropped('null join key or value');
          return;
        }
        // 3.
        const row = mappedKey === null ? null : (getter.get(mappedKey)?.value ?? null);
        // 4.
        if (leftJoin || row !== null) context.forward(record.withValue(syncResult('join', 'joiner', joiner(record.value, row, record.key))));
      },
      close() {
        getter?.close?.();
      },
    };
  };
}
