/**
 * What sluice's three HTTP servers (query API, live UI, Prometheus metrics)
 * share to keep strangers out: TLS (a certificate and key), a bearer token
 * checked in constant time, and a `listen` that names what to change when the
 * port is taken.
 *
 * A request without the token gets `401` and nothing else: no store, no state,
 * no hint of what the server holds. The token is accepted as
 * `Authorization: Bearer <token>` or as the password of HTTP Basic
 * authentication (any user name), which a browser asks for by itself and then
 * sends with the page's scripts and event stream. The token never reaches a
 * log or an error message.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';

/** TLS of a server: PEM certificate (chain) and private key; `ca` also verifies the other instances a query server calls. */
export interface ServerTls {
  cert: string | Buffer;
  key: string | Buffer;
  /** PEM CA certificate(s) to trust when calling another instance (self-signed deployments). */
  ca?: string | Buffer;
}

/** The protection of one server. */
export interface HttpSecurityOptions {
  /** Serve HTTPS with this certificate and key instead of plain HTTP. */
  tls?: ServerTls;
  /** Require `Authorization: Bearer <token>` (or Basic with the token as password) on every request. */
  token?: string;
}

/** What is wrong with the security options of `what` (e.g. `serveQueries()`), or undefined. Never quotes the token. */
export function securityProblem(options: HttpSecurityOptions, what: string): string | undefined {
  const { tls, token } = options;
  if (token !== undefined && (typeof token !== 'string' || token.length === 0 || !/^[\x21-\x7e]+$/.test(token))) {
    return `${what}: option token must be a non-empty string of visible ASCII characters (no spaces), as sent in 'Authorization: Bearer <token>'`;
  }
  if (tls !== undefined) {
    const pem = (v: unknown): boolean => (typeof v === 'string' && v.length > 0) || Buffer.isBuffer(v);
    if (typeof tls !== 'object' || tls === null || !pem(tls.cert) || !pem(tls.key)) {
      return `${what}: option tls needs cert and key (PEM text or Buffers), e.g. { cert: readFileSync('server.crt'), key: readFileSync('server.key') }`;
    }
    if (tls.ca !== undefined && !pem(tls.ca)) return `${what}: option tls.ca must be PEM text or a Buffer`;
  }
  return undefined;
}

/** An HTTP server, or an HTTPS one when `tls` is given. */
export function createGuardedServer(security: HttpSecurityOptions, listener: RequestListener): Server {
  if (!security.tls) return createHttpServer(listener);
  // node's types: https.Server is not declared a subtype of http.Server, though it extends it (tls.Server underneath)
  return createHttpsServer({ cert: security.tls.cert, key: security.tls.key }, listener) as unknown as Server;
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Whether `req` carries `token` (always true without one), compared in constant time. */
export function authorized(req: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return true;
  const header = req.headers.authorization;
  if (typeof header !== 'string') return false;
  const space = header.indexOf(' ');
  const scheme = header.slice(0, space).toLowerCase();
  let given = header.slice(space + 1).trim();
  if (scheme === 'basic') {
    const decoded = Buffer.from(given, 'base64').toString('utf8');
    given = decoded.slice(decoded.indexOf(':') + 1);
  } else if (scheme !== 'bearer') {
    return false;
  }
  return timingSafeEqual(digest(given), digest(token));
}

/** Answers 401 (with the challenge a browser or client understands) and nothing more. */
export function refuseUnauthorized(res: ServerResponse, realm: string): void {
  res.writeHead(401, { 'www-authenticate': `Basic realm="${realm}", charset="UTF-8"`, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end('unauthorized\n');
}

/** The `Authorization` header that carries `token` to another instance. */
export function bearer(token: string): string {
  return `Bearer ${token}`;
}

/**
 * Listens on `host:port`; a port that is taken or not allowed rejects with an
 * error naming `what` (e.g. `serveQueries()`), the port and the address, `code` kept.
 */
export function listen(server: Server, port: number, host: string, what: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
      const why =
        error.code === 'EADDRINUSE'
          ? `port ${port} is already in use on ${host} (another process, or another server, listens there); choose another port`
          : error.code === 'EACCES'
            ? `port ${port} on ${host} needs privileges this process lacks; choose a port above 1023`
            : error.code === 'EADDRNOTAVAIL'
              ? `${host} is not an address of this machine; choose another interface`
              : `cannot listen on ${address} (${error.message})`;
      const wrapped = new Error(`${what}: ${why}`, { cause: error }) as NodeJS.ErrnoException;
      if (error.code !== undefined) wrapped.code = error.code;
      reject(wrapped);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}
