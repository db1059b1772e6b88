import { describe, expect, it } from 'vitest';
import { SerializationError, Serdes, type Serde } from '../../../src/index.js';
import { checkedDeserialize, checkedSerialize, serdeName } from '../../../src/serdes/checked-serde.js';

function roundTrip<T>(serde: Serde<T>, value: T): T {
  return serde.deserialize('t', serde.serialize('t', value));
}

function failure(fn: () => unknown): SerializationError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SerializationError);
    return error as SerializationError;
  }
  throw new Error('expected a SerializationError');
}

describe('Serdes', () => {
  it('String: UTF-8 both ways', () => {
    expect(Serdes.String().serialize('t', 'héllo')).toEqual(Buffer.from('héllo', 'utf8'));
    expect(roundTrip(Serdes.String(), 'héllo')).toBe('héllo');
    expect(failure(() => Serdes.String().serialize('t', 42 as unknown as string)).message).toMatch(/String serde: expected a string, got number/);
  });

  it('Json: any JSON value', () => {
    const serde = Serdes.Json<{ a: number[]; b: string }>();
    expect(roundTrip(serde, { a: [1, 2], b: 'x' })).toEqual({ a: [1, 2], b: 'x' });
    expect(serde.serialize('t', { a: [], b: '' })?.toString()).toBe('{"a":[],"b":""}');
    expect(failure(() => serde.deserialize('t', Buffer.from('{'))).message).toMatch(/Json serde: invalid JSON/);
    expect(failure(() => Serdes.Json().serialize('t', () => 1)).message).toMatch(/not representable as JSON/);
    const cyclic: { self?: unknown } = {};
    cyclic.self = cyclic;
    expect(failure(() => Serdes.Json().serialize('t', cyclic)).message).toMatch(/cannot stringify/);
  });

  it('Buffer: bytes unchanged', () => {
    const bytes = Buffer.from([0, 255, 7]);
    expect(roundTrip(Serdes.Buffer(), bytes)).toEqual(bytes);
    expect(() => Serdes.Buffer().serialize('t', 'x' as unknown as Buffer)).toThrow(SerializationError);
  });

  it('Int32: 4 bytes big-endian signed', () => {
    expect(Serdes.Int32().serialize('t', 258)).toEqual(Buffer.from([0, 0, 1, 2]));
    expect(roundTrip(Serdes.Int32(), -2147483648)).toBe(-2147483648);
    expect(() => Serdes.Int32().serialize('t', 2 ** 31)).toThrow(/not a 32-bit integer/);
    expect(() => Serdes.Int32().serialize('t', 1.5)).toThrow(SerializationError);
    expect(failure(() => Serdes.Int32().deserialize('t', Buffer.from([1, 2]))).message).toMatch(/expected 4 bytes, got 2/);
  });

  it('Int64: 8 bytes big-endian signed, as bigint (numbers accepted when safe)', () => {
    expect(Serdes.Int64().serialize('t', 1n)).toEqual(Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]));
    expect(roundTrip(Serdes.Int64(), -(2n ** 63n))).toBe(-(2n ** 63n));
    expect(Serdes.Int64().deserialize('t', Serdes.Int64().serialize('t', 5 as unknown as bigint))).toBe(5n);
    expect(() => Serdes.Int64().serialize('t', 2n ** 63n)).toThrow(/does not fit in 64 bits/);
    expect(() => Serdes.Int64().deserialize('t', Buffer.alloc(4))).toThrow(/expected 8 bytes/);
  });

  it('Double: 8 bytes IEEE-754 big-endian', () => {
    expect(roundTrip(Serdes.Double(), 3.25)).toBe(3.25);
    expect(Serdes.Double().serialize('t', 1)).toEqual(Buffer.from('3ff0000000000000', 'hex'));
    expect(() => Serdes.Double().serialize('t', '1' as unknown as number)).toThrow(SerializationError);
  });

  it('null maps to null both ways for every serde', () => {
    for (const serde of [Serdes.String(), Serdes.Json(), Serdes.Buffer(), Serdes.Int32(), Serdes.Int64(), Serdes.Double(), Serdes.from(() => Buffer.alloc(1), () => 1)]) {
      expect(serde.serialize('t', null)).toBeNull();
      expect(serde.deserialize('t', null)).toBeNull();
    }
  });

  it('from(): a user serde from two functions, named in errors', () => {
    const upper = Serdes.from<string>(
      (_t, s) => Buffer.from(s.toUpperCase()),
      (_t, b) => b.toString().toLowerCase(),
      'Upper',
    );
    expect(upper.name).toBe('Upper');
    expect(upper.serialize('t', 'ab')?.toString()).toBe('AB');
    expect(roundTrip(upper, 'ab')).toBe('ab');
  });

  it('checked calls wrap any failure into a SerializationError with origin, topic and serde name', () => {
    const broken = Serdes.from<string>(
      () => {
        throw new Error('nope');
      },
      () => {
        throw new TypeError('bad bytes');
      },
      'Broken',
    );
    const ser = failure(() => checkedSerialize(broken, 'orders', 'x', undefined, 'KEY'));
    expect(ser.origin).toBe('KEY');
    expect(ser.topic).toBe('orders');
    expect(ser.message).toBe("Failed to serialize key for topic 'orders' with serde Broken: nope");
    expect((ser.cause as Error).message).toBe('nope');
    const de = failure(() => checkedDeserialize(broken, 'orders', Buffer.from('x'), undefined, 'VALUE'));
    expect(de.origin).toBe('VALUE');
    expect(de.message).toBe("Failed to deserialize value for topic 'orders' with serde Broken: bad bytes");
    expect(ser.kind).toBe('record');
  });

  it('any object with serialize/deserialize works as a serde; its class name is used in errors', () => {
    class Celsius implements Serde<number> {
      serialize(_t: string, v: number | null) {
        if (v !== null && v < -273.15) throw new Error('below absolute zero');
        return v === null ? null : Buffer.from(String(v));
      }
      deserialize(_t: string, b: Buffer | null) {
        return Number(b?.toString());
      }
    }
    expect(serdeName(new Celsius())).toBe('Celsius');
    expect(serdeName({ serialize: () => null, deserialize: () => null })).toBe('anonymous');
    expect(failure(() => checkedSerialize(new Celsius(), 'temps', -300, undefined, 'VALUE')).message).toMatch(/with serde Celsius: below absolute zero/);
  });
});
