/**
 * The left side of a foreign-key join (Kafka's
 * `SubscriptionSendProcessorSupplier`): for each change of a left row, works
 * out the old and new foreign key and sends the right side subscribe /
 * unsubscribe instructions, keyed by the foreign key, each carrying the
 * Murmur3 hash of the new left value (so a stale response can be told apart)
 * and the left record's partition (where the response goes back to).
 */
import type { Processor } from '../../processor.js';
import type { Record } from '../../record.js';
import { dslContext, type DslProcessorContext } from '../../dsl-context.js';
import type { Serializer } from '../../../serdes/serde.js';
import { OUT_OF_ORDER_VERSIONED, type Change } from '../change.js';
import { syncResult } from '../sync-result.js';
import { hash128, type Hash128 } from './murmur3.js';
import { Instruction, subscriptionWrapper, type SubscriptionWrapper } from './subscription-wrapper.js';

/** What the send processor needs. */
export interface SubscriptionSendOptions<K, V, KO> {
  /** The user's extractor: the foreign key of a left value (null / undefined: none). */
  readonly extractor: (value: V, key: K) => KO | null | undefined;
  readonly foreignKeySerializer: Serializer<KO>;
  /** Pseudo topic the foreign key is serialized under (Kafka: `<subscription topic>-fk`). */
  readonly foreignKeyTopic: string;
  readonly valueSerializer: Serializer<V>;
  /** Pseudo topic the left value is serialized under for its hash (Kafka: `<subscription topic>-vh`). */
  readonly valueHashTopic: string;
  readonly leftJoin: boolean;
  /** True when the left table is versioned (Kafka's `setUseVersionedSemantics`): an out-of-order change is dropped. */
  readonly useVersionedSemantics?: boolean;
}

/** The processor supplier; see the file comment. */
export function subscriptionSendSupplier<K, V, KO>(options: SubscriptionSendOptions<K, V, KO>): () => Processor<K, Change<V>, KO | null, SubscriptionWrapper<K>> {
  const { extractor, foreignKeySerializer, foreignKeyTopic, valueSerializer, valueHashTopic, leftJoin, useVersionedSemantics = false } = options;
  return () => {
    let context: DslProcessorContext<KO | null, SubscriptionWrapper<K>>;
    let recordHash: Hash128 | null | undefined;

    const foreignKeyOf = (value: V, key: K): KO | null => syncResult('join', 'foreignKeyExtractor', extractor(value, key)) ?? null;
    const sameKey = (a: KO | null, b: KO | null): boolean => {
      const x = a === null ? null : foreignKeySerializer.serialize(foreignKeyTopic, a);
      const y = b === null ? null : foreignKeySerializer.serialize(foreignKeyTopic, b);
      return x === null || y === null ? x === y : x.equals(y);
    };
    const hash = (record: Record<K, Change<V>>): Hash128 | null => {
      if (recordHash === undefined) {
        const bytes = record.value.newValue === null ? null : valueSerializer.serialize(valueHashTopic, record.value.newValue);
        recordHash = bytes === null ? null : hash128(bytes);
      }
      return recordHash;
    };
    const send = (record: Record<K, Change<V>>, foreignKey: KO | null, instruction: Instruction): void => {
      const partition = context.recordMetadata()?.partition ?? context.taskId.partition;
      context.forward(record.withKey(foreignKey).withValue(subscriptionWrapper(hash(record), instruction, record.key, partition)));
    };
    const skipNullForeignKey = (): void => context.recordDropped('null foreign key');

    // Kafka's leftJoinInstructions
    const leftJoinInstructions = (record: Record<K, Change<V>>): void => {
      const { newValue, oldValue } = record.value;
      if (oldValue !== null) {
        const oldKey = foreignKeyOf(oldValue, record.key);
        const newKey = newValue === null ? null : foreignKeyOf(newValue, record.key);
        // Unlike Kafka, the old key propagates only when the new one is null: a non-null new key's
        // PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE answers for it, and the old key's null answer (carrying
        // the new value's hash) would otherwise race it through another partition on a real cluster and
        // could land last, leaving `(new,null)` although the new key has a value.
        if (oldKey !== null && !sameKey(newKey, oldKey)) {
          send(record, oldKey, newKey === null ? Instruction.DELETE_KEY_AND_PROPAGATE : Instruction.DELETE_KEY_NO_PROPAGATE);
        }
        send(record, newKey, Instruction.PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE);
      } else if (newValue !== null) {
        send(record, foreignKeyOf(newValue, record.key), Instruction.PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE);
      }
    };

    // Kafka's defaultJoinInstructions (inner join)
    const innerJoinInstructions = (record: Record<K, Change<V>>): void => {
      const { newValue, oldValue } = record.value;
      if (oldValue !== null) {
        const oldKey = foreignKeyOf(oldValue, record.key);
        if (oldKey === null) return skipNullForeignKey();
        if (newValue === null) return send(record, oldKey, Instruction.DELETE_KEY_AND_PROPAGATE);
        const newKey = foreignKeyOf(newValue, record.key);
        if (newKey === null) return skipNullForeignKey();
        // A different foreign key: unsubscribe from the old one; then subscribe to the new one, and send
        // null when it has no value, since the output of the previous key must be unset.
        if (!sameKey(newKey, oldKey)) send(record, oldKey, Instruction.DELETE_KEY_NO_PROPAGATE);
        send(record, newKey, Instruction.PROPAGATE_NULL_IF_NO_FK_VAL_AVAILABLE);
      } else if (newValue !== null) {
        const newKey = foreignKeyOf(newValue, record.key);
        if (newKey === null) skipNullForeignKey();
        else send(record, newKey, Instruction.PROPAGATE_ONLY_IF_FK_VAL_AVAILABLE);
      }
    };

    return {
      init(c) {
        context = dslContext(c);
      },
      process(record) {
        recordHash = undefined;
        // drop out-of-order records from versioned tables (cf. KIP-914)
        if (useVersionedSemantics && !record.value.isLatest) {
          context.recordDropped(OUT_OF_ORDER_VERSIONED);
          return;
        }
        if (leftJoin) leftJoinInstructions(record);
        else innerJoinInstructions(record);
      },
    };
  };
}
