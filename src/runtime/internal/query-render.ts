/**
 * How the query API renders store keys and values as JSON (see
 * src/runtime/query-server.ts): plain JSON values as they are; a `bigint` as
 * its decimal string (JSON numbers lose precision above 2^53); a `Buffer` or
 * `Uint8Array` as `{ "base64": "..." }`; a `Map` as an object of its entries
 * (keys as strings); a `Set` as an array; `undefined` as `null`. Nested values
 * follow the same rules.
 */

/** A JSON-safe copy of `value` (see the module comment). */
export function toJsonValue(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Uint8Array) return { base64: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (value instanceof Set) return [...value].map(toJsonValue);
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), toJsonValue(v)]));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toJsonValue(v);
    return out;
  }
  return String(value);
}

/**
 * Order of rendered keys in a range answer: strings by their UTF-8 bytes (the
 * order of a store of `Serdes.String()` keys), numbers numerically, strings
 * before numbers before anything else, which goes by its JSON text.
 */
export function compareRenderedKeys(a: unknown, b: unknown): number {
  const rank = (k: unknown): number => (typeof k === 'string' ? 0 : typeof k === 'number' ? 1 : 2);
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'string' && typeof b === 'string') return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const ja = JSON.stringify(a);
  const jb = JSON.stringify(b);
  return ja < jb ? -1 : ja > jb ? 1 : 0;
}

/** The identity of a rendered key, for finding duplicates. */
export function renderedKeyId(key: unknown): string {
  return JSON.stringify(key);
}
