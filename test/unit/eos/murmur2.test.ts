import { describe, expect, it } from 'vitest';
import { murmur2, partitionForKey } from '../../../src/eos/internal/murmur2.js';

describe('murmur2 (Java-compatible)', () => {
  // Vectors from Kafka's UtilsTest.testMurmur2.
  it.each([
    ['21', -973932308],
    ['foobar', -790332482],
    ['a-little-bit-long-string', -985981536],
    ['a-little-bit-longer-string', -1486304829],
    ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
    ['abc', 479470107],
  ])('hashes %s like Kafka', (input, expected) => {
    expect(murmur2(Buffer.from(input))).toBe(expected);
  });

  it('partitions with toPositive(hash) % n', () => {
    expect(partitionForKey(Buffer.from('foobar'), 7)).toBe((-790332482 & 0x7fffffff) % 7);
  });
});
