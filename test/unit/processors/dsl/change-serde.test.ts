/**
 * The Change serde of the KTable.groupBy repartition topic writes Kafka's
 * `ChangedSerializer` layout byte for byte and reads every layout Kafka's
 * `ChangedDeserializer` reads (flags 0–5).
 */
import { describe, expect, it } from 'vitest';
import { SerializationError, Serdes } from '../../../../src/index.js';
import { Change } from '../../../../src/processors/dsl/change.js';
import { changeSerde } from '../../../../src/processors/dsl/change-serde.js';

const serde = changeSerde(Serdes.String());
const bytes = (...b: number[]): Buffer => Buffer.from(b);

describe('changeSerde (Kafka ChangedSerializer / ChangedDeserializer)', () => {
  it('writes {old}{0}, {new}{1} and {varint newLength}{new}{old}{2}', () => {
    expect(serde.serialize('t', Change.of<string>(null, 'a'))).toEqual(bytes(0x61, 0));
    expect(serde.serialize('t', Change.of<string>('a', null))).toEqual(bytes(0x61, 1));
    // zig-zag varint of 2 is 4
    expect(serde.serialize('t', Change.of<string>('ab', 'c'))).toEqual(bytes(4, 0x61, 0x62, 0x63, 2));
  });

  it('round-trips each shape, empty values included', () => {
    for (const change of [Change.of<string>(null, 'old'), Change.of<string>('new', null), Change.of<string>('new', 'old'), Change.of<string>('', ''), Change.of<string>('x'.repeat(300), 'y')]) {
      expect(serde.deserialize('t', serde.serialize('t', change))).toEqual(change);
    }
  });

  it('reads the isLatest layouts 3, 4 and 5', () => {
    expect(serde.deserialize('t', bytes(0x61, 0, 3))).toEqual(Change.of<string>(null, 'a', false));
    expect(serde.deserialize('t', bytes(0x61, 1, 4))).toEqual(Change.of<string>('a', null, true));
    expect(serde.deserialize('t', bytes(2, 0x61, 0x62, 0, 5))).toEqual(Change.of<string>('a', 'b', false));
  });

  it('refuses a Change without values, an unknown flag and a tombstone with a SerializationError', () => {
    expect(() => serde.serialize('t', Change.of<string>(null, null))).toThrow(SerializationError);
    expect(() => serde.serialize('t', Change.of<string>(null, null))).toThrow('Both old and new values are null');
    expect(() => serde.deserialize('t', bytes(0x61, 9))).toThrow('unknown byte value `9` for encodingFlag');
    expect(() => serde.deserialize('t', bytes(0x61, 7, 4))).toThrow('unexpected byte value `7` for isLatestFlag');
    expect(() => serde.deserialize('t', null)).toThrow(SerializationError);
  });
});
