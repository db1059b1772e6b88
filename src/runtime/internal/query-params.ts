/**
 * The query parameters of the query API's versioned, window and session
 * routes, checked before anything is read or forwarded: times are integers of
 * epoch milliseconds from 0 to 8640000000000000 (the range of a JavaScript
 * `Date`), `from` not after `to`; `order` is `asc` or `desc`; `limit` an
 * integer from 1 to {@link MAX_LIMIT}; a parameter a route does not take, or
 * one given twice, is refused. Every refusal is a 400 naming the parameter
 * and what to send instead.
 */
import type { Reply } from './query-http.js';

/** The largest time a parameter takes (ms): `Date`'s bound. */
export const MAX_TIME = 8_640_000_000_000_000;
/** The default and largest `limit` of a list answer. */
export const DEFAULT_LIMIT = 1000;
export const MAX_LIMIT = 10_000;
/** The longest parameter value taken (a key bound or a number). */
const MAX_PARAM_LENGTH = 4096;

/** A checked parameter set, or the 400 that refuses it. */
export type Checked<T> = { ok: T } | { reply: Reply };

/** A 400 naming parameter `name`. */
export function badParam(name: string, problem: string): Reply {
  return { status: 400, body: { error: `query parameter '${name}' ${problem}`, parameter: name } };
}

/** Refuses parameters not in `allowed` and parameters given twice; undefined when all are fine. */
export function unknownParam(params: URLSearchParams, allowed: readonly string[], route: string): Reply | undefined {
  const seen = new Set<string>();
  for (const [name, value] of params) {
    if (!allowed.includes(name)) return badParam(name, `is not taken by ${route}; it takes ${allowed.map((a) => `'${a}'`).join(', ')}`);
    if (seen.has(name)) return badParam(name, 'is given twice; give it once');
    if (value.length > MAX_PARAM_LENGTH) return badParam(name, `is ${value.length} characters long; at most ${MAX_PARAM_LENGTH} are taken`);
    seen.add(name);
  }
  return undefined;
}

/** Time parameter `name` (absent or empty: `fallback`). */
export function timeParam(params: URLSearchParams, name: string, fallback: number): Checked<number> {
  const text = params.get(name);
  if (text === null || text === '') return { ok: fallback };
  const value = /^\d{1,16}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value > MAX_TIME) {
    return { reply: badParam(name, `must be a time in epoch milliseconds, an integer from 0 to ${MAX_TIME}; got '${text.slice(0, 64)}'`) };
  }
  return { ok: value };
}

/** The time bounds `fromName` and `toName` (defaults 0 and {@link MAX_TIME}), in any order. */
export function timeBounds(params: URLSearchParams, fromName: string, toName: string): Checked<{ from: number; to: number }> {
  const from = timeParam(params, fromName, 0);
  if ('reply' in from) return from;
  const to = timeParam(params, toName, MAX_TIME);
  if ('reply' in to) return to;
  return { ok: { from: from.ok, to: to.ok } };
}

/** {@link timeBounds}, the lower bound not after the upper. */
export function timeRange(params: URLSearchParams, fromName: string, toName: string): Checked<{ from: number; to: number }> {
  const bounds = timeBounds(params, fromName, toName);
  if ('reply' in bounds || bounds.ok.from <= bounds.ok.to) return bounds;
  return { reply: badParam(fromName, `(${bounds.ok.from}) is after '${toName}' (${bounds.ok.to}); give ${fromName} <= ${toName}`) };
}

/** `order`: `asc` or `desc` (absent: `fallback`). */
export function orderParam(params: URLSearchParams, fallback: 'asc' | 'desc'): Checked<'asc' | 'desc'> {
  const text = params.get('order');
  if (text === null || text === '') return { ok: fallback };
  if (text === 'asc' || text === 'desc') return { ok: text };
  return { reply: badParam('order', `must be 'asc' or 'desc', got '${text.slice(0, 64)}'`) };
}

/** `limit`: how many items a list answer holds at most (default {@link DEFAULT_LIMIT}). */
export function limitParam(params: URLSearchParams): Checked<number> {
  const text = params.get('limit');
  if (text === null || text === '') return { ok: DEFAULT_LIMIT };
  const value = /^\d{1,6}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(value) || value < 1 || value > MAX_LIMIT) return { reply: badParam('limit', `must be an integer from 1 to ${MAX_LIMIT}, got '${text.slice(0, 64)}'`) };
  return { ok: value };
}
