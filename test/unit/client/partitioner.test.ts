import { describe, expect, it } from 'vitest';
import { murmur2, partitionFor, toPositive } from '../../../src/records/partitioner.js';

const bytes = (s: string) => Buffer.from(s, 'utf8');

describe('murmur2 (Java Utils.murmur2)', () => {
  // Kafka clients/src/test/java/org/apache/kafka/common/utils/UtilsTest.java#testMurmur2
  const cases: Array<[Uint8Array, number]> = [
    [bytes('21'), -973932308],
    [bytes('foobar'), -790332482],
    [bytes('a-little-bit-long-string'), -985981536],
    [bytes('a-little-bit-longer-string'), -1486304829],
    [bytes('lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8'), -58897971],
    [new Uint8Array([0x61, 0x62, 0x63]), 479470107],
  ];
  it.each(cases)('matches Kafka for %s', (input, expected) => {
    expect(murmur2(input)).toBe(expected);
  });

  it('handles bytes >= 0x80 as unsigned, like Java (b & 0xff)', () => {
    const data = new Uint8Array([0xff, 0x80, 0x7f, 0x00, 0xfe]);
    expect(murmur2(data)).toBe(murmur2(Buffer.from(data)));
    expect(Number.isInteger(murmur2(data))).toBe(true);
    expect(murmur2(data)).toBeGreaterThanOrEqual(-(2 ** 31));
    expect(murmur2(data)).toBeLessThan(2 ** 31);
  });
});

describe('partitionFor', () => {
  it('is toPositive(murmur2) % n, never Math.abs', () => {
    // murmur2('21') = -973932308: toPositive clears the sign bit -> 1173551340
    expect(toPositive(-973932308)).toBe(1173551340);
    expect(partitionFor(bytes('21'), 4)).toBe(1173551340 % 4);
    expect(partitionFor(bytes('foobar'), 7)).toBe(toPositive(-790332482) % 7);
    expect(partitionFor(bytes('abc'), 1)).toBe(0);
  });

  it('rejects a non-positive partition count', () => {
    expect(() => partitionFor(bytes('k'), 0)).toThrow(RangeError);
  });
});
