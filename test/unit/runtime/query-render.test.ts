/** The query API's JSON rendering of keys and values, and the order of rendered keys. */
import { describe, expect, it } from 'vitest';
import { compareRenderedKeys, toJsonValue } from '../../../src/runtime/internal/query-render.js';
import { parseRoute } from '../../../src/runtime/internal/query-routes.js';

describe('query rendering and routes', () => {
  it('renders bigint as a decimal string, bytes as base64, maps and sets, nested', () => {
    expect(toJsonValue(12n)).toBe('12');
    expect(toJsonValue(new Uint8Array([1, 2, 3]))).toEqual({ base64: 'AQID' });
    expect(toJsonValue({ total: 5n, tags: new Set(['x']), by: new Map([[1, 2n]]), when: new Date(0), nothing: undefined })).toEqual({
      total: '5',
      tags: ['x'],
      by: { '1': '2' },
      when: '1970-01-01T00:00:00.000Z',
      nothing: null,
    });
    expect(toJsonValue(Number.NaN)).toBe('NaN');
    expect(toJsonValue({ value: 3, timestamp: 10 })).toEqual({ value: 3, timestamp: 10 });
  });

  it('orders string keys by their UTF-8 bytes (as a String-keyed store), numbers numerically', () => {
    const keys = ['b', '\u{1F600}', '\uFFFD', 'a', 'B'];
    expect([...keys].sort(compareRenderedKeys)).toEqual(['B', 'a', 'b', '\uFFFD', '\u{1F600}']);
    expect([10, 9, 100].sort(compareRenderedKeys)).toEqual([9, 10, 100]);
  });

  it('parses the paths, decoding each segment', () => {
    expect(parseRoute('/stores/counts/keys/a%2Fb')).toEqual({ kind: 'key', store: 'counts', key: 'a/b' });
    expect(parseRoute('/stores/counts/')).toEqual({ kind: 'range', store: 'counts' });
    expect(parseRoute('/stores')).toEqual({ kind: 'stores' });
    expect(parseRoute('/health')).toEqual({ kind: 'health' });
    expect(parseRoute('/stores/counts/values/x').kind).toBe('not-found');
    expect(parseRoute('/stores/%zz').kind).toBe('bad-encoding');
  });
});
