/**
 * The live UI's HTTP server (read-only: GET and HEAD only, anything else 405):
 *
 * - `/`: the page (and its script, CSS and the two libraries, see ./assets.ts);
 * - `/topology`: the topology structure as JSON ({@link UiTopology});
 * - `/snapshot`: the current {@link UiSnapshot} as JSON;
 * - `/events`: Server-Sent Events, one `snapshot` event (JSON) every
 *   `intervalMs`, the first at once.
 *
 * Every request passes, in this order: the token (401, see
 * src/internal/http-guard.ts), the `Host` / `Origin` check (421 / 403, see
 * ./request-guard.ts), the method (405). `/events` has backpressure (see
 * ./event-stream.ts): a client that stops reading holds at most one buffer.
 *
 * Cost on the app: one snapshot and one `JSON.stringify` per interval while at
 * least one page is connected, shared by every connection; none otherwise.
 * Nothing runs per record. The timer is unref'd.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IllegalArgumentError } from '../errors.js';
import { durationProblem } from '../internal/durations.js';
import { authorized, createGuardedServer, listen, refuseUnauthorized, securityProblem } from '../internal/http-guard.js';
import { uiAssets } from './assets.js';
import { EventClients } from './event-stream.js';
import { allowedHostNames, refusal } from './request-guard.js';
import type { UiDataSource, UiServer, UiServerOptions } from './types.js';

/** Default interface: local only. */
export const DEFAULT_UI_HOST = '127.0.0.1';

/** Shortest `intervalMs` between two snapshots on `/events`. */
export const MIN_UI_INTERVAL_MS = 50;

/** Default of `maxClients`: open `/events` streams at once. */
export const DEFAULT_UI_MAX_CLIENTS = 16;

/** Bytes a slow `/events` client may have pending before it gets no new frame (the newest comes once it drains). */
export const UI_MAX_BUFFERED_BYTES = 1024 * 1024;

/** Frames `data` as one Server-Sent Event of type `event` (`data` holds no newline: it is JSON). */
export function sseFrame(event: string, data: string): string {
  return `event: ${event}\ndata: ${data}\n\n`;
}

function checkOptions(options: UiServerOptions): void {
  if (typeof options !== 'object' || options === null) throw new IllegalArgumentError('serveUi() takes { port, host?, intervalMs?, ... }');
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65_535) {
    throw new IllegalArgumentError(`serveUi(): option port must be an integer from 0 to 65535, got ${String(options.port)}`);
  }
  const interval = options.intervalMs === undefined ? undefined : durationProblem(options.intervalMs, MIN_UI_INTERVAL_MS);
  if (interval) throw new IllegalArgumentError(`serveUi(): option intervalMs ${interval}`);
  if (options.maxClients !== undefined && (!Number.isInteger(options.maxClients) || options.maxClients < 1 || options.maxClients > 10_000)) {
    throw new IllegalArgumentError(`serveUi(): option maxClients must be an integer from 1 to 10000, got ${String(options.maxClients)}`);
  }
  if (options.allowedHosts !== undefined && (!Array.isArray(options.allowedHosts) || options.allowedHosts.some((h) => typeof h !== 'string' || h.trim() === ''))) {
    throw new IllegalArgumentError('serveUi(): option allowedHosts must be an array of host names');
  }
  const security = securityProblem(options, 'serveUi()');
  if (security) throw new IllegalArgumentError(security);
}

/** Starts the UI server for `source` on `options.host:options.port`. */
export async function startUiServer(source: UiDataSource, options: UiServerOptions): Promise<UiServer> {
  checkOptions(options);
  const host = options.host ?? DEFAULT_UI_HOST;
  const intervalMs = options.intervalMs ?? 1000;
  const allowed = allowedHostNames(host, options.allowedHosts);
  const assets = uiAssets();
  const clients = new EventClients({ maxClients: options.maxClients ?? DEFAULT_UI_MAX_CLIENTS, maxBufferedBytes: UI_MAX_BUFFERED_BYTES, stallMs: Math.max(30_000, 10 * intervalMs) });
  let timer: NodeJS.Timeout | undefined;

  const snapshotFrame = (): string => {
    try {
      return sseFrame('snapshot', JSON.stringify(source.snapshot()));
    } catch (error) {
      return sseFrame('failure', JSON.stringify({ message: String((error as Error)?.message ?? error) }));
    }
  };
  const broadcast = (): void => {
    if (clients.size > 0) clients.broadcast(snapshotFrame());
  };
  const events = (res: ServerResponse): void => {
    if (clients.full) {
      res.writeHead(503, { 'retry-after': '5', 'content-type': 'text/plain; charset=utf-8' }).end('too many open event streams; close a UI page and retry\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    // 1. tell the browser how soon to reconnect, 2. the current snapshot at once, 3. then one per interval
    res.write(`retry: ${Math.max(1000, intervalMs)}\n\n`);
    clients.add(res, () => {
      if (clients.size === 0 && timer) {
        clearInterval(timer);
        timer = undefined;
      }
    });
    clients.sendTo(res, snapshotFrame());
    if (!timer) {
      timer = setInterval(broadcast, intervalMs);
      timer.unref();
    }
  };
  const json = (res: ServerResponse, head: boolean, produce: () => unknown): void => {
    let body: string;
    try {
      body = JSON.stringify(produce());
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`${String((error as Error)?.message ?? error)}\n`);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(head ? undefined : body);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    // 1. the token, 2. Host and Origin, 3. the method, 4. the route
    if (!authorized(req, options.token)) return refuseUnauthorized(res, 'sluice ui');
    const refused = refusal(req, allowed);
    if (refused) return void res.writeHead(refused.status, { 'content-type': 'text/plain; charset=utf-8' }).end(refused.text);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const head = req.method === 'HEAD';
    if (req.method !== 'GET' && !head) {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('the UI is read-only: GET only\n');
      return;
    }
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    if (path === '/events') return head ? void res.writeHead(200, { 'content-type': 'text/event-stream' }).end() : events(res);
    if (path === '/snapshot') return json(res, head, () => source.snapshot());
    if (path === '/topology') return json(res, head, () => source.topology());
    const asset = assets.get(path);
    if (!asset) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: try / (the page), /snapshot, /topology or /events\n');
      return;
    }
    let body: Buffer;
    try {
      body = asset.body();
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`cannot read ${path}: ${String((error as Error)?.message ?? error)}\n`);
      return;
    }
    res.writeHead(200, { 'content-type': asset.type, 'content-length': body.length, 'cache-control': 'no-cache' }).end(head ? undefined : body);
  };

  const server: Server = createGuardedServer(options, handle);
  await listen(server, options.port, host, 'serveUi()');
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    port,
    host,
    url: `${options.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}/`,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        if (timer) clearInterval(timer);
        timer = undefined;
        clients.endAll();
        server.closeAllConnections();
        server.close(() => resolve());
      })),
  };
}
