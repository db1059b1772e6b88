/**
 * The right side's handling of subscriptions (Kafka's
 * `SubscriptionReceiveProcessorSupplier` and `SubscriptionJoinProcessorSupplier`):
 * 1. receive: store the subscription under `CombinedKey(fk, pk)` in the
 *    subscription store (delete it for the two delete instructions) and
 *    forward it as a change (a null foreign key, sent by left joins only,
 *    is forwarded without touching the store);
 * 2. join: look the foreign key up in the right table and answer the
 *    primary key as the instruction says.
 */
import type { Processor, ProcessorContext } from '../../processor.js';
import { dslContext, type DslProcessorContext } from '../../dsl-context.js';
import type { TimestampedKeyValueStore } from '../../../state/timestamped-key-value-store.js';
import type { ValueAndTimestamp } from '../../../state/value-and-timestamp.js';
import { Change } from '../change.js';
import type { KTableValueGetter, KTableValueGetterSupplier } from '../ktable-contract.js';
import type { CombinedKey, CombinedKeySchema } from './combined-key.js';
import { responseWrapper, type SubscriptionResponseWrapper } from './subscription-response-wrapper.js';
import { Instruction, instructionName, type SubscriptionWrapper } from './subscription-wrapper.js';

type Subscription<K> = ValueAndTimestamp<SubscriptionWrapper<K>>;

/** Step 1 of the file comment: `storeName` is the subscription store. */
export function subscriptionReceiveSupplier<K, KO>(
  storeName: string,
  keySchema: CombinedKeySchema<KO, K>,
): () => Processor<KO | null, SubscriptionWrapper<K>, CombinedKey<KO | null, K>, Change<Subscription<K>>> {
  return () => {
    let context: DslProcessorContext<CombinedKey<KO | null, K>, Change<Subscription<K>>>;
    let store: TimestampedKeyValueStore<Buffer, SubscriptionWrapper<K>>;
    return {
      init(c) {
        context = dslContext(c);
        store = c.getStateStore<TimestampedKeyValueStore<Buffer, SubscriptionWrapper<K>>>(storeName);
      },
      process(record) {
        const subscription = record.value;
        const foreignKey = record.key ?? null;
        if (foreignKey === null && subscription.instruction !== Instruction.PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE) {
          context.recordDropped('null foreign key');
          return;
        }
        const newValue = { value: subscription, timestamp: record.timestamp };
        let oldValue: Subscription<K> | null = null;
        if (foreignKey !== null) {
          // This store is what the foreign table's prefix scan reads.
          const key = keySchema.toBytes(foreignKey, subscription.primaryKey);
          oldValue = store.get(key);
          const remove = subscription.instruction === Instruction.DELETE_KEY_AND_PROPAGATE || subscription.instruction === Instruction.DELETE_KEY_NO_PROPAGATE;
          store.put(key, remove ? null : newValue);
        }
        context.forward(record.withKey({ foreignKey, primaryKey: subscription.primaryKey }).withValue(Change.of(newValue, oldValue)));
      },
    };
  };
}

/** Step 2 of the file comment: `foreignValues` is the right table's view. */
export function subscriptionJoinSupplier<K, KO, VO>(
  foreignValues: KTableValueGetterSupplier<KO, VO>,
): () => Processor<CombinedKey<KO | null, K>, Change<Subscription<K>>, K, SubscriptionResponseWrapper<VO>> {
  return () => {
    let context: DslProcessorContext<K, SubscriptionResponseWrapper<VO>>;
    let getter: KTableValueGetter<KO, VO>;
    return {
      init(c) {
        context = dslContext(c);
        getter = foreignValues.get();
        getter.init(c as ProcessorContext<unknown, unknown>);
      },
      process(record) {
        const subscription = record.value.newValue;
        if (subscription === null) throw new TypeError('subscription join: a subscription change without a new value');
        const { hash, instruction, primaryPartition } = subscription.value;
        const foreign = record.key.foreignKey === null ? null : getter.get(record.key.foreignKey);
        const timestamp = foreign === null ? subscription.timestamp : Math.max(subscription.timestamp, foreign.timestamp);
        const answer = (value: VO | null): void => {
          context.forward(record.withKey(record.key.primaryKey).withValue(responseWrapper(hash, value, primaryPartition)).withTimestamp(timestamp));
        };
        switch (instruction) {
          case Instruction.DELETE_KEY_AND_PROPAGATE:
            return answer(null);
          case Instruction.PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE:
            // Goes through for inner and left joins alike: the foreign key changed, the old output must be unset.
            return answer(foreign?.value ?? null);
          case Instruction.PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE:
            if (foreign !== null) answer(foreign.value);
            return;
          case Instruction.DELETE_KEY_NO_PROPAGATE:
            return;
          default:
            throw new TypeError(`subscription join: unhandled instruction ${instructionName(instruction)}`);
        }
      },
      close() {
        getter.close?.();
      },
    };
  };
}
