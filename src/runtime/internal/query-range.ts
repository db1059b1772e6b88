/**
 * `GET /stores/<store>?from=&to=`: the entries of a key range across every
 * instance holding the store (a scatter-gather). Steps:
 * 1. the instances holding the store (`streamsMetadataForStore`), and a
 *    fingerprint of them (hosts and partitions);
 * 2. this instance's part, when it is one of them: the local view's
 *    `range(from, to)` (`all()` without bounds), each key checked against the
 *    metadata (a key held here but owned elsewhere means a task is moving: 503);
 *    a global store is complete here, so it answers alone;
 * 3. every other instance's part, `GET ...?local=true` (marked forwarded),
 *    which carries that instance's fingerprint of the same metadata;
 * 4. a part refused as a 400 or 404 (a store of another kind, unknown there) is
 *    relayed as it came; any part not available, a part from an instance that sees other owners
 *    (fingerprints differ), a key answered twice, or a fingerprint that
 *    changed meanwhile: 503; else the entries merged and sorted by key.
 * With `?local=true` only step 2 runs (503 when this instance holds no part).
 * `/stores/<store>/windows` and `/sessions` run the same steps over their
 * `RangeSource` (internal/query-reads.ts): an entry is a window or session,
 * "twice" means the same key and window from two instances, and `limit` cuts
 * the merged answer (`truncated: true`, also when a part was cut).
 */
import { formatHostInfo } from '../../assignment/host-info.js';
import { KeyQueryMetadata, type StreamsMetadata } from '../streams-metadata.js';
import { isSelf, selfText, type QueryContext, type RequestFlags } from './query-context.js';
import { badKey, replyForQueryError } from './query-errors.js';
import { hop, HopTimeoutError, tooSlow, unavailable, type Reply } from './query-http.js';
import { encodeSegment } from './query-routes.js';
import { keyValueRange, type Entry, type RangeSource } from './query-reads.js';

/** A part of the answer, or the reply that ends the query. */
type Part = { entries: Entry[]; global: boolean; truncated?: boolean } | { reply: Reply };

function fingerprint(hosts: readonly StreamsMetadata[]): string {
  return hosts
    .map((h) => `${formatHostInfo(h.hostInfo)}=${h.topicPartitions.map((tp) => `${tp.topic}-${tp.partition}`).sort().join(',')}`)
    .sort()
    .join(';');
}

/** Answers `GET /stores/<store>` (see the module comment). */
export async function queryRange(ctx: QueryContext, store: string, params: URLSearchParams, flags: RequestFlags): Promise<Reply> {
  const bounds: { from: unknown; to: unknown } = { from: null, to: null };
  for (const name of ['from', 'to'] as const) {
    const text = params.get(name);
    if (text === null || text === '') continue;
    try {
      bounds[name] = ctx.parseKey(text);
    } catch (error) {
      return badKey(`'${name}'`, text, error);
    }
  }
  return queryEntries(ctx, store, params, flags, keyValueRange(ctx, store, bounds), `/stores/${encodeSegment(store)}`);
}

/**
 * Answers a range route over `source` (the steps of the module comment); `path` is the route's path on
 * the other instances (`?local=true` and the same parameters are added).
 */
export async function queryEntries(ctx: QueryContext, store: string, params: URLSearchParams, flags: RequestFlags, source: RangeSource, path: string): Promise<Reply> {
  // 1. the instances holding the store
  let hosts: StreamsMetadata[];
  try {
    hosts = ctx.app.streamsMetadataForStore(store);
  } catch (error) {
    const reply = replyForQueryError(error, store);
    if (reply) return reply;
    throw error;
  }
  const before = fingerprint(hosts);
  if (ctx.app.state !== 'RUNNING') return unavailable(`store '${store}' cannot be listed while the app is ${ctx.app.state}; retry`, { store });
  const answer = (entries: Entry[], extra: Record<string, unknown> = {}): Reply => {
    const sorted = entries.sort(source.compare);
    const cut = source.limit !== undefined && sorted.length > source.limit;
    const { truncated, ...rest } = extra;
    return { status: 200, body: { store, ...rest, entries: cut ? sorted.slice(0, source.limit) : sorted, ...(cut || truncated === true ? { truncated: true } : {}) } };
  };
  // 2. the local part
  const holdsIt = hosts.some((h) => isSelf(ctx, h.hostInfo));
  if (flags.local && !holdsIt) {
    return unavailable(`this instance (${selfText(ctx)}) was asked for its part of store '${store}' but its metadata says it holds none: the instances disagree during a rebalance; retry`, { store });
  }
  if (hosts.length === 0) return unavailable(`no instance advertising an applicationServer holds store '${store}' now (app ${ctx.app.state}); retry`, { store });
  const local = holdsIt ? localPart(ctx, store, source) : { entries: [], global: false };
  if ('reply' in local) return local.reply;
  // the asking instance compares the fingerprint with its own view
  if (flags.local) {
    const after = fingerprint(ctx.app.streamsMetadataForStore(store));
    if (after !== before) return unavailable(`the instances holding store '${store}' changed while it was read (a rebalance); retry`, { store });
    return answer(local.entries, { host: selfText(ctx), fingerprint: before });
  }
  if (local.global) return answer(local.entries);
  return gather(ctx, store, params, hosts, before, local.entries, answer, source, path);
}

/** Steps 3 and 4. */
async function gather(
  ctx: QueryContext,
  store: string,
  params: URLSearchParams,
  hosts: StreamsMetadata[],
  before: string,
  local: Entry[],
  answer: (entries: Entry[], extra?: Record<string, unknown>) => Reply,
  source: RangeSource,
  routePath: string,
): Promise<Reply> {
  // 3. the other instances' parts
  const query = new URLSearchParams(params);
  query.set('local', 'true');
  const path = `${routePath}?${query.toString()}`;
  const others = hosts.filter((h) => !isSelf(ctx, h.hostInfo));
  const parts = await Promise.all(others.map((h) => remotePart(ctx, store, formatHostInfo(h.hostInfo), before, () => hop(h.hostInfo, path, ctx.peer))));
  // 4. complete, once each (no entry from two instances), on an unchanged group
  const entries = [...local];
  const seen = new Set<string>(local.map(source.id));
  let truncated = false;
  for (const part of parts) {
    if ('reply' in part) return part.reply;
    const ids = new Set<string>();
    for (const e of part.entries) {
      const id = source.id(e);
      if (seen.has(id)) return unavailable(`${id} of store '${store}' was answered by two instances: a task is moving; retry`, { store });
      ids.add(id);
    }
    for (const id of ids) seen.add(id);
    entries.push(...part.entries);
    if (part.truncated) truncated = true;
  }
  let after: string;
  try {
    after = fingerprint(ctx.app.streamsMetadataForStore(store));
  } catch (error) {
    return replyForQueryError(error, store) ?? unavailable(String(error), { store });
  }
  if (after !== before || ctx.app.state !== 'RUNNING') return unavailable(`the instances holding store '${store}' changed while it was listed (a rebalance); retry`, { store });
  return answer(entries, truncated ? { truncated } : {});
}

/** Step 2: this instance's entries, each key checked against the metadata. */
function localPart(ctx: QueryContext, store: string, source: RangeSource): Part {
  const { app } = ctx;
  let raw: ReturnType<RangeSource['read']>;
  try {
    raw = source.read();
  } catch (error) {
    const reply = replyForQueryError(error, store);
    if (reply) return { reply };
    throw error;
  }
  let global = false;
  const entries: Entry[] = [];
  for (const e of raw) {
    const meta = app.queryMetadataForKey(store, e.key, ctx.keySerde);
    if (meta === KeyQueryMetadata.NOT_AVAILABLE) return { reply: unavailable(`the owners of store '${store}' are not known now (app ${app.state}); retry`, { store }) };
    if (meta.partition < 0) global = true;
    else if (!isSelf(ctx, meta.activeHost)) {
      return { reply: unavailable(`a key of store '${store}' is held by ${selfText(ctx)} but owned by ${formatHostInfo(meta.activeHost)}: a task is moving; retry`, { store }) };
    }
    entries.push(e.entry);
  }
  if (app.state !== 'RUNNING') return { reply: unavailable(`store '${store}' was read while the app became ${app.state}; retry`, { store }) };
  return { entries, global };
}

/** Step 3 for one host: its `?local=true` answer, or the 503 naming it. */
async function remotePart(ctx: QueryContext, store: string, host: string, expected: string, get: () => ReturnType<typeof hop>): Promise<Part> {
  try {
    const answer = await get();
    // a store of another kind (400) or unknown there (404) will not change by retrying: relayed as it came
    if (answer.status === 400 || answer.status === 404) return { reply: { status: answer.status, raw: answer.body, headers: { 'x-sluice-served-by': host } } };
    if (answer.status !== 200) {
      let reason = `status ${answer.status}`;
      try {
        reason = String((JSON.parse(answer.body) as { error?: unknown }).error ?? reason);
      } catch {
        // not JSON: the status says it
      }
      return { reply: unavailable(`instance ${host} cannot list its part of store '${store}' now (${reason}); retry`, { store, host }) };
    }
    const body = JSON.parse(answer.body) as { entries?: unknown; fingerprint?: unknown; truncated?: unknown };
    if (!Array.isArray(body.entries)) return { reply: unavailable(`instance ${host} answered its part of store '${store}' without entries; retry`, { store, host }) };
    if (body.fingerprint !== expected) {
      return { reply: unavailable(`instance ${host} sees other owners of store '${store}' than this instance (a rebalance is under way); retry`, { store, host }) };
    }
    return { entries: body.entries as Entry[], global: false, truncated: body.truncated === true };
  } catch (error) {
    if (error instanceof HopTimeoutError) return { reply: tooSlow(host, error.timeoutMs, `its part of store '${store}'`, { store, host }) };
    ctx.log.debug({ err: error, host, store }, 'an instance holding a store cannot be reached');
    return { reply: unavailable(`instance ${host} holding store '${store}' cannot be reached (${String((error as Error)?.message ?? error)}); retry`, { store, host }) };
  }
}
