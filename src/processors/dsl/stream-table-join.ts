/**
 * The processor of `stream.join(table, joiner)` / `stream.leftJoin(table,
 * joiner)` (Kafka's `KStreamKTableJoin` and `KStreamKTableJoinProcessor`):
 * each stream record looks up the table's current value of its key through
 * the table's value getter and forwards `joiner(value, tableValue, key)` with
 * the stream record's key, timestamp and headers. Table updates trigger
 * nothing (the table side is only looked up).
 *
 * Per record, as Kafka's `process`:
 * 1. a record with a null value, or with a null key in an inner join, is
 *    dropped (logged as "Skipping record due to null join key or value" and
 *    counted); a left join keeps a null-key record with a value (Kafka 3.7+),
 *    joined with a null table value;
 * 2. the table value of the key is looked up (none for a null key);
 *    a stream–global-table join looks up `keyMapper(key, value)` instead;
 * 3. an inner join forwards only when there is a table value; a left join
 *    always forwards (the table value is null when there is none).
 */
import { dslContext, type DslProcessorContext } from '../dsl-context.js';
import type { Processor, ProcessorContext } from '../processor.js';
import type { Record } from '../record.js';
import type { KTableValueGetter, KTableValueGetterSupplier } from './ktable-contract.js';
import { syncResult } from './sync-result.js';

/** The joiner of a stream–table join: `(streamValue, tableValue, key) => result` (Kafka's ValueJoinerWithKey). */
export type StreamTableJoiner<K, V1, V2, VOut> = (value: V1, tableValue: V2, key: K) => VOut;

/** Kafka's reason for skipping a record of a stream–table (or stream–global-table) join. */
export const NULL_JOIN_KEY_OR_VALUE = 'null join key or value';

function isNull(x: unknown): x is null | undefined {
  return x === null || x === undefined;
}

/**
 * The supplier of the join processor; see the file comment. `keyMapper`
 * (Kafka's `KeyValueMapper` of a stream–global-table join) chooses the key
 * looked up, default the record's key; a null mapped key joins nothing (an
 * inner join drops the record, as a null key).
 */
export class KStreamKTableJoinSupplier<K, V1, K2, V2, VOut> {
  constructor(
    private readonly valueGetterSupplier: KTableValueGetterSupplier<K2, V2>,
    private readonly joiner: StreamTableJoiner<K, V1, V2 | null, VOut>,
    private readonly leftJoin: boolean,
    // the default (no key mapper) is used only where K2 is K; a default parameter cannot be typed per call
    private readonly keyMapper: (key: K, value: V1) => K2 = (key) => key as unknown as K2,
  ) {}

  get(): Processor<K, V1, K, VOut> {
    const { joiner, leftJoin, keyMapper } = this;
    const getter: KTableValueGetter<K2, V2> = this.valueGetterSupplier.get();
    let context: DslProcessorContext<K, VOut>;
    return {
      init(c) {
        context = dslContext(c);
        getter.init(c as ProcessorContext<unknown, unknown>);
      },
      process(record: Record<K, V1>) {
        // 1. null key or value (the mapped key: the record's key, or what keyMapper chose)
        const mappedKey = syncResult('join', 'keySelector', keyMapper(record.key, record.value));
        const keepNullKey = leftJoin && isNull(record.key) && !isNull(record.value);
        if (!keepNullKey && (isNull(mappedKey) || isNull(record.value))) {
          context.recordDropped(NULL_JOIN_KEY_OR_VALUE);
          return;
        }
        // 2. look-up
        // (a versioned table answers the value valid at the stream record's timestamp, as Kafka's KIP-914)
        const row = isNull(mappedKey) ? null : getter.getAsOf !== undefined && getter.isVersioned?.() === true ? getter.getAsOf(mappedKey, record.timestamp) : getter.get(mappedKey);
        const tableValue = row?.value ?? null;
        // 3. forward
        if (!leftJoin && tableValue === null) return;
        const result = syncResult(leftJoin ? 'leftJoin' : 'join', 'joiner', joiner(record.value, tableValue, record.key));
        context.forward(record.withValue(result));
      },
      close() {
        getter.close?.();
      },
    };
  }
}
