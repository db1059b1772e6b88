import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LONG_MAX_VALUE, readLong, writeLong } from '../../../../src/state/internal/window-bytes.js';

/** The BigInt forms (the code before issue 32's fast path): the reference. */
function writeLongBig(value: number): Buffer {
  const out = Buffer.alloc(8);
  const big = value >= LONG_MAX_VALUE ? 2n ** 63n - 1n : value <= -LONG_MAX_VALUE ? -(2n ** 63n) : BigInt(Math.trunc(value));
  out.writeBigInt64BE(big, 0);
  return out;
}

describe('window bytes: Java longs (issue 32 fast path without BigInt)', () => {
  it('writeLong writes what the BigInt form writes, readLong reads what it reads, for safe integers and beyond', () => {
    const longs = fc.oneof(
      fc.integer(),
      fc.maxSafeInteger(),
      fc.constantFrom(0, -0, -1, 2 ** 32, -(2 ** 32), 2 ** 32 - 1, -(2 ** 31), 2 ** 52, -(2 ** 52) - 1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2 ** 60, -(2 ** 62), LONG_MAX_VALUE, -LONG_MAX_VALUE, 1.5, -2.5),
    );
    fc.assert(
      fc.property(longs, (value) => {
        const out = Buffer.alloc(10, 0xee);
        writeLong(out, 1, value);
        expect(out.subarray(1, 9)).toEqual(writeLongBig(value));
        expect([out[0], out[9]]).toEqual([0xee, 0xee]);
        expect(readLong(out, 1)).toBe(Number(out.readBigInt64BE(1)));
      }),
      { numRuns: 2000 },
    );
  });

  it('readLong reads every 8 bytes as the BigInt form does (large values round as before)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (big) => {
        const buf = Buffer.alloc(8);
        buf.writeBigInt64BE(big, 0);
        expect(readLong(buf, 0)).toBe(Number(big));
      }),
      { numRuns: 2000 },
    );
  });
});
