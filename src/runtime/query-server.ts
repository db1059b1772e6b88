/**
 * The query API across instances (issue 19; Kafka Streams leaves this RPC
 * layer to the user): a small HTTP/JSON server over an app's interactive
 * queries, one per instance, at the `applicationServer` it advertises.
 *
 * ```ts
 * const app = new KafkaStreams(topology, { ..., applicationServer: 'orders-1.internal:7070' });
 * await app.start();
 * const queries = await serveQueries(app, { port: 7070, applicationServer: 'orders-1.internal:7070' });
 * // curl http://orders-1.internal:7070/stores/counts/keys/alice
 * ```
 *
 * Endpoints (GET only, JSON; any instance answers any key):
 * - `/stores/<store>/keys/<key>` → 200 `{store, key, value, host, partition}`, 404 `{error, key}` when
 *   absent. A key owned by another instance is forwarded to it (one hop, header `x-sluice-forwarded: 1`)
 *   and its answer relayed; `?redirect=true` answers 307 with `Location` instead; `?stale=true` lets a
 *   local standby copy answer (the answer then says `stale: true`).
 *   A versioned store's key answers its latest version `{..., value, timestamp, validTo?}`, with
 *   `?asOf=<ms>` the version valid then (404 when none).
 * - `/stores/<store>/keys/<key>/versions?from=&to=&order=asc|desc&limit=` (versioned),
 *   `/stores/<store>/keys/<key>/windows?from=&to=&order=&limit=` (window),
 *   `/stores/<store>/keys/<key>/sessions?earliestSessionEnd=&latestSessionStart=&order=&limit=` (session)
 *   → 200 `{store, key, versions | windows | sessions: [...], truncated?}`, routed to the key's owner as above
 *   (see internal/query-reads.ts; every parameter is checked first, internal/query-params.ts: a 400 names it).
 * - `/stores/<store>?from=&to=` → 200 `{store, entries: [{key, value}]}` over every instance holding the
 *   store, sorted by key (`?local=true`: this instance's part only); `/stores/<store>/windows?keyFrom=&keyTo=&from=&to=`
 *   and `/stores/<store>/sessions?keyFrom=&keyTo=&earliestSessionEnd=&latestSessionStart=` → the same over a window
 *   or session store, entries `{key, start, end, value}` sorted by key, start, end (`order=desc` reverses; `limit`).
 * - `/stores` → the stores and the instances holding them; `/health` → the app state (503 unless RUNNING).
 *
 * Whenever an answer cannot be given correctly now (rebalancing, restoring, a task moved between the
 * metadata and the read, an owner unreachable) the answer is 503 with `Retry-After: 1` and the reason:
 * never a value from a task that is not this instance's (see internal/query-key.ts, internal/query-range.ts).
 * Values are rendered as internal/query-render.ts says (`bigint` as a string, bytes as `{base64}`).
 *
 * Safety (issue 28): bound to 127.0.0.1 unless `host` says otherwise; with `token` every request needs
 * `Authorization: Bearer <token>` (401 and nothing else without), with `tls` it serves HTTPS; forwarding
 * between instances uses both. A forwarded request has a total deadline (`forwardTimeoutMs`, a 504 naming
 * the slow instance). At start the server fetches its own nonce through the advertised address and refuses
 * to start when that address reaches another server (or none). A store read by a route of another kind (a
 * window store's `/keys/<key>`) answers 400 naming the route to use; suppression buffers are not listed.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authorized, createGuardedServer, listen, securityProblem } from '../internal/http-guard.js';
import type { ServerTls } from '../ui/types.js';
import { durationProblem } from '../internal/durations.js';
import { formatHostInfo, parseHostInfo, type HostInfo } from '../assignment/host-info.js';
import { IllegalArgumentError } from '../errors.js';
import { componentLogger, type Logger } from '../internal/logger.js';
import { Serdes } from '../serdes/serdes.js';
import type { Serializer } from '../serdes/serde.js';
import type { QueryContext, RequestFlags } from './internal/query-context.js';
import { FORWARDED_HEADER, hop, send, unavailable, type PeerOptions, type Reply } from './internal/query-http.js';
import { queryKey } from './internal/query-key.js';
import { queryEntries, queryRange } from './internal/query-range.js';
import { keyReadFor, windowedRange } from './internal/query-reads.js';
import { toJsonValue } from './internal/query-render.js';
import { encodeSegment, flag, INSTANCE_PATH, parseRoute, ROUTES_HELP, splitTarget } from './internal/query-routes.js';
import { describeStores, health } from './internal/query-stores.js';
import type { QueryableApp } from './queryable-app.js';

export type { QueryableApp } from './queryable-app.js';

/** Default interface of {@link serveQueries}: local only, like the UI; pass `host: '0.0.0.0'` (with `token` and `tls`) so the other instances reach it. */
export const DEFAULT_QUERY_HOST = '127.0.0.1';

/** Options of {@link serveQueries}. */
export interface QueryServerOptions<K = string> {
  /** Port to listen on (0: any free port, which the app cannot have advertised: for tests, with a concrete `host`). */
  port: number;
  /** Interface to listen on; default `127.0.0.1` (local only): other instances need `0.0.0.0` or a concrete address. */
  host?: string;
  /**
   * This instance's `host:port` as the app advertises it (its `applicationServer` config): how the server
   * recognises the keys it owns. Default: the app's `applicationServer`, else `<host>:<port>` when `host` is a
   * concrete address (not 0.0.0.0 or ::). Must equal the app's when both are given.
   */
  applicationServer?: string;
  /**
   * At start, fetch this server's nonce through `applicationServer` and refuse to start when the address
   * reaches another server or none (default true). Turn off only where the advertised address cannot be
   * reached from the instance itself (e.g. a load balancer without hairpinning).
   */
  verifyApplicationServer?: boolean;
  /** Serve HTTPS with this certificate and key; the other instances are called with HTTPS too (`ca` to trust theirs). */
  tls?: ServerTls;
  /** Require `Authorization: Bearer <token>` on every request (401 otherwise); sent to the other instances too. Never logged. */
  token?: string;
  /** Serializer of the store's keys, for the key's partition; default `Serdes.String()`. */
  keySerde?: Serializer<K>;
  /** Turns the URL's (decoded) key text, and a range's `from`/`to`/`keyFrom`/`keyTo`, into a store key; default: the text itself (string keys). */
  parseKey?: (text: string) => K;
  /** Renders a key or value as JSON; default: bigint as a decimal string, bytes as `{ base64 }` (see the module comment). */
  valueFormat?: (value: unknown) => unknown;
  /** How long a forwarded request may take in total (connect and the whole answer), default 5000 ms; then 504 naming the instance. */
  forwardTimeoutMs?: number;
  /** Parent logger (a child `{ component: 'query-server' }` is used). */
  logger?: Logger;
}

/** A running query server. */
export interface QueryServer {
  /** Where it listens (`port` is the real one when 0 was asked). */
  readonly address: { host: string; port: number };
  /** This instance's advertised `host:port`. */
  readonly applicationServer: string;
  /** Stops listening and drops open connections; idempotent. */
  close(): Promise<void>;
}

function selfOf(app: QueryableApp, options: QueryServerOptions<unknown>, host: string, port: number): HostInfo {
  const wildcard = host === '0.0.0.0' || host === '::' || host === '';
  const appServer = typeof app.applicationServer === 'string' ? app.applicationServer : undefined;
  const text = options.applicationServer ?? appServer ?? (wildcard ? undefined : `${host.includes(':') ? `[${host}]` : host}:${port}`);
  if (text === undefined) {
    throw new IllegalArgumentError(`serveQueries(): pass applicationServer (this instance's 'host:port' as in the app's applicationServer config): listening on ${host} does not say how the other instances reach it`);
  }
  const parsed = parseHostInfo(text);
  if (typeof parsed === 'string') throw new IllegalArgumentError(`serveQueries(): option applicationServer ${parsed}`);
  if (appServer !== undefined) {
    const app = parseHostInfo(appServer);
    if (typeof app !== 'string' && (app.host.toLowerCase() !== parsed.host.toLowerCase() || app.port !== parsed.port)) {
      throw new IllegalArgumentError(
        `serveQueries(): the app advertises applicationServer '${appServer}' but the query server was given '${text}': the group would send this instance's keys to an address the server does not take for its own (503 for ever). Use one address in both (the app's config and serveQueries' applicationServer)`,
      );
    }
  }
  return parsed;
}

function checkOptions(options: QueryServerOptions<unknown>): void {
  if (!options || !Number.isInteger(options.port) || options.port < 0 || options.port > 65_535) {
    throw new IllegalArgumentError(`serveQueries(): option port must be an integer from 0 to 65535, got ${String(options?.port)}`);
  }
  const timeout = options.forwardTimeoutMs === undefined ? undefined : durationProblem(options.forwardTimeoutMs);
  if (timeout) throw new IllegalArgumentError(`serveQueries(): option forwardTimeoutMs ${timeout}`);
  const security = securityProblem(options, 'serveQueries()');
  if (security) throw new IllegalArgumentError(security);
}

/**
 * Step 4 of {@link serveQueries}: GETs this server's nonce through the advertised address; a problem if
 * that address reaches another server, or none.
 */
async function advertisedProblem(self: HostInfo, nonce: string, peer: PeerOptions, listening: string): Promise<string | undefined> {
  const advertised = formatHostInfo(self);
  const fix = `set applicationServer (the app's config and serveQueries') to an address of this instance the others can reach, or the server's host/port to what is advertised`;
  try {
    const answer = await hop(self, INSTANCE_PATH, peer);
    let seen: unknown;
    try {
      seen = (JSON.parse(answer.body) as { nonce?: unknown }).nonce;
    } catch {
      seen = undefined;
    }
    if (answer.status === 200 && seen === nonce) return undefined;
    return `the advertised applicationServer ${advertised} reaches another server (status ${answer.status}${seen === undefined ? ', not a sluice query server of this version' : ', another sluice instance'}), not this query server listening on ${listening}: ${fix}`;
  } catch (error) {
    return `the advertised applicationServer ${advertised} does not reach this query server listening on ${listening} (${String((error as Error)?.message ?? error)}): ${fix}`;
  }
}

/**
 * Serves the query API of `app` (see the module comment) on `options.port`. Start it after `app.start()`
 * (the metadata exists from then on); close it before or with the app.
 */
export async function serveQueries<K = string>(app: QueryableApp, options: QueryServerOptions<K>): Promise<QueryServer> {
  // 1. the options; 2. listen; 3. this instance's address; 4. the address reaches this server
  checkOptions(options as QueryServerOptions<unknown>);
  const host = options.host ?? DEFAULT_QUERY_HOST;
  const log = componentLogger('query-server', options.logger);
  const nonce = randomUUID();
  const ready: { ctx?: QueryContext } = {}; // ctx set once step 4 passed
  const server: Server = createGuardedServer(options, (req, res) => void handle(req, res));
  await listen(server, options.port, host, 'serveQueries()');
  const port = (server.address() as AddressInfo).port;
  const forwardTimeoutMs = options.forwardTimeoutMs ?? 5000;
  const peer: PeerOptions = { timeoutMs: forwardTimeoutMs, tls: options.tls !== undefined, ...(options.tls?.ca !== undefined ? { ca: options.tls.ca } : {}), ...(options.token !== undefined ? { token: options.token } : {}) };
  let self: HostInfo;
  try {
    self = selfOf(app, options as QueryServerOptions<unknown>, host, port);
    if (options.verifyApplicationServer !== false) {
      const problem = await advertisedProblem(self, nonce, peer, `${host.includes(':') ? `[${host}]` : host}:${port}`);
      if (problem) throw new IllegalArgumentError(`serveQueries(): ${problem}`);
    }
  } catch (error) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    throw error;
  }
  const ctx: QueryContext = {
    app,
    self,
    keySerde: (options.keySerde ?? Serdes.String()) as Serializer<unknown>,
    parseKey: (options.parseKey ?? ((text: string) => text)) as (text: string) => unknown,
    render: options.valueFormat ?? toJsonValue,
    forwardTimeoutMs,
    peer,
    log,
  };
  ready.ctx = ctx;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (!authorized(req, options.token)) return send(res, { status: 401, body: { error: 'unauthorized' }, headers: { 'www-authenticate': 'Bearer realm="sluice query"' } });
      if (splitTarget(req.url ?? '/').path === INSTANCE_PATH) return send(res, { status: 200, body: { nonce } });
      send(res, ready.ctx ? await route(ready.ctx, req) : unavailable('the query server is starting; retry'));
    } catch (error) {
      log.error({ err: error, path: splitTarget(req.url ?? '/').path }, 'a query failed');
      if (!res.headersSent) send(res, { status: 500, body: { error: `the query failed: ${String((error as Error)?.message ?? error)}` } });
      else res.destroy();
    }
  }

  log.info({ host, port, applicationServer: formatHostInfo(self) }, 'query API listening');
  let closing: Promise<void> | undefined;
  return {
    address: { host, port },
    applicationServer: formatHostInfo(self),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      })),
  };
}

/** Dispatches one request. */
async function route(ctx: QueryContext, req: IncomingMessage): Promise<Reply> {
  if (req.method !== 'GET') return { status: 405, body: { error: `the query API is read-only: GET only, got ${String(req.method)}` }, headers: { allow: 'GET' } };
  // the raw target, never a normalised URL: '.', '..' and '' are keys (see internal/query-routes.ts)
  const { path, query } = splitTarget(req.url ?? '/');
  const params = new URLSearchParams(query);
  const target = parseRoute(path);
  const flags: RequestFlags = {
    forwarded: req.headers[FORWARDED_HEADER] !== undefined,
    redirect: flag(params, 'redirect'),
    stale: flag(params, 'stale'),
    local: flag(params, 'local'),
  };
  switch (target.kind) {
    case 'key': {
      const op = keyReadFor(ctx, target.store, target.sub, params);
      return 'status' in op ? op : queryKey(ctx, target.store, target.key, flags, op);
    }
    case 'range': {
      if (target.sub === undefined) return queryRange(ctx, target.store, params, flags);
      const source = windowedRange(ctx, target.store, target.sub, params);
      return 'status' in source ? source : queryEntries(ctx, target.store, params, flags, source, `/stores/${encodeSegment(target.store)}/${target.sub}`);
    }
    case 'stores':
      return describeStores(ctx);
    case 'health':
      return health(ctx);
    case 'bad-encoding':
      return { status: 400, body: { error: `path segment '${target.segment}' is not valid URL encoding; encode keys with encodeURIComponent` } };
    case 'instance':
    case 'not-found':
      return { status: 404, body: { error: `no such endpoint: ${path}; the query API serves ${ROUTES_HELP.join(', ')}` } };
  }
}
