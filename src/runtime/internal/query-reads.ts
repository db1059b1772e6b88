/**
 * What each route of the query API reads, by store kind, with its parameters
 * checked first (internal/query-params.ts):
 * - `/stores/<s>/keys/<k>`: a key-value store's value; a versioned store's
 *   latest version, or with `?asOf=<ms>` the version valid then;
 * - `/stores/<s>/keys/<k>/versions?from=&to=&order=&limit=`: the versions
 *   valid in `[from, to]` (newest first unless `order=asc`);
 * - `/stores/<s>/keys/<k>/windows?from=&to=&order=&limit=`: the key's windows
 *   starting in `[from, to]` (`fetch(key, key, from, to)`, `backwardFetch` with `order=desc`);
 * - `/stores/<s>/keys/<k>/sessions?earliestSessionEnd=&latestSessionStart=&order=&limit=`:
 *   the key's sessions (`findSessions(key, ...)`, all of them without bounds);
 * - `/stores/<s>/windows?keyFrom=&keyTo=&from=&to=&order=&limit=` and
 *   `/stores/<s>/sessions?keyFrom=&keyTo=&earliestSessionEnd=&latestSessionStart=&order=&limit=`:
 *   every instance's windows / sessions (a scatter-gather, as the key-value range),
 *   sorted by key, then start, then end (reversed with `order=desc`), at most `limit`
 *   (`truncated: true` when more matched).
 * A key route is answered by the key's owner (internal/query-key.ts), which
 * gets the same checked parameters.
 */
import type { KeyValue } from '../../records/key-value.js';
import type { ReadOnlySessionStore } from '../../state/session-store.js';
import type { ReadOnlyWindowStore } from '../../state/window-store.js';
import type { Windowed } from '../../state/window-types.js';
import type { ReadOnlyKeyValueStore } from '../interactive-queries.js';
import { MultiVersionedKeyQuery, type ReadOnlyVersionedKeyValueStore } from '../versioned-queries.js';
import { keyValueStore, viewOf, type QueryContext } from './query-context.js';
import type { Reply } from './query-http.js';
import { limitParam, MAX_TIME, orderParam, timeBounds, timeParam, timeRange, unknownParam, type Checked } from './query-params.js';
import { badKey } from './query-errors.js';
import { compareRenderedKeys, renderedKeyId } from './query-render.js';

/** The sub-resources of a key, and of a store. */
export type KeySub = 'versions' | 'windows' | 'sessions';
export type RangeSub = 'windows' | 'sessions';

/** How the key route reads its key here: the body fields of a 200, or undefined for a 404. */
export interface KeyRead {
  /** The path after the key (`''`, `/versions`, ...). */
  suffix: string;
  /** The checked parameters, passed on to the owner. */
  query: URLSearchParams;
  read(key: unknown, stale: boolean): Record<string, unknown> | undefined;
}

/** One rendered entry of a range answer. */
export type Entry = { key: unknown } & Record<string, unknown>;

/** What a range route reads here, and how its entries are told apart and ordered. */
export interface RangeSource {
  /** This instance's entries: the store key (for the owner check) and the rendered entry. */
  read(): Array<{ key: unknown; entry: Entry }>;
  id(entry: Entry): string;
  compare(a: Entry, b: Entry): number;
  /** At most this many entries in the answer (`truncated: true` when more). */
  limit?: number;
}

const KEY_FLAGS = ['redirect', 'stale'];

/** The list answer's items, at most `limit`. */
function limited<T>(items: T[], limit: number): { items: T[]; truncated?: true } {
  return items.length > limit ? { items: items.slice(0, limit), truncated: true } : { items };
}

/** What a list route was asked. */
interface ListParams {
  from: number;
  to: number;
  descending: boolean;
  limit: number;
}

/**
 * The checked parameters of a list route: no unknown names, the time bounds `times` (`ordered`: the first not
 * after the second; a session's earliestSessionEnd may well be after its latestSessionStart), order and limit.
 */
function listParams(params: URLSearchParams, route: string, names: readonly string[], times: [string, string], order: 'asc' | 'desc', ordered = true): Checked<ListParams> {
  const unknown = unknownParam(params, [...names, ...times, 'order', 'limit'], route);
  if (unknown) return { reply: unknown };
  const bounds = ordered ? timeRange(params, ...times) : timeBounds(params, ...times);
  if ('reply' in bounds) return bounds;
  const o = orderParam(params, order);
  if ('reply' in o) return o;
  const limit = limitParam(params);
  if ('reply' in limit) return limit;
  return { ok: { ...bounds.ok, descending: o.ok === 'desc', limit: limit.ok } };
}

/** The read of `GET /stores/<store>/keys/<key>[/<sub>]`, or the 400 refusing its parameters. */
export function keyReadFor(ctx: QueryContext, store: string, sub: KeySub | undefined, params: URLSearchParams): KeyRead | Reply {
  const render = ctx.render;
  const version = (r: { value: unknown; timestamp: number; validTo?: number }) => ({ value: render(r.value), timestamp: r.timestamp, ...(r.validTo !== undefined ? { validTo: r.validTo } : {}) });
  const windowed = (e: KeyValue<Windowed<unknown>, unknown>) => ({ start: e.key.window.start, end: e.key.window.end, value: render(e.value) });
  if (sub === undefined) {
    if (!params.has('asOf') && ctx.app.storeKind?.(store) !== 'versioned') {
      return { suffix: '', query: new URLSearchParams(), read: (key, stale) => found(keyValueStore(ctx, store, stale).get(key), (value) => ({ value: render(value) })) };
    }
    const unknown = unknownParam(params, ['asOf', ...KEY_FLAGS], `GET /stores/<store>/keys/<key> of a versioned store`);
    if (unknown) return unknown;
    const asOf = params.has('asOf') ? timeParam(params, 'asOf', MAX_TIME) : undefined;
    if (asOf && 'reply' in asOf) return asOf.reply;
    const query = new URLSearchParams(asOf ? { asOf: String(asOf.ok) } : {});
    return { suffix: '', query, read: (key, stale) => found(viewOf<ReadOnlyVersionedKeyValueStore<unknown, unknown>>(ctx, store, 'versioned', stale).get(key, asOf?.ok), version) };
  }
  if (sub === 'versions') {
    const p = listParams(params, 'GET /stores/<store>/keys/<key>/versions', KEY_FLAGS, ['from', 'to'], 'desc');
    if ('reply' in p) return p.reply;
    const { from, to, descending, limit } = p.ok;
    const read = (key: unknown, stale: boolean) => {
      let q = MultiVersionedKeyQuery.withKey(key).fromTime(from).toTime(to);
      q = descending ? q.withDescendingTimestamps() : q.withAscendingTimestamps();
      const { items, truncated } = limited(viewOf<ReadOnlyVersionedKeyValueStore<unknown, unknown>>(ctx, store, 'versioned', stale).query(q), limit);
      return { versions: items.map(version), ...(truncated ? { truncated } : {}) };
    };
    return { suffix: '/versions', query: passOn(params, ['from', 'to', 'order', 'limit']), read };
  }
  if (sub === 'windows') {
    const p = listParams(params, 'GET /stores/<store>/keys/<key>/windows', KEY_FLAGS, ['from', 'to'], 'asc');
    if ('reply' in p) return p.reply;
    const { from, to, descending, limit } = p.ok;
    const read = (key: unknown, stale: boolean) => {
      const view = viewOf<ReadOnlyWindowStore<unknown, unknown>>(ctx, store, 'window', stale);
      const { items, truncated } = limited(descending ? view.backwardFetch(key, key, from, to) : view.fetch(key, key, from, to), limit);
      return { windows: items.map(windowed), ...(truncated ? { truncated } : {}) };
    };
    return { suffix: '/windows', query: passOn(params, ['from', 'to', 'order', 'limit']), read };
  }
  const p = listParams(params, 'GET /stores/<store>/keys/<key>/sessions', KEY_FLAGS, ['earliestSessionEnd', 'latestSessionStart'], 'asc', false);
  if ('reply' in p) return p.reply;
  const { from, to, descending, limit } = p.ok;
  const read = (key: unknown, stale: boolean) => {
    const view = viewOf<ReadOnlySessionStore<unknown, unknown>>(ctx, store, 'session', stale);
    const { items, truncated } = limited(descending ? view.backwardFindSessions(key, from, to) : view.findSessions(key, from, to), limit);
    return { sessions: items.map(windowed), ...(truncated ? { truncated } : {}) };
  };
  return { suffix: '/sessions', query: passOn(params, ['earliestSessionEnd', 'latestSessionStart', 'order', 'limit']), read };
}

function found<T>(value: T | null | undefined, body: (value: T) => Record<string, unknown>): Record<string, unknown> | undefined {
  return value === null || value === undefined ? undefined : body(value);
}

/** The parameters of `names` that were given. */
function passOn(params: URLSearchParams, names: readonly string[]): URLSearchParams {
  const out = new URLSearchParams();
  for (const name of names) {
    const value = params.get(name);
    if (value !== null && value !== '') out.set(name, value);
  }
  return out;
}

/** The key-value range source of `GET /stores/<store>?from=&to=` (bounds parsed by the caller). */
export function keyValueRange(ctx: QueryContext, store: string, bounds: { from: unknown; to: unknown }): RangeSource {
  return {
    read() {
      const view: ReadOnlyKeyValueStore<unknown, unknown> = keyValueStore(ctx, store, false);
      const raw = bounds.from === null && bounds.to === null ? view.all() : view.range(bounds.from, bounds.to);
      return raw.map((e) => ({ key: e.key, entry: { key: ctx.render(e.key), value: ctx.render(e.value) } }));
    },
    id: (e) => renderedKeyId(e.key),
    compare: (a, b) => compareRenderedKeys(a.key, b.key),
  };
}

/** The source of `GET /stores/<store>/windows` or `/sessions`, or the 400 refusing its parameters. */
export function windowedRange(ctx: QueryContext, store: string, sub: RangeSub, params: URLSearchParams): RangeSource | Reply {
  const times: [string, string] = sub === 'windows' ? ['from', 'to'] : ['earliestSessionEnd', 'latestSessionStart'];
  const p = listParams(params, `GET /stores/<store>/${sub}`, ['keyFrom', 'keyTo', 'local'], times, 'asc', sub === 'windows');
  if ('reply' in p) return p.reply;
  const bounds: { keyFrom: unknown; keyTo: unknown } = { keyFrom: null, keyTo: null };
  for (const name of ['keyFrom', 'keyTo'] as const) {
    const text = params.get(name);
    if (text === null || text === '') continue;
    try {
      bounds[name] = ctx.parseKey(text);
    } catch (error) {
      return badKey(`'${name}'`, text, error);
    }
  }
  const { from, to, descending, limit } = p.ok;
  const sign = descending ? -1 : 1;
  return {
    read() {
      let raw: KeyValue<Windowed<unknown>, unknown>[];
      if (sub === 'windows') {
        const view = viewOf<ReadOnlyWindowStore<unknown, unknown>>(ctx, store, 'window', false);
        raw = view.fetch(bounds.keyFrom, bounds.keyTo, from, to);
      } else {
        const view = viewOf<ReadOnlySessionStore<unknown, unknown>>(ctx, store, 'session', false);
        raw = view.findSessions(bounds.keyFrom, bounds.keyTo, from, to);
      }
      return raw.map((e) => ({ key: e.key.key, entry: { key: ctx.render(e.key.key), start: e.key.window.start, end: e.key.window.end, value: ctx.render(e.value) } }));
    },
    id: (e) => `${renderedKeyId(e.key)}@${String(e.start)}-${String(e.end)}`,
    compare: (a, b) => sign * (compareRenderedKeys(a.key, b.key) || (a.start as number) - (b.start as number) || (a.end as number) - (b.end as number)),
    limit,
  };
}
