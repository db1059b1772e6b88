/**
 * The paths of the query API (see src/runtime/query-server.ts), parsed from
 * the raw request target, never a normalised URL: segments are split first and
 * then percent-decoded one by one, so a key holding `/` comes as `%2F`, and the
 * keys `.`, `..` and the empty key are keys like any other
 * (`/stores/counts/keys/..` asks for key `..`, `/stores/counts/keys/` for the
 * empty key; a URL parser would have turned them into the store's range).
 */

/** One parsed request path. */
export type QueryRoute =
  | { kind: 'key'; store: string; key: string; sub?: 'versions' | 'windows' | 'sessions' }
  | { kind: 'range'; store: string; sub?: 'windows' | 'sessions' }
  | { kind: 'stores' }
  | { kind: 'health' }
  | { kind: 'instance' }
  | { kind: 'not-found' }
  | { kind: 'bad-encoding'; segment: string };

/** What the 404 of an unknown path lists. */
export const ROUTES_HELP = [
  'GET /stores',
  'GET /stores/<store>?from=&to=',
  'GET /stores/<store>/windows?keyFrom=&keyTo=&from=&to=',
  'GET /stores/<store>/sessions?keyFrom=&keyTo=&earliestSessionEnd=&latestSessionStart=',
  'GET /stores/<store>/keys/<key>[?asOf=]',
  'GET /stores/<store>/keys/<key>/versions?from=&to=',
  'GET /stores/<store>/keys/<key>/windows?from=&to=',
  'GET /stores/<store>/keys/<key>/sessions',
  'GET /health',
];

const KEY_SUBS = ['versions', 'windows', 'sessions'] as const;
const RANGE_SUBS = ['windows', 'sessions'] as const;

/** The path of the nonce by which a query server recognises itself through its advertised address. */
export const INSTANCE_PATH = '/.well-known/sluice-instance';

/** Splits a raw request target (`/path?query`, or absolute-form `http://host/path?query`) into its raw path and query. */
export function splitTarget(target: string): { path: string; query: string } {
  let rest = target;
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(rest);
  if (absolute) rest = rest.slice(absolute[0].length) || '/';
  const hash = rest.indexOf('#');
  if (hash >= 0) rest = rest.slice(0, hash);
  const q = rest.indexOf('?');
  return q < 0 ? { path: rest, query: '' } : { path: rest.slice(0, q), query: rest.slice(q + 1) };
}

/** A path segment as the query API's links write it: percent-encoded, dots too (so no client or proxy takes `..` for a step up). */
export function encodeSegment(text: string): string {
  return encodeURIComponent(text).replace(/\./g, '%2E');
}

/** Parses the raw path part of a request target (without the query string), see the module comment. */
export function parseRoute(path: string): QueryRoute {
  if (path === INSTANCE_PATH) return { kind: 'instance' };
  const raw = path.split('/').slice(1);
  // one trailing slash is fine, except after /keys/ where it is the empty key
  const keysRoute = raw.length === 4 && raw[0] === 'stores' && raw[2] === 'keys';
  if (raw.length > 1 && raw[raw.length - 1] === '' && !keysRoute) raw.pop();
  const segments: string[] = [];
  for (const segment of raw) {
    try {
      segments.push(decodeURIComponent(segment));
    } catch {
      return { kind: 'bad-encoding', segment };
    }
  }
  const [first, store, keys, key, sub, ...rest] = segments;
  if (first === 'health' && segments.length === 1) return { kind: 'health' };
  if (first !== 'stores' || rest.length > 0) return { kind: 'not-found' };
  if (store === undefined) return { kind: 'stores' };
  if (store === '') return { kind: 'not-found' };
  if (keys === undefined) return { kind: 'range', store };
  const rangeSub = RANGE_SUBS.find((s) => s === keys);
  if (rangeSub !== undefined && key === undefined) return { kind: 'range', store, sub: rangeSub };
  if (keys !== 'keys' || key === undefined) return { kind: 'not-found' };
  if (sub === undefined) return { kind: 'key', store, key };
  const keySub = KEY_SUBS.find((s) => s === sub);
  return keySub === undefined ? { kind: 'not-found' } : { kind: 'key', store, key, sub: keySub };
}

/** Whether query parameter `name` is set true (`?name`, `?name=true`, `?name=1`). */
export function flag(params: URLSearchParams, name: string): boolean {
  const value = params.get(name);
  return value !== null && ['', 'true', '1', 'yes'].includes(value.toLowerCase());
}
