/**
 * The HTTP plumbing of the query API (node:http only): answers as JSON, and
 * the one-hop GET to another instance (forwarding and scatter-gather).
 */
import { request } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { HostInfo } from '../../assignment/host-info.js';

/** Header marking a request one instance makes to another: the receiver never forwards it again. */
export const FORWARDED_HEADER = 'x-sluice-forwarded';

/** What a route answers. `raw` is a JSON text relayed as it came (a forwarded answer). */
export interface Reply {
  status: number;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

/** A 503 "not available now, retry": `Retry-After: 1` and the reason. */
export function unavailable(reason: string, extra: Record<string, unknown> = {}): Reply {
  return { status: 503, body: { error: reason, retryable: true, ...extra }, headers: { 'retry-after': '1' } };
}

/** Writes `reply` as JSON (no body for HEAD-less clients that closed: writing to a closed response is harmless). */
export function send(res: ServerResponse, reply: Reply): void {
  const body = reply.raw ?? `${JSON.stringify(reply.body ?? {})}\n`;
  res.writeHead(reply.status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
    ...reply.headers,
  });
  res.end(body);
}

/** The base URL of a host (an IPv6 host keeps its brackets, as `applicationServer` writes it). */
export function baseUrl(host: HostInfo): string {
  return `http://${host.host}:${host.port}`;
}

/** One answer of another instance. */
export interface HopAnswer {
  status: number;
  body: string;
  retryAfter: string | undefined;
  location: string | undefined;
}

/**
 * GETs `path` (with its query string) from `host`, marked {@link FORWARDED_HEADER}.
 * Rejects when the host cannot be reached or does not answer within `timeoutMs`.
 */
export function hop(host: HostInfo, path: string, timeoutMs: number): Promise<HopAnswer> {
  return new Promise((resolve, reject) => {
    const hostname = host.host.startsWith('[') ? host.host.slice(1, -1) : host.host;
    const req = request({ hostname, port: host.port, path, method: 'GET', headers: { [FORWARDED_HEADER]: '1', accept: 'application/json' }, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const header = (name: string): string | undefined => {
          const value = res.headers[name];
          return Array.isArray(value) ? value[0] : value;
        };
        resolve({ status: res.statusCode ?? 502, body: Buffer.concat(chunks).toString('utf8'), retryAfter: header('retry-after'), location: header('location') });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
