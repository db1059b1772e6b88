/**
 * `GET /stores/<store>/keys/<key>[/versions|/windows|/sessions]`: one key,
 * answered by the instance that owns it, read as internal/query-reads.ts says
 * (the `KeyRead` of the route, its parameters checked before). Steps:
 * 1. parse the key (`parseKey`) and ask the metadata where it lives
 *    (`queryMetadataForKey` with `keySerde`); not available: 503;
 * 2. not this instance (and, with `?stale=true`, no standby copy here either):
 *    a forwarded request answers 503 (the instances disagree, no second hop);
 *    `?redirect=true` answers 307 to the owner; otherwise GET the owner and
 *    relay its answer (unreachable: 503);
 * 3. read the local view (`enableStaleStores` with `?stale=true`); a store that
 *    cannot be read now (restoring, moved away): 503;
 * 4. re-check: the app is RUNNING and the metadata still names this instance
 *    for the key's partition, else 503 (never a value of a task that moved);
 * 5. answer 200 with what was read, or 404 when the store has no such key
 *    (a list route answers 200 with an empty list).
 */
import { formatHostInfo, type HostInfo } from '../../assignment/host-info.js';
import { KeyQueryMetadata } from '../streams-metadata.js';
import { isSelf, selfText, type QueryContext, type RequestFlags } from './query-context.js';
import type { KeyRead } from './query-reads.js';
import { badKey, replyForQueryError } from './query-errors.js';
import { baseUrl, hop, HopTimeoutError, tooSlow, unavailable, type Reply } from './query-http.js';
import { encodeSegment } from './query-routes.js';

/** Whether this instance may answer for `meta`: it runs the key's task, or (stale) holds a standby copy. */
function servedHere(ctx: QueryContext, meta: KeyQueryMetadata, stale: boolean): boolean {
  return isSelf(ctx, meta.activeHost) || (stale && meta.standbyHosts.some((h) => isSelf(ctx, h)));
}

/** The path of the key's endpoint on another host (the read's checked parameters, and `?stale=true`, kept). */
function keyPath(store: string, keyText: string, op: KeyRead, stale: boolean): string {
  const query = new URLSearchParams(op.query);
  if (stale) query.set('stale', 'true');
  const text = query.toString();
  return `/stores/${encodeSegment(store)}/keys/${encodeSegment(keyText)}${op.suffix}${text ? `?${text}` : ''}`;
}

/** Answers `GET /stores/<store>/keys/<keyText>` (see the module comment). */
export async function queryKey(ctx: QueryContext, store: string, keyText: string, flags: RequestFlags, op: KeyRead): Promise<Reply> {
  const { app } = ctx;
  // 1. the key and its metadata
  let key: unknown;
  try {
    key = ctx.parseKey(keyText);
  } catch (error) {
    return badKey('key', keyText, error);
  }
  const metadata = (): KeyQueryMetadata | Reply => {
    try {
      return app.queryMetadataForKey(store, key, ctx.keySerde);
    } catch (error) {
      return replyForQueryError(error, store) ?? badKey('key', keyText, error);
    }
  };
  const meta = metadata();
  if ('status' in meta) return meta;
  if (meta === KeyQueryMetadata.NOT_AVAILABLE || meta.activeHost.port < 0) {
    const why = app.state === 'CREATED' ? 'the app is not started yet (state CREATED): start it, then query' : `app ${app.state}: rebalancing or restoring`;
    return unavailable(`the owner of key '${keyText}' of store '${store}' is not known now (${why}); retry`, { store, key: keyText });
  }
  // 2. another instance's key
  if (!servedHere(ctx, meta, flags.stale)) return toOwner(ctx, meta.activeHost, store, keyText, flags, op);
  // 3. the local read
  let read: Record<string, unknown> | undefined;
  try {
    read = op.read(key, flags.stale);
  } catch (error) {
    const reply = replyForQueryError(error, store);
    if (reply) return reply;
    throw error;
  }
  // 4. the re-check
  const again = metadata();
  if ('status' in again) return again;
  if (app.state !== 'RUNNING' || again === KeyQueryMetadata.NOT_AVAILABLE || again.partition !== meta.partition || !servedHere(ctx, again, flags.stale)) {
    return unavailable(`key '${keyText}' of store '${store}' moved while it was read (app ${app.state}, a rebalance is under way); retry`, { store, key: keyText });
  }
  // 5. the answer
  if (read === undefined) {
    const asOf = op.query.get('asOf');
    return { status: 404, body: { error: `store '${store}' has no ${asOf === null ? '' : `version valid at ${asOf} of `}key '${keyText}'`, store, key: keyText } };
  }
  const fromStandby = !isSelf(ctx, again.activeHost);
  return { status: 200, body: { store, key: keyText, ...read, host: selfText(ctx), partition: again.partition, ...(fromStandby ? { stale: true } : {}) } };
}

/** Step 2: no second hop; a redirect; or the forwarded GET, its answer relayed. */
async function toOwner(ctx: QueryContext, owner: HostInfo, store: string, keyText: string, flags: RequestFlags, op: KeyRead): Promise<Reply> {
  const ownerText = formatHostInfo(owner);
  if (flags.forwarded) {
    return unavailable(`this instance (${selfText(ctx)}) was asked as the owner of key '${keyText}' of store '${store}', but its metadata names ${ownerText}: the instances disagree during a rebalance; retry`, {
      store,
      key: keyText,
      owner: ownerText,
    });
  }
  const path = keyPath(store, keyText, op, flags.stale);
  if (flags.redirect) {
    const location = `${baseUrl(owner, ctx.peer.tls)}${path}`;
    return { status: 307, body: { store, key: keyText, owner: ownerText, location }, headers: { location } };
  }
  try {
    const answer = await hop(owner, path, ctx.peer);
    return { status: answer.status, raw: answer.body, headers: { 'x-sluice-served-by': ownerText, ...(answer.retryAfter ? { 'retry-after': answer.retryAfter } : {}) } };
  } catch (error) {
    if (error instanceof HopTimeoutError) return tooSlow(ownerText, error.timeoutMs, `for key '${keyText}' of store '${store}'`, { store, key: keyText, owner: ownerText });
    ctx.log.debug({ err: error, owner: ownerText, store }, 'the owner of a key cannot be reached');
    return unavailable(`the owner of key '${keyText}' of store '${store}', ${ownerText}, cannot be reached (${String((error as Error)?.message ?? error)}); retry`, {
      store,
      key: keyText,
      owner: ownerText,
    });
  }
}
