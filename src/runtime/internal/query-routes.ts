/**
 * The paths of the query API (see src/runtime/query-server.ts), parsed:
 * segments are URL-decoded one by one, so a key holding `/` comes as `%2F`.
 */

/** One parsed request path. */
export type QueryRoute =
  | { kind: 'key'; store: string; key: string }
  | { kind: 'range'; store: string }
  | { kind: 'stores' }
  | { kind: 'health' }
  | { kind: 'not-found' }
  | { kind: 'bad-encoding'; segment: string };

/** What the 404 of an unknown path lists. */
export const ROUTES_HELP = ['GET /stores', 'GET /stores/<store>?from=&to=', 'GET /stores/<store>/keys/<key>', 'GET /health'];

/** Parses the path part of a request URL (without the query string). */
export function parseRoute(path: string): QueryRoute {
  const raw = path.split('/').slice(1);
  if (raw.length > 1 && raw[raw.length - 1] === '') raw.pop(); // one trailing slash is fine
  const segments: string[] = [];
  for (const segment of raw) {
    try {
      segments.push(decodeURIComponent(segment));
    } catch {
      return { kind: 'bad-encoding', segment };
    }
  }
  const [first, store, keys, key, ...rest] = segments;
  if (first === 'health' && segments.length === 1) return { kind: 'health' };
  if (first !== 'stores' || rest.length > 0) return { kind: 'not-found' };
  if (store === undefined) return { kind: 'stores' };
  if (store === '') return { kind: 'not-found' };
  if (keys === undefined) return { kind: 'range', store };
  if (keys === 'keys' && key !== undefined) return { kind: 'key', store, key };
  return { kind: 'not-found' };
}

/** Whether query parameter `name` is set true (`?name`, `?name=true`, `?name=1`). */
export function flag(params: URLSearchParams, name: string): boolean {
  const value = params.get(name);
  return value !== null && ['', 'true', '1', 'yes'].includes(value.toLowerCase());
}
