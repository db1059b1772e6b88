/**
 * The end of a foreign-key join (Kafka's `ResponseJoinProcessorSupplier`),
 * back on the left side: a response whose hash is not the hash of the left
 * row's current value is stale (the row changed since) and dropped; else the
 * joiner makes the result. A response without a foreign value makes a
 * tombstone for an inner join (or a left join whose row is gone) and a
 * left join's `joiner(value, null)` otherwise.
 */
import type { Processor, ProcessorContext } from '../../processor.js';
import { dslContext, type DslProcessorContext } from '../../dsl-context.js';
import type { Serializer } from '../../../serdes/serde.js';
import type { KTableValueGetter, KTableValueGetterSupplier } from '../ktable-contract.js';
import { syncResult } from '../sync-result.js';
import { hash128, hashesEqual } from './murmur3.js';
import type { SubscriptionResponseWrapper } from './subscription-response-wrapper.js';

/** What the response join needs. */
export interface ResponseJoinOptions<K, V, VO, VR> {
  /** The left table's view. */
  readonly values: KTableValueGetterSupplier<K, V>;
  readonly valueSerializer: Serializer<V>;
  /** Pseudo topic the left value is serialized under for its hash (the send processor's). */
  readonly valueHashTopic: string;
  readonly joiner: (value: V | null, foreignValue: VO | null, key: K) => VR;
  readonly leftJoin: boolean;
}

/** The processor supplier; see the file comment. */
export function responseJoinSupplier<K, V, VO, VR>(options: ResponseJoinOptions<K, V, VO, VR>): () => Processor<K, SubscriptionResponseWrapper<VO>, K, VR | null> {
  const { values, valueSerializer, valueHashTopic, joiner, leftJoin } = options;
  return () => {
    let context: DslProcessorContext<K, VR | null>;
    let getter: KTableValueGetter<K, V>;
    return {
      init(c) {
        context = dslContext(c);
        getter = values.get();
        getter.init(c as ProcessorContext<unknown, unknown>);
      },
      process(record) {
        const current = getter.get(record.key);
        const bytes = current === null ? null : valueSerializer.serialize(valueHashTopic, current.value);
        const currentHash = bytes === null ? null : hash128(bytes);
        if (!hashesEqual(record.value.originalValueHash, currentHash)) {
          context.recordDropped('stale foreign-key join response (hash mismatch)');
          return;
        }
        const foreignValue = record.value.foreignValue;
        const result =
          foreignValue === null && (!leftJoin || current === null)
            ? null
            : (syncResult('join', 'joiner', joiner(current?.value ?? null, foreignValue, record.key)) ?? null);
        context.forward(record.withValue(result));
      },
      close() {
        getter.close?.();
      },
    };
  };
}
