/**
 * sluice's Kafka-compatible serdes against bytes written by Kafka's own Java
 * serializers (kafka-clients 4.4.0; fixtures from scripts/java/serde-fixtures.jsh).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Serdes, SerializationError, type Serde } from '../../../src/index.js';

interface Case {
  serde: 'Long' | 'Integer' | 'Short' | 'Double' | 'Float' | 'Boolean' | 'UUID' | 'String' | 'Void';
  value: number | string | boolean | null;
  hex: string | null;
}
const fixtures = JSON.parse(readFileSync(new URL('../../fixtures/kafka-serdes.json', import.meta.url), 'utf8')) as { cases: Case[] };

const serdeOf = (name: Case['serde']): Serde<unknown> => (Serdes[name] as () => Serde<unknown>)();
const valueOf = (c: Case): unknown => (c.serde === 'Float' ? Number(c.value) : c.value);

describe('Serdes with Kafka byte layouts (fixtures from Java serializers)', () => {
  it('has cases for every serde', () => {
    expect(new Set(fixtures.cases.map((c) => c.serde)).size).toBe(9);
  });

  for (const c of fixtures.cases) {
    it(`${c.serde} ${JSON.stringify(c.value)} → ${c.hex}`, () => {
      const serde = serdeOf(c.serde);
      const bytes = serde.serialize('t', valueOf(c));
      expect(bytes === null ? null : bytes.toString('hex')).toBe(c.hex);
      const back = serde.deserialize('t', c.hex === null ? null : Buffer.from(c.hex, 'hex'));
      if (c.serde === 'Float') expect(back).toBeCloseTo(Number(c.value), 6);
      else expect(back).toEqual(c.value);
    });
  }

  it('Long refuses what a number cannot hold, naming Int64', () => {
    expect(() => Serdes.Long().serialize('t', 2 ** 60)).toThrow(/Int64/);
    expect(() => Serdes.Long().serialize('t', 1.5)).toThrow(SerializationError);
    expect(() => Serdes.Long().deserialize('t', Buffer.from('7fffffffffffffff', 'hex'))).toThrow(/Int64/);
    expect(Serdes.Int64().deserialize('t', Buffer.from('7fffffffffffffff', 'hex'))).toBe(2n ** 63n - 1n);
  });

  it('wrong widths and types fail as SerializationError', () => {
    expect(() => Serdes.Short().deserialize('t', Buffer.alloc(3))).toThrow(/expected 2 bytes/);
    expect(() => Serdes.Short().serialize('t', 40_000)).toThrow(/16-bit/);
    expect(() => Serdes.UUID().serialize('t', 'not-a-uuid')).toThrow(SerializationError);
    expect(() => Serdes.Void().serialize('t', 'x' as never)).toThrow(/expected null/);
    expect(Serdes.ByteArray().serialize('t', Buffer.from('ab'))).toEqual(Buffer.from('ab'));
  });
});
