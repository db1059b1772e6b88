/**
 * Port of Kafka's `org.apache.kafka.streams.state.internals.Murmur3Test`
 * (128-bit half: the hash the foreign-key join puts in its subscriptions).
 */
import { describe, expect, it } from 'vitest';
import { hash128, hashesEqual } from '../../../../../src/processors/dsl/foreign-key/murmur3.js';

describe('Murmur3.hash128', () => {
  // Murmur3Test.testMurmur3_128
  it('testMurmur3_128: the Hive/Kafka vectors with seed 123', () => {
    const cases: Array<[Buffer, [bigint, bigint]]> = [
      [Buffer.from('21'), [5857341059704281894n, -5288187638297930763n]],
      [Buffer.from('foobar'), [-351361463397418609n, 8959716011862540668n]],
      [Buffer.from('a-little-bit-long-string'), [8836256500583638442n, -198172363548498523n]],
      [Buffer.from('a-little-bit-longer-string'), [1838346159335108511n, 8794688210320490705n]],
      [Buffer.from('lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8'), [-4024021876037397259n, -1482317706335141238n]],
      [Buffer.from([0x61, 0x62, 0x63]), [1489494923063836066n, -5440978547625122829n]],
    ];
    for (const [bytes, expected] of cases) expect(hash128(bytes, 0, bytes.length, 123), bytes.toString()).toEqual(expected);
  });

  it('the default seed differs from seed 123, and hashesEqual compares both halves and nulls', () => {
    const a = hash128(Buffer.from('foobar'));
    expect(a).not.toEqual(hash128(Buffer.from('foobar'), 0, 6, 123));
    expect(hashesEqual(a, hash128(Buffer.from('foobar')))).toBe(true);
    expect(hashesEqual(a, hash128(Buffer.from('foobaz')))).toBe(false);
    expect(hashesEqual(null, null)).toBe(true);
    expect(hashesEqual(a, null)).toBe(false);
  });
});
