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
 *
 * With a grace period (KIP-923, `Joined.withGracePeriod`, over a versioned
 * table) step 2 waits: a record passing step 1 goes into the join's buffer
 * (`stream-table-join-buffer.ts`) and is joined, as of its own timestamp,
 * once the buffer's stream time passed its timestamp plus the grace (records
 * come out in timestamp order, each forwarded with its own record context);
 * a record already older than that is joined at once. A left join's
 * null-key record is joined at once (it has no key to buffer under).
 */
import { IllegalArgumentError } from '../../errors.js';
import { dslContext, type DslProcessorContext } from '../dsl-context.js';
import type { Processor, ProcessorContext } from '../processor.js';
import { Record } from '../record.js';
import type { KTableValueGetter, KTableValueGetterSupplier } from './ktable-contract.js';
import type { BufferedStreamRecord, TimeOrderedKeyValueBuffer } from './stream-table-join-buffer.js';
import { syncResult } from './sync-result.js';

/** The joiner of a stream–table join: `(streamValue, tableValue, key) => result` (Kafka's ValueJoinerWithKey). */
export type StreamTableJoiner<K, V1, V2, VOut> = (value: V1, tableValue: V2, key: K) => VOut;

/** Kafka's message when the table of a join with a grace period is not versioned. */
export const GRACE_NEEDS_VERSIONED_TABLE = 'KTable must be versioned to use a grace period in a stream table join.';

/** The buffer of a join with a grace period: its store's name (Kafka's `<join name>-Buffer`). */
export interface StreamTableJoinGrace {
  readonly bufferStoreName: string;
}

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
    /** KIP-923: buffer stream records for a grace period (a stream–KTable join over a versioned table only). */
    private readonly grace?: StreamTableJoinGrace,
  ) {}

  get(): Processor<K, V1, K, VOut> {
    const { joiner, leftJoin, keyMapper, grace } = this;
    const getter: KTableValueGetter<K2, V2> = this.valueGetterSupplier.get();
    let context: DslProcessorContext<K, VOut>;
    let buffer: TimeOrderedKeyValueBuffer<K, V1> | undefined;
    // 2.–3. look the table up and forward (Kafka's doJoin)
    const doJoin = (record: Record<K, V1>, mappedKey: K2 | null | undefined, send: (result: Record<K, VOut>) => void = (r) => context.forward(r)): void => {
      // (a versioned table answers the value valid at the stream record's timestamp, as Kafka's KIP-914)
      const row = isNull(mappedKey) ? null : getter.getAsOf !== undefined && getter.isVersioned?.() === true ? getter.getAsOf(mappedKey, record.timestamp) : getter.get(mappedKey);
      const tableValue = row?.value ?? null;
      if (!leftJoin && tableValue === null) return;
      const result = syncResult(leftJoin ? 'leftJoin' : 'join', 'joiner', joiner(record.value, tableValue, record.key));
      send(record.withValue(result));
    };
    const mapKey = (key: K, value: V1): K2 | null | undefined => syncResult('join', 'keySelector', keyMapper(key, value));
    // a buffered record is joined with the record context it arrived with (Kafka's emit)
    const emit = (held: BufferedStreamRecord<K, V1>): void => {
      const { key, value, context: origin } = held;
      const record = new Record<K, V1>(key, value, origin.timestamp, origin.headers);
      const recordContext = { timestamp: origin.timestamp, headers: origin.headers, ...(origin.topic === null ? {} : { topic: origin.topic, partition: origin.partition, offset: origin.offset }) };
      doJoin(record, mapKey(key, value), (result) => context.forwardFromCache(result, recordContext));
    };
    return {
      init(c) {
        context = dslContext(c);
        getter.init(c as ProcessorContext<unknown, unknown>);
        if (grace === undefined) return;
        if (getter.isVersioned?.() !== true) throw new IllegalArgumentError(GRACE_NEEDS_VERSIONED_TABLE);
        buffer = c.getStateStore<TimeOrderedKeyValueBuffer<K, V1>>(grace.bufferStoreName);
      },
      process(record: Record<K, V1>) {
        // 1. null key or value (the mapped key: the record's key, or what keyMapper chose)
        const mappedKey = mapKey(record.key, record.value);
        const keepNullKey = leftJoin && isNull(record.key) && !isNull(record.value);
        if (!keepNullKey && (isNull(mappedKey) || isNull(record.value))) {
          context.recordDropped(NULL_JOIN_KEY_OR_VALUE);
          return;
        }
        // (KIP-923) held for the grace period unless too late for it; then what waited long enough is joined
        if (buffer === undefined || isNull(record.key)) {
          doJoin(record, mappedKey);
          return;
        }
        const metadata = context.recordMetadata();
        const origin = { timestamp: record.timestamp, headers: record.headers, topic: metadata?.topic ?? null, partition: metadata?.partition ?? -1, offset: metadata?.offset ?? -1 };
        if (!buffer.put(record.key, record.value, record.timestamp, origin)) doJoin(record, mappedKey);
        else buffer.evictWhile(() => true, emit);
      },
      close() {
        getter.close?.();
      },
    };
  }
}
