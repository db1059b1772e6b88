/**
 * The serde of a {@link Change} on the repartition topic of `KTable.groupBy`
 * (Kafka's `ChangedSerializer` / `ChangedDeserializer`), byte for byte as
 * Kafka writes it, so Java and sluice instances read each other's records:
 *
 * - `{oldValue}{0}`: a subtraction only;
 * - `{newValue}{1}`: an addition only;
 * - `{varint newLength}{newValue}{oldValue}{2}`: both (one record when the
 *   old and new grouping keys are equal, Kafka ≥ 3.5);
 * - flags 3, 4, 5 are 0, 1, 2 followed by an `isLatest` byte before the
 *   flag (read, never written, as Kafka's serializer).
 *
 * The varint is Kafka's `ByteUtils.writeVarint` (zig-zag).
 */
import { SerializationError } from '../../errors.js';
import type { Headers } from '../../records/types.js';
import type { Serde } from '../../serdes/serde.js';
import { Change } from './change.js';

const FLAG_OLD = 0;
const FLAG_NEW = 1;
const FLAG_BOTH = 2;
const FLAG_OLD_LATEST = 3;
const FLAG_NEW_LATEST = 4;
const FLAG_BOTH_LATEST = 5;

function fail(topic: string, message: string): never {
  throw new SerializationError(`Change serde (topic '${topic}'): ${message}`, { origin: 'VALUE', topic });
}

/** Kafka's `ByteUtils.writeVarint`: zig-zag, 7 bits a byte, low bits first. */
function writeVarint(value: number): Buffer {
  let v = ((value << 1) ^ (value >> 31)) >>> 0;
  const bytes: number[] = [];
  while ((v & ~0x7f) !== 0) {
    bytes.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  bytes.push(v);
  return Buffer.from(bytes);
}

/** Kafka's `ByteUtils.readVarint`: the value and the bytes it took. */
function readVarint(topic: string, data: Buffer): { value: number; size: number } {
  let raw = 0;
  let shift = 0;
  for (let i = 0; i < 5 && i < data.length; i++) {
    const b = data[i] as number;
    raw |= (b & 0x7f) << shift;
    if ((b & 0x80) === 0) return { value: (raw >>> 1) ^ -(raw & 1), size: i + 1 };
    shift += 7;
  }
  return fail(topic, 'the length of the new value is not a valid varint');
}

function serializeSide<V>(inner: Serde<V>, topic: string, value: V, headers: Headers | undefined, side: string): Buffer {
  const bytes = inner.serialize(topic, value, headers);
  if (bytes === null) fail(topic, `the value serde turned the ${side} value into null; it must write bytes for a non-null value`);
  return bytes;
}

function readIsLatest(topic: string, data: Buffer): boolean {
  const flag = data[data.length - 2];
  if (flag === 1) return true;
  if (flag === 0) return false;
  return fail(topic, `Encountered unexpected byte value \`${String(flag)}\` for isLatestFlag in ChangedDeserializer.`);
}

/** The Change serde over `inner` (the grouping's value serde). */
export function changeSerde<V>(inner: Serde<V>): Serde<Change<V>> {
  return {
    name: `Change<${inner.name ?? 'value'}>`,
    serialize(topic: string, data: Change<V> | null, headers?: Headers): Buffer | null {
      const hasNew = data !== null && data.newValue !== null;
      const hasOld = data !== null && data.oldValue !== null;
      if (!hasNew && !hasOld) fail(topic, 'Both old and new values are null in ChangeSerializer, which is not allowed.');
      const change = data as Change<V>;
      if (hasNew && hasOld) {
        const newBytes = serializeSide(inner, topic, change.newValue as V, headers, 'new');
        const oldBytes = serializeSide(inner, topic, change.oldValue as V, headers, 'old');
        return Buffer.concat([writeVarint(newBytes.length), newBytes, oldBytes, Buffer.from([FLAG_BOTH])]);
      }
      if (hasNew) return Buffer.concat([serializeSide(inner, topic, change.newValue as V, headers, 'new'), Buffer.from([FLAG_NEW])]);
      return Buffer.concat([serializeSide(inner, topic, change.oldValue as V, headers, 'old'), Buffer.from([FLAG_OLD])]);
    },
    deserialize(topic: string, data: Buffer | null, headers?: Headers): Change<V> {
      if (data === null || data.length === 0) return fail(topic, 'a repartition record of KTable.groupBy has no value (a tombstone); it must hold a Change');
      const flag = data[data.length - 1] as number;
      if (flag > FLAG_BOTH_LATEST) fail(topic, `Encountered unknown byte value \`${flag}\` for encodingFlag in ChangedDeserializer.`);
      const latestSize = flag >= FLAG_OLD_LATEST ? 1 : 0;
      const body = data.subarray(0, data.length - 1 - latestSize);
      const isLatest = latestSize === 0 ? true : readIsLatest(topic, data);
      const read = (bytes: Buffer): V => inner.deserialize(topic, bytes, headers);
      switch (flag) {
        case FLAG_OLD:
        case FLAG_OLD_LATEST:
          return Change.of<V>(null, read(body), isLatest);
        case FLAG_NEW:
        case FLAG_NEW_LATEST:
          return Change.of<V>(read(body), null, isLatest);
        case FLAG_BOTH:
        case FLAG_BOTH_LATEST: {
          const { value: newLength, size } = readVarint(topic, body);
          if (newLength < 0 || size + newLength > body.length) fail(topic, `the new value's length ${newLength} does not fit the record`);
          return Change.of<V>(read(body.subarray(size, size + newLength)), read(body.subarray(size + newLength)), isLatest);
        }
        default:
          return fail(topic, `Encountered unknown byte value \`${flag}\` for encodingFlag in ChangedDeserializer.`);
      }
    },
  };
}
