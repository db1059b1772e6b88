/**
 * The HTTP plumbing of the query API (node:http only): answers as JSON, and
 * the one-hop GET to another instance (forwarding and scatter-gather).
 */
import { request } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { bearer } from '../../internal/http-guard.js';
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
export function baseUrl(host: HostInfo, tls = false): string {
  return `${tls ? 'https' : 'http'}://${host.host}:${host.port}`;
}

/** A 504: instance `who` did not answer within the deadline. */
export function tooSlow(who: string, timeoutMs: number, what: string, extra: Record<string, unknown> = {}): Reply {
  return {
    status: 504,
    body: { error: `instance ${who} did not answer ${what} within ${timeoutMs} ms (forwardTimeoutMs): it is overloaded or stuck; retry, or raise forwardTimeoutMs`, slowInstance: who, retryable: true, ...extra },
    headers: { 'retry-after': '1' },
  };
}

/** One answer of another instance. */
export interface HopAnswer {
  status: number;
  body: string;
  retryAfter: string | undefined;
  location: string | undefined;
}

/** How this instance calls another: the total deadline, and the scheme, CA and token of the deployment. */
export interface PeerOptions {
  /** Total time an answer may take, connecting and reading included (`forwardTimeoutMs`). */
  timeoutMs: number;
  /** Call with HTTPS (the query servers serve TLS), trusting `ca` besides the system's CAs. */
  tls: boolean;
  ca?: string | Buffer;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string;
}

/** The other instance did not answer in full within the deadline (a 504 names it). */
export class HopTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no complete answer within ${timeoutMs} ms`);
    this.name = 'HopTimeoutError';
  }
}

/**
 * GETs `path` (with its query string) from `host`, marked {@link FORWARDED_HEADER}.
 * Rejects when the host cannot be reached, and with a {@link HopTimeoutError} when its whole
 * answer has not arrived within `peer.timeoutMs` (an owner that trickles bytes is cut off too).
 */
export function hop(host: HostInfo, path: string, peer: PeerOptions): Promise<HopAnswer> {
  return new Promise((resolve, reject) => {
    const hostname = host.host.startsWith('[') ? host.host.slice(1, -1) : host.host;
    const headers: Record<string, string> = { [FORWARDED_HEADER]: '1', accept: 'application/json' };
    if (peer.token !== undefined) headers.authorization = bearer(peer.token);
    const options = { hostname, port: host.port, path, method: 'GET', headers, timeout: peer.timeoutMs, ...(peer.tls && peer.ca !== undefined ? { ca: peer.ca } : {}) };
    const req = (peer.tls ? httpsRequest : request)(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        clearTimeout(deadline);
        const header = (name: string): string | undefined => {
          const value = res.headers[name];
          return Array.isArray(value) ? value[0] : value;
        };
        resolve({ status: res.statusCode ?? 502, body: Buffer.concat(chunks).toString('utf8'), retryAfter: header('retry-after'), location: header('location') });
      });
    });
    // the total deadline, besides the idle timeout
    const deadline = setTimeout(() => req.destroy(new HopTimeoutError(peer.timeoutMs)), peer.timeoutMs);
    deadline.unref();
    req.on('timeout', () => req.destroy(new HopTimeoutError(peer.timeoutMs)));
    req.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    req.end();
  });
}
