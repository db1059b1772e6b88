/**
 * The shared store of a left or outer stream–stream join (Kafka's
 * `OuterStreamJoinStoreFactory` with `TimestampedKeyAndJoinSide` keys and
 * `ListValueStore` values of `LeftOrRightValue`s): records that found no
 * partner wait here until their window closes, then are emitted with a null
 * partner (the KAFKA-10847 spurious-result fix); a later partner removes them.
 *
 * Keys are Kafka's bytes `<timestamp: 8 bytes big-endian><side: 1 left, 0 right><key bytes>`,
 * so a key-value store iterates them by time first, right before left at
 * equal times. Each key holds the list of values of the records with that
 * time, side and key (duplicates kept), stored as
 * `(<length: 4 bytes><side: 1 byte><value bytes>)*` and changelogged whole.
 */
import type { Serde } from '../../serdes/serde.js';
import type { KeyValueStore } from '../../state/state-store.js';

/** The key of a waiting record (Kafka's `TimestampedKeyAndJoinSide`). */
export interface TimestampedKeyAndJoinSide<K> {
  readonly key: K;
  readonly timestamp: number;
  readonly leftSide: boolean;
}

/** The value of a waiting record: exactly one side is set (Kafka's `LeftOrRightValue`). */
export interface LeftOrRightValue<VL, VR> {
  readonly leftValue: VL | null;
  readonly rightValue: VR | null;
}

/** The store: key -> the values of the records waiting under it. */
export type OuterJoinStore<K, VL, VR> = KeyValueStore<TimestampedKeyAndJoinSide<K>, Array<LeftOrRightValue<VL, VR>>>;

/** Kafka's `TimestampedKeyAndJoinSideSerde` over `keySerde`. */
export function timestampedKeyAndJoinSideSerde<K>(keySerde: Serde<K>): Serde<TimestampedKeyAndJoinSide<K>> {
  return {
    name: `TimestampedKeyAndJoinSide<${keySerde.name ?? 'key'}>`,
    serialize(topic, data) {
      if (data === null) return null;
      const keyBytes = keySerde.serialize(topic, data.key) ?? Buffer.alloc(0);
      const out = Buffer.alloc(9 + keyBytes.length);
      out.writeBigInt64BE(BigInt(data.timestamp), 0);
      out.writeUInt8(data.leftSide ? 1 : 0, 8);
      keyBytes.copy(out, 9);
      return out;
    },
    deserialize(topic, data) {
      // a null payload is null, as Kafka's deserializers; the Deserializer type (T, not T | null) cannot say so
      if (data === null) return null as unknown as TimestampedKeyAndJoinSide<K>;
      return { timestamp: Number(data.readBigInt64BE(0)), leftSide: data.readUInt8(8) === 1, key: keySerde.deserialize(topic, data.subarray(9)) };
    },
  };
}

/** A list of `LeftOrRightValue`s, each `<length><side><value bytes>` with Kafka's `LeftOrRightValueSerializer` side byte. */
export function leftOrRightValueListSerde<VL, VR>(leftSerde: Serde<VL>, rightSerde: Serde<VR>): Serde<Array<LeftOrRightValue<VL, VR>>> {
  return {
    name: `List<LeftOrRightValue<${leftSerde.name ?? 'value'}, ${rightSerde.name ?? 'value'}>>`,
    serialize(topic, data) {
      if (data === null) return null;
      const parts: Buffer[] = [];
      for (const v of data) {
        const left = v.leftValue !== null;
        const raw = (left ? leftSerde.serialize(topic, v.leftValue) : rightSerde.serialize(topic, v.rightValue)) ?? Buffer.alloc(0);
        const head = Buffer.alloc(5);
        head.writeUInt32BE(raw.length, 0);
        head.writeUInt8(left ? 1 : 0, 4);
        parts.push(head, raw);
      }
      return Buffer.concat(parts);
    },
    deserialize(topic, data) {
      // a null payload is null, as Kafka's deserializers; the Deserializer type (T, not T | null) cannot say so
      if (data === null) return null as unknown as Array<LeftOrRightValue<VL, VR>>;
      const values: Array<LeftOrRightValue<VL, VR>> = [];
      for (let at = 0; at < data.length; ) {
        const length = data.readUInt32BE(at);
        const left = data.readUInt8(at + 4) === 1;
        const raw = data.subarray(at + 5, at + 5 + length);
        values.push(left ? { leftValue: leftSerde.deserialize(topic, raw), rightValue: null } : { leftValue: null, rightValue: rightSerde.deserialize(topic, raw) });
        at += 5 + length;
      }
      return values;
    },
  };
}

/** Kafka's `ListValueStore.put` of a non-null value: appends `value` to the list under `key`. */
export function appendWaiting<K, VL, VR>(store: OuterJoinStore<K, VL, VR>, key: TimestampedKeyAndJoinSide<K>, value: LeftOrRightValue<VL, VR>): void {
  const list = store.get(key);
  store.put(key, list === null ? [value] : [...list, value]);
}

/** Kafka's `ListValueStore.putIfAbsent(key, null)`: removes the list under `key` when there is one (no write otherwise). */
export function removeWaiting<K, VL, VR>(store: OuterJoinStore<K, VL, VR>, key: TimestampedKeyAndJoinSide<K>): void {
  if (store.get(key) !== null) store.put(key, null);
}
