/**
 * The right table's updates in a foreign-key join (Kafka's
 * `ForeignTableJoinProcessorSupplier`): each change of a right row is sent
 * to every left row subscribed to its key, found by a prefix scan of the
 * subscription store, as a response carrying the subscriber's hash.
 */
import type { Processor } from '../../processor.js';
import { dslContext, type DslProcessorContext } from '../../dsl-context.js';
import type { TimestampedKeyValueStore } from '../../../state/timestamped-key-value-store.js';
import { Serdes } from '../../../serdes/serdes.js';
import { OUT_OF_ORDER_VERSIONED, type Change } from '../change.js';
import type { CombinedKeySchema } from './combined-key.js';
import { responseWrapper, type SubscriptionResponseWrapper } from './subscription-response-wrapper.js';
import type { SubscriptionWrapper } from './subscription-wrapper.js';

const BYTES = Serdes.Buffer();

/** The processor supplier; see the file comment. */
export function foreignTableJoinSupplier<K, KO, VO>(
  storeName: string,
  keySchema: CombinedKeySchema<KO, K>,
  /** True when the right table is versioned (Kafka's `setUseVersionedSemantics`): an out-of-order change is dropped. */
  useVersionedSemantics = false,
): () => Processor<KO, Change<VO>, K, SubscriptionResponseWrapper<VO>> {
  return () => {
    let context: DslProcessorContext<K, SubscriptionResponseWrapper<VO>>;
    let store: TimestampedKeyValueStore<Buffer, SubscriptionWrapper<K>>;
    return {
      init(c) {
        context = dslContext(c);
        store = c.getStateStore<TimestampedKeyValueStore<Buffer, SubscriptionWrapper<K>>>(storeName);
      },
      process(record) {
        if (record.key === null || record.key === undefined) {
          context.recordDropped('null key');
          return;
        }
        // drop out-of-order records from versioned tables (cf. KIP-914)
        if (useVersionedSemantics && !record.value.isLatest) {
          context.recordDropped(OUT_OF_ORDER_VERSIONED);
          return;
        }
        for (const { key, value } of store.prefixScan(keySchema.prefixBytes(record.key), BYTES)) {
          const { primaryKey } = keySchema.fromBytes(key);
          context.forward(record.withKey(primaryKey).withValue(responseWrapper(value.value.hash, record.value.newValue, value.value.primaryPartition)));
        }
      },
    };
  };
}
