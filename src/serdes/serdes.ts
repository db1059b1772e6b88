/**
 * Built-in serdes. Every serde maps `null` to `null` both ways. Failures throw
 * a {@link SerializationError}; the framework re-wraps them with the origin
 * (key or value), the topic and the serde name.
 */
import type { Headers } from '../records/types.js';
import type { JsonSerde, Serde } from './serde.js';
import { expectLength, fail, named } from './internal/serde-helpers.js';
import { KafkaSerdes } from './kafka-serdes.js';

const STRING = named<string>(
  'String',
  (topic, data) => {
    if (typeof data !== 'string') fail('String', `expected a string, got ${typeof data}`, topic);
    return Buffer.from(data, 'utf8');
  },
  (_topic, data) => data.toString('utf8'),
);

const BUFFER = named<Buffer>(
  'Buffer',
  (topic, data) => {
    if (!Buffer.isBuffer(data)) fail('Buffer', `expected a Buffer, got ${typeof data}`, topic);
    return data;
  },
  (_topic, data) => data,
);

const INT32 = named<number>(
  'Int32',
  (topic, data) => {
    if (!Number.isInteger(data) || data < -2147483648 || data > 2147483647) {
      fail('Int32', `${String(data)} is not a 32-bit integer`, topic);
    }
    const out = Buffer.alloc(4);
    out.writeInt32BE(data);
    return out;
  },
  (topic, data) => {
    expectLength('Int32', data, 4, topic);
    return data.readInt32BE(0);
  },
);

const INT64 = named<bigint>(
  'Int64',
  (topic, data) => {
    const value = typeof data === 'number' && Number.isSafeInteger(data) ? BigInt(data) : data;
    if (typeof value !== 'bigint') fail('Int64', `${String(data)} is not a bigint (or safe integer number)`, topic);
    if (value < -(2n ** 63n) || value >= 2n ** 63n) fail('Int64', `${value} does not fit in 64 bits`, topic);
    const out = Buffer.alloc(8);
    out.writeBigInt64BE(value);
    return out;
  },
  (topic, data) => {
    expectLength('Int64', data, 8, topic);
    return data.readBigInt64BE(0);
  },
);

const DOUBLE = named<number>(
  'Double',
  (topic, data) => {
    if (typeof data !== 'number') fail('Double', `expected a number, got ${typeof data}`, topic);
    const out = Buffer.alloc(8);
    out.writeDoubleBE(data);
    return out;
  },
  (topic, data) => {
    expectLength('Double', data, 8, topic);
    return data.readDoubleBE(0);
  },
);

/**
 * Factories of the built-in serdes, as in Kafka Streams' `Serdes`.
 *
 * - `String()`: UTF-8.
 * - `Json<T>()`: `JSON.stringify` as UTF-8; invalid JSON fails deserialization.
 * - `Buffer()`: the bytes as they are.
 * - `Int32()`: 4 bytes big-endian signed (Java `Integer`).
 * - `Int64()`: 8 bytes big-endian signed (Java `Long`) as a **bigint**; serializing also accepts a safe-integer number.
 * - `Double()`: 8 bytes IEEE-754 big-endian (Java `Double`).
 * - `Long()`, `Integer()`, `Short()`, `Float()`, `Boolean()`, `ByteArray()`, `UUID()`, `Void()`:
 *   Kafka's byte layouts, readable by Java consumers (see {@link KafkaSerdes}).
 * - `from(serialize, deserialize, name?)`: a user serde from two functions.
 */
export const Serdes = {
  ...KafkaSerdes,
  /** Raw bytes, unchanged (Java `ByteArray`; alias of `Buffer()`). */
  ByteArray(): Serde<Buffer> {
    return BUFFER;
  },
  /** UTF-8 strings. */
  String(): Serde<string> {
    return STRING;
  },
  /**
   * JSON documents as UTF-8. `T` comes from the type argument
   * (`Serdes.Json<Order>()`) or from the annotation or parameter it is assigned
   * to (`const s: Serde<Order> = Serdes.Json()`); otherwise it is `unknown`
   * (see {@link JsonSerde}).
   */
  Json<T = unknown>(): JsonSerde<T> {
    return named<T>(
      'Json',
      (topic, data) => {
        let text: string | undefined;
        try {
          text = JSON.stringify(data);
        } catch (error) {
          fail('Json', `cannot stringify: ${(error as Error).message}`, topic);
        }
        if (text === undefined) fail('Json', `${typeof data} is not representable as JSON`, topic);
        return Buffer.from(text, 'utf8');
      },
      (topic, data) => {
        try {
          return JSON.parse(data.toString('utf8')) as T;
        } catch (error) {
          return fail('Json', `invalid JSON: ${(error as Error).message}`, topic);
        }
      },
    );
  },
  /** Raw bytes, unchanged. */
  Buffer(): Serde<Buffer> {
    return BUFFER;
  },
  /** 32-bit signed integers, big-endian. */
  Int32(): Serde<number> {
    return INT32;
  },
  /** 64-bit signed integers, big-endian, as bigint. */
  Int64(): Serde<bigint> {
    return INT64;
  },
  /** 64-bit IEEE-754 floating point numbers, big-endian. */
  Double(): Serde<number> {
    return DOUBLE;
  },
  /**
   * A serde from two functions; `null` never reaches them (it maps to `null`).
   * Whatever they throw becomes a SerializationError naming `name`.
   */
  from<T>(
    serialize: (topic: string, data: T, headers?: Headers) => Buffer | null,
    deserialize: (topic: string, data: Buffer, headers?: Headers) => T,
    name = 'Custom',
  ): Serde<T> {
    return named<T>(name, serialize, deserialize);
  },
};
