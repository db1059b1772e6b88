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
 * - `/stores/<store>?from=&to=` → 200 `{store, entries: [{key, value}]}` over every instance holding the
 *   store, sorted by key (`?local=true`: this instance's part only).
 * - `/stores` → the stores and the instances holding them; `/health` → the app state (503 unless RUNNING).
 *
 * Whenever an answer cannot be given correctly now (rebalancing, restoring, a task moved between the
 * metadata and the read, an owner unreachable) the answer is 503 with `Retry-After: 1` and the reason:
 * never a value from a task that is not this instance's (see internal/query-key.ts, internal/query-range.ts).
 * Values are rendered as internal/query-render.ts says (`bigint` as a string, bytes as `{base64}`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatHostInfo, parseHostInfo, type HostInfo } from '../assignment/host-info.js';
import { IllegalArgumentError } from '../errors.js';
import { componentLogger, type Logger } from '../internal/logger.js';
import { Serdes } from '../serdes/serdes.js';
import type { Serializer } from '../serdes/serde.js';
import type { QueryContext, RequestFlags } from './internal/query-context.js';
import type { StoreQueryParameters } from './interactive-queries.js';
import type { KeyQueryMetadata, StreamsMetadata } from './streams-metadata.js';
import { FORWARDED_HEADER, send, type Reply } from './internal/query-http.js';
import { queryKey } from './internal/query-key.js';
import { queryRange } from './internal/query-range.js';
import { toJsonValue } from './internal/query-render.js';
import { flag, parseRoute, ROUTES_HELP } from './internal/query-routes.js';
import { describeStores, health } from './internal/query-stores.js';

/** The part of a `KafkaStreams` app the query API uses (a `KafkaStreams` is one; tests pass fakes). */
export interface QueryableApp {
  readonly state: string;
  store<T>(params: StoreQueryParameters<T>): T;
  queryMetadataForKey<K>(storeName: string, key: K, keySerializer: Serializer<K>): KeyQueryMetadata;
  streamsMetadataForStore(storeName: string): StreamsMetadata[];
  metadataForAllStreamsClients(): StreamsMetadata[];
}

/** Default interface of {@link serveQueries}: every interface, so the other instances reach it. */
export const DEFAULT_QUERY_HOST = '0.0.0.0';

/** Options of {@link serveQueries}. */
export interface QueryServerOptions<K = string> {
  /** Port to listen on (0: any free port, which the app cannot have advertised: for tests, with a concrete `host`). */
  port: number;
  /** Interface to listen on; default `0.0.0.0`. */
  host?: string;
  /**
   * This instance's `host:port` as the app advertises it (its `applicationServer` config): how the server
   * recognises the keys it owns. Default `<host>:<port>` when `host` is a concrete address (not 0.0.0.0 or ::).
   */
  applicationServer?: string;
  /** Serializer of the store's keys, for the key's partition; default `Serdes.String()`. */
  keySerde?: Serializer<K>;
  /** Turns the URL's (decoded) key text into a store key; default: the text itself (string keys). */
  parseKey?: (text: string) => K;
  /** Renders a key or value as JSON; default: bigint as a decimal string, bytes as `{ base64 }` (see the module comment). */
  valueFormat?: (value: unknown) => unknown;
  /** How long a forwarded request waits for the owner; default 5000 ms. */
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

function selfOf(options: QueryServerOptions<unknown>, host: string, port: number): HostInfo {
  const wildcard = host === '0.0.0.0' || host === '::' || host === '';
  const text = options.applicationServer ?? (wildcard ? undefined : `${host.includes(':') ? `[${host}]` : host}:${port}`);
  if (text === undefined) {
    throw new IllegalArgumentError(`serveQueries(): pass applicationServer (this instance's 'host:port' as in the app's applicationServer config): listening on ${host} does not say how the other instances reach it`);
  }
  const parsed = parseHostInfo(text);
  if (typeof parsed === 'string') throw new IllegalArgumentError(`serveQueries(): option applicationServer ${parsed}`);
  return parsed;
}

/**
 * Serves the query API of `app` (see the module comment) on `options.port`. Start it after `app.start()`
 * (the metadata exists from then on); close it before or with the app.
 */
export async function serveQueries<K = string>(app: QueryableApp, options: QueryServerOptions<K>): Promise<QueryServer> {
  if (!options || !Number.isInteger(options.port) || options.port < 0 || options.port > 65_535) {
    throw new IllegalArgumentError(`serveQueries(): option port must be an integer from 0 to 65535, got ${String(options?.port)}`);
  }
  const host = options.host ?? DEFAULT_QUERY_HOST;
  const log = componentLogger('query-server', options.logger);
  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let self: HostInfo;
  try {
    self = selfOf(options as QueryServerOptions<unknown>, host, port);
  } catch (error) {
    await new Promise((resolve) => server.close(resolve));
    throw error;
  }
  const ctx: QueryContext = {
    app,
    self,
    keySerde: (options.keySerde ?? Serdes.String()) as Serializer<unknown>,
    parseKey: (options.parseKey ?? ((text: string) => text)) as (text: string) => unknown,
    render: options.valueFormat ?? toJsonValue,
    forwardTimeoutMs: options.forwardTimeoutMs ?? 5000,
    log,
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      send(res, await route(ctx, req));
    } catch (error) {
      log.error({ err: error, url: req.url }, 'a query failed');
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
  const url = new URL(req.url ?? '/', 'http://query.invalid');
  const target = parseRoute(url.pathname);
  const flags: RequestFlags = {
    forwarded: req.headers[FORWARDED_HEADER] !== undefined,
    redirect: flag(url.searchParams, 'redirect'),
    stale: flag(url.searchParams, 'stale'),
    local: flag(url.searchParams, 'local'),
  };
  switch (target.kind) {
    case 'key':
      return queryKey(ctx, target.store, target.key, flags);
    case 'range':
      return queryRange(ctx, target.store, url.searchParams, flags);
    case 'stores':
      return describeStores(ctx);
    case 'health':
      return health(ctx);
    case 'bad-encoding':
      return { status: 400, body: { error: `path segment '${target.segment}' is not valid URL encoding; encode keys with encodeURIComponent` } };
    case 'not-found':
      return { status: 404, body: { error: `no such endpoint: ${url.pathname}; the query API serves ${ROUTES_HELP.join(', ')}` } };
  }
}
