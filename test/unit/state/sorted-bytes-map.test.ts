import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedBytesMap } from '../../../src/state/internal/sorted-bytes-map.js';

/** The reference: a plain map, sorted on every read. */
function referenceRange(ref: Map<string, number>, from: Buffer | null, to: Buffer | null): Array<[string, number]> {
  return [...ref.entries()]
    .map(([hex, v]) => [Buffer.from(hex, 'hex'), v] as const)
    .filter(([k]) => (from === null || Buffer.compare(k, from) >= 0) && (to === null || Buffer.compare(k, to) <= 0))
    .sort(([a], [c]) => Buffer.compare(a, c))
    .map(([k, v]) => [k.toString('hex'), v]);
}

describe('SortedBytesMap', () => {
  it('agrees with a sorted reference map for random writes, deletes, ranges, reverse ranges and prefix scans (across chunk splits)', () => {
    const key = fc.uint8Array({ minLength: 0, maxLength: 3 }).map((a) => Buffer.from(a));
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key, value: fc.integer() }),
      fc.record({ kind: fc.constant('delete' as const), key }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 3000 }), key, key, (ops, x, y) => {
        const map = new SortedBytesMap<number>();
        const ref = new Map<string, number>();
        for (const o of ops) {
          if (o.kind === 'set') {
            expect(map.set(o.key, o.value)).toBe(ref.get(o.key.toString('hex')));
            ref.set(o.key.toString('hex'), o.value);
          } else {
            expect(map.delete(o.key)).toBe(ref.get(o.key.toString('hex')));
            ref.delete(o.key.toString('hex'));
          }
        }
        expect(map.size).toBe(ref.size);
        const [lo, hi] = Buffer.compare(x, y) <= 0 ? [x, y] : [y, x];
        const hex = (entries: Array<{ key: Buffer; value: number }>) => entries.map((e): [string, number] => [e.key.toString('hex'), e.value]);
        expect(hex(map.range(null, null))).toEqual(referenceRange(ref, null, null));
        expect(hex(map.range(lo, hi))).toEqual(referenceRange(ref, lo, hi));
        expect(hex(map.reverseRange(lo, hi))).toEqual(referenceRange(ref, lo, hi).reverse());
        expect(hex(map.reverseRange(null, hi))).toEqual(referenceRange(ref, null, hi).reverse());
        expect(map.range(hi, lo)).toEqual(Buffer.compare(lo, hi) === 0 ? map.range(lo, hi) : []);
        const prefix = x.subarray(0, 1);
        expect(hex(map.prefixScan(prefix))).toEqual(referenceRange(ref, null, null).filter(([k]) => k.startsWith(prefix.toString('hex'))));
      }),
      { numRuns: 60 },
    );
  });

  it('keeps order over many chunks: 5000 shuffled keys in, every other one deleted', () => {
    const map = new SortedBytesMap<number>();
    const keys = Array.from({ length: 5000 }, (_, i) => i).sort(() => Math.random() - 0.5);
    const bytes = (i: number) => {
      const k = Buffer.alloc(4);
      k.writeUInt32BE(i);
      return k;
    };
    for (const i of keys) map.set(bytes(i), i);
    for (let i = 0; i < 5000; i += 2) map.delete(bytes(i));
    const odd = Array.from({ length: 2500 }, (_, i) => 2 * i + 1);
    expect(map.size).toBe(2500);
    expect(map.range(null, null).map((e) => e.value)).toEqual(odd);
    expect(map.reverseRange(bytes(1000), bytes(3000)).map((e) => e.value)).toEqual(odd.filter((i) => i >= 1000 && i <= 3000).reverse());
    expect(map.get(bytes(4999))).toBe(4999);
    expect(map.has(bytes(4998))).toBe(false);
  });
});
