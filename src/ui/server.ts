/**
 * The live UI's HTTP server (read-only: GET and HEAD only, anything else 405):
 *
 * - `/`: the page (and its script, CSS and the two libraries, see ./assets.ts);
 * - `/topology`: the topology structure as JSON ({@link UiTopology});
 * - `/snapshot`: the current {@link UiSnapshot} as JSON;
 * - `/events`: Server-Sent Events, one `snapshot` event (JSON) every
 *   `intervalMs`, the first at once.
 *
 * Cost on the app: one snapshot and one `JSON.stringify` per interval while at
 * least one page is connected, shared by every connection; none otherwise.
 * Nothing runs per record. The timer is unref'd.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { uiAssets } from './assets.js';
import type { UiDataSource, UiServer, UiServerOptions } from './types.js';

/** Default interface: local only. */
export const DEFAULT_UI_HOST = '127.0.0.1';

/** Frames `data` as one Server-Sent Event of type `event` (`data` holds no newline: it is JSON). */
export function sseFrame(event: string, data: string): string {
  return `event: ${event}\ndata: ${data}\n\n`;
}

/** Starts the UI server for `source` on `options.host:options.port`. */
export async function startUiServer(source: UiDataSource, options: UiServerOptions): Promise<UiServer> {
  const host = options.host ?? DEFAULT_UI_HOST;
  const intervalMs = options.intervalMs ?? 1000;
  const assets = uiAssets();
  const clients = new Set<ServerResponse>();
  let timer: NodeJS.Timeout | undefined;

  const snapshotJson = (): string => JSON.stringify(source.snapshot());
  const broadcast = (): void => {
    if (clients.size === 0) return;
    let frame: string;
    try {
      frame = sseFrame('snapshot', snapshotJson());
    } catch (error) {
      frame = sseFrame('failure', JSON.stringify({ message: String((error as Error)?.message ?? error) }));
    }
    for (const res of clients) res.write(frame);
  };
  const events = (req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    // 1. tell the browser how soon to reconnect, 2. the current snapshot at once, 3. then one per interval
    res.write(`retry: ${Math.max(1000, intervalMs)}\n\n`);
    clients.add(res);
    try {
      res.write(sseFrame('snapshot', snapshotJson()));
    } catch (error) {
      res.write(sseFrame('failure', JSON.stringify({ message: String((error as Error)?.message ?? error) })));
    }
    if (!timer) {
      timer = setInterval(broadcast, intervalMs);
      timer.unref();
    }
    req.on('close', () => {
      clients.delete(res);
      if (clients.size === 0 && timer) {
        clearInterval(timer);
        timer = undefined;
      }
    });
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

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const head = req.method === 'HEAD';
    if (req.method !== 'GET' && !head) {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('the UI is read-only: GET only\n');
      return;
    }
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    if (path === '/events') return head ? void res.writeHead(200, { 'content-type': 'text/event-stream' }).end() : events(req, res);
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
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    port,
    host,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/`,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        if (timer) clearInterval(timer);
        timer = undefined;
        for (const res of clients) res.end();
        clients.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      })),
  };
}
